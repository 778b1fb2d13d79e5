"""shrink-loops: a ``for`` over ``range(...)`` of literals runs fewer times.

Generated programs loop a few times (``for z in range(3): x = f3(x)``) to exercise recompiles and resumed
frames; a bug that needs the loop often needs two iterations, not three, or one, when the loop itself is
what matters not. unwrap-blocks replaces a loop by its body without binding the loop variable; here:

- the loop unrolled to its first iteration, the variable bound to its first value (``z = 0`` and the body),
  when the body has no ``break``/``continue`` of its own (its ``else`` runs after, as it would);
- else the loop over its first two values (``range(2)``, ``range(a, a + 2 * step, step)``).

The range's arguments must be int literals: the count is known, and nothing is evaluated that could do
something.
"""

from __future__ import annotations

import ast
from collections.abc import Iterator

from fuzz.reduce._tree import Program
from fuzz.reduce.passes._edits import Edit, _fill, _list_of, _stmt_sites, reduction_pass

__all__ = ["shrink_loops"]


def _range(node: ast.expr) -> range | None:
    """The range ``node`` spells (``range(3)``, ``range(1, 9, 2)``, ``range(-2)``), when its arguments are int
    literals."""
    if not (isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id == "range"
            and not node.keywords and 1 <= len(node.args) <= 3):
        return None
    values = []
    for arg in node.args:
        if isinstance(arg, ast.UnaryOp) and isinstance(arg.op, ast.USub) and isinstance(arg.operand, ast.Constant):
            value = arg.operand.value
            value = -value if type(value) is int else None
        else:
            value = arg.value if isinstance(arg, ast.Constant) and type(arg.value) is int else None
        if value is None:
            return None
        values.append(value)
    try:
        return range(*values)
    except ValueError:  # a zero step
        return None


def _int(value: int) -> ast.expr:
    return ast.Constant(value) if value >= 0 else ast.UnaryOp(ast.USub(), ast.Constant(-value))


def _jumps(body: list[ast.stmt]) -> bool:
    """Whether ``body`` has a ``break``/``continue`` of the loop it is the body of."""
    todo = list(body)
    while todo:
        node = todo.pop()
        if isinstance(node, ast.Break | ast.Continue):
            return True
        if not isinstance(node, ast.For | ast.AsyncFor | ast.While | ast.FunctionDef | ast.AsyncFunctionDef
                          | ast.ClassDef | ast.Lambda):
            todo.extend(ast.iter_child_nodes(node))
        elif isinstance(node, ast.For | ast.AsyncFor | ast.While):
            todo.extend(node.orelse)  # a nested loop's else belongs to the outer loop
    return False


def _unrolled(prog: Program, owner: int, field: str, pos: int) -> Edit:
    def build() -> Program | None:
        new = prog.copy()
        body = _list_of(new.tree, owner, field)
        loop = body[pos]
        bind = ast.Assign(targets=[loop.target], value=_int(_range(loop.iter)[0]), lineno=0)
        body[pos : pos + 1] = [bind, *loop.body, *loop.orelse]
        _fill(body)
        return new

    return build


def _twice(prog: Program, owner: int, field: str, pos: int) -> Edit:
    def build() -> Program | None:
        new = prog.copy()
        loop = _list_of(new.tree, owner, field)[pos]
        r = _range(loop.iter)
        if r.step == 1 and r.start == 0:
            loop.iter.args = [ast.Constant(2)]
        else:
            loop.iter.args = [_int(r.start), _int(r[1] + r.step), _int(r.step)]
        return new

    return build


@reduction_pass("shrink-loops")
def shrink_loops(prog: Program) -> Iterator[Edit]:
    """A ``for`` over a literal ``range`` unrolled to its first iteration (variable bound), else run twice."""
    for owner, field, body in _stmt_sites(prog):
        for pos, stmt in enumerate(body):
            if not isinstance(stmt, ast.For):
                continue
            r = _range(stmt.iter)
            if r is None or len(r) < 1:
                continue
            if not _jumps(stmt.body) and isinstance(stmt.target, ast.Name | ast.Tuple):
                yield _unrolled(prog, owner, field, pos)
            if len(r) > 2:
                yield _twice(prog, owner, field, pos)
