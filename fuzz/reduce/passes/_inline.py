"""inline-calls: a function called once, folded into its caller.

Generated programs call their helpers from inside expressions (``[x * 0.5, f6(x), x]``,
``(x * 0.5).add(f7(x, cm))``, ``inner(x) * 0.5 + acc``) as much as from statements, because the operand stack
around a break is what they test. A function called exactly once is inlined wherever its call is evaluated
exactly once in a statement (not in a lambda, a comprehension, a loop condition, the right of ``and``/``or`` or a
branch of a conditional expression): its parameters are bound to the arguments, its body runs just before that
statement, and the call is replaced by what it returned. Operands to the left of the call are then evaluated
after the callee's body instead of before: whether the bug survives that is the predicate's call, as for any
other edit. A callee decorated only with context managers (``@torch.no_grad()``, ``@cm()`` for a
``@contextlib.contextmanager`` function; see ``_decorators``) is inlined as its body in a ``with`` block of
them, when its call is a statement of its own or it returns a name or a literal.
"""

from __future__ import annotations

import ast
from collections.abc import Iterator

from fuzz.reduce._tree import REQUIRED_NAMES, Program, iter_nodes, replace_node, simple_signature, stmt_lists
from fuzz.reduce.passes._decorators import entered_decorators
from fuzz.reduce.passes._edits import Edit, _fill, _list_of, _stmt_sites, reduction_pass

__all__ = ["inline_calls", "inline_decorated_calls"]

_DEFERRED = (ast.Lambda, ast.ListComp, ast.SetComp, ast.DictComp, ast.GeneratorExp, ast.FunctionDef,
             ast.AsyncFunctionDef, ast.ClassDef)


@reduction_pass("inline-calls")
def inline_calls(prog: Program) -> Iterator[Edit]:
    """Inline an undecorated function called exactly once, where its call is evaluated once in a statement, into
    its caller."""
    yield from _inline_calls(prog, decorated=False)


@reduction_pass("inline-decorated-calls")
def inline_decorated_calls(prog: Program) -> Iterator[Edit]:
    """inline-calls for a callee decorated only with context managers: its body in a ``with`` block of them."""
    yield from _inline_calls(prog, decorated=True)


def _inline_calls(prog: Program, decorated: bool) -> Iterator[Edit]:
    for owner, field, body in _stmt_sites(prog):
        for pos, stmt in enumerate(body):
            if (_inlinable(prog.tree, stmt) and bool(stmt.decorator_list) == decorated
                    and _call_count(prog.tree, stmt.name) == 1):
                yield _inline(prog, owner, field, pos, stmt.name)


def _inlinable(tree: ast.Module, stmt: ast.stmt) -> bool:
    if not isinstance(stmt, ast.FunctionDef) or stmt.name in REQUIRED_NAMES or entered_decorators(tree, stmt) is None:
        return False
    if not simple_signature(stmt.args):
        return False
    returns = [n for n in ast.walk(stmt) if isinstance(n, ast.Return | ast.Yield | ast.YieldFrom)]
    last = stmt.body[-1]
    return all(r is last for r in returns)


def _call_count(tree: ast.AST, name: str) -> int:
    loads = [n for n in iter_nodes(tree) if isinstance(n, ast.Name) and n.id == name and isinstance(n.ctx, ast.Load)]
    calls = [n for n in iter_nodes(tree) if isinstance(n, ast.Call) and isinstance(n.func, ast.Name) and n.func.id == name]
    return len(calls) if len(loads) == len(calls) else 0


def _evaluated_once(stmt: ast.stmt) -> list[ast.expr]:
    """The expressions of ``stmt`` that run exactly once each time it runs (its nested statements aside)."""
    if isinstance(stmt, ast.Expr | ast.Return):
        return [stmt.value] if stmt.value is not None else []
    if isinstance(stmt, ast.Assign | ast.AugAssign | ast.AnnAssign):
        return [stmt.value] if stmt.value is not None else []
    if isinstance(stmt, ast.If):
        return [stmt.test]
    if isinstance(stmt, ast.For):
        return [stmt.iter]
    if isinstance(stmt, ast.With):
        return [item.context_expr for item in stmt.items]
    return []


def _find_call(node: ast.AST, name: str) -> ast.Call | None:
    """The call of ``name`` in ``node``, where it is evaluated exactly once when ``node`` is."""
    if isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id == name:
        return node
    if isinstance(node, _DEFERRED):
        return None
    if isinstance(node, ast.BoolOp):
        children: list[ast.AST] = node.values[:1]
    elif isinstance(node, ast.IfExp):
        children = [node.test]
    else:
        children = list(ast.iter_child_nodes(node))
    for child in children:
        found = _find_call(child, name)
        if found is not None:
            return found
    return None


def _inline(prog: Program, owner: int, field: str, pos: int, name: str) -> Edit:
    def build() -> Program | None:
        new = prog.copy()
        body = _list_of(new.tree, owner, field)
        fn = body[pos]
        for c_owner, c_field in stmt_lists(new.tree):
            c_body = getattr(c_owner, c_field)
            for k, stmt in enumerate(c_body):
                call = next((c for e in _evaluated_once(stmt) if (c := _find_call(e, name)) is not None), None)
                if call is None:
                    continue
                if len(call.args) != len(fn.args.args) or call.keywords or any(
                        isinstance(a, ast.Starred) for a in call.args):
                    return None
                binds = [  # ``x = x`` (the argument already has the parameter's name) is no bind
                    ast.Assign(targets=[ast.Name(p.arg, ast.Store())], value=a, lineno=0)
                    for p, a in zip(fn.args.args, call.args) if not (isinstance(a, ast.Name) and a.id == p.arg)
                ]
                inner = list(fn.body)
                result: ast.expr = ast.Constant(None)
                if inner and isinstance(inner[-1], ast.Return):
                    result = inner.pop().value or ast.Constant(None)
                whole = isinstance(stmt, ast.Expr) and stmt.value is call
                if fn.decorator_list and not whole and not isinstance(result, ast.Constant | ast.Name):
                    return None  # a result computed in the decorators' block cannot be read after it
                if whole:
                    # the call was the whole statement: only a result that does something stays
                    tail = [] if isinstance(result, ast.Constant | ast.Name) else [ast.Expr(result)]
                else:
                    if not replace_node(stmt, call, result):
                        return None
                    tail = [stmt]
                if fn.decorator_list:  # the body (and a whole statement's result) in the decorators' block
                    block, tail = (inner + tail, []) if whole else (inner, tail)
                    items = [ast.withitem(context_expr=d, optional_vars=None) for d in fn.decorator_list]
                    inner = [ast.With(items=items, body=block or [ast.Pass()], type_comment=None, lineno=0)]
                c_body[k : k + 1] = binds + inner + tail
                if c_body is body:
                    body.remove(fn)
                else:
                    body.pop(pos)
                _fill(body)
                _fill(c_body)
                return new
        return None

    return build
