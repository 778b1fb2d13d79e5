"""Which engine conformance scenarios need each registered model (`engine/_vm/_iface.py` MODELS).

For each model function (its keys grouped), the model is removed from the registry and every scenario that
called it in a baseline run is run again in-process (the same runner as the tests, tests/engine/conformance.py:
eager and the engine, two calls each). A scenario "changes" when its result differs from eager's, or when the
engine's graphs, breaks, whole-function eager calls or restarts differ from the baseline. A model no scenario
calls, or whose removal changes nothing, is listed as uncovered: it has no test that fails without it.

Scenarios a model was never called in are not re-run: a model that is not called cannot change them (its
key's presence alone decides nothing in the VM). Run from the repository root:

    python benchmarks/model_necessity.py [-f FAMILY[,FAMILY...]] [-k SUBSTRING]
"""

from __future__ import annotations

import argparse
import contextlib
import importlib
import io
import os
import resource
import signal
import sys
import time
from collections.abc import Callable
from dataclasses import dataclass

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))

import engine  # noqa: E402
from engine._vm import _handlers  # noqa: E402,F401  (binds every VM operation, registers every model)
from engine._vm._iface import MODELS  # noqa: E402
from tests.engine.conformance import Scenario, difference, run_pair  # noqa: E402

# the families whose scenarios exercise models (everyday Python, and the models' own scenarios)
FAMILIES = ["py_stdlib", "py_builtins", "py_classes", "py_training", "models_gaps", "models_cover", "iters",
            "data"]


def scenarios(families: list[str]) -> list[tuple[str, Scenario]]:
    out = []
    for fam in families:
        try:
            mod = importlib.import_module(f"tests.engine.test_conformance_{fam}")
        except ModuleNotFoundError:
            mod = importlib.import_module(f"tests.engine.test_{fam}")
        out += [(fam, sc) for sc in mod.SCENARIOS]
    return out


@dataclass(frozen=True)
class Outcome:
    ok: bool
    graphs: int
    breaks: int
    eager: int
    restarts: int
    why: str

    def change_from(self, base: Outcome) -> str | None:
        if not self.ok and base.ok:
            return f"value ({self.why[:60]})"
        parts = [f"{what} {getattr(base, what)}->{getattr(self, what)}"
                 for what in ("graphs", "breaks", "eager", "restarts") if getattr(self, what) != getattr(base, what)]
        return ", ".join(parts) or None


TIMEOUT_S = 10  # per scenario: without a model a trace may run away (a model's own Python form traced into itself)


class _Timeout(BaseException):
    """Not an Exception: the VM takes an Exception inside a handler for a gap and goes on."""


def _alarm(signum: int, frame: object) -> None:
    raise _Timeout(f"scenario ran over {TIMEOUT_S}s")


def run(sc: Scenario) -> Outcome:
    c = engine.compile(sc.fn)
    why = ""
    signal.signal(signal.SIGALRM, _alarm)
    signal.alarm(TIMEOUT_S)
    try:
        with contextlib.redirect_stdout(io.StringIO()):
            pairs = run_pair(sc, c)
        for k, (ref, got) in enumerate(pairs):
            diff = difference(ref, got)
            if diff is not None:
                why = f"call {k + 1}: {diff}"
                break
    except (Exception, _Timeout) as e:  # the harness itself failed, or ran over
        why = f"harness: {type(e).__name__}: {e}"
    finally:
        signal.alarm(0)
    rec = c.record
    return Outcome(not why, rec.graphs, rec.breaks, rec.eager_calls, rec.restarts, why)


def _label(keys: list) -> str:
    def one(k: object) -> str:
        if isinstance(k, tuple):
            return f"{getattr(k[0], '__name__', k[0])}.{k[1]}"
        owner = getattr(k, "__objclass__", None) or getattr(k, "__self__", None)
        name = getattr(k, "__qualname__", None) or getattr(k, "__name__", None) or repr(k)
        mod = getattr(k, "__module__", None)
        if isinstance(owner, type) and "." not in name:
            name = f"{owner.__name__}.{name}"
        return f"{mod}.{name}" if mod and mod not in ("builtins", "_operator") and "." not in name else name
    return ", ".join(sorted(one(k) for k in keys))


def by_function() -> dict[Callable, list]:
    groups: dict[Callable, list] = {}
    for k, fn in MODELS.items():
        groups.setdefault(fn, []).append(k)
    return groups


def baseline(scs: list[tuple[str, Scenario]], groups: dict[Callable, list]) -> tuple[dict, dict]:
    """Each scenario's outcome with every model, and the scenarios each model was called in."""
    called: dict[Callable, set[str]] = {fn: set() for fn in groups}
    current: list[str] = [""]

    def counting(fn: Callable) -> Callable:
        def wrapper(*args, **kwargs):
            called[fn].add(current[0])
            return fn(*args, **kwargs)
        return wrapper

    saved = dict(MODELS)
    for fn, keys in groups.items():
        w = counting(fn)
        for k in keys:
            MODELS[k] = w
    out = {}
    try:
        for fam, sc in scs:
            current[0] = f"{fam}/{sc.name}"
            out[current[0]] = run(sc)
    finally:
        MODELS.clear()
        MODELS.update(saved)
    return out, called


def main(argv: list[str]) -> int:
    ap = argparse.ArgumentParser()
    ap.add_argument("-f", "--families", default=",".join(FAMILIES))
    ap.add_argument("-k", default="", help="only models whose label contains this")
    ap.add_argument("--start", default="", help="only models whose label sorts at or after this")
    a = ap.parse_args(argv)
    soft, hard = resource.getrlimit(resource.RLIMIT_AS)  # a runaway trace fails alone, not the machine
    resource.setrlimit(resource.RLIMIT_AS, (min(8 << 30, hard if hard > 0 else 8 << 30), hard))
    scs = scenarios(a.families.split(","))
    by_name = {f"{fam}/{sc.name}": sc for fam, sc in scs}
    groups = by_function()
    t0 = time.perf_counter()
    base, called = baseline(scs, groups)
    print(f"{len(scs)} scenarios, {len(groups)} model functions ({len(MODELS)} keys); baseline "
          f"{time.perf_counter() - t0:.0f}s; baseline failures: "
          f"{[n for n, o in base.items() if not o.ok] or 'none'}")
    uncovered = []
    for fn, keys in sorted(groups.items(), key=lambda kv: _label(kv[1])):
        label = _label(keys)
        if a.k not in label or label < a.start:
            continue
        changed = []
        for k in keys:
            del MODELS[k]
        try:
            for name in sorted(called[fn]):
                ch = run(by_name[name]).change_from(base[name])
                if ch is not None:
                    changed.append(f"{name} ({ch})")
        finally:
            for k in keys:
                MODELS[k] = fn
        if not changed:
            uncovered.append(label)
        print(f"{label}  [{fn.__module__.rsplit('.', 1)[-1]}, called in {len(called[fn])}]: "
              f"{'; '.join(changed) if changed else 'NO SCENARIO CHANGES'}", flush=True)
    print(f"\n{len(uncovered)} model(s) with no scenario that changes without them:")
    for label in uncovered:
        print(f"  {label}")
    print(f"total {time.perf_counter() - t0:.0f}s")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
