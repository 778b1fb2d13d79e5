"""What every source pass is built from: the pass record, and edits that locate their target by index.

A pass looks at the current best program and lazily yields *edits*: thunks that build one candidate program
(or ``None`` when the edit does not apply). Edits locate their target in a fresh copy by its index in
``iter_nodes`` order, so nothing is built until the driver asks for it.
"""

from __future__ import annotations

import ast
from collections.abc import Callable, Iterator
from dataclasses import dataclass

from fuzz.reduce._tree import Program, iter_nodes, stmt_lists

Edit = Callable[[], "Program | None"]


@dataclass(frozen=True, slots=True)
class ReductionPass:
    """A named source of candidate edits; the driver counts its attempts and successes under ``name``."""

    name: str
    edits: Callable[[object], Iterator[Callable[[], object]]]  # program (source or IR) -> edit thunks
    doc: str
    tidy: bool = False  # also run after every other pass that kept an edit (a clean-up its edits make possible)
    # rewrites rather than removes (names, expressions, tensor sizes): the driver runs it in a round only once the
    # round's other passes stopped taking much off (``fuzz.reduce._driver.POLISH_WHILE``)
    polish: bool = False


def reduction_pass(name: str, *, tidy: bool = False,
                   polish: bool = False) -> Callable[[Callable[[Program], Iterator[Edit]]], ReductionPass]:
    """Make a function yielding edits into a named pass (its docstring's first line is the pass's doc).
    Registering nothing: the order of passes is the one list in ``fuzz.reduce.passes``. ``tidy``: the driver
    also runs the pass right after any other pass that kept an edit, not only at its place in the order.
    ``polish``: a pass that rewrites rather than removes, left out of rounds that still take much off."""

    def make(fn: Callable[[Program], Iterator[Edit]]) -> ReductionPass:
        return ReductionPass(name, fn, ((fn.__doc__ or "").strip().splitlines() or [""])[0], tidy, polish)

    return make


def _edit_at(prog: Program, index: int, change: Callable[[ast.Module, ast.AST], bool | None]) -> Edit:
    """An edit that applies ``change(tree, node)`` to the ``index``-th node of a copy; False means no-op."""

    def build() -> Program | None:
        new = prog.copy()
        node = _nth(new.tree, index)
        if change(new.tree, node) is False:
            return None
        return new

    return build


def _nth(tree: ast.AST, index: int) -> ast.AST:
    for i, node in enumerate(iter_nodes(tree)):
        if i == index:
            return node
    raise IndexError(index)


def _indexed(tree: ast.AST) -> list[tuple[int, ast.AST]]:
    return list(enumerate(iter_nodes(tree)))


def _list_of(tree: ast.AST, owner_index: int, field: str) -> list[ast.stmt]:
    return getattr(_nth(tree, owner_index), field)


def _stmt_sites(prog: Program) -> list[tuple[int, str, list[ast.stmt]]]:
    index = {id(node): i for i, node in _indexed(prog.tree)}
    return [(index[id(owner)], field, getattr(owner, field)) for owner, field in stmt_lists(prog.tree)]


def _fill(body: list[ast.stmt]) -> None:
    if not body:
        body.append(ast.Pass())
