"""What the in-process pass tests share: the program scaffold around a test's functions, the candidates a
pass builds, one pass run alone, a deep call chain, and predicates."""

from __future__ import annotations

import types
from collections.abc import Callable

from fuzz.reduce import PASSES, ReduceResult, reduce_source
from fuzz.reduce._tree import Program

HEAD = "EFFECTS = []\n\n\n"
TAIL = "\n\ndef make_inputs(device):\n    return (2,)\n"


def pass_candidates(name: str, source: str) -> list[str]:
    """Every candidate the pass ``name`` builds from ``source`` (valid or not), as source."""
    (chosen,) = [p for p in PASSES if p.name == name]
    return [c.source for c in (edit() for edit in chosen.edits(Program.parse(source))) if c is not None]


def raises_zero_division(source: str) -> bool:
    """Interesting: calling entry(*make_inputs()) raises ZeroDivisionError (``__file__`` is this file's, for a
    program that opens it)."""
    module = types.ModuleType("candidate")
    module.__file__ = __file__
    try:
        exec(compile(source, "candidate", "exec"), module.__dict__)
        module.entry(*module.make_inputs("cpu"))
    except ZeroDivisionError:
        return True
    except Exception:
        return False
    return False


def run_entry(source: str) -> object:
    """What ``entry(*make_inputs("cpu"))`` of ``source`` returns, or the exception loading or calling it raised."""
    module = types.ModuleType("candidate")
    try:
        exec(compile(source, "candidate", "exec"), module.__dict__)
        return module.entry(*module.make_inputs("cpu"))
    except Exception as exc:  # noqa: BLE001 - the outcome is what the predicate looks at
        return exc


def raises(kind: type[BaseException]) -> Callable[[str], bool]:
    """Interesting: ``run_entry`` gives an exception of ``kind``."""
    return lambda source: isinstance(run_entry(source), kind)


def one_pass(name: str, source: str, predicate: Callable[[str], bool]) -> ReduceResult:
    """``source`` reduced by the pass ``name`` alone."""
    chosen = [p for p in PASSES if p.name == name]
    assert chosen, name
    return reduce_source(source, predicate, passes=chosen)


def deep_chain(depth: int, needed: int) -> str:
    """entry -> f1 -> ... -> f<depth>; f<needed> divides by ``x - 2`` (x is 2): the bug needs every definition
    down to f<needed> and none below it."""
    defs = [f"def f{k}(x):\n    return f{k + 1}(x){' / (x - 2)' if k == needed else ''}\n" for k in range(1, depth)]
    defs.append(f"def f{depth}(x):\n    return x + 1\n")
    return HEAD + "\n\n".join(defs) + "\n\ndef entry(x):\n    return f1(x)\n" + TAIL
