"""plain-parameters: ``**kw`` parameters and keyword arguments spelled as plain ones.

Generated programs pass tensors through ``def f4(**y): x = y['x']`` called as ``f4(x=x)`` (the keyword-argument
paths are what they test); a reader writes ``def f4(x)`` and ``f4(x)``, and inline-calls takes only positional
calls. Two edits, each for one function and every call of it in one candidate:

- ``**kw`` read only as ``kw['name']`` (string keys) becomes plain parameters named by the keys, after the
  others; ``name = kw['name']`` at the top of the body, now ``name = name``, goes. Only when each key's name is
  not bound otherwise in the function and every call passes every key by keyword (a missing key raised
  ``KeyError``, which eager's outcome would show).
- ``*args`` read only as ``args[k]`` (literal indices) becomes one plain parameter per item every call passes
  (all calls pass as many, positionally), named by ``y = args[0]`` at the top of the body (which goes) or
  ``args0``, ``args1``, ...
- Keyword arguments of a call of a module-level function with plain parameters become positional, in the
  parameters' order; only when that is their order already or evaluating them does nothing but read (a name,
  a literal), so eager evaluates the same things in the same order.
"""

from __future__ import annotations

import ast
from collections.abc import Iterator

from fuzz.reduce._tree import REQUIRED_NAMES, Program, bind_arguments, replace_node
from fuzz.reduce.passes._decorators import entered_decorators
from fuzz.reduce.passes._edits import Edit, reduction_pass
from fuzz.reduce.passes._wrappers import _is_simple, _local_names

__all__ = ["plain_parameters"]


def _item_reads(fn: ast.FunctionDef, packed: str, kind: type) -> list[ast.Subscript] | None:
    """Every read of ``packed`` in ``fn``, each ``packed[key]`` with a literal key of ``kind`` (an identifier
    string for ``**kw``, an index >= 0 for ``*args``); None otherwise."""
    parents = {id(c): n for n in ast.walk(fn) for c in ast.iter_child_nodes(n)}
    reads = []
    for node in ast.walk(fn):
        if isinstance(node, ast.Name) and node.id == packed:
            sub = parents.get(id(node))
            if not (isinstance(node.ctx, ast.Load) and isinstance(sub, ast.Subscript) and sub.value is node
                    and isinstance(sub.ctx, ast.Load) and isinstance(sub.slice, ast.Constant)
                    and type(sub.slice.value) is kind
                    and (sub.slice.value.isidentifier() if kind is str else sub.slice.value >= 0)):
                return None
            reads.append(sub)
    return reads


def _names(fn: ast.FunctionDef, packed: str, reads: list[ast.Subscript]) -> dict[object, tuple[str, ast.stmt | None]]:
    """For each key read, the parameter that replaces ``packed[key]`` and the statement ``name = packed[key]``
    that goes with it (None when there is none): the statement's name when it is the key's one read, at the top
    of the body, and nothing before it names it; else the key itself (``**kw``) or ``packed`` and the index
    (``*args``), when nothing in the function is named so. Empty when no choice keeps the program's meaning."""
    bound = _local_names(fn) - {packed}
    named = {n.id for n in ast.walk(fn) if isinstance(n, ast.Name)}
    params = {p.arg for p in fn.args.args}
    found: dict[object, tuple[str, ast.stmt | None]] = {}
    for key in dict.fromkeys(r.slice.value for r in reads):
        mine = [r for r in reads if r.slice.value == key]
        at = next((k for k, s in enumerate(fn.body) if isinstance(s, ast.Assign) and len(s.targets) == 1
                   and isinstance(s.targets[0], ast.Name) and s.value is mine[0]), None)
        if at is not None and len(mine) == 1:
            name = fn.body[at].targets[0].id
            if name not in params and not any(isinstance(n, ast.Name) and n.id == name
                                              for s in fn.body[:at] for n in ast.walk(s)):
                found[key] = (name, fn.body[at])
                continue
        name = key if isinstance(key, str) else f"{packed}{key}"
        if name in bound or name in named or name in params:
            return {}
        found[key] = (name, None)
    if len({name for name, _ in found.values()}) != len(found):
        return {}
    return found


def _unpacked(fn: ast.FunctionDef, reads: list[ast.Subscript], names) -> None:
    own = [stmt for _, stmt in names.values() if stmt is not None]
    fn.body[:] = [s for s in fn.body if s not in own] or [ast.Pass()]
    for read in reads:
        if not any(read is stmt.value for stmt in own):
            replace_node(fn, read, ast.Name(names[read.slice.value][0], ast.Load()))


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
    """The main module's functions whose parameters are the calls' own: undecorated, or decorated only with
    context managers (``_decorators``)."""
    return [(k, s) for k, s in enumerate(tree.body) if isinstance(s, ast.FunctionDef)
            and s.name not in REQUIRED_NAMES and entered_decorators(tree, s) is not None]


def _unpack_kwargs(prog: Program, position: int) -> Program | None:
    new = prog.copy()
    fn = new.tree.body[position]
    a = fn.args
    reads = _item_reads(fn, a.kwarg.arg, str)
    calls = _calls_of(new.tree, fn.name)
    if not reads or not calls or a.vararg or a.kwonlyargs or a.posonlyargs:
        return None
    names = _names(fn, a.kwarg.arg, reads)
    params = [p.arg for p in a.args]
    keys = list(names)
    # ``name = kw['x']`` may name the parameter otherwise, but a caller passes it as ``x=``: keys stay names
    if not names or any(name != key for key, (name, _) in names.items()) or set(keys) & set(params):
        return None
    for call in calls:
        given = {k.arg for k in call.keywords}
        if any(k.arg is None for k in call.keywords) or not set(keys) <= given or given - set(keys) - set(params):
            return None
    _unpacked(fn, reads, names)
    a.kwarg = None
    a.args += [ast.arg(k) for k in keys]
    return new


def _unpack_varargs(prog: Program, position: int) -> Program | None:
    new = prog.copy()
    fn = new.tree.body[position]
    a = fn.args
    reads = _item_reads(fn, a.vararg.arg, int)
    calls = _calls_of(new.tree, fn.name)
    if not reads or not calls or a.kwarg or a.kwonlyargs or a.posonlyargs or a.defaults:
        return None
    counts = {len(c.args) - len(a.args) for c in calls}
    if len(counts) != 1 or any(c.keywords or any(isinstance(x, ast.Starred) for x in c.args) for c in calls):
        return None
    extra = counts.pop()  # what every call packs into the tuple: one parameter each
    names = _names(fn, a.vararg.arg, reads)
    if not names or max(names) >= extra:
        return None
    spare = [f"{a.vararg.arg}{k}" for k in range(extra) if k not in names]
    if any(any(isinstance(n, ast.Name) and n.id == name for n in ast.walk(fn)) for name in spare):
        return None
    packed = a.vararg.arg
    _unpacked(fn, reads, names)
    a.vararg = None
    a.args += [ast.arg(names[k][0] if k in names else f"{packed}{k}") for k in range(extra)]
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
    given = bind_arguments(call, params) if call.keywords else None
    if given is None:
        return None
    order = [params.index(k.arg) for k in call.keywords]
    missing = [p for p in params if p not in given]
    if missing and params.index(missing[0]) < max(order):
        return None  # a default in between
    if order != sorted(order) and not all(_is_simple(k.value) for k in call.keywords):
        return None  # evaluated in another order
    return [given[p] for p in params if p in given]


@reduction_pass("plain-parameters")
def plain_parameters(prog: Program) -> Iterator[Edit]:
    """``**kw`` read as ``kw['x']`` made parameter ``x``, ``*args`` read as ``args[0]`` a parameter; keyword
    arguments made positional (per function)."""
    for position, fn in _functions(prog.tree):
        if fn.args.kwarg is not None:
            yield lambda position=position: _unpack_kwargs(prog, position)
        if fn.args.vararg is not None:
            yield lambda position=position: _unpack_varargs(prog, position)
    for position, fn in _functions(prog.tree):
        if any(call.keywords for call in _calls_of(prog.tree, fn.name) or ()):
            yield lambda position=position: _positional(prog, position)
