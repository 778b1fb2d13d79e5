"""Top-down deletion of whole definitions, before any statement or expression is touched.

A definition is a module-level function, class or ``name = lambda ...`` in the main module or a helper module.
Deleting one alone breaks every use of it, so a definition is *bypassed*: it goes, and each use goes with it —
a call ``f(a, ...)`` becomes its first argument (``f(x=a)``: its first keyword argument; ``C(...).m(a)`` too,
for a class), a ``with f(...):`` keeps only its body, a decorator or helper-module link naming it is dropped,
and a statement still naming it is deleted. The tensor flowing through the call keeps flowing, so the program usually still runs.

The call graph from ``entry`` orders definitions by depth (how many calls from ``entry``). The coarsest
candidates cut the graph at one depth: every definition at that depth or deeper goes in one check, shallowest
cut first; then chunks of the definitions sorted deepest first, half of them, a quarter, ... down to one
(ddmin). A candidate that breaks eager costs an eager run, not a
compile (see ``oracle_predicate``), so the aggressive ones are cheap to try.
"""

from __future__ import annotations

import ast
import builtins
import copy
from collections.abc import Collection, Iterator

from fuzz.reduce._tree import OBSERVERS, REQUIRED_NAMES, Program, iter_nodes, stmt_lists, top_level_names
from fuzz.reduce.passes._edits import Edit, _fill, _nth, reduction_pass
from fuzz.reduce.passes._statements import _exec_target, _remove_stmts, _unused_defs

__all__ = ["bypass", "bypass_definitions", "cut_call_graph", "definition_depths", "shortcut"]

_COMPOUND = (ast.If, ast.For, ast.AsyncFor, ast.While, ast.With, ast.AsyncWith, ast.Try, ast.TryStar,
             ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)


def _def_name(stmt: ast.stmt) -> str | None:
    if isinstance(stmt, ast.FunctionDef | ast.AsyncFunctionDef | ast.ClassDef):
        return stmt.name
    if (isinstance(stmt, ast.Assign) and len(stmt.targets) == 1 and isinstance(stmt.targets[0], ast.Name)
            and isinstance(stmt.value, ast.Lambda)):
        return stmt.targets[0].id
    return None


def _modules(tree: ast.Module) -> list[ast.Module]:
    return [n for n in iter_nodes(tree) if isinstance(n, ast.Module)]


def _definitions(tree: ast.Module) -> dict[str, ast.stmt]:
    """Bypassable definitions by name (a name defined twice, a required one or an observer is not bypassable:
    cutting ``_effect`` would turn every effects finding into another in every cut)."""
    found: dict[str, ast.stmt] = {}
    twice: set[str] = set()
    for module in _modules(tree):
        for stmt in module.body:
            name = _def_name(stmt)
            if name is None or name in REQUIRED_NAMES or name in OBSERVERS:
                continue
            (twice.add(name) if name in found else found.__setitem__(name, stmt))
    return {n: s for n, s in found.items() if n not in twice}


def _referenced(node: ast.AST) -> set[str]:
    names: set[str] = set()
    for sub in iter_nodes(node):
        if isinstance(sub, ast.Name) and isinstance(sub.ctx, ast.Load):
            names.add(sub.id)
        elif isinstance(sub, ast.Attribute):
            names.add(sub.attr)
    return names


def definition_depths(tree: ast.Module) -> dict[str, int]:
    """Calls from ``entry`` to each bypassable definition it reaches (1: named in ``entry`` itself)."""
    defs = _definitions(tree)
    root = next((s for s in tree.body if isinstance(s, ast.FunctionDef) and s.name == "entry"), None)
    if root is None:
        return {}
    depths: dict[str, int] = {}
    frontier, depth = _referenced(root) & defs.keys(), 1
    while frontier:
        for name in frontier:
            depths[name] = depth
        reached = set().union(*(_referenced(defs[n]) for n in frontier)) & defs.keys()
        frontier, depth = reached - depths.keys(), depth + 1
    return depths


# ---------------------------------------------------------------------------------------------------------------
# The edit: bypass a set of definitions


def _callee(call: ast.Call, names: Collection[str]) -> str | None:
    """The definition in ``names`` a call calls: ``f(...)``, ``mod.f(...)`` (a helper module's function),
    ``C(...).m(...)``, ``C(...)(...)``, or a wrapper applied to it, ``torch.no_grad()(f)(...)``; else None."""
    func = call.func
    if isinstance(func, ast.Name):
        return func.id if func.id in names else None
    if isinstance(func, ast.Attribute) and isinstance(func.value, ast.Name) and func.attr in names:
        return func.attr
    inner = func.value if isinstance(func, ast.Attribute) else func
    if not isinstance(inner, ast.Call):
        return None
    if isinstance(inner.func, ast.Name) and inner.func.id in names:
        return inner.func.id
    named = {a.id for a in inner.args if isinstance(a, ast.Name) and a.id in names}
    return named.pop() if len(named) == 1 else None


def _first_argument(call: ast.Call) -> ast.expr | None:
    """What flows through a call: its first positional argument, else (``f1(x=x)``, a generated keyword path)
    its first keyword argument."""
    first = next((a for a in call.args if not isinstance(a, ast.Starred)), None)
    if first is None and not call.args and call.keywords and call.keywords[0].arg is not None:
        return call.keywords[0].value
    return first


class _Bypass(ast.NodeTransformer):
    def __init__(self, names: set[str]):
        self.names = names

    def visit_Call(self, node: ast.Call) -> ast.AST:
        if _callee(node, self.names):  # before visiting inside: ``C(...).m(a)`` is matched as a whole
            first = _first_argument(node)
            if first is not None:
                return self.visit(first)
        self.generic_visit(node)
        return node

    def visit_Expr(self, node: ast.Expr) -> ast.AST | None:
        # a call made for its effect only (``_effect("tag", x)``) goes whole, not as a bare argument
        if isinstance(node.value, ast.Call) and _callee(node.value, self.names):
            return None
        self.generic_visit(node)
        return node

    def visit_Dict(self, node: ast.Dict) -> ast.AST:
        # helper-module links ({"f": f, ...}): an entry naming a bypassed definition goes
        self.generic_visit(node)
        keep = [k for k, v in enumerate(node.values)
                if not (isinstance(v, ast.Name) and v.id in self.names)]
        node.keys = [node.keys[k] for k in keep]
        node.values = [node.values[k] for k in keep]
        return node

    def _decorated(self, node):
        node.decorator_list = [d for d in node.decorator_list if not _referenced(d) & self.names]
        self.generic_visit(node)
        return node

    visit_FunctionDef = visit_AsyncFunctionDef = visit_ClassDef = _decorated

    def visit_With(self, node: ast.With) -> ast.AST | list[ast.stmt]:
        node.items = [i for i in node.items if not _referenced(i.context_expr) & self.names]
        self.generic_visit(node)
        return node if node.items else node.body


def _header_names(stmt: ast.stmt) -> set[str]:
    """Names a statement reads outside its nested statement bodies."""
    if not isinstance(stmt, _COMPOUND):
        return _referenced(stmt)
    parts: list[ast.AST] = []
    for field, value in ast.iter_fields(stmt):
        if field in ("body", "orelse", "finalbody", "handlers"):
            continue
        parts.extend(value if isinstance(value, list) else [value])
    return set().union(*(_referenced(p) for p in parts if isinstance(p, ast.AST)))


def bypass(prog: Program, names: set[str], prune: bool = True) -> Program | None:
    """A copy of ``prog`` without the definitions ``names`` and their uses; None when nothing changed. With
    ``prune``, module-level definitions that nothing reads any more go too: one check instead of two, each
    compiling a program about as large as the original."""
    new = prog.copy()
    for module in _modules(new.tree):
        module.body[:] = [s for s in module.body if _def_name(s) not in names]
    for module in _modules(new.tree):
        _Bypass(names).visit(module)
    # Statements still naming a bypassed definition go; a def that only names it in a default is rare.
    for owner, field in stmt_lists(new.tree):
        body = getattr(owner, field)
        body[:] = [s for s in body if not (_header_names(s) & names and _def_name(s) is None)]
        _fill(body)
    for node in iter_nodes(new.tree):  # bodies the visitor emptied (stmt_lists sees non-empty ones only)
        for field in ("body", "finalbody"):
            if isinstance(getattr(node, field, None), list) and not isinstance(node, ast.Expression):
                _fill(getattr(node, field))
    if ast.dump(new.tree) == ast.dump(prog.tree):
        return None
    if prune:
        _prune_orphans(prog, new)
    return new


def _prune_orphans(prog: Program, new: Program) -> None:
    """Module-level definitions of ``new`` that nothing reads any more go (what nothing read in ``prog`` stays)."""
    unread = {id(_nth(prog.tree, i)) for i in _unused_defs(prog.tree)}
    before = {ast.dump(s) for s in iter_nodes(prog.tree) if id(s) in unread}
    for _ in range(20):
        found = [i for i in _unused_defs(new.tree) if ast.dump(_nth(new.tree, i)) not in before]
        if not found:
            break
        _remove_stmts(new.tree, found)


def _arguments_for(target: str, params: ast.arguments, tree: ast.Module, known: set[str]) -> ast.Call | None:
    """The arguments a direct call of ``target`` from ``entry`` passes (the value flowing through is put in by
    the caller, in place of the first one): just it for a one-parameter function; else a call of ``target`` in
    the program whose other arguments read only names in ``known`` (the builtins and the main module's top-level
    names: ``f2(x, 2)``, ``f3(x=x)``, ``f4(x)`` for ``def f4(*args)``), not a caller's locals (``f6(x, cm12)``)."""
    if len(params.args) == 1 and not (params.vararg or params.kwarg or params.kwonlyargs or params.posonlyargs):
        return ast.Call(ast.Name(target, ast.Load()), [ast.Name("x", ast.Load())], [])
    for site in (n for n in ast.walk(tree) if isinstance(n, ast.Call) and _callee(n, {target}) == target):
        first = _first_argument(site)
        parts = [*site.args, *(k.value for k in site.keywords)]
        if first is not None and all({n.id for n in ast.walk(part) if isinstance(n, ast.Name)} <= known
                                     for part in parts if part is not first):
            return site
    return None


def _with_first(site: ast.Call, func: ast.expr, first: ast.expr) -> ast.Call:
    """``site``'s arguments on ``func``, ``first`` in place of the value flowing through."""
    flowing = _first_argument(site)
    args = [first if a is flowing else copy.deepcopy(a) for a in site.args]
    keywords = [ast.keyword(k.arg, first if k.value is flowing else copy.deepcopy(k.value)) for k in site.keywords]
    return ast.Call(func, args, keywords)


class _DirectCalls:
    """What calling a function from ``entry`` takes, for the functions of one program: the tree's modules and
    the names any function reads found once, not once per function asked about (``cut-call-graph`` asks about
    every deep one each time it starts: a tree walk each, half a second on a 1,250-line program)."""

    def __init__(self, tree: ast.Module, defs: dict[str, ast.stmt]):
        self.tree, self.defs = tree, defs
        self.modules = _modules(tree)
        self.known = top_level_names(tree) | set(dir(builtins))

    def __call__(self, target: str) -> tuple[ast.Call, ast.expr] | None:
        """A call whose arguments to copy (``_arguments_for``) and the name to call ``target`` by (through its
        helper module's namespace for a helper module's function); None when it cannot be called from ``entry``
        (a class, a caller's local needed as an argument, ...)."""
        tree, fn = self.tree, self.defs.get(target)
        params = fn.value.args if isinstance(fn, ast.Assign) else getattr(fn, "args", None)
        if not isinstance(fn, ast.FunctionDef | ast.Assign) or not isinstance(params, ast.arguments):
            return None
        site = _arguments_for(target, params, tree, self.known)
        owner = next((m for m in self.modules if fn in m.body), None)
        namespace = next((_exec_target(s) for s in tree.body if _exec_target(s) and owner is not tree
                          and _helper_module(s) is owner), None)
        if site is None or owner is not tree and namespace is None:
            return None
        func = ast.Name(target, ast.Load()) if namespace is None else ast.Attribute(
            ast.Name(namespace, ast.Load()), target, ast.Load())
        return site, func


def shortcut(prog: Program, target: str) -> Program | None:
    """``entry``'s first call on the way to ``target`` calls ``target`` directly with the same first argument
    (and, for a function of more parameters, the other arguments of a call of it elsewhere that reads no
    caller's locals: ``_arguments_for``); the definitions in between go when nothing else reads them. None when
    it does not apply."""
    new = prog.copy()
    defs = _definitions(new.tree)
    direct = _DirectCalls(new.tree, defs)(target)
    if direct is None:
        return None
    site, func = direct
    entry = next(s for s in new.tree.body if isinstance(s, ast.FunctionDef) and s.name == "entry")
    for call in (n for n in ast.walk(entry) if isinstance(n, ast.Call)):
        callee = _callee(call, defs)
        first = _first_argument(call)
        if callee is None or callee == target or first is None or target not in _reachable(callee, defs):
            continue
        made = _with_first(site, func, first)
        call.func, call.args, call.keywords = made.func, made.args, made.keywords
        _prune_orphans(prog, new)
        return new
    return None


def _reachable(start: str, defs: dict[str, ast.stmt]) -> set[str]:
    seen, todo = {start}, [start]
    while todo:
        for name in _referenced(defs[todo.pop()]) & defs.keys():
            if name not in seen:
                seen.add(name)
                todo.append(name)
    return seen


def _helper_module(stmt: ast.stmt) -> ast.Module | None:
    code = stmt.value.args[0]
    if isinstance(code, ast.Call) and code.args:
        code = code.args[0]
    return getattr(code, "ngb_module", None)


def bisection(deepest: int) -> list[int]:
    """Cut depths in the order a bisection for the shallowest cut that keeps the bug tries them, each assuming
    the ones before it lost the bug: the middle of 1..deepest, then the middle of what is left above it, ...
    down to ``deepest``. The driver asks for a later edit only when every earlier one of the pass was not kept,
    and after a kept one it starts the pass again on the smaller program from the same position, which carries
    the search on below the cut that worked."""
    order, low = [], 1
    while low <= deepest:
        middle = (low + deepest) // 2
        order.append(middle)
        low = middle + 1
    return order


def _cheaper_first(a: list[tuple[int, Edit]], b: list[tuple[int, Edit]]) -> Iterator[Edit]:
    """The edits of two bisections, each in its own order, the one whose next candidate keeps less first."""
    i = j = 0
    while i < len(a) or j < len(b):
        if j >= len(b) or i < len(a) and a[i][0] <= b[j][0]:
            yield a[i][1]
            i += 1
        else:
            yield b[j][1]
            j += 1


@reduction_pass("cut-call-graph")
def cut_call_graph(prog: Program) -> Iterator[Edit]:
    """The aggressive bypasses, whose candidates are small and so cheap to check: cut the call graph at one
    depth from ``entry`` (a bisection over the depths: a bug needing a deep definition survives every deeper cut
    and no shallower one, so a deep bug costs a few checks, not one per depth); call a deep function from
    ``entry`` directly, skipping the chain in between (bisected the same way, deepest first: a bug that needs
    the frames from some depth down keeps every shortcut to a shallower function and none to a deeper one);
    then the shortcuts and cuts the bisections skipped, deepest and shallowest first.

    The two bisections go side by side, the candidate that keeps less of the program first (its definitions'
    size: what a check compiles). One after the other, a bug in the deepest function of a 452-line chain paid
    the cuts' whole bisection, each cut keeping more of the program (71 s a check of the whole), before the
    first shortcut: four checks' worth of the whole program, the round's ceiling, for nothing."""
    depths = definition_depths(prog.tree)
    deepest = max(depths.values(), default=0)
    first = bisection(deepest)
    cuts = first + [cut for cut in range(1, deepest + 1) if cut not in first]
    defs = _definitions(prog.tree)
    size = {name: sum(1 for _ in ast.walk(defs[name])) for name in depths}

    def cut_at(cut: int) -> Edit:
        return lambda: bypass(prog, {n for n, d in depths.items() if d >= cut})

    # deepest first, bisected: a shortcut to a shallower function keeps more of the chain, so the one that keeps
    # a bug needing the frames from f20 down is found in a few checks, not one per function below f20
    # of the functions entry can call directly: a class's or another name's slot would be a step of the
    # bisection taken for nothing (no candidate), and the next one shallower, as if it had lost the bug
    direct = _DirectCalls(prog.tree, defs)
    deep = [name for name in sorted(depths, key=lambda n: -depths[n]) if depths[name] > 1 and direct(name) is not None]
    bisected = [deep[at - 1] for at in bisection(len(deep))]
    kept_by_cut = [(sum(size[n] for n, d in depths.items() if d < cut), cut_at(cut)) for cut in first]
    kept_by_shortcut = [(sum(size[n] for n in _reachable(name, defs) if n in size),
                         lambda name=name: shortcut(prog, name)) for name in bisected]
    yield from _cheaper_first(kept_by_cut, kept_by_shortcut)
    for name in [name for name in deep if name not in set(bisected)]:
        yield lambda name=name: shortcut(prog, name)
    for cut in cuts[len(first):]:
        yield cut_at(cut)


@reduction_pass("bypass-definitions")
def bypass_definitions(prog: Program) -> Iterator[Edit]:
    """Delete whole definitions with their uses (a call becomes its first argument): chunks of the definitions
    reached from ``entry``, deepest first, half of them, a quarter, ... down to one (ddmin); a kept chunk saves a
    check per definition in it, each compiling a program about as large."""
    depths = definition_depths(prog.tree)
    order = sorted(depths, key=lambda n: -depths[n])
    size = 1 << max(0, (len(order) // 2).bit_length() - 1)
    while size >= 2:
        for start in range(0, len(order), size):
            yield lambda chunk=frozenset(order[start : start + size]): bypass(prog, set(chunk))
        size //= 2
    for name in order:
        yield lambda name=name: bypass(prog, {name})
