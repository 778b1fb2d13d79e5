"""remove-dead-stores: every store nothing reads, in one check, before any statement is deleted one by one.

Generated programs bind names they never read (``cm30 = 'c'``, ``y4 = x``), rebind a name to itself
(``x = x``) and declare ``nonlocal``/``global`` names a function never stores. canonical-forms rewrites such a
store into its value one site per check, and delete-statements finds them in chunks, both late: a reduction cut
short by its budget kept them all. One candidate here takes them all at once (a store's value stays as a
statement when it can do something, a name or a constant goes); canonical-forms still offers them one by one
when the bug needs one of them. A tidy pass:
the driver runs it again after every pass that kept an edit, since deleting a statement leaves the stores only
it read dead (one check, none when there is nothing to take). Whether the
bug survives (a store may keep a value alive across a break) is the predicate's call, as for any edit.
"""

from __future__ import annotations

import ast
from collections.abc import Iterator

from fuzz.reduce._tree import Program, iter_nodes, stmt_lists
from fuzz.reduce.passes._canonical import _dead_stores, _functions
from fuzz.reduce.passes._edits import Edit, _fill, reduction_pass

__all__ = ["remove_dead_stores"]

_PLAIN = (ast.Name, ast.Constant)


def _self_stores(fn: ast.AST) -> list[ast.Assign]:
    """``x = x`` statements of ``fn`` (nested functions have their own)."""
    return [n for n in iter_nodes(fn) if isinstance(n, ast.Assign) and len(n.targets) == 1
            and isinstance(n.targets[0], ast.Name) and isinstance(n.value, ast.Name)
            and n.value.id == n.targets[0].id]


def _unused_declarations(fn: ast.AST) -> list[tuple[ast.Global | ast.Nonlocal, list[str]]]:
    """``global``/``nonlocal`` statements of ``fn`` itself and the names in them that ``fn`` never stores to
    (reads alone do not need the declaration: they find the same binding without it)."""
    own: list[ast.AST] = []
    stack = list(ast.iter_child_nodes(fn))
    while stack:
        node = stack.pop()
        own.append(node)
        if not isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef | ast.Lambda | ast.ClassDef):
            stack.extend(ast.iter_child_nodes(node))
    stored = {n.id for n in own if isinstance(n, ast.Name) and isinstance(n.ctx, ast.Store | ast.Del)}
    # a nested function's own nonlocal refers to fn's binding only through fn's scope: keep fn's then
    nested_nonlocal = {name for n in own if isinstance(n, ast.FunctionDef | ast.AsyncFunctionDef)
                       for m in ast.walk(n) if isinstance(m, ast.Nonlocal) for name in m.names}
    return [(n, [name for name in n.names if name not in stored and name not in nested_nonlocal])
            for n in own if isinstance(n, ast.Global | ast.Nonlocal)]


def _clean(tree: ast.Module) -> bool:
    """Remove the dead stores, self-stores and unused declarations of every function in ``tree``; False when
    there were none."""
    by_index = dict(enumerate(iter_nodes(tree)))
    dead = {id(getattr(by_index[owner], field)[pos]) for owner, field, pos in _dead_stores(Program("", tree, "", ()))}
    changed = False
    for fn in _functions(tree):
        dead.update(id(s) for s in _self_stores(fn))
        for decl, names in _unused_declarations(fn):
            if names:
                kept = [name for name in decl.names if name not in names]
                if kept:
                    decl.names = kept
                else:
                    dead.add(id(decl))
                changed = True
    for owner, field in stmt_lists(tree):
        body = getattr(owner, field)
        new_body: list[ast.stmt] = []
        for stmt in body:
            if id(stmt) not in dead:
                new_body.append(stmt)
                continue
            changed = True
            if isinstance(stmt, ast.Assign) and not isinstance(stmt.value, _PLAIN):
                new_body.append(ast.Expr(stmt.value))
        if len(new_body) != len(body) or any(a is not b for a, b in zip(new_body, body)):
            body[:] = new_body
            _fill(body)
    return changed


@reduction_pass("remove-dead-stores", tidy=True)
def remove_dead_stores(prog: Program) -> Iterator[Edit]:
    """Every store nothing reads (and ``x = x``, and unused ``global``/``nonlocal`` names) removed at once."""
    def everywhere() -> Program | None:
        new = prog.copy()
        if not _clean(new.tree):
            return None
        for _ in range(3):  # a declaration gone can leave the store it kept alive dead
            if not _clean(new.tree):
                break
        return new

    yield everywhere
