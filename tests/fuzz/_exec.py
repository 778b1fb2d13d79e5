"""Run a generated program in this process: eager (twice) and under torch.compile; return comparable outcomes."""

from __future__ import annotations

import contextlib
import io
import sys
import types

import torch
import torch._dynamo


def canon(value):
    if isinstance(value, torch.Tensor):
        return ("tensor", str(value.dtype), tuple(value.shape), value.requires_grad, value.detach().cpu().tolist())
    if isinstance(value, list | tuple):
        return (type(value).__name__, [canon(v) for v in value])
    if isinstance(value, dict):
        return ("dict", [(k, canon(v)) for k, v in value.items()])
    if isinstance(value, int | float | str | bool | type(None)):
        return value
    return type(value).__name__


def load(source: str, register: bool = False) -> types.ModuleType:
    """Exec ``source`` into a fresh module. ``register`` puts it and its ``ngb_*`` helpers into ``sys.modules``
    (torch 2.13's Dynamo cannot inline functions of modules it cannot import; see the generator notes)."""
    mod = types.ModuleType("ngb_program")
    if register:
        sys.modules["ngb_program"] = mod
    # dont_inherit: this module's own "from __future__ import annotations" must not reach the program
    exec(compile(source, "<ngb program>", "exec", dont_inherit=True), mod.__dict__)
    if register:
        for value in list(vars(mod).values()):
            if isinstance(value, types.ModuleType) and value.__name__.startswith("ngb_"):
                sys.modules[value.__name__] = value
    return mod


def run(source: str, compiled: bool = False, calls: int = 2, compiler=None) -> list[dict]:
    """Outcomes of ``calls`` calls: eager, ``torch.compile(backend="eager")`` with NGB, or ``compiler(entry)``."""
    before = set(sys.modules)
    try:
        return _run(source, compiled, calls, compiler)
    finally:
        for name in set(sys.modules) - before:
            if name.startswith("ngb_"):
                del sys.modules[name]


def _run(source: str, compiled: bool, calls: int, compiler) -> list[dict]:
    mod = load(source, register=compiled or compiler is not None)
    fn = mod.entry
    if compiled:
        torch._dynamo.reset()
        torch._dynamo.config.nested_graph_breaks = True
        fn = torch.compile(mod.entry, backend="eager")
    elif compiler is not None:
        fn = compiler(mod.entry)
    out = []
    for _ in range(calls):
        first = len(mod.EFFECTS)
        inputs = mod.make_inputs("cpu")
        try:
            with contextlib.redirect_stdout(io.StringIO()):
                result = ("returned", canon(fn(*inputs)))
        except Exception as exc:  # noqa: BLE001 - an outcome, compared by the caller
            result = ("raised", type(exc).__name__, str(exc).split("\n")[0])
        grad = torch.is_grad_enabled()
        torch.set_grad_enabled(True)  # a compiler that leaks grad mode must not poison the next run
        data = {
            k: canon(v)
            for k, v in vars(mod).items()
            if not k.startswith("_") and isinstance(v, int | float | list | dict | torch.Tensor)
        }
        out.append(
            {
                "result": result,
                "effects": canon(mod.EFFECTS[first:]),
                "inputs": canon(inputs),
                "globals": data,
                "grad": grad,
            }
        )
    return out
