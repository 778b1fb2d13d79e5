"""In-process self-checks of the generator: run a generated program eagerly and tell deliberate raises from
accidents. Used by the tests and ``benchmarks/generate.py``; campaigns use the oracle's isolated workers instead.
"""

from __future__ import annotations

import contextlib
import io
import types

__all__ = ["EagerRun", "run_eager", "is_deliberate"]

DELIBERATE = "ngb deliberate"


class EagerRun(tuple):
    """``(results, module)``: ``results`` is one ``("returned", value)`` / ``("raised", type, msg)`` per call."""

    @property
    def results(self):
        return self[0]

    @property
    def module(self):
        return self[1]

    def accident(self) -> str | None:
        for result in self.results:
            if result[0] == "raised" and not is_deliberate(result[2]):
                return f"{result[1]}: {result[2]}"
        return None


def is_deliberate(message: str) -> bool:
    return DELIBERATE in message


def run_eager(source: str, calls: int = 2) -> EagerRun:
    """Exec ``source`` into a fresh module and call ``entry(*make_inputs("cpu"))`` ``calls`` times."""
    import torch

    module = types.ModuleType("ngb_program")
    results = []
    try:
        exec(compile(source, "<ngb program>", "exec", dont_inherit=True), module.__dict__)
    except Exception as exc:  # noqa: BLE001 - a load failure is an accident like any other
        return EagerRun(([("raised", type(exc).__name__, f"at load: {exc}")], module))
    grad = torch.is_grad_enabled()
    for _ in range(calls):
        try:
            with contextlib.redirect_stdout(io.StringIO()):
                results.append(("returned", module.entry(*module.make_inputs("cpu"))))
        except Exception as exc:  # noqa: BLE001
            results.append(("raised", type(exc).__name__, str(exc).split("\n")[0]))
        finally:
            torch.set_grad_enabled(grad)
    return EagerRun((results, module))
