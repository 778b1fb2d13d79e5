"""shrink-loops: a ``for`` over ``range(...)`` of literals runs fewer times.

Generated programs loop a few times (``for z in range(3): x = f3(x)``) to exercise recompiles and resumed
frames; a bug that needs the loop often needs two iterations, not three, or one, when the loop itself is
what matters not. unwrap-blocks replaces a loop by its body without binding the loop variable; here:

- the loop unrolled to its first iteration, the variable bound to its first value (``z = 0`` and the body),
  when the body has no ``break``/``continue`` of its own (its ``else`` runs after, as it would);
- else the loop over its first two values (``range(2)``, ``range(a, a + 2 * step, step)``).

The range's arguments must be int literals: the count is known, and nothing is evaluated that could do
something. A list, set or dict comprehension over one literal item (``[f10(x + c) for c in (0.5,)]``, a frame
the generator adds) becomes the display of its element, the variable replaced by the item when that is a name
or a literal (``[f10(x + 0.5)]``): the comprehension's own frame goes, which is the predicate's call.
"""

from __future__ import annotations

import ast
from collections.abc import Iterator

from fuzz.reduce._tree import Program, iter_nodes, replace_node
from fuzz.reduce.passes._edits import Edit, _edit_at, _fill, _indexed, _list_of, _stmt_sites, reduction_pass
from fuzz.reduce.passes._statements import _one_item
from fuzz.reduce.passes._wrappers import _is_simple, _substituted

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


_SCOPED = (ast.Lambda, ast.ListComp, ast.SetComp, ast.DictComp, ast.GeneratorExp, ast.NamedExpr)


def _single_comprehension(node: ast.AST) -> bool:
    """``[e for v in (a,)]`` (a set or dict comprehension too): one generator over one literal item that is a
    name or a literal, no condition, an element that binds nothing of its own."""
    if not isinstance(node, ast.ListComp | ast.SetComp | ast.DictComp) or len(node.generators) != 1:
        return False
    gen = node.generators[0]
    item = _one_item(gen.iter)
    parts = [node.key, node.value] if isinstance(node, ast.DictComp) else [node.elt]
    return (not gen.ifs and not gen.is_async and isinstance(gen.target, ast.Name) and item is not None
            and _is_simple(item) and not any(isinstance(n, _SCOPED) for p in parts for n in ast.walk(p)))


def _comprehension_once(tree: ast.Module, node: ast.ListComp | ast.SetComp | ast.DictComp) -> bool | None:
    parents = {id(c): n for n in iter_nodes(tree) for c in ast.iter_child_nodes(n)}
    up = parents.get(id(node))
    while up is not None and not isinstance(up, ast.FunctionDef | ast.AsyncFunctionDef | ast.Lambda | ast.Module):
        if isinstance(up, ast.ClassDef):
            return False  # a class body's names, which the comprehension does not see, would be seen
        up = parents.get(id(up))
    gen = node.generators[0]
    bind = ([gen.target.id], [_one_item(gen.iter)])
    if isinstance(node, ast.DictComp):
        display: ast.expr = ast.Dict([_substituted(node.key, *bind)], [_substituted(node.value, *bind)])
    elif isinstance(node, ast.ListComp):
        display = ast.List([_substituted(node.elt, *bind)], ast.Load())
    else:
        display = ast.Set([_substituted(node.elt, *bind)])
    return None if replace_node(tree, node, display) else False


@reduction_pass("shrink-loops")
def shrink_loops(prog: Program) -> Iterator[Edit]:
    """A ``for`` over a literal ``range`` unrolled to its first iteration (variable bound), else run twice; a
    comprehension over one literal item made the display of its element."""
    for i, node in _indexed(prog.tree):
        if _single_comprehension(node):
            yield _edit_at(prog, i, _comprehension_once)
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
