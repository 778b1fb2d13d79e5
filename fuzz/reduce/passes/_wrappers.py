"""inline-wrappers: a function that only returns one expression, inlined at every call; a lambda called where it
is made, replaced by its body.

Generated programs pass a tensor through one-line steps (``def f3(x): x = f2(x); return x``,
``f7 = lambda x: 0.0 + f7_impl(x)``, ``(lambda x: f3())(x)``). inline-calls takes a function called once, and
only where the call is evaluated once in its statement; a wrapper called in a loop, a lambda or from two places
stays, and bypassing it (its call made its first argument) drops what it wraps. Here every call of the wrapper
becomes its expression, the parameters replaced by the arguments, in one candidate, and the wrapper goes.

Semantics kept as eager runs them: an argument that is not a plain name or literal (evaluating it may do
something) is substituted only when its parameter is read exactly once, and nothing that could do something
(a call, ``await``, ``yield``, ``:=``) nor a parameter after it in the list is evaluated in the expression before
that read, so arguments and body still run in their order; a parameter read inside a nested lambda or
comprehension is substituted only by a name or literal. A call site whose function binds a name the expression
reads from its module is left alone (the whole edit does not apply): the name there means another thing.
"""

from __future__ import annotations

import ast
import copy
from collections.abc import Iterator

from fuzz.reduce._tree import REQUIRED_NAMES, Program, bind_arguments, replace_node, simple_signature
from fuzz.reduce.passes._edits import Edit, _edit_at, _indexed, reduction_pass

__all__ = ["inline_wrappers"]

_SCOPES = (ast.Lambda, ast.ListComp, ast.SetComp, ast.DictComp, ast.GeneratorExp)
_EFFECTFUL = (ast.Call, ast.Await, ast.Yield, ast.YieldFrom, ast.NamedExpr)
_FUNCTIONS = (ast.FunctionDef, ast.AsyncFunctionDef, ast.Lambda, ast.ClassDef)


def _plain_params(args: ast.arguments) -> list[str] | None:
    return [a.arg for a in args.args] if simple_signature(args) else None


def _wrapper(stmt: ast.stmt) -> tuple[str, list[str], ast.expr] | None:
    """(name, parameters, returned expression) of ``def f(a, ...): return E``, ``def f(a): v = E; return v`` or
    ``f = lambda a, ...: E``; None for anything else."""
    if isinstance(stmt, ast.Assign) and len(stmt.targets) == 1 and isinstance(stmt.targets[0], ast.Name) and \
            isinstance(stmt.value, ast.Lambda):
        name, params, expr = stmt.targets[0].id, _plain_params(stmt.value.args), stmt.value.body
    elif isinstance(stmt, ast.FunctionDef) and not stmt.decorator_list:
        name, params, body = stmt.name, _plain_params(stmt.args), stmt.body
        if len(body) == 1 and isinstance(body[0], ast.Return):
            expr = body[0].value or ast.Constant(None)
        elif (len(body) == 2 and isinstance(body[0], ast.Assign) and len(body[0].targets) == 1
              and isinstance(body[0].targets[0], ast.Name) and isinstance(body[1], ast.Return)
              and isinstance(body[1].value, ast.Name) and body[1].value.id == body[0].targets[0].id
              and (body[1].value.id in (params or ()) or not _reads(body[0].value, body[1].value.id))):
            expr = body[0].value
        else:
            return None
    else:
        return None
    if params is None or name in REQUIRED_NAMES or _reads(expr, name) or any(
            isinstance(n, ast.Await | ast.Yield | ast.YieldFrom | ast.NamedExpr) for n in ast.walk(expr)):
        return None
    return name, params, expr


def _reads(node: ast.AST, name: str) -> bool:
    return any(isinstance(n, ast.Name) and n.id == name for n in ast.walk(node))


def _is_simple(node: ast.expr) -> bool:
    """Evaluating it does nothing but read: a name or a literal."""
    return isinstance(node, ast.Name | ast.Constant) or (
        isinstance(node, ast.UnaryOp) and isinstance(node.operand, ast.Constant))


def _in_order(expr: ast.expr, params: list[str], args: list[ast.expr]) -> bool:
    """Whether substituting ``args`` into ``expr`` keeps what eager evaluates, and in its order (see the module
    docstring)."""
    simple = {p for p, a in zip(params, args) if _is_simple(a)}
    nested = {n.id for s in ast.walk(expr) if isinstance(s, _SCOPES) for n in ast.walk(s) if isinstance(n, ast.Name)}
    order = list(_preorder(expr))
    for k, param in enumerate(params):
        if param in simple:
            continue
        reads = [i for i, n in enumerate(order) if isinstance(n, ast.Name) and n.id == param]
        if len(reads) != 1 or param in nested:
            return False
        enclosing = {id(n) for n in order[: reads[0]] if any(m is order[reads[0]] for m in ast.walk(n))}
        for node in order[: reads[0]]:
            if id(node) in enclosing:
                continue
            if isinstance(node, _EFFECTFUL) or (isinstance(node, ast.Name) and node.id in params[k + 1:]
                                                and node.id not in simple):
                return False
    return True


def _preorder(node: ast.AST) -> Iterator[ast.AST]:
    """Nodes in pre-order, fields in the order Python evaluates them (``ast`` lists a node's fields so)."""
    yield node
    for child in ast.iter_child_nodes(node):
        yield from _preorder(child)


def _substituted(expr: ast.expr, params: list[str], args: list[ast.expr]) -> ast.expr:
    mapping = dict(zip(params, args))

    class Substitute(ast.NodeTransformer):
        def visit_Name(self, node: ast.Name) -> ast.expr:
            return copy.deepcopy(mapping[node.id]) if node.id in mapping and isinstance(node.ctx, ast.Load) else node

    return Substitute().visit(copy.deepcopy(expr))


def _arguments(call: ast.Call, params: list[str]) -> list[ast.expr] | None:
    """The argument for each parameter, positional or keyword; None when they do not match plainly."""
    given = bind_arguments(call, params)
    if given is None:
        return None
    if call.keywords and any(isinstance(kw.value, ast.Call) for kw in call.keywords):
        return None  # keyword arguments evaluated out of the parameters' order: keep it simple
    return [given[p] for p in params] if len(given) == len(params) else None


def _local_names(scope: ast.AST) -> set[str]:
    """Names a function, lambda or class binds in its own scope."""
    names: set[str] = set()
    if isinstance(scope, ast.FunctionDef | ast.AsyncFunctionDef | ast.Lambda):
        a = scope.args
        names.update(p.arg for p in a.posonlyargs + a.args + a.kwonlyargs + [a.vararg, a.kwarg] if p is not None)
    body = scope.body if isinstance(scope.body, list) else [scope.body]
    todo = list(body)
    while todo:
        node = todo.pop()
        if isinstance(node, ast.Name) and isinstance(node.ctx, ast.Store):
            names.add(node.id)
        elif isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef | ast.ClassDef):
            names.add(node.name)
        elif isinstance(node, ast.Import | ast.ImportFrom):
            names.update((a.asname or a.name).split(".")[0] for a in node.names)
        if not isinstance(node, _FUNCTIONS):
            todo.extend(ast.iter_child_nodes(node))
    return names


def _inline_everywhere(prog: Program, position: int) -> Program | None:
    """Every call of the wrapper defined by the ``position``-th statement of the main module replaced by its
    expression; the wrapper gone. None when a use of it is not such a call or a call site does not allow it."""
    new = prog.copy()
    stmt = new.tree.body[position]
    name, params, expr = _wrapper(stmt)
    free = {n.id for n in ast.walk(expr) if isinstance(n, ast.Name) and n.id not in params}
    del new.tree.body[position]
    # the main module only: a helper module's ``name`` is its own global
    parents = {id(child): node for node in ast.walk(new.tree) for child in ast.iter_child_nodes(node)}
    uses = [n for n in ast.walk(new.tree) if isinstance(n, ast.Name) and n.id == name]
    if not uses:
        return None
    for use in uses:
        call = parents.get(id(use))
        if not (isinstance(use.ctx, ast.Load) and isinstance(call, ast.Call) and call.func is use):
            return None
        args = _arguments(call, params)
        if args is None or not _in_order(expr, params, args) or _shadowed(call, parents, free | {name}):
            return None
        if not replace_node(new.tree, call, _substituted(expr, params, args)):
            return None
    return new


def _shadowed(node: ast.AST, parents: dict[int, ast.AST], names: set[str]) -> bool:
    """Whether a scope around ``node`` binds one of ``names`` (so there they are not the module's)."""
    while id(node) in parents:
        node = parents[id(node)]
        if isinstance(node, _FUNCTIONS) and _local_names(node) & names:
            return True
        if isinstance(node, _SCOPES[1:]) and {n.id for g in node.generators for n in ast.walk(g.target)
                                              if isinstance(n, ast.Name)} & names:
            return True  # a comprehension's variable
    return False


def _lambda_call(tree: ast.Module, call: ast.Call) -> bool | None:
    params = _plain_params(call.func.args)
    args = _arguments(call, params) if params is not None else None
    if args is None or not _in_order(call.func.body, params, args):
        return False
    return None if replace_node(tree, call, _substituted(call.func.body, params, args)) else False


@reduction_pass("inline-wrappers")
def inline_wrappers(prog: Program) -> Iterator[Edit]:
    """Inline a function that only returns one expression at every call (however many, in loops too); replace
    a lambda called where it is made by its body."""
    for position, stmt in enumerate(prog.tree.body):
        if _wrapper(stmt) is not None:
            yield lambda position=position: _inline_everywhere(prog, position)
    for i, node in _indexed(prog.tree):
        if isinstance(node, ast.Call) and isinstance(node.func, ast.Lambda):
            yield _edit_at(prog, i, _lambda_call)
