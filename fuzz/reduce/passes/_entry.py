"""merge-entry: ``entry`` that only calls one function with its own parameters becomes that function.

A reduction often ends with ``def entry(x): f3(x)`` above a decorated ``f3`` (inline-calls leaves a decorated
function alone: its decorator runs around its body). A hand-written report calls the function itself, so the
candidate drops ``entry`` and renames ``f3`` to ``entry``, decorators and all. It removes a frame, which is the
predicate's call, as for any edit. Applies when ``entry``'s one statement is ``g(x, y)``, ``return g(x, y)`` or
``x = g(x, y)`` (the value thrown away), the arguments being exactly ``entry``'s parameters in order (or
``*inputs`` passed on as ``*inputs``), and ``g`` is a module-level function of the main module taking as many
plain parameters.
"""

from __future__ import annotations

import ast
from collections.abc import Iterator

from fuzz.reduce._tree import REQUIRED_NAMES, Program, simple_signature
from fuzz.reduce.passes._edits import Edit, reduction_pass

__all__ = ["merge_entry"]


def _entry(tree: ast.Module) -> ast.FunctionDef | None:
    return next((s for s in tree.body if isinstance(s, ast.FunctionDef) and s.name == "entry"), None)


def _only_callee(tree: ast.Module) -> str | None:
    """The function ``entry`` does nothing but call with its own parameters, when it can take ``entry``'s place."""
    entry = _entry(tree)
    a = entry.args if entry is not None else None
    if (a is None or entry.decorator_list or entry.returns or a.kwarg or a.kwonlyargs or a.posonlyargs or a.defaults
            or len(entry.body) != 1):
        return None
    stmt = entry.body[0]
    plain_store = isinstance(stmt, ast.Assign) and len(stmt.targets) == 1 and isinstance(stmt.targets[0], ast.Name)
    call = stmt.value if isinstance(stmt, ast.Expr | ast.Return) or plain_store else None
    if not (isinstance(call, ast.Call) and isinstance(call.func, ast.Name) and not call.keywords
            and _passes_parameters(entry.args, call.args)):
        return None
    name = call.func.id
    binders = [s for s in tree.body if name in _bound_by(s)]
    if name in REQUIRED_NAMES or len(binders) != 1 or not isinstance(binders[0], ast.FunctionDef):
        return None
    callee = binders[0]
    if not simple_signature(callee.args) or entry.args.vararg is None and len(callee.args.args) != len(entry.args.args):
        return None
    return name


def _passes_parameters(params: ast.arguments, args: list[ast.expr]) -> bool:
    """``args`` are exactly the parameters, in order: ``(x, y)`` for ``(x, y)``, ``(*inputs)`` for ``(*inputs)``
    (the entry ``ngb_check`` writes around a function)."""
    if params.vararg is not None:
        return (not params.args and len(args) == 1 and isinstance(args[0], ast.Starred)
                and isinstance(args[0].value, ast.Name) and args[0].value.id == params.vararg.arg)
    return [a.id if isinstance(a, ast.Name) else None for a in args] == [p.arg for p in params.args]


def _bound_by(stmt: ast.stmt) -> set[str]:
    """Names a module-level statement binds."""
    if isinstance(stmt, ast.FunctionDef | ast.AsyncFunctionDef | ast.ClassDef):
        return {stmt.name}
    if isinstance(stmt, ast.Import | ast.ImportFrom):
        return {(a.asname or a.name).split(".")[0] for a in stmt.names}
    return {n.id for n in ast.walk(stmt) if isinstance(n, ast.Name) and isinstance(n.ctx, ast.Store)}


def _merged(prog: Program, name: str) -> Program | None:
    """``entry`` gone, ``name`` renamed ``entry`` wherever the main module names it; None when a name would clash
    (``entry`` named anywhere else, ``name`` a parameter or keyword somewhere)."""
    new = prog.copy()
    tree = new.tree
    tree.body.remove(_entry(tree))
    for node in ast.walk(tree):
        if (isinstance(node, ast.Name) and node.id == "entry" or isinstance(node, ast.arg | ast.keyword)
                and node.arg in (name, "entry") or isinstance(node, ast.Global | ast.Nonlocal)
                and "entry" in node.names):
            return None
    for node in ast.walk(tree):
        if isinstance(node, ast.Name) and node.id == name:
            node.id = "entry"
        elif isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef | ast.ClassDef) and node.name == name:
            node.name = "entry"
        elif isinstance(node, ast.Global | ast.Nonlocal):
            node.names = ["entry" if n == name else n for n in node.names]
    return new


@reduction_pass("merge-entry")
def merge_entry(prog: Program) -> Iterator[Edit]:
    """Drop ``entry`` whose one statement calls a module-level function with its own parameters, and rename that
    function ``entry`` (its decorators kept)."""
    name = _only_callee(prog.tree)
    if name is not None:
        yield lambda: _merged(prog, name)
