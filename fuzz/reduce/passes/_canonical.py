"""Canonical forms: one way to write what several reductions of one bug wrote differently.

Reductions of one bug found through different programs end at different small programs: ``x = [f1(cm)]`` in one,
``y = f1()`` in another, ``step_unsupported()`` where a third has ``graph_break()``. Root causes are grouped by the
shape of the reduced program (``fuzz.triage.rootcause``), so these differences split one bug into several root causes,
and each is a line or a construct a reader would not write in a bug report. Each edit here rewrites one such spot
into the plain form, which the later passes (inline-calls above all) can then take further:

- ``torch._dynamo.step_unsupported()`` becomes ``torch._dynamo.graph_break()``, the break everyone knows;
- ``name = value`` inside a function, where nothing reads ``name``, becomes the statement ``value``;
- a statement that is only a display (``[f(x), g(y)]``, ``{'b': f(x)}``) becomes one statement per item;
- ``with a:`` whose whole body is ``with b:`` becomes ``with a, b:`` (the same bytecode, a line less);
- ``if c: pass`` / ``else: body`` becomes ``if not c: body``, and ``else: pass`` goes (Python takes the truth
  of ``c`` once either way);
- a statement that only makes a tensor from literals (``torch.ones(1)``, thrown away: what makes the compiler
  take a frame that has no other tensor work) goes to the end of its function's body, before a final ``return``:
  reductions left it wherever the program they started from had it; arithmetic on names and constants thrown
  away (``x * 1.0``, the same job done with an input) becomes ``torch.ones(1)``;
- a statement whose only possible effect is a graph break (a call of a ``torch._dynamo.disable`` function,
  ``x.item()`` thrown away, an empty local ``class C1: pass``, a data-dependent ``for z in x: if x: pass``)
  becomes ``torch._dynamo.graph_break()``.

Whether the bug survives is the predicate's call, as for any other edit: a bug that needs a step break keeps it.
"""

from __future__ import annotations

import ast
from collections.abc import Callable, Iterator

from fuzz.reduce._tree import Program, iter_nodes
from fuzz.reduce.passes._edits import Edit, _edit_at, _indexed, _list_of, _stmt_sites, reduction_pass
from fuzz.triage.rootcause import made_from_literals
from oracle._programfile import module_imports_torch

__all__ = ["canonical_forms"]


def _is_step_break(node: ast.AST) -> bool:
    """``torch._dynamo.step_unsupported()`` (the marker, called with no arguments)."""
    func = getattr(node, "func", None)
    return (isinstance(node, ast.Call) and not node.args and not node.keywords and isinstance(func, ast.Attribute)
            and func.attr == "step_unsupported" and isinstance(func.value, ast.Attribute)
            and func.value.attr == "_dynamo" and isinstance(func.value.value, ast.Name)
            and func.value.value.id == "torch")


def _to_graph_break(tree: ast.Module, call: ast.Call) -> None:
    call.func.attr = "graph_break"


def _in_functions(prog: Program) -> set[int]:
    """The ids of the nodes inside some function's body."""
    return {id(n) for fn in _functions(prog.tree) for s in fn.body for n in ast.walk(s)}


def _functions(tree: ast.Module) -> list[ast.FunctionDef | ast.AsyncFunctionDef]:
    return [n for n in iter_nodes(tree) if isinstance(n, ast.FunctionDef | ast.AsyncFunctionDef)]


def _dead_stores(prog: Program) -> list[tuple[int, str, int]]:
    """(owner, field, position) of ``name = value`` statements in a function's body (at any depth) whose name
    nothing reads after them: no later read in the function (in source order), no loop around them that could
    read it on the next iteration, no nested function or class reading it, and no ``global`` or ``nonlocal``
    declaring it anywhere."""
    declared = {name for n in iter_nodes(prog.tree) if isinstance(n, ast.Global | ast.Nonlocal) for name in n.names}
    found = []
    for fn in _functions(prog.tree):
        nested_reads = {n.id for inner in iter_nodes(fn) if inner is not fn and isinstance(inner, ast.FunctionDef | ast.AsyncFunctionDef
                                                                 | ast.Lambda | ast.ClassDef)
                        for n in ast.walk(inner) if isinstance(n, ast.Name) and not isinstance(n.ctx, ast.Store)}
        for owner, field, body, looped in _bodies_of(prog, fn):
            for pos, stmt in enumerate(body):
                if looped or not (isinstance(stmt, ast.Assign) and len(stmt.targets) == 1
                                  and isinstance(stmt.targets[0], ast.Name)):
                    continue
                name = stmt.targets[0].id
                later = _after(fn, stmt)
                if name in declared | nested_reads or any(isinstance(n, ast.Name) and n.id == name
                                                          and not isinstance(n.ctx, ast.Store) for n in later):
                    continue
                found.append((owner, field, pos))
    return found


def _bodies_of(prog: Program, fn: ast.AST) -> list[tuple[int, str, list[ast.stmt], bool]]:
    """The statement lists of ``fn`` itself (not of functions or classes nested in it): (owner, field, body,
    whether a loop of ``fn`` encloses it)."""
    index = {id(n): i for i, n in _indexed(prog.tree)}
    found = []

    def visit(owner: ast.AST, looped: bool) -> None:
        for field in ("body", "orelse", "finalbody"):
            body = getattr(owner, field, None)
            if not (isinstance(body, list) and body and isinstance(body[0], ast.stmt)):
                continue
            inside = looped or (isinstance(owner, ast.For | ast.AsyncFor | ast.While) and field == "body")
            found.append((index[id(owner)], field, body, inside))
            for stmt in body:
                if not isinstance(stmt, ast.FunctionDef | ast.AsyncFunctionDef | ast.ClassDef):
                    visit(stmt, inside)
        for handler in getattr(owner, "handlers", []):
            visit(handler, looped)

    visit(fn, False)
    return found


def _after(fn: ast.AST, stmt: ast.stmt) -> list[ast.AST]:
    """The nodes of ``fn`` that come after ``stmt`` and its subtree, in source (pre-)order."""
    order = list(iter_nodes(fn))
    start = next(i for i, n in enumerate(order) if n is stmt)
    return order[start + sum(1 for _ in iter_nodes(stmt)):]


def _displays(prog: Program) -> list[tuple[int, str, int]]:
    """(owner, field, position) of expression statements that are a list, tuple, set or dict display."""
    return [(owner, field, pos) for owner, field, body in _stmt_sites(prog) for pos, stmt in enumerate(body)
            if isinstance(stmt, ast.Expr) and isinstance(stmt.value, ast.List | ast.Tuple | ast.Set | ast.Dict)
            and not any(isinstance(e, ast.Starred) for e in getattr(stmt.value, "elts", ()))
            and None not in getattr(stmt.value, "keys", ())]


_NOT_INERT = (ast.Call, ast.Assign, ast.AugAssign, ast.AnnAssign, ast.NamedExpr, ast.Return, ast.Yield, ast.YieldFrom,
              ast.Await, ast.Raise, ast.Delete, ast.Global, ast.Nonlocal, ast.Import, ast.ImportFrom, ast.Break,
              ast.Continue, ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef, ast.Lambda, ast.Try, ast.With)


_READ_OUTS = frozenset({"item", "tolist", "numpy"})  # ``x.item()`` as a statement: a tensor read out, thrown away


def _disabled(tree: ast.Module) -> set[str]:
    """Module-level functions decorated with ``torch._dynamo.disable`` (bare or called)."""
    names = set()
    for module in (n for n in iter_nodes(tree) if isinstance(n, ast.Module)):
        for stmt in module.body:
            if isinstance(stmt, ast.FunctionDef) and any(
                    ast.unparse(d.func if isinstance(d, ast.Call) else d) == "torch._dynamo.disable"
                    for d in stmt.decorator_list):
                names.add(stmt.name)
    return names


def _breaks(prog: Program) -> list[tuple[int, str, int]]:
    """(owner, field, position) of statements inside functions whose only possible effect is a graph break: a
    call statement of a ``torch._dynamo.disable`` function, ``x.item()`` (``.tolist()``, ``.numpy()``) whose
    value is thrown away, an empty class statement nothing reads, or an ``if``/``for``/``while`` that calls, stores
    (other than a loop variable), returns and jumps nowhere (``for z in x: if x: pass``: a data-dependent
    branch)."""
    disabled = _disabled(prog.tree)
    read = {n.id for n in iter_nodes(prog.tree) if isinstance(n, ast.Name) and not isinstance(n.ctx, ast.Store)}
    inside = _in_functions(prog)
    found = []
    for owner, field, body in _stmt_sites(prog):
        for pos, stmt in enumerate(body):
            if id(stmt) not in inside:
                continue
            call = stmt.value if isinstance(stmt, ast.Expr) and isinstance(stmt.value, ast.Call) else None
            if call is not None and (isinstance(call.func, ast.Name) and call.func.id in disabled or (
                    isinstance(call.func, ast.Attribute) and call.func.attr in _READ_OUTS and not call.args
                    and not call.keywords and isinstance(call.func.value, ast.Name))):
                found.append((owner, field, pos))
            elif isinstance(stmt, ast.If | ast.For | ast.While) and not any(
                    isinstance(n, _NOT_INERT) and not _pure_tensor_call(n) for n in ast.walk(stmt)):
                found.append((owner, field, pos))
            elif (isinstance(stmt, ast.ClassDef) and stmt.name not in read and not stmt.decorator_list
                  and not stmt.bases and not stmt.keywords
                  and all(isinstance(s, ast.Pass) or _is_doc(s) for s in stmt.body)):
                found.append((owner, field, pos))  # ``class C1: pass`` in a function: building a class breaks
    return found


_PURE_METHODS = frozenset({"sum", "mean", "any", "all", "abs", "item", "max", "min"})


def _pure_tensor_call(node: ast.AST, reduced: bool = False) -> bool:
    """``torch.ones(3)`` (a tensor made from literals) or a reduction of one or of a variable (``torch.ones(0).sum()``,
    ``z.sum()``): a call that does nothing but make a value, so a loop or branch on it (a data-dependent one) is as
    inert as on a name. Whether the bug needed more than the break is the predicate's call."""
    if made_from_literals(node) or (reduced and isinstance(node, ast.Name)):
        return True
    return (isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) and node.func.attr in _PURE_METHODS
            and all(isinstance(a, ast.Constant) for a in node.args) and not node.keywords
            and _pure_tensor_call(node.func.value, True))


def _is_doc(stmt: ast.stmt) -> bool:
    return isinstance(stmt, ast.Expr) and isinstance(stmt.value, ast.Constant)


def _nested_withs(prog: Program) -> list[int]:
    """Indices of ``with a:`` statements whose whole body is another ``with b:`` (``with a, b:`` is the same
    code: CPython compiles several items as nested blocks)."""
    return [i for i, node in _indexed(prog.tree) if isinstance(node, ast.With) and len(node.body) == 1
            and isinstance(node.body[0], ast.With)]


def _merge_withs(tree: ast.Module, outer: ast.With) -> None:
    inner = outer.body[0]
    outer.items += inner.items
    outer.body = inner.body


def _only_pass(body: list[ast.stmt]) -> bool:
    return bool(body) and all(isinstance(s, ast.Pass) for s in body)


def _empty_branches(prog: Program) -> list[int]:
    """Indices of ``if`` statements with a branch of only ``pass`` next to one that does something."""
    return [i for i, node in _indexed(prog.tree) if isinstance(node, ast.If) and (
        (_only_pass(node.body) and node.orelse and not _only_pass(node.orelse))
        or (_only_pass(node.orelse) and not _only_pass(node.body)))]


def _fold_empty_branch(tree: ast.Module, node: ast.If) -> None:
    if _only_pass(node.body):
        test = node.test
        node.test = test.operand if isinstance(test, ast.UnaryOp) and isinstance(test.op, ast.Not) else ast.UnaryOp(
            ast.Not(), test)
        node.body = node.orelse
    node.orelse = []


def _graph_break() -> ast.stmt:
    call = ast.Call(ast.Attribute(ast.Attribute(ast.Name("torch", ast.Load()), "_dynamo", ast.Load()), "graph_break",
                                  ast.Load()), [], [])
    return ast.Expr(call)


def _replaced(prog: Program, owner: int, field: str, pos: int, statement: Callable[[], ast.stmt]) -> Edit:
    """The statement at (owner, field, pos) replaced by a new ``statement()``."""
    def build() -> Program | None:
        new = prog.copy()
        _list_of(new.tree, owner, field)[pos] = statement()
        return new

    return build


def _rewrite(prog: Program, owner: int, field: str, pos: int) -> Edit:
    def build() -> Program | None:
        new = prog.copy()
        body = _list_of(new.tree, owner, field)
        stmt = body[pos]
        if isinstance(stmt, ast.Assign):
            replacement: list[ast.stmt] = [ast.Expr(stmt.value)]
        else:
            items = stmt.value.elts if not isinstance(stmt.value, ast.Dict) else [
                e for pair in zip(stmt.value.keys, stmt.value.values) for e in pair]
            replacement = [ast.Expr(e) for e in items if not isinstance(e, ast.Constant | ast.Name)]
        body[pos : pos + 1] = replacement or [ast.Pass()]
        return new

    return build


def _anchors(prog: Program) -> list[tuple[int, int]]:
    """(function index, position) of statements of a function's own body that only make a tensor from literals
    and are not where such a statement belongs: last, or last before a final ``return``."""
    found = []
    for i, fn in _indexed(prog.tree):
        if not isinstance(fn, ast.FunctionDef | ast.AsyncFunctionDef):
            continue
        body = fn.body
        end = len(body) - 1 if isinstance(body[-1], ast.Return) else len(body)
        found += [(i, pos) for pos, stmt in enumerate(body[: end - 1])
                  if isinstance(stmt, ast.Expr) and made_from_literals(stmt.value)]
    return found


def _arithmetic(node: ast.expr) -> bool:
    """``x * 1.0``, ``-(a + 2)``: operators on names and constants only (no call, no attribute)."""
    if isinstance(node, ast.BinOp):
        return _arithmetic(node.left) and _arithmetic(node.right)
    if isinstance(node, ast.UnaryOp):
        return _arithmetic(node.operand)
    return isinstance(node, ast.Name | ast.Constant)


def _thrown_away_arithmetic(prog: Program) -> list[tuple[int, str, int]]:
    """(owner, field, position) of statements inside functions that are arithmetic thrown away (not a bare name or
    constant), in a module that imports ``torch``."""
    if not module_imports_torch(prog.tree):
        return []
    inside = _in_functions(prog)
    return [(owner, field, pos) for owner, field, body in _stmt_sites(prog) for pos, stmt in enumerate(body)
            if id(stmt) in inside and isinstance(stmt, ast.Expr) and isinstance(stmt.value, ast.BinOp | ast.UnaryOp)
            and _arithmetic(stmt.value)]


def _tensor() -> ast.stmt:
    return ast.parse("torch.ones(1)").body[0]


def _to_end(prog: Program, owner: int, pos: int) -> Edit:
    def build() -> Program | None:
        new = prog.copy()
        body = _list_of(new.tree, owner, "body")
        stmt = body.pop(pos)
        body.insert(len(body) - 1 if isinstance(body[-1], ast.Return) else len(body), stmt)
        return new

    return build


@reduction_pass("canonical-forms")
def canonical_forms(prog: Program) -> Iterator[Edit]:
    """Rewrite a spot into its plain form: a step break as ``graph_break()``, a store nothing reads as its value,
    a display statement as one statement per item, a statement that can only break the graph as ``graph_break()``,
    a tensor made from literals and thrown away at its function's end,
    nested ``with`` blocks as one, an ``if`` with an empty branch as one without."""
    steps = [i for i, node in _indexed(prog.tree) if _is_step_break(node)]
    if len(steps) > 1:
        def every_step() -> Program:
            new = prog.copy()
            for node in iter_nodes(new.tree):
                if _is_step_break(node):
                    node.func.attr = "graph_break"
            return new

        yield every_step
    for i in steps:
        yield _edit_at(prog, i, _to_graph_break)
    for site in _dead_stores(prog) + _displays(prog):
        yield _rewrite(prog, *site)
    for site in _breaks(prog):
        yield _replaced(prog, *site, _graph_break)
    for site in _thrown_away_arithmetic(prog):
        yield _replaced(prog, *site, _tensor)
    for owner, pos in _anchors(prog):
        yield _to_end(prog, owner, pos)
    for i in _nested_withs(prog):
        yield _edit_at(prog, i, _merge_withs)
    for i in _empty_branches(prog):
        yield _edit_at(prog, i, _fold_empty_branch)
