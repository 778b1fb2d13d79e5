"""What the in-process pass tests share: the program scaffold around a test's functions, the candidates a
pass builds, and a predicate."""

from __future__ import annotations

import types

from fuzz.reduce import PASSES
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
