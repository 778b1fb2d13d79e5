"""Expression-level source passes: operands, variables, tensor sizes, names."""

from __future__ import annotations

import ast
import builtins
import keyword
import operator
from collections.abc import Callable, Iterator

from fuzz.reduce._tree import REQUIRED_NAMES, Program, iter_nodes, replace_node, scope_nodes
from fuzz.reduce.passes._edits import (
    Edit,
    _edit_at,
    _fill,
    _indexed,
    _list_of,
    _nth,
    _stmt_sites,
    reduction_pass,
)
from oracle._programfile import writes_effect_log

__all__ = ["inline_variables", "rename", "shrink_tensors", "simplify_expressions"]

_SIMPLE_INTS = (0, 1)


@reduction_pass("simplify-expressions", polish=True)
def simplify_expressions(prog: Program) -> Iterator[Edit]:
    """Replace an expression by one of its operands (``yield x`` by ``yield``; a display that only carries a value
    to where it is observed by one of its items: ``_observed_displays``), and constants by simpler ones (0, 1, 1.0,
    '').

    Not inside ``make_inputs``: its inputs stay tensors (shrink-tensors makes them small), never a device
    string or a number standing in for one."""
    inputs = {id(n) for stmt in prog.tree.body if isinstance(stmt, ast.FunctionDef) and stmt.name == "make_inputs"
              for n in ast.walk(stmt)}
    observed = _observed_displays(prog.tree)
    for i, node in _indexed(prog.tree):
        if id(node) in inputs:
            continue
        choices = _operand_choices(node)
        if id(node) in observed:
            choices += [lambda n, k=k: n.elts[k] for k in range(len(node.elts))]
        for choice in choices:
            yield _edit_at(prog, i, lambda tree, n, c=choice: _replace(tree, n, c(n)))


def _observed_displays(tree: ast.Module) -> set[int]:
    """The tuple and list displays (no starred item) that only carry a value to where it is observed: ``entry``'s
    returned one and those in an effect-log write. One of their items in their place keeps what the program does
    as the root cause reads it (``fuzz.triage.rootcause``: the effect log and a returned value are observations),
    so a repro of a known bug that returned its wrong tensor in a tuple (a 2.15 campaign's, ``return (y,)``) ends
    as the corpus's form that returns it. Elsewhere a display may be what the bug needs (a breaking call in a
    list display) and another shape than the corpus repro's, so it stays."""
    roots: list[ast.AST] = [s for s in ast.walk(tree) if isinstance(s, ast.stmt) and writes_effect_log(s)]
    for entry in (s for s in tree.body if isinstance(s, ast.FunctionDef) and s.name == "entry"):
        roots += [s.value for s in ast.walk(entry) if isinstance(s, ast.Return) and s.value is not None]
    return {id(n) for root in roots for n in ast.walk(root)
            if isinstance(n, ast.Tuple | ast.List) and isinstance(n.ctx, ast.Load)
            and n.elts and not any(isinstance(e, ast.Starred) for e in n.elts)}


def _operand_choices(node: ast.AST) -> list[Callable[[ast.AST], ast.AST]]:
    if isinstance(node, ast.BinOp):
        folded = _folded(node)
        return ([lambda n: folded] if folded is not None else []) + [lambda n: n.left, lambda n: n.right]
    if isinstance(node, ast.UnaryOp):
        return [lambda n: n.operand]
    if isinstance(node, ast.BoolOp):
        return [lambda n, k=k: n.values[k] for k in range(len(node.values))]
    if isinstance(node, ast.IfExp):
        return [lambda n: n.body, lambda n: n.orelse]
    if isinstance(node, ast.Yield) and node.value is not None:
        return [lambda n: ast.Yield(value=None)]
    if isinstance(node, ast.Compare):
        return [lambda n: n.left, lambda n: ast.Constant(True), lambda n: ast.Constant(False)]
    if isinstance(node, ast.Call):
        choices = [lambda n, k=k: n.args[k] for k in range(len(node.args)) if not isinstance(node.args[k], ast.Starred)]
        if isinstance(node.func, ast.Attribute) and not _is_torch_ref(node.func.value):
            choices.append(lambda n: n.func.value)
        # an argument that is a name, as 0: two reductions of one bug that kept ``self.x(self)`` and ``self.x(0)``
        # end at one program, where the value passed is not what the bug needs
        choices += [lambda n, k=k: _with_argument(n, k, ast.Constant(0)) for k in range(len(node.args))
                    if isinstance(node.args[k], ast.Name)]
        return choices + [lambda n: ast.Constant(0)]
    if isinstance(node, ast.Subscript) and isinstance(node.ctx, ast.Load):
        return [lambda n: n.value, lambda n: ast.Constant(0)]
    if isinstance(node, ast.Attribute) and isinstance(node.ctx, ast.Load) and not _is_torch_ref(node.value):
        return [lambda n: n.value, lambda n: ast.Constant(0)]
    if isinstance(node, ast.Constant) and not hasattr(node, "ngb_module"):
        v = node.value
        if isinstance(v, bool) or v is None:
            return []
        if isinstance(v, int) and v not in _SIMPLE_INTS:
            return [lambda n: ast.Constant(0), lambda n: ast.Constant(1)]
        if isinstance(v, float) and v not in (0.0, 1.0):
            return [lambda n: ast.Constant(1.0)]
        if isinstance(v, str) and len(v) > 1 and not v.startswith("ngb_"):  # helper module names stay ngb_*
            return [lambda n: ast.Constant(v[:1])]
    return []


def _with_argument(call: ast.Call, k: int, value: ast.expr) -> ast.Call:
    """``call`` with its ``k``-th positional argument replaced by ``value``."""
    return ast.Call(call.func, [value if i == k else a for i, a in enumerate(call.args)], call.keywords)


_ARITHMETIC = {ast.Add: operator.add, ast.Sub: operator.sub, ast.Mult: operator.mul, ast.Div: operator.truediv,
               ast.FloorDiv: operator.floordiv, ast.Mod: operator.mod}


def _folded(node: ast.BinOp) -> ast.Constant | None:
    """``0.5 * 0.5`` as ``0.25``: an operation on two number constants, computed."""
    if not all(isinstance(o, ast.Constant) and type(o.value) in (int, float) for o in (node.left, node.right)):
        return None
    op = _ARITHMETIC.get(type(node.op))
    try:
        value = op(node.left.value, node.right.value) if op is not None else None
    except (ArithmeticError, ValueError):
        return None
    return ast.Constant(value) if type(value) in (int, float) and abs(value) < 1e6 else None


def _is_torch_ref(node: ast.AST) -> bool:
    while isinstance(node, ast.Attribute):
        node = node.value
    return isinstance(node, ast.Name) and node.id in ("torch", "types", "contextlib", "functools")


def _replace(tree: ast.AST, old: ast.AST, new: ast.AST) -> bool | None:
    if old is new or isinstance(new, ast.Starred):
        return False
    return None if replace_node(tree, old, new) else False


@reduction_pass("inline-variables")
def inline_variables(prog: Program) -> Iterator[Edit]:
    """Replace a variable's store by its value where it is read once after it in the same block.

    The name may be stored elsewhere too (``x = torch.ones(1)`` ... ``x = f1(x)`` / ``return x`` becomes
    ``return f1(x)``), as long as nothing after the store but that one read mentions it, no loop around the
    block could read the store again on its next turn, and no nested function reads it."""
    for owner, field, body in _stmt_sites(prog):
        for pos, stmt in enumerate(body):
            if isinstance(stmt, ast.Assign) and len(stmt.targets) == 1 and isinstance(stmt.targets[0], ast.Name):
                yield _propagate(prog, owner, field, pos)


def _propagate(prog: Program, owner: int, field: str, pos: int) -> Edit:
    def build() -> Program | None:
        new = prog.copy()
        body = _list_of(new.tree, owner, field)
        stmt = body[pos]
        name = stmt.targets[0].id
        scope = _scope_of(new.tree, _nth(new.tree, owner))
        if scope is None:  # module level: anything may read a global, so its one read in the whole program
            uses = [n for n in iter_nodes(new.tree) if isinstance(n, ast.Name) and n.id == name
                    and n is not stmt.targets[0]]
            following = [n for s in body[pos + 1:] for n in ast.walk(s) if n in uses]
            if len(uses) != 1 or len(following) != 1:
                return None
        else:
            ordered = scope_nodes(scope)
            start = next((k for k, n in enumerate(ordered) if n is stmt), None)
            if start is None:  # a class-body statement: scope_nodes takes a nested class as one node
                return None
            end = start + sum(1 for _ in ast.walk(stmt))  # pre-order: the statement's nodes are contiguous
            uses = [(k, n) for k, n in enumerate(ordered) if isinstance(n, ast.Name) and n.id == name
                    and not start <= k < end]
            following = [n for k, n in uses if k >= end]
            later = {id(n) for s in body[pos + 1:] for n in ast.walk(s)}
            if (len(following) != 1 or id(following[0]) not in later or _nested_reads(scope, name)
                    or (len(uses) > 1 and _in_loop(scope, stmt))):
                return None
        if not isinstance(following[0].ctx, ast.Load) or _replace(new.tree, following[0], stmt.value) is False:
            return None
        del body[pos]
        _fill(body)
        return new

    return build


def _scope_of(tree: ast.Module, node: ast.AST) -> ast.AST | None:
    """The innermost function holding ``node`` (``node`` itself when it is one), else None at module level."""
    found = None
    for fn in iter_nodes(tree):
        if isinstance(fn, ast.FunctionDef | ast.AsyncFunctionDef) and any(n is node for n in ast.walk(fn)):
            found = fn  # outer before inner: the last one holding it is the innermost
    return found


def _nested_reads(scope: ast.AST, name: str) -> bool:
    """Whether a function, lambda or class nested in ``scope`` mentions ``name`` (it may read the store
    whenever it is called), ``scope`` declares it global/nonlocal, or binds it otherwise than by a plain name."""
    for node in scope_nodes(scope):
        if isinstance(node, ast.Global | ast.Nonlocal) and name in node.names:
            return True
        # bound by something other than a Name node (def, class, except ... as, import): not followed here
        if getattr(node, "name", None) == name or (isinstance(node, ast.alias) and (node.asname or node.name) == name):
            return True
        if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef | ast.Lambda | ast.ClassDef) and any(
                isinstance(n, ast.Name) and n.id == name for n in ast.walk(node)):
            return True
    return False


def _in_loop(scope: ast.AST, stmt: ast.stmt) -> bool:
    """Whether ``stmt`` lies in a loop of ``scope`` (a comprehension cannot hold a statement)."""
    return any(isinstance(n, ast.For | ast.AsyncFor | ast.While) and any(m is stmt for m in ast.walk(n))
               for n in scope_nodes(scope))


_FACTORIES = {"randn", "rand", "zeros", "ones", "empty", "full", "randint", "arange", "randperm", "eye", "linspace"}
_FLOAT_DTYPES = {"float64", "double", "float16", "half", "bfloat16"}


@reduction_pass("shrink-tensors", polish=True)
def shrink_tensors(prog: Program) -> Iterator[Edit]:
    """Shrink tensor factory sizes (drop a dimension, a size to 1 or 2) and float dtypes to float32."""
    for i, node in _indexed(prog.tree):
        if isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) and node.func.attr in _FACTORIES:
            sizes = [k for k, a in enumerate(node.args) if isinstance(a, ast.Constant) and type(a.value) is int]
            if len(sizes) > 1:
                for k in sizes:
                    yield _edit_at(prog, i, lambda tree, n, k=k: n.args.pop(k) and None)
            for k in sizes:
                if node.args[k].value > 2:
                    yield _edit_at(prog, i, lambda tree, n, k=k: _set_const(n.args[k], 2))
                if node.args[k].value > 1:
                    yield _edit_at(prog, i, lambda tree, n, k=k: _set_const(n.args[k], 1))
        elif isinstance(node, ast.Attribute) and node.attr in _FLOAT_DTYPES and _is_torch_ref(node.value):
            yield _edit_at(prog, i, lambda tree, n: setattr(n, "attr", "float32"))


def _set_const(node: ast.Constant, value: int) -> None:
    node.value = value


_RESERVED = set(dir(builtins)) | set(keyword.kwlist) | {"torch", "types", "self", "cls", "device"} | set(REQUIRED_NAMES)


@reduction_pass("rename", polish=True)
def rename(prog: Program) -> Iterator[Edit]:
    """Canonical names: functions f1, f2, ..., classes C1, C2, ..., parameters and variables x, y, z, a, b, ...
    in order of appearance (all at once, else one at a time)."""
    defined: list[tuple[str, str]] = []  # (name, kind) in order of first binding
    for node in iter_nodes(prog.tree):
        for name in _binds(node):
            if name not in (d for d, _ in defined):
                kind = "f" if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef) else (
                    "C" if isinstance(node, ast.ClassDef) else "x")
                defined.append((name, kind))
    todo = [(n, k) for n, k in defined if n not in _RESERVED and not n.startswith("__") and n != "WANTS_GRAD"]
    present = {n.id for n in iter_nodes(prog.tree) if isinstance(n, ast.Name)} | {n for n, _ in defined}
    present |= {n.attr for n in iter_nodes(prog.tree) if isinstance(n, ast.Attribute)}
    present -= {n for n, _ in todo}  # names being renamed free their spelling
    counters = {"f": 0, "C": 0}
    variables = (c for c in _short_names() if c not in present and c not in _RESERVED)
    mapping: dict[str, str] = {}
    for old, kind in todo:
        if kind == "x":
            new = next(variables)
        else:
            while True:
                counters[kind] += 1
                new = f"{kind}{counters[kind]}"
                if new not in present:
                    break
        # A leading underscore stays: the oracle observes only globals without one.
        mapping[old] = ("_" if old.startswith("_") else "") + new
    mapping = {old: new for old, new in mapping.items() if old != new}
    if mapping:
        yield lambda: _renamed(prog, mapping)
        if len(mapping) > 1:  # one at a time: never to a name the program still has (two f3s, one shadowing)
            taken = present | {n for n, _ in todo}
            for old, new in mapping.items():
                if new not in taken:
                    yield lambda m={old: new}: _renamed(prog, m)
    yield lambda: _locals_renamed(prog)
    for index in range(len(_shadows(prog.tree))):
        yield lambda i=index: _unshadowed(prog, i)


def _shadows(tree: ast.AST) -> list[tuple[ast.AST, str]]:
    """(function, name) for each function or class defined inside a function under a name that the program also
    binds elsewhere (two ``f3``: a reader, and inline-calls counting calls by name, cannot tell them apart)."""
    everywhere: dict[str, int] = {}
    for node in iter_nodes(tree):
        for name in _binds(node):
            everywhere[name] = everywhere.get(name, 0) + 1
    found = []
    for fn in iter_nodes(tree):
        if not isinstance(fn, ast.FunctionDef | ast.AsyncFunctionDef):
            continue
        own = scope_nodes(fn)
        declared = {n for node in own if isinstance(node, ast.Global | ast.Nonlocal) for n in node.names}
        for node in own:
            if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef | ast.ClassDef) and everywhere[node.name] > 1 \
                    and node.name not in declared and node.name not in _RESERVED:
                found.append((fn, node.name))
    return found


def _unshadowed(prog: Program, index: int) -> Program | None:
    """The ``index``-th shadowing definition (``_shadows``) and every use of it in its function renamed to a
    fresh ``fN``/``CN``; None where a scope nested in that function binds the name again."""
    new = prog.copy()
    fn, name = _shadows(new.tree)[index]
    inner = [n for s in fn.body for n in ast.walk(s)]
    definitions = [n for n in scope_nodes(fn) if isinstance(n, ast.FunctionDef | ast.AsyncFunctionDef | ast.ClassDef)
                   and n.name == name]
    rebound = [n for n in inner if name in _binds(n) and n not in definitions]
    args = fn.args
    if rebound or name in {a.arg for a in [*args.posonlyargs, *args.args, *args.kwonlyargs, args.vararg, args.kwarg] if a}:
        return None
    present = {n for node in iter_nodes(new.tree) for n in _binds(node)} | {
        n.id for n in iter_nodes(new.tree) if isinstance(n, ast.Name)}
    kind = "C" if isinstance(definitions[0], ast.ClassDef) else "f"
    fresh = next(f"{kind}{k}" for k in range(1, 1000) if f"{kind}{k}" not in present)
    for node in inner:
        if isinstance(node, ast.Name) and node.id == name:
            node.id = fresh
    for definition in definitions:
        definition.name = fresh
    return new


def _locals_renamed(prog: Program) -> Program | None:
    """Each plain function's parameters and locals named x, y, z, ... afresh, as a hand-written report names
    them (``def f1(x)`` and ``def entry(x)``, not ``entry(y)``). Plain: no nested scope, ``global`` or
    ``nonlocal``, and no keyword argument anywhere spelled like one of its parameters. None when nothing changes."""
    new = prog.copy()
    modules = [n for n in iter_nodes(new.tree) if isinstance(n, ast.Module)]
    top = {name for m in modules for s in m.body for name in _binds(s) + _targets(s)}
    keywords = {n.arg for n in iter_nodes(new.tree) if isinstance(n, ast.keyword)}
    changed = False
    for fn in (s for m in modules for s in m.body if isinstance(s, ast.FunctionDef)):
        inner = [n for s in fn.body for n in ast.walk(s)]
        if any(isinstance(n, ast.FunctionDef | ast.AsyncFunctionDef | ast.Lambda | ast.ClassDef | ast.Global
                          | ast.Nonlocal) for n in inner):
            continue
        args = fn.args
        params = [a.arg for a in args.posonlyargs + args.args + args.kwonlyargs]
        if args.vararg or args.kwarg or set(params) & keywords:
            continue
        order = list(dict.fromkeys(params + [n.id for n in inner if isinstance(n, ast.Name)
                                             and isinstance(n.ctx, ast.Store)]))
        free = {n.id for n in inner if isinstance(n, ast.Name)} - set(order)
        spare = (c for c in _short_names() if c not in free | top | _RESERVED)
        mapping = {old: next(spare) for old in order if old not in _RESERVED and not old.startswith("__")}
        for node in [*inner, *args.posonlyargs, *args.args, *args.kwonlyargs]:
            if isinstance(node, ast.Name) and node.id in mapping and node.id != mapping[node.id]:
                node.id, changed = mapping[node.id], True
            elif isinstance(node, ast.arg) and node.arg in mapping and node.arg != mapping[node.arg]:
                node.arg, changed = mapping[node.arg], True
    return new if changed else None


def _targets(stmt: ast.stmt) -> list[str]:
    return [n.id for n in ast.walk(stmt) if isinstance(n, ast.Name) and isinstance(n.ctx, ast.Store)] if not \
        isinstance(stmt, ast.FunctionDef | ast.AsyncFunctionDef | ast.ClassDef) else []


def _short_names() -> Iterator[str]:
    letters = "xyzabcdeghijkmnopqrstuvw"  # no f (functions), l (reads as 1)
    yield from letters
    for n in range(1, 100):
        yield from (c + str(n) for c in letters)


def _binds(node: ast.AST) -> list[str]:
    if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef | ast.ClassDef):
        return [node.name]
    if isinstance(node, ast.arg):
        return [node.arg]
    if isinstance(node, ast.Name) and isinstance(node.ctx, ast.Store):
        return [node.id]
    return []


def _renamed(prog: Program, mapping: dict[str, str]) -> Program:
    new = prog.copy()
    for node in iter_nodes(new.tree):
        if isinstance(node, ast.Name) and node.id in mapping:
            node.id = mapping[node.id]
        elif isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef | ast.ClassDef) and node.name in mapping:
            node.name = mapping[node.name]
        elif isinstance(node, ast.arg) and node.arg in mapping:
            node.arg = mapping[node.arg]
        elif isinstance(node, ast.keyword) and node.arg in mapping:
            node.arg = mapping[node.arg]
        elif isinstance(node, ast.Attribute) and node.attr in mapping:
            node.attr = mapping[node.attr]
        elif isinstance(node, ast.Global | ast.Nonlocal):
            node.names = [mapping.get(n, n) for n in node.names]
    return new
