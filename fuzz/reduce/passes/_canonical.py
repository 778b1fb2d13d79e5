"""Canonical forms: one way to write what several reductions of one bug wrote differently.

Reductions of one bug found through different programs end at different small programs: ``x = [f1(cm)]`` in one,
``y = f1()`` in another, ``step_unsupported()`` where a third has ``graph_break()``. Root causes are grouped by the
shape of the reduced program (``fuzz.rootcause``), so these differences split one bug into several root causes,
and each is a line or a construct a reader would not write in a bug report. Each edit here rewrites one such spot
into the plain form, which the later passes (inline-calls above all) can then take further:

- ``torch._dynamo.step_unsupported()`` becomes ``torch._dynamo.graph_break()``, the break everyone knows;
- ``name = value`` inside a function, where nothing reads ``name``, becomes the statement ``value``;
- a statement that is only a display (``[f(x), g(y)]``, ``(f(x),)``) becomes one statement per item.

Whether the bug survives is the predicate's call, as for any other edit: a bug that needs a step break keeps it.
"""

from __future__ import annotations

import ast
from collections.abc import Iterator

from fuzz.reduce._tree import Program, iter_nodes
from fuzz.reduce.passes._edits import Edit, _edit_at, _indexed, _list_of, _stmt_sites, reduction_pass

__all__ = ["canonical_forms"]


def _is_step_break(node: ast.AST) -> bool:
    """``torch._dynamo.step_unsupported()`` (the marker, called with no arguments)."""
    func = getattr(node, "func", None)
    return (isinstance(node, ast.Call) and not node.args and not node.keywords and isinstance(func, ast.Attribute)
            and func.attr == "step_unsupported" and isinstance(func.value, ast.Attribute)
            and func.value.attr == "_dynamo" and isinstance(func.value.value, ast.Name)
            and func.value.value.id == "torch")


def _to_graph_break(tree: ast.Module, call: ast.Call) -> None:
    call.func.attr = "graph_break"


def _functions(tree: ast.Module) -> list[ast.FunctionDef | ast.AsyncFunctionDef]:
    return [n for n in iter_nodes(tree) if isinstance(n, ast.FunctionDef | ast.AsyncFunctionDef)]


def _dead_stores(prog: Program) -> list[tuple[int, str, int]]:
    """(owner, field, position) of ``name = value`` statements in a function's body (at any depth) whose name
    nothing in that function reads (nested functions included) and no function declares ``global`` or
    ``nonlocal``."""
    declared = {name for n in iter_nodes(prog.tree) if isinstance(n, ast.Global | ast.Nonlocal) for name in n.names}
    reads_in: dict[int, set[str]] = {}  # id(statement) -> names read in its innermost enclosing function
    for fn in _functions(prog.tree):  # outer functions first: an inner one overwrites for its own statements
        reads = {n.id for n in ast.walk(fn) if isinstance(n, ast.Name) and not isinstance(n.ctx, ast.Store)}
        for stmt in fn.body:
            for node in ast.walk(stmt):
                reads_in[id(node)] = reads
    found = []
    for owner, field, body in _stmt_sites(prog):
        for pos, stmt in enumerate(body):
            reads = reads_in.get(id(stmt))
            if (reads is not None and isinstance(stmt, ast.Assign) and len(stmt.targets) == 1
                    and isinstance(stmt.targets[0], ast.Name) and stmt.targets[0].id not in reads | declared):
                found.append((owner, field, pos))
    return found


def _displays(prog: Program) -> list[tuple[int, str, int]]:
    """(owner, field, position) of expression statements that are a list, tuple or set display."""
    return [(owner, field, pos) for owner, field, body in _stmt_sites(prog) for pos, stmt in enumerate(body)
            if isinstance(stmt, ast.Expr) and isinstance(stmt.value, ast.List | ast.Tuple | ast.Set)
            and not any(isinstance(e, ast.Starred) for e in stmt.value.elts)]


def _rewrite(prog: Program, owner: int, field: str, pos: int) -> Edit:
    def build() -> Program | None:
        new = prog.copy()
        body = _list_of(new.tree, owner, field)
        stmt = body[pos]
        if isinstance(stmt, ast.Assign):
            replacement: list[ast.stmt] = [ast.Expr(stmt.value)]
        else:
            replacement = [ast.Expr(e) for e in stmt.value.elts if not isinstance(e, ast.Constant | ast.Name)]
        body[pos : pos + 1] = replacement or [ast.Pass()]
        return new

    return build


@reduction_pass("canonical-forms")
def canonical_forms(prog: Program) -> Iterator[Edit]:
    """Rewrite a spot into its plain form: a step break as ``graph_break()``, a store nothing reads as its value,
    a display statement as one statement per item."""
    steps = [i for i, node in _indexed(prog.tree) if _is_step_break(node)]
    if len(steps) > 1:
        def every_step() -> Program:
            new = prog.copy()
            for node in iter_nodes(new.tree):
                if _is_step_break(node):
                    node.func.attr = "graph_break"
            return new

        yield every_step
    for i in steps:
        yield _edit_at(prog, i, _to_graph_break)
    for site in _dead_stores(prog) + _displays(prog):
        yield _rewrite(prog, *site)
