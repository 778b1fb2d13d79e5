"""drop-inputs: a program whose ``entry`` takes no arguments loses its ``make_inputs``.

The program format lets such a program define no ``make_inputs`` (the oracle then calls ``entry()``), and its
standalone check calls ``entry()`` too: two lines of a repro that a bug report would not have. drop-arguments
takes ``entry``'s last parameter with its input, which leaves ``make_inputs`` returning ``()``; this pass then
offers the program without it. ``make_inputs`` may do work the bug needs (seed a generator, set global state):
whether the bug survives is the predicate's call, as for any edit.
"""

from __future__ import annotations

import ast
from collections.abc import Iterator

from fuzz.reduce._tree import Program, iter_nodes, takes_arguments
from fuzz.reduce.passes._edits import Edit, reduction_pass

__all__ = ["drop_inputs"]


def _read_elsewhere(tree: ast.Module, name: str, definition: ast.stmt) -> bool:
    inside = {id(n) for n in ast.walk(definition)}
    return any(isinstance(n, ast.Name) and n.id == name and id(n) not in inside for n in iter_nodes(tree))


@reduction_pass("drop-inputs")
def drop_inputs(prog: Program) -> Iterator[Edit]:
    """``make_inputs`` removed when ``entry`` takes no arguments (the program then has no inputs)."""
    top = {s.name: s for s in prog.tree.body if isinstance(s, ast.FunctionDef)}
    entry, maker = top.get("entry"), top.get("make_inputs")
    if entry is None or maker is None or takes_arguments(entry.args):
        return
    if _read_elsewhere(prog.tree, "make_inputs", maker):
        return
    at = prog.tree.body.index(maker)

    def build() -> Program | None:
        new = prog.copy()
        del new.tree.body[at]
        return new

    yield build
