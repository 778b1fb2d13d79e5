"""Context-manager classes made plain: ``with C(): body`` as what ``__enter__`` does, the body, what ``__exit__`` does.

Generated programs wrap work in small context-manager classes (``class _C1: def __enter__(self): ...``) that a bug
report would write as plain statements. The edit takes one item of a ``with`` that makes a module-level class's
instance on the spot (the items before it stay around, those after it inside), when the class is that simple:

- no bases but ``object``, no decorators; an ``__init__`` that only sets attributes from its parameters or
  literals, or none; the ``with`` passes only names and literals (building the instance does nothing else);
- ``__enter__`` and ``__exit__`` read nothing of ``self`` or of ``__exit__``'s exception arguments, bind no
  name, and return (if at all) as their last statement; ``__enter__``'s value is bound to the ``as`` name, else
  kept as a statement when it can do something;
- the body has no ``return``, ``break`` or ``continue`` that would skip what ``__exit__`` does, and no scope
  around the ``with`` rebinds a name the methods read.

On an exception in the body ``__exit__`` no longer runs, and a class used elsewhere stays; whether the bug
survives is the predicate's call, as for any other edit. The class goes with its last use (the orphan clean-up).
"""

from __future__ import annotations

import ast
import copy
from collections.abc import Iterator

from fuzz.reduce._tree import Program, iter_nodes
from fuzz.reduce.passes._classes import _init_assignments
from fuzz.reduce.passes._edits import Edit, _edit_at, _indexed, reduction_pass
from fuzz.reduce.passes._wrappers import _shadowed

__all__ = ["inline_context_classes"]

_FUNCTIONS = ast.FunctionDef | ast.AsyncFunctionDef | ast.Lambda


def _classes(tree: ast.Module) -> dict[str, ast.ClassDef]:
    return {s.name: s for s in tree.body if isinstance(s, ast.ClassDef) and not s.decorator_list
            and not s.keywords and all(isinstance(b, ast.Name) and b.id == "object" for b in s.bases)}


def _method(cls: ast.ClassDef, name: str) -> ast.FunctionDef | None:
    return next((s for s in cls.body if isinstance(s, ast.FunctionDef) and s.name == name), None)


def _plain_init(cls: ast.ClassDef) -> bool:
    """No ``__init__``, or one that only stores parameters or literals (``self.attr = <parameter or literal>``)."""
    found = _init_assignments(cls)
    return found is not None and all(
        isinstance(value, ast.Constant) or isinstance(value, ast.Name) and value.id in found[0]
        for _, value in found[1])


def _body_of(fn: ast.FunctionDef | None) -> tuple[list[ast.stmt], ast.expr | None] | None:
    """A method's statements without its last ``return`` and the value returned (None: none); None when the
    method is not that simple (see the module docstring)."""
    if fn is None or fn.decorator_list or fn.args.posonlyargs or fn.args.kwonlyargs or not (fn.args.args or fn.args.vararg):
        return None
    params = {a.arg for a in fn.args.args} | {a.arg for a in (fn.args.vararg, fn.args.kwarg) if a is not None}
    body, value = list(fn.body), None
    if body and isinstance(body[-1], ast.Return):
        value = body.pop().value
    for node in [n for s in body for n in ast.walk(s)] + ([*ast.walk(value)] if value is not None else []):
        if isinstance(node, ast.Name) and (node.id in params or isinstance(node.ctx, ast.Store | ast.Del)):
            return None
        if isinstance(node, ast.Return | ast.Yield | ast.YieldFrom | ast.Await | ast.Global | ast.Nonlocal
                      | ast.FunctionDef | ast.AsyncFunctionDef | ast.ClassDef | ast.Lambda | ast.NamedExpr):
            return None
    return [s for s in body if not isinstance(s, ast.Pass)], value


def _skips_exit(body: list[ast.stmt]) -> bool:
    """A ``return``, ``break`` or ``continue`` of the ``with`` body's own (not a nested function's or loop's)."""
    todo = list(body)
    while todo:
        node = todo.pop()
        if isinstance(node, ast.Return | ast.Break | ast.Continue):
            return True
        if isinstance(node, _FUNCTIONS | ast.ClassDef):
            continue
        if isinstance(node, ast.For | ast.AsyncFor | ast.While):  # a loop's own break/continue stay inside it
            todo.extend(n for n in ast.walk(node) if isinstance(n, ast.Return))
            todo.extend(node.orelse)
            continue
        todo.extend(ast.iter_child_nodes(node))
    return False


def _replacement(cls: ast.ClassDef, stmt: ast.With, at: int) -> list[ast.stmt] | None:
    """The statements for ``stmt`` with its ``at``-th item made plain (``with a, C(), b: body`` is
    ``with a: with C(): with b: body``, so the items before stay around, those after inside)."""
    item = stmt.items[at]
    enter, leave = _body_of(_method(cls, "__enter__")), _body_of(_method(cls, "__exit__"))
    if enter is None or leave is None or _skips_exit(stmt.body):
        return None
    (enter_body, value), (exit_body, _) = enter, leave
    out = [copy.deepcopy(s) for s in enter_body]
    target = item.optional_vars
    if target is not None:
        if not isinstance(target, ast.Name):
            return None
        out.append(ast.Assign([ast.Name(target.id, ast.Store())], copy.deepcopy(value) or ast.Constant(None)))
    elif value is not None and not isinstance(value, ast.Constant | ast.Name):
        out.append(ast.Expr(copy.deepcopy(value)))
    body = [s for s in stmt.body if not isinstance(s, ast.Pass)]
    if stmt.items[at + 1:]:
        body = [ast.With(stmt.items[at + 1:], body or [ast.Pass()])]
    new = out + body + [copy.deepcopy(s) for s in exit_body]
    if stmt.items[:at]:
        new = [ast.With(stmt.items[:at], new or [ast.Pass()])]
    for s in new:
        ast.copy_location(s, stmt)
        ast.fix_missing_locations(s)
    return new


def _free_names(cls: ast.ClassDef) -> set[str]:
    return {n.id for name in ("__enter__", "__exit__") for n in ast.walk(_method(cls, name))
            if isinstance(n, ast.Name) and isinstance(n.ctx, ast.Load)}


@reduction_pass("inline-context-classes")
def inline_context_classes(prog: Program) -> Iterator[Edit]:
    """``with C(): body`` as ``__enter__``'s statements, the body, ``__exit__``'s statements, for a simple class."""
    classes = _classes(prog.tree)
    if not classes:
        return
    main = {id(n) for n in ast.walk(prog.tree)}  # not in a helper module: its classes are its own
    for index, node in _indexed(prog.tree):
        if not (isinstance(node, ast.With) and id(node) in main):
            continue
        for at, item in enumerate(node.items):
            made = item.context_expr
            if (isinstance(made, ast.Call) and isinstance(made.func, ast.Name) and made.func.id in classes
                    and all(isinstance(a, ast.Constant | ast.Name) for a in [*made.args, *(k.value for k in made.keywords)])
                    and _plain_init(classes[made.func.id])):
                yield _edit_at(prog, index, lambda tree, stmt, at=at: _inline(tree, stmt, at))


def _inline(tree: ast.Module, stmt: ast.AST, at: int) -> bool:
    cls = _classes(tree).get(stmt.items[at].context_expr.func.id)
    new = _replacement(cls, stmt, at) if cls is not None else None
    if new is None:
        return False
    parents = {id(child): n for n in iter_nodes(tree) for child in ast.iter_child_nodes(n)}
    if _shadowed(stmt, parents, _free_names(cls)):
        return False
    owner = parents[id(stmt)]
    for field in ("body", "orelse", "finalbody"):
        stmts = getattr(owner, field, None)
        if isinstance(stmts, list) and any(s is stmt for s in stmts):
            at_stmt = next(i for i, s in enumerate(stmts) if s is stmt)
            stmts[at_stmt:at_stmt + 1] = new or [ast.Pass()]
            return True
    return False
