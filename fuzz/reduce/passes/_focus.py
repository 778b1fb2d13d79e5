"""The first cut of a large program: keep only what the failure's own frames need, in one check.

Most of a large generated program (a chain ``entry -> f1 -> f2 -> ...`` of 60 definitions or more) has nothing to
do with its failure, and each check of it compiles it whole (20 to 30 seconds for 900 lines on a loaded 2-core
machine). A crash of Dynamo's names where it was: its message lists the program's frames ("from user code:",
``File "ngb_program.py", line N, in f40``, and resume functions ``torch_dynamo_resume_in_f40_at_N``).
``failure_names`` reads those names; the ``focus`` pass made from them tries, before any other pass, the program
cut right below them: every definition deeper than the deepest one named goes (bypassed: a call becomes its
argument), first with the definitions off the path from ``entry`` to them too, then keeping the named ones'
callees, then without. A candidate that loses the bug costs one check of a program smaller than the original;
``cut-call-graph``'s bisection over the depths takes over from there. A message naming no frame (a backend's
compiler error) gives no names, and no pass; nor does a mismatch: the writer of the first differing effect-log
entry was tried as a name, and on a 937-line effects finding the three cuts below it all lost the bug (50 s of
checks for nothing), as they must when the entry is written after a deeper call that changed the state.
"""

from __future__ import annotations

import re
from collections.abc import Iterator

from fuzz.reduce._tree import Program
from fuzz.reduce.passes._definitions import _definitions, _referenced, bypass, definition_depths
from fuzz.reduce.passes._edits import Edit, ReductionPass
from oracle._subjects import resumed_function

__all__ = ["failure_names", "focus"]

# the program's own frames in a Dynamo message; the oracle's worker compiles the program as ngb_program.py
_FRAME = re.compile(r'File "ngb_program\.py", line \d+, in (\w+)')


def failure_names(detail: str) -> frozenset[str]:
    """The program's functions a failure's message names as its frames (none for a message without them)."""
    names = set()
    for name in _FRAME.findall(detail):
        names.add(resumed_function(name) or name)  # Dynamo's resume function of one of the program's
    return frozenset(names)


def _ancestors(prog: Program, names: set[str]) -> set[str]:
    """The definitions from which one of ``names`` is reached (``names`` included)."""
    defs = _definitions(prog.tree)
    reads = {n: _referenced(s) & defs.keys() for n, s in defs.items()}
    found = set(names)
    changed = True
    while changed:
        changed = False
        for name, read in reads.items():
            if name not in found and read & found:
                found.add(name)
                changed = True
    return found


def focus(names: frozenset[str]) -> ReductionPass:
    """The pass that cuts the program below the definitions ``names`` (``failure_names``): in order, everything
    but the path from ``entry`` to them; everything deeper than their callees; everything deeper than them."""

    def edits(prog: Program) -> Iterator[Edit]:
        depths = definition_depths(prog.tree)
        named = set(names) & depths.keys()
        if not named:
            return
        deepest = max(depths[n] for n in named)
        path = _ancestors(prog, named)
        yield lambda: bypass(prog, {n for n in depths if n not in path})
        yield lambda: bypass(prog, {n for n, d in depths.items() if d > deepest + 1})
        yield lambda: bypass(prog, {n for n, d in depths.items() if d > deepest})

    return ReductionPass("focus", edits, "Cut the program below the functions the failure's frames name.")
