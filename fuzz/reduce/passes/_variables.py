"""merge-variables: a variable the bug does not need as its own reads another one, and its store goes.

A reduced program often keeps a temporary only because something reads it: ``z = next(y)`` ... ``x = z + e``
keeps ``z`` although ``x + e`` would fail the same way. One candidate per pair (``v``, ``u``) of names bound in
the same function: every read of ``v`` reads ``u`` instead, and ``v``'s one store goes (its value stays as a
statement when it can do something, so ``z = next(y)`` becomes ``next(y)``). Only a ``v`` stored exactly once,
by a plain ``v = value``, never declared ``global``/``nonlocal`` and never read from a nested function, class or
lambda (whose reads would go on finding ``v``). Whether ``u`` holds a value there, and whether the bug survives,
is the predicate's call (eager's outcome must not change).
"""

from __future__ import annotations

import ast
from collections.abc import Iterator

from fuzz.reduce._tree import Program, scope_nodes
from fuzz.reduce.passes._canonical import _functions
from fuzz.reduce.passes._edits import Edit, _fill, _indexed, _nth, reduction_pass

__all__ = ["merge_variables"]

_SCOPES = (ast.FunctionDef, ast.AsyncFunctionDef, ast.Lambda, ast.ClassDef)
_PLAIN = (ast.Name, ast.Constant)


def _own_nodes(fn: ast.AST) -> tuple[list[ast.AST], set[str]]:
    """The nodes of ``fn``'s own scope (``scope_nodes``), and the names that nested scopes mention at all."""
    own = scope_nodes(fn)
    nested = {n.id for node in own if isinstance(node, _SCOPES) for n in ast.walk(node) if isinstance(n, ast.Name)}
    return own, nested


def _candidates(fn: ast.FunctionDef | ast.AsyncFunctionDef) -> list[tuple[str, str]]:
    """(v, u) pairs of fn: v can take u's place in every read, its store going."""
    own, nested = _own_nodes(fn)
    a = fn.args
    params = [p.arg for p in a.posonlyargs + a.args + a.kwonlyargs + [a.vararg, a.kwarg] if p is not None]
    declared = {name for n in own if isinstance(n, ast.Global | ast.Nonlocal) for name in n.names}
    bound = list(dict.fromkeys(params + [n.id for n in own if isinstance(n, ast.Name)
                                         and isinstance(n.ctx, ast.Store)]))
    bound = [name for name in bound if name not in declared]
    pairs = []
    for v in bound:
        if v in params or v in nested:
            continue
        stores = [n for n in own if isinstance(n, ast.Name) and n.id == v and not isinstance(n.ctx, ast.Load)]
        reads = [n for n in own if isinstance(n, ast.Name) and n.id == v and isinstance(n.ctx, ast.Load)]
        single = [n for n in own if isinstance(n, ast.Assign) and len(n.targets) == 1 and n.targets[0] in stores]
        if len(stores) != 1 or len(single) != 1 or not reads:
            continue
        pairs.extend((v, u) for u in bound if u != v)
    return pairs


def _merge(prog: Program, fn_index: int, v: str, u: str) -> Program | None:
    new = prog.copy()
    fn = _nth(new.tree, fn_index)
    own, _ = _own_nodes(fn)
    for node in own:
        if isinstance(node, ast.Name) and node.id == v and isinstance(node.ctx, ast.Load):
            node.id = u
    for node in [fn, *own]:
        for field in ("body", "orelse", "finalbody", "handlers"):
            body = getattr(node, field, None)
            if not isinstance(body, list):
                continue
            for pos, stmt in enumerate(body):
                if (isinstance(stmt, ast.Assign) and len(stmt.targets) == 1 and isinstance(stmt.targets[0], ast.Name)
                        and stmt.targets[0].id == v):
                    if isinstance(stmt.value, _PLAIN):
                        del body[pos]
                        _fill(body)
                    else:
                        body[pos] = ast.Expr(stmt.value)
                    return new
    return None


@reduction_pass("merge-variables", polish=True)
def merge_variables(prog: Program) -> Iterator[Edit]:
    """Read another variable of the same function in place of one stored once, and drop that store."""
    index = {id(node): i for i, node in _indexed(prog.tree)}
    for fn in _functions(prog.tree):
        at = index[id(fn)]
        for v, u in _candidates(fn):
            yield lambda at=at, v=v, u=u: _merge(prog, at, v, u)
