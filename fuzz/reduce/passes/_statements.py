"""Statement-level source passes: unused definitions, chunks of statements, blocks."""

from __future__ import annotations

import ast
from collections.abc import Callable, Iterator

from fuzz.reduce._tree import REQUIRED_NAMES, Program, helper_update, iter_nodes, stmt_lists
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
from fuzz.reduce.passes._orphans import _reads, read_at

__all__ = ["delete_single_statements", "delete_statements", "remove_unused", "unwrap_blocks"]

def _is_required_def(stmt: ast.stmt, at_top: bool) -> bool:
    if not at_top:
        return False
    if isinstance(stmt, ast.FunctionDef | ast.ClassDef):
        return stmt.name in REQUIRED_NAMES
    if isinstance(stmt, ast.Assign):
        return any(isinstance(t, ast.Name) and t.id in REQUIRED_NAMES for t in stmt.targets)
    if isinstance(stmt, ast.Import):
        return any((a.asname or a.name).split(".")[0] in REQUIRED_NAMES for a in stmt.names)
    return False


# ---------------------------------------------------------------------------------------------------------------
# Names: what a program defines and what it reads


def _defined_by(stmt: ast.stmt) -> set[str]:
    """Names a module-level statement defines; ``exec(..., X.__dict__)`` counts as defining X (it fills X)."""
    if isinstance(stmt, ast.FunctionDef | ast.AsyncFunctionDef | ast.ClassDef):
        return {stmt.name}
    if isinstance(stmt, ast.Assign):
        return {t.id for t in stmt.targets if isinstance(t, ast.Name)}
    if isinstance(stmt, ast.AnnAssign | ast.AugAssign) and isinstance(stmt.target, ast.Name):
        return {stmt.target.id}
    if isinstance(stmt, ast.Import | ast.ImportFrom):
        return {(a.asname or a.name).split(".")[0] for a in stmt.names}
    target = _exec_target(stmt)
    return {target} if target else set()


def _exec_target(stmt: ast.stmt) -> str | None:
    if (
        isinstance(stmt, ast.Expr)
        and isinstance(stmt.value, ast.Call)
        and isinstance(stmt.value.func, ast.Name)
        and stmt.value.func.id == "exec"
        and len(stmt.value.args) >= 2
    ):
        ns = stmt.value.args[1]
        if isinstance(ns, ast.Attribute) and ns.attr == "__dict__" and isinstance(ns.value, ast.Name):
            return ns.value.id
    return None


def _uses(tree: ast.AST, outside: ast.stmt | None = None) -> set[str]:
    """Names read anywhere (Name loads, attribute names, global/nonlocal), except inside the statement
    ``outside``."""
    return _names_read(tree, {id(n) for n in iter_nodes(outside)} if outside is not None else set())


def _names_read(tree: ast.AST, skip: set[int], attributes: bool = True) -> set[str]:
    """Names read in ``tree`` outside the nodes ``skip`` (by id): Name loads, and unless ``attributes`` is
    False attribute names and global/nonlocal declarations."""
    used: set[str] = set()
    for node in iter_nodes(tree):
        if id(node) not in skip:
            used.update(read_at(node, attributes))
    return used


def _unused_defs(tree: ast.Module) -> list[int]:
    """Indices (in iter_nodes order) of module-level statements in any module whose names nobody reads.

    What a statement's names are read outside it is counted (reads in the whole tree less those inside it), one
    walk of the tree and one of each statement: a walk of the whole tree per statement made every bypass
    candidate of a 900-line program cost seconds of the reducer's own time (its orphan clean-up asks this up to
    20 times), as long as some checks."""
    found = []
    modules = [n for n in iter_nodes(tree) if isinstance(n, ast.Module)]
    all_nodes = _indexed(tree)
    index = {id(node): i for i, node in all_nodes}
    total = _reads(tree)
    for module in modules:
        for stmt in module.body:
            names = _defined_by(stmt)
            if not names or names & (set(REQUIRED_NAMES) - {"torch"}) or "WANTS_GRAD" in names:
                continue
            if isinstance(stmt, ast.Import | ast.ImportFrom) and module is tree and "torch" in names:
                continue
            inside = _reads(stmt)
            used = {name for name in names if total[name] > inside[name]}
            if _exec_target(stmt) is None and not names & used:
                found.append(index[id(stmt)])
            elif _exec_target(stmt) is not None and _exec_target(stmt) not in _uses_outside_exec(tree, stmt):
                found.append(index[id(stmt)])
    return found


def _uses_outside_exec(tree: ast.AST, exec_stmt: ast.stmt) -> set[str]:
    """Names read outside ``exec_stmt`` and outside every other ``exec(..., X.__dict__)`` filling the same X."""
    target = _exec_target(exec_stmt)
    skip: set[int] = set()
    for node in iter_nodes(tree):
        if isinstance(node, ast.stmt) and _exec_target(node) == target:
            skip.update(id(n) for n in iter_nodes(node))
    return _names_read(tree, skip, attributes=False)


def _remove_stmts(tree: ast.Module, indices: list[int]) -> None:
    targets = {id(_nth(tree, i)) for i in indices}
    for owner, field in stmt_lists(tree):
        body = getattr(owner, field)
        body[:] = [s for s in body if id(s) not in targets]
        _fill(body)


# ---------------------------------------------------------------------------------------------------------------
# The passes (their order is the list in fuzz.reduce.passes)


def _unused_members(tree: ast.Module) -> list[int]:
    """Indices of class-body methods and attributes (not dunders, not in subclasses) whose name nothing reads:
    neither as a name, an attribute nor a string (``getattr(obj, "name")``, ``object.__setattr__(self, "n", v)``)."""
    found = []
    indexed = _indexed(tree)
    index = {id(node): i for i, node in indexed}
    strings = {n.value for _, n in indexed if isinstance(n, ast.Constant) and isinstance(n.value, str)}
    for _, node in indexed:
        # a subclass may override what its base calls by name (``forward``, ``default``): never unused
        if not isinstance(node, ast.ClassDef) or any(not (isinstance(b, ast.Name) and b.id == "object")
                                                     for b in node.bases):
            continue
        for stmt in node.body:
            names = _defined_by(stmt) if isinstance(stmt, ast.FunctionDef | ast.Assign | ast.AnnAssign) else set()
            if names and not any(n.startswith("__") for n in names) and not names & (_uses(tree, stmt)
                                                                                      | strings):
                found.append(index[id(stmt)])
    return found


def _unused_links(tree: ast.Module) -> list[tuple[int, str]]:
    """(dict index, key) of helper-module links ``X.__dict__.update({"name": value})`` whose name X's own code never
    reads: the link alone keeps ``value`` alive in the main module."""
    helpers = {}
    for stmt in tree.body:
        target = _exec_target(stmt)
        code = stmt.value.args[0] if target else None
        if isinstance(code, ast.Call) and code.args:
            code = code.args[0]
        module = getattr(code, "ngb_module", None)
        if target and module is not None:
            helpers[target] = _uses(module)
    found = []
    indexed = _indexed(tree)
    index = {id(node): i for i, node in indexed}
    for _, node in indexed:
        module = helper_update(node)
        if module not in helpers or len(node.args) != 1 or not isinstance(node.args[0], ast.Dict):
            continue
        reads = helpers[module]
        found += [(index[id(node.args[0])], k.value) for k in node.args[0].keys
                  if isinstance(k, ast.Constant) and k.value not in reads]
    return found


def _remove_links(tree: ast.Module, links: list[tuple[int, str]]) -> None:
    targets: dict[int, set[str]] = {}
    for i, key in links:
        targets.setdefault(id(_nth(tree, i)), set()).add(key)
    for node in iter_nodes(tree):
        if isinstance(node, ast.Dict) and id(node) in targets:
            keep = [k for k, key in enumerate(node.keys)
                    if not (isinstance(key, ast.Constant) and key.value in targets[id(node)])]
            node.keys, node.values = [node.keys[k] for k in keep], [node.values[k] for k in keep]


def _prune(tree: ast.Module, defs: bool = True, members: bool = True, links: bool = True) -> bool:
    """One round of removing what nothing reads; whether anything went."""
    found = (_unused_defs(tree) if defs else []) + (_unused_members(tree) if members else [])
    dead_links = _unused_links(tree) if links else []
    _remove_links(tree, dead_links)  # by index: before statements go
    _remove_stmts(tree, found)
    return bool(found or dead_links)


@reduction_pass("remove-unused")
def remove_unused(prog: Program) -> Iterator[Edit]:
    """Remove what nothing reads, all in one check: module-level functions, classes, globals, imports and helper
    modules, methods and class attributes, helper-module links; then kind by kind, then one definition at a
    time, when the batch loses the bug."""
    unused = _unused_defs(prog.tree)
    kinds = [k for k, found in (("defs", unused), ("members", _unused_members(prog.tree)),
                                ("links", _unused_links(prog.tree))) if found]
    if not kinds:
        return

    def remove_all(only: str | None = None) -> Program | None:
        new = prog.copy()
        flags = {k: only in (None, k) for k in ("defs", "members", "links")}
        for _ in range(20):  # removing one definition can leave another unused
            if not _prune(new.tree, **flags):
                break
        return new

    yield remove_all
    if len(kinds) > 1:
        for kind in kinds:
            yield lambda kind=kind: remove_all(kind)
    if len(unused) > 1:
        for i in unused:
            yield _edit_at(prog, i, lambda tree, node: _remove_stmts(tree, [_index_of(tree, node)]))


def _index_of(tree: ast.AST, target: ast.AST) -> int:
    for i, node in enumerate(iter_nodes(tree)):
        if node is target:
            return i
    raise ValueError("node not in tree")


@reduction_pass("delete-statements")
def delete_statements(prog: Program) -> Iterator[Edit]:
    """Delete chunks of consecutive statements, top-down: the statement lists of one nesting depth at a time,
    outermost first (module bodies, then function bodies, then the bodies of blocks inside them); within a depth
    one granularity at a time across every list (each list's largest power-of-two chunk, halved each round down
    to two statements, or a whole list of one), so a budget cut short still tried the coarse chunks of every
    function (ddmin-style). Single statements of longer lists are delete-single-statements' (later)."""
    yield from _chunks(prog, single=False)


@reduction_pass("delete-single-statements")
def delete_single_statements(prog: Program) -> Iterator[Edit]:
    """Delete one statement of a list of several, top-down as delete-statements: the finest deletion, a check
    for a line, so it comes after the passes that take a definition or a block per check."""
    yield from _chunks(prog, single=True)


def _chunks(prog: Program, single: bool) -> Iterator[Edit]:
    depth = _nesting(prog.tree)
    levels: dict[int, list[tuple[int, str, list[ast.stmt]]]] = {}
    for site in _stmt_sites(prog):  # file order within a depth
        body = site[2]
        if not (len(body) == 1 and isinstance(body[0], ast.Pass)):
            levels.setdefault(depth[site[0]], []).append(site)
    for level in sorted(levels):
        sites = levels[level]
        rounds = max(len(body) for _, _, body in sites).bit_length()
        for r in range(rounds):
            for owner, field, body in sites:
                size = (1 << (len(body).bit_length() - 1)) >> r
                if size == 0 or (size == 1 and len(body) > 1) != single:
                    continue
                for start in range(0, len(body), size):
                    if not any(_is_required_def(st, owner == 0) for st in body[start : start + size]):
                        yield _delete_chunk(prog, owner, field, start, size)


def _nesting(tree: ast.Module) -> dict[int, int]:
    """Index (in iter_nodes order) of every node -> how many statements enclose it."""
    depth: dict[int, int] = {}
    enclosing = {id(tree): 0}
    for i, node in _indexed(tree):
        level = enclosing.get(id(node), 0)
        depth[i] = level
        inner = level + 1 if isinstance(node, ast.stmt) else level
        for child in ast.iter_child_nodes(node):
            enclosing[id(child)] = inner
        nested = getattr(node, "ngb_module", None)
        if nested is not None:
            enclosing[id(nested)] = level
    return depth


def _delete_chunk(prog: Program, owner: int, field: str, start: int, size: int) -> Edit:
    def build() -> Program | None:
        new = prog.copy()
        body = _list_of(new.tree, owner, field)
        del body[start : start + size]
        _fill(body)
        return new

    return build


@reduction_pass("unwrap-blocks")
def unwrap_blocks(prog: Program) -> Iterator[Edit]:
    """Replace a with/try/for/while/if/match statement by one of its bodies (a match: also by itself less one
    case); drop decorators one at a time."""
    for owner, field, body in _stmt_sites(prog):
        for pos, stmt in enumerate(body):
            for choice in _block_choices(stmt):
                yield _splice(prog, owner, field, pos, choice)
    for i, node in _indexed(prog.tree):
        if isinstance(node, ast.FunctionDef | ast.ClassDef):
            for d in range(len(node.decorator_list)):
                yield _edit_at(prog, i, lambda tree, n, d=d: n.decorator_list.pop(d) and None)


def _block_choices(stmt: ast.stmt) -> list[Callable[[ast.stmt], list[ast.stmt]]]:
    if isinstance(stmt, ast.With | ast.AsyncWith):
        return [lambda s: s.body]
    if isinstance(stmt, ast.Try | ast.TryStar):
        choices = [lambda s: s.body, lambda s: s.body + s.finalbody]
        choices += [lambda s, k=k: s.handlers[k].body for k in range(len(stmt.handlers))]
        if stmt.orelse:
            choices.append(lambda s: s.body + s.orelse)
        if stmt.handlers and stmt.finalbody:  # ``finally: pass`` (or any finally) gone, the handlers kept
            choices.append(lambda s: [_replaced(s, finalbody=[])])
        if stmt.handlers and stmt.orelse:
            choices.append(lambda s: [_replaced(s, orelse=[])])
        return choices
    if isinstance(stmt, ast.For) and _one_item(stmt.iter) is not None and not stmt.orelse and not any(
            isinstance(n, ast.Break | ast.Continue) for b in stmt.body for n in ast.walk(b)):
        # a loop of one iteration, unrolled: the loop variable keeps its value
        return [lambda s: [ast.Assign(targets=[s.target], value=_one_item(s.iter), lineno=0), *s.body]]
    if isinstance(stmt, ast.For | ast.While):
        # a loop's body, once: its own break/continue would be outside any loop there, so they become pass
        # (``while True: ... if i >= 3: break`` runs its body once)
        return [lambda s: _without_jumps(s.body)] + ([lambda s: s.orelse] if stmt.orelse else [])
    if isinstance(stmt, ast.If):
        return [lambda s: s.body, lambda s: s.orelse if s.orelse else [ast.Pass()]]
    if isinstance(stmt, ast.Match):
        # a case's body in place of the match (names its pattern binds are then unbound: eager refuses that
        # candidate), or the match without one of its cases
        choices = [lambda s, k=k: s.cases[k].body for k in range(len(stmt.cases))]
        if len(stmt.cases) > 1:
            choices += [lambda s, k=k: [_replaced(s, cases=s.cases[:k] + s.cases[k + 1:])]
                        for k in range(len(stmt.cases))]
        return choices
    return []


def _replaced(stmt: ast.stmt, **fields: list[ast.stmt] | list[ast.match_case]) -> ast.stmt:
    for name, value in fields.items():
        setattr(stmt, name, value)
    return stmt


def _without_jumps(body: list[ast.stmt]) -> list[ast.stmt]:
    """``body`` with the ``break``/``continue`` statements of its own loop (not of loops or functions nested in
    it) replaced by ``pass``."""

    class Jumps(ast.NodeTransformer):
        def visit_Break(self, node: ast.Break) -> ast.stmt:
            return ast.Pass()

        visit_Continue = visit_Break

        def _nested(self, node: ast.AST) -> ast.AST:
            return node  # a nested loop's or function's jumps are its own

        visit_For = visit_AsyncFor = visit_While = visit_FunctionDef = visit_AsyncFunctionDef = _nested
        visit_ClassDef = visit_Lambda = _nested

    return [Jumps().visit(stmt) for stmt in body]


def _one_item(node: ast.expr) -> ast.expr | None:
    """The only item of ``[a]``, ``(a,)`` or ``range(1)`` (as ``0``); else None."""
    if isinstance(node, ast.List | ast.Tuple) and len(node.elts) == 1 and not isinstance(node.elts[0], ast.Starred):
        return node.elts[0]
    if (isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id == "range"
            and len(node.args) == 1 and isinstance(node.args[0], ast.Constant) and node.args[0].value == 1):
        return ast.Constant(0)
    return None


def _splice(prog: Program, owner: int, field: str, pos: int, choice) -> Edit:
    def build() -> Program | None:
        new = prog.copy()
        body = _list_of(new.tree, owner, field)
        body[pos : pos + 1] = list(choice(body[pos]))
        body[:] = [s for s in body if not isinstance(s, ast.Pass)]  # an unwrapped ``if c: pass`` leaves nothing
        _fill(body)
        return new

    return build
