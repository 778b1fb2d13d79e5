"""plain-parameters: ``**kw`` parameters and keyword arguments spelled as plain ones.

Generated programs pass tensors through ``def f4(**y): x = y['x']`` called as ``f4(x=x)`` (the keyword-argument
paths are what they test); a reader writes ``def f4(x)`` and ``f4(x)``, and inline-calls takes only positional
calls. Two edits, each for one function and every call of it in one candidate:

- ``**kw`` read only as ``kw['name']`` (string keys) becomes plain parameters named by the keys, after the
  others; ``name = kw['name']`` at the top of the body, now ``name = name``, goes. Only when each key's name is
  not bound otherwise in the function and every call passes every key by keyword (a missing key raised
  ``KeyError``, which eager's outcome would show).
- Keyword arguments of a call of a module-level function with plain parameters become positional, in the
  parameters' order; only when that is their order already or evaluating them does nothing but read (a name,
  a literal), so eager evaluates the same things in the same order.
"""

from __future__ import annotations

import ast
from collections.abc import Iterator

from fuzz.reduce._tree import REQUIRED_NAMES, Program, replace_node
from fuzz.reduce.passes._edits import Edit, reduction_pass
from fuzz.reduce.passes._wrappers import _is_simple, _local_names

__all__ = ["plain_parameters"]


def _key_reads(fn: ast.FunctionDef, kw: str) -> list[ast.Subscript] | None:
    """Every read of ``kw`` in ``fn``, each ``kw['key']`` with a key that is an identifier; None otherwise."""
    parents = {id(c): n for n in ast.walk(fn) for c in ast.iter_child_nodes(n)}
    reads = []
    for node in ast.walk(fn):
        if isinstance(node, ast.Name) and node.id == kw:
            sub = parents.get(id(node))
            if not (isinstance(node.ctx, ast.Load) and isinstance(sub, ast.Subscript) and sub.value is node
                    and isinstance(sub.ctx, ast.Load) and isinstance(sub.slice, ast.Constant)
                    and isinstance(sub.slice.value, str) and sub.slice.value.isidentifier()):
                return None
            reads.append(sub)
    return reads


def _calls_of(tree: ast.Module, name: str) -> list[ast.Call] | None:
    """Every call of the main module's ``name``; None when the name is used in another way."""
    parents = {id(c): n for n in ast.walk(tree) for c in ast.iter_child_nodes(n)}
    calls = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Name) and node.id == name:
            call = parents.get(id(node))
            if not (isinstance(node.ctx, ast.Load) and isinstance(call, ast.Call) and call.func is node):
                return None
            calls.append(call)
    return calls


def _functions(tree: ast.Module) -> list[tuple[int, ast.FunctionDef]]:
    return [(k, s) for k, s in enumerate(tree.body) if isinstance(s, ast.FunctionDef) and not s.decorator_list
            and s.name not in REQUIRED_NAMES]


def _unpack_kwargs(prog: Program, position: int) -> Program | None:
    new = prog.copy()
    fn = new.tree.body[position]
    a = fn.args
    kw = a.kwarg.arg
    reads = _key_reads(fn, kw)
    calls = _calls_of(new.tree, fn.name)
    if not reads or not calls or a.vararg or a.kwonlyargs or a.posonlyargs:
        return None
    keys = list(dict.fromkeys(r.slice.value for r in reads))
    if set(keys) & {p.arg for p in a.args}:
        return None
    bound = _local_names(fn) - {kw}
    own = []  # ``name = kw['name']`` statements that go
    for key in (k for k in keys if k in bound):
        # bound otherwise: only when its one read is ``key = kw['key']`` at the top, before any other use of key
        at = next((k for k, s in enumerate(fn.body) if isinstance(s, ast.Assign) and len(s.targets) == 1
                   and isinstance(s.targets[0], ast.Name) and s.targets[0].id == key and s.value in reads), None)
        if at is None or sum(r.slice.value == key for r in reads) != 1 or any(
                isinstance(n, ast.Name) and n.id == key for s in fn.body[:at] for n in ast.walk(s)):
            return None
        own.append(fn.body[at])
    params = [p.arg for p in a.args]
    for call in calls:
        given = {k.arg for k in call.keywords}
        if any(k.arg is None for k in call.keywords) or not set(keys) <= given or given - set(keys) - set(params):
            return None
    fn.body[:] = [s for s in fn.body if s not in own] or [ast.Pass()]
    for read in reads:
        replace_node(fn, read, ast.Name(read.slice.value, ast.Load()))
    a.kwarg = None
    a.args += [ast.arg(k) for k in keys]
    return new


def _positional(prog: Program, position: int) -> Program | None:
    new = prog.copy()
    fn = new.tree.body[position]
    a = fn.args
    if a.vararg or a.kwarg or a.kwonlyargs or a.posonlyargs:
        return None
    params = [p.arg for p in a.args]
    calls = _calls_of(new.tree, fn.name)
    changed = False
    for call in calls or ():
        args = _as_positional(call, params)
        if args is not None:
            call.args, call.keywords, changed = args, [], True
    return new if changed else None


def _as_positional(call: ast.Call, params: list[str]) -> list[ast.expr] | None:
    """``call``'s arguments, all positional, when its keywords can be (see the module docstring)."""
    if not call.keywords or any(isinstance(x, ast.Starred) for x in call.args):
        return None
    given = dict(zip(params, call.args))
    for k in call.keywords:
        if k.arg is None or k.arg not in params or k.arg in given:
            return None
        given[k.arg] = k.value
    order = [params.index(k.arg) for k in call.keywords]
    missing = [p for p in params if p not in given]
    if missing and params.index(missing[0]) < max(order):
        return None  # a default in between
    if order != sorted(order) and not all(_is_simple(k.value) for k in call.keywords):
        return None  # evaluated in another order
    return [given[p] for p in params if p in given]


@reduction_pass("plain-parameters")
def plain_parameters(prog: Program) -> Iterator[Edit]:
    """``**kw`` read as ``kw['x']`` made parameter ``x``; keyword arguments made positional (per function)."""
    for position, fn in _functions(prog.tree):
        if fn.args.kwarg is not None:
            yield lambda position=position: _unpack_kwargs(prog, position)
    for position, fn in _functions(prog.tree):
        if any(call.keywords for call in _calls_of(prog.tree, fn.name) or ()):
            yield lambda position=position: _positional(prog, position)
