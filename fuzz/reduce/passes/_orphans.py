"""The clean-up every source candidate gets before it is checked: definitions that the edit left unread go in
the same candidate.

Deleting the only call of a helper used to cost a second check (remove-unused) of a program about as large; a
check compiles the program, so the clean-up rides along with the edit instead. Only definitions go (functions,
classes, ``name = lambda ...``, imports), never data globals, which the oracle observes; and only those the
edit orphaned: what nothing read before the edit stays, so a clean-up that loses the bug cannot sink every
later edit (remove-unused tries that on its own).
"""

from __future__ import annotations

import ast
from collections import Counter
from collections.abc import Sequence

from fuzz.reduce._tree import REQUIRED_NAMES, Program, iter_nodes, stmt_lists
from fuzz.reduce.passes._edits import _fill

__all__ = ["defined_names", "drop_noops", "drop_orphans", "unread_definitions"]


def read_at(node: ast.AST, attributes: bool = True) -> Sequence[str]:
    """The names one node reads, as the reducer's passes read them: a Name load, and unless ``attributes`` is
    False an attribute's name and a global/nonlocal declaration's names."""
    if isinstance(node, ast.Name):
        return () if isinstance(node.ctx, ast.Store) else (node.id,)
    if not attributes:
        return ()
    if isinstance(node, ast.Attribute):
        return (node.attr,)
    if isinstance(node, ast.Global | ast.Nonlocal):
        return node.names
    return ()


def _reads(node: ast.AST) -> Counter[str]:
    """Names read in ``node``'s subtree, with how often: the same reading as remove-unused (``read_at``)."""
    counts: Counter[str] = Counter()
    for sub in iter_nodes(node):
        counts.update(read_at(sub))
    return counts


def defined_names(stmt: ast.stmt) -> set[str]:
    if isinstance(stmt, ast.FunctionDef | ast.AsyncFunctionDef | ast.ClassDef):
        return {stmt.name}
    if (isinstance(stmt, ast.Assign) and len(stmt.targets) == 1 and isinstance(stmt.targets[0], ast.Name)
            and isinstance(stmt.value, ast.Lambda)):
        return {stmt.targets[0].id}
    if isinstance(stmt, ast.Import | ast.ImportFrom):
        return {(a.asname or a.name).split(".")[0] for a in stmt.names}
    return set()


def unread_definitions(tree: ast.Module) -> list[ast.stmt]:
    """Module-level definitions (in the main module and helper modules) none of whose names is read outside
    them; one walk over the tree, not one per definition."""
    total = _reads(tree)
    found = []
    for module in (n for n in iter_nodes(tree) if isinstance(n, ast.Module)):
        for stmt in module.body:
            names = defined_names(stmt)
            if not names or names & set(REQUIRED_NAMES):
                continue
            inside = _reads(stmt)
            if all(total[name] == inside[name] for name in names):
                found.append(stmt)
    return found


def drop_orphans(before: Program, after: Program, kept: frozenset[str] | None = None) -> Program:
    """``after`` without the definitions the edit from ``before`` left unread (removing one may orphan
    another); ``kept``: names unread in ``before`` already, when the caller has them."""
    if kept is None:
        kept = frozenset(name for stmt in unread_definitions(before.tree) for name in defined_names(stmt))
    if drop_noops(after.tree):
        after = after.with_tree(after.tree)
    for _ in range(20):
        orphans = {id(s) for s in unread_definitions(after.tree) if not defined_names(s) & kept}
        if not orphans:
            break
        for owner, field in stmt_lists(after.tree):
            body = getattr(owner, field)
            if any(id(s) in orphans for s in body):
                body[:] = [s for s in body if id(s) not in orphans]
                _fill(body)
        after = after.with_tree(after.tree)  # a fresh Program: its cached source is stale
    return after


def drop_noops(tree: ast.Module) -> bool:
    """Remove ``pass`` from statement lists that have other statements, statements that are a constant
    (``None``, ``0``; a docstring stays), and an ``else:`` of nothing but those: none compiles to anything, so
    no check is needed. Whether anything went."""
    changed = False
    for owner, field in stmt_lists(tree):
        body = getattr(owner, field)
        docstring = bool(body) and isinstance(owner, ast.FunctionDef | ast.ClassDef | ast.Module) and _is_constant(
            body[0]) and isinstance(body[0].value.value, str)
        kept = [s for k, s in enumerate(body)
                if not (isinstance(s, ast.Pass) or _is_constant(s)) or (k == 0 and docstring)]
        if field == "orelse" and not kept and isinstance(owner, ast.If | ast.For | ast.While | ast.Try):
            body.clear()  # ``else: pass`` compiles to nothing either
            changed = True
        elif len(kept) != len(body):
            if kept or not (len(body) == 1 and isinstance(body[0], ast.Pass)):
                body[:] = kept
                _fill(body)
                changed = True
    return changed


def _is_constant(stmt: ast.stmt) -> bool:
    return isinstance(stmt, ast.Expr) and isinstance(stmt.value, ast.Constant)
