"""IR passes: shrink the generator's program IR before touching source.

Edits on the IR are coarse and always well-formed: whole functions go (with every call to them, callees
renumbered), statements and blocks go, compound statements are replaced by a body, loop counts, input
shapes and flags get smaller. The driver renders each candidate and checks it like a source candidate.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable, Iterator

from fuzz.reduce.passes._definitions import bisection
from fuzz.reduce.passes._edits import ReductionPass

__all__ = ["IR_PASSES"]

_BODY_FIELDS = ("body", "then", "orelse", "handler")


# ---- immutable updates by path ------------------------------------------------------------------------------------
# A path is a tuple of steps (field, index) from the Program to a node; the last step names a tuple field.


def _get(node, path):
    for field, index in path:
        node = getattr(node, field)
        if index is not None:
            node = node[index]
    return node


def _set(node, path, value):
    if not path:
        return value
    (field, index), rest = path[0], path[1:]
    child = getattr(node, field)
    if index is None:
        return dataclasses.replace(node, **{field: _set(child, rest, value)})
    items = list(child)
    items[index] = _set(child[index], rest, value)
    return dataclasses.replace(node, **{field: tuple(items)})


def _bodies(program) -> list[tuple]:
    """Paths of every statement tuple: function bodies and the bodies of compound statements."""
    found = []

    def visit(node, path):
        for field in _BODY_FIELDS:
            stmts = getattr(node, field, None)
            if isinstance(stmts, tuple):
                here = path + ((field, None),)
                found.append(here)
                for i, stmt in enumerate(stmts):
                    visit(stmt, path + ((field, i),))

    for k, fn in enumerate(program.functions):
        visit(fn, (("functions", k),))
    return found


# ---- passes ---------------------------------------------------------------------------------------------------------


def _drop_functions(program) -> Iterator[Callable]:
    for k in range(len(program.functions) - 1, 0, -1):
        yield lambda k=k: _without_functions(program, {k})


def _drop_subtrees(program) -> Iterator[Callable]:
    """Everything the entry cannot reach in one edit, then each function with all the functions only it leads
    to, in breadth-first order from the entry, bisected: a generated program is mostly one chain of calls
    (``entry -> f1 -> ... -> f70``), where the branches that keep a bug at f40 are exactly those below it, so
    the middle branch is tried first, then the middle of those below it, and so on (as ``cut-call-graph``
    bisects the depths: six checks, where nearest-first took one per function above the bug), then, unless the
    graph is one chain, the branches the bisection skipped, nearest the entry first. One check drops a whole branch of the call graph
    that a function-at-a-time pass would take one check per function for."""
    calls = _call_graph(program)
    reachable = _reachable(calls, 0, None)
    if len(reachable) < len(program.functions):
        yield lambda: _without_functions(program, set(range(len(program.functions))) - reachable)
    branches = [b for b in (reachable - _reachable(calls, 0, k) for k in _breadth_first(calls))
                if len(b) > 1]  # one function alone is ir-drop-functions' edit
    first = [at - 1 for at in bisection(len(branches))]
    # on a chain, a branch the bisection skipped is one above a cut that lost the bug: it loses it too
    chain = all(len(calls[k]) <= 1 for k in reachable)
    for at in first + ([] if chain else [at for at in range(len(branches)) if at not in set(first)]):
        yield lambda branch=branches[at]: _without_functions(program, branch)


def _call_graph(program) -> list[set[int]]:
    from fuzz.program import ir

    return [{stmt.callee for stmt, _ in ir.walk(fn.body) if isinstance(stmt, ir.CallSite)}
            for fn in program.functions]


def _reachable(calls: list[set[int]], start: int, avoiding: int | None) -> set[int]:
    seen, todo = set(), [start]
    while todo:
        k = todo.pop()
        if k not in seen and k != avoiding:
            seen.add(k)
            todo.extend(calls[k])
    return seen


def _breadth_first(calls: list[set[int]]) -> list[int]:
    order, seen = [], {0}
    frontier = [0]
    while frontier:
        frontier = [c for k in frontier for c in sorted(calls[k]) if not (c in seen or seen.add(c))]
        order.extend(frontier)
    return order


def _without_functions(program, dropped: set[int]):
    from fuzz.program import ir

    renumber = {}
    for i in range(len(program.functions)):
        if i not in dropped:
            renumber[i] = len(renumber)

    def fix(stmts):
        out = []
        for stmt in stmts:
            if isinstance(stmt, ir.CallSite):
                if stmt.callee in dropped:
                    continue
                stmt = dataclasses.replace(stmt, callee=renumber[stmt.callee])
            changes = {f: fix(getattr(stmt, f)) for f in _BODY_FIELDS if isinstance(getattr(stmt, f, None), tuple)}
            out.append(dataclasses.replace(stmt, **changes) if changes else stmt)
        return tuple(out)

    if 0 in dropped:
        return None
    functions = [fn for i, fn in enumerate(program.functions) if i not in dropped]
    functions = [dataclasses.replace(fn, index=i, body=fix(fn.body)) for i, fn in enumerate(functions)]
    used = {fn.module for fn in functions}
    modules = tuple(m for m in program.modules if m.name in used)
    return dataclasses.replace(program, functions=tuple(functions), modules=modules)


def _delete_statements(program) -> Iterator[Callable]:
    paths = _bodies(program)
    longest = max((len(_get(program, p)) for p in paths), default=0)
    size = 1
    while size * 2 <= longest:
        size *= 2
    while size >= 1:
        for path in paths:
            stmts = _get(program, path)
            for start in range(0, len(stmts), size):
                if len(stmts) >= size:
                    yield lambda p=path, s=start, n=size: _set(program, p, _get(program, p)[:s] + _get(program, p)[s + n:])
        size //= 2


def _unwrap(program) -> Iterator[Callable]:
    for path in _bodies(program):
        stmts = _get(program, path)
        for i, stmt in enumerate(stmts):
            for field in _BODY_FIELDS:
                if isinstance(getattr(stmt, field, None), tuple):
                    yield lambda p=path, i=i, f=field: _set(
                        program, p, _get(program, p)[:i] + getattr(_get(program, p)[i], f) + _get(program, p)[i + 1:])


def _simplify(program) -> Iterator[Callable]:
    from fuzz.program import ir

    inputs = program.inputs
    for field, small in (("rows", 1), ("cols", 1), ("extras", ()), ("layout", "contiguous"), ("requires_grad", False)):
        if getattr(inputs, field) != small:
            yield lambda f=field, v=small: dataclasses.replace(program, inputs=dataclasses.replace(inputs, **{f: v}))
    if program.wants_grad:
        yield lambda: dataclasses.replace(program, wants_grad=False)
    if program.returns != "x":
        yield lambda: dataclasses.replace(program, returns="x")
    for k, fn in enumerate(program.functions):
        if fn.decorators:
            yield lambda k=k: _set(program, (("functions", k),), dataclasses.replace(program.functions[k], decorators=()))
    for path in _bodies(program):
        for i, stmt in enumerate(_get(program, path)):
            if isinstance(stmt, ir.Loop) and stmt.count > 1:
                yield lambda p=path, i=i: _set(program, p[:-1] + ((p[-1][0], i),),
                                               dataclasses.replace(_get(program, p)[i], count=1))


IR_PASSES = [
    ReductionPass("ir-drop-subtrees", _drop_subtrees, "Drop a function with all it alone calls, nearest the entry "
                  "first (and whatever the entry cannot reach)."),
    ReductionPass("ir-drop-functions", _drop_functions, "Drop a function with every call to it (callees renumbered)."),
    ReductionPass("ir-delete-statements", _delete_statements, "Delete chunks of statements, halving the size."),
    ReductionPass("ir-unwrap-blocks", _unwrap, "Replace a compound statement by one of its bodies."),
    ReductionPass("ir-simplify", _simplify, "Smaller inputs, no grad, fewer decorators, single-trip loops."),
]
