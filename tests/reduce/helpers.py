"""What the in-process pass tests share: the program scaffold around a test's functions, and the candidates a
pass builds."""

from __future__ import annotations

from fuzz.reduce import PASSES
from fuzz.reduce._tree import Program

HEAD = "EFFECTS = []\n\n\n"
TAIL = "\n\ndef make_inputs(device):\n    return (2,)\n"


def pass_candidates(name: str, source: str) -> list[str]:
    """Every candidate the pass ``name`` builds from ``source`` (valid or not), as source."""
    (chosen,) = [p for p in PASSES if p.name == name]
    return [c.source for c in (edit() for edit in chosen.edits(Program.parse(source))) if c is not None]
