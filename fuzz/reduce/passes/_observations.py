"""strip-observations: what only records what happened, removed from the whole program in one check.

A generated program writes to its effect log everywhere (``_effect("f2.41", x)``, ``EFFECTS.append(...)``) and to
data globals (``LOG.append(x * 0.5)``, ``TABLE["f7.6"] = x``) so that the oracle sees wrong orders and values.
A crash, or a mismatch seen elsewhere, does not need them, and deleting them statement by statement costs one
check each, each compiling the whole program. Two candidates: every effect-log write at once, then those with
every write to a module-level data global. Whether the bug survives (an ``effects`` mismatch will not) is the
predicate's call; the helpers left unread go with the candidate.
"""

from __future__ import annotations

import ast
from collections.abc import Iterator

from fuzz.reduce._tree import Program, stmt_lists
from fuzz.reduce.passes._edits import Edit, _fill, reduction_pass
from oracle._programfile import EFFECT_LOG, writes_effect_log

__all__ = ["strip_observations"]

def _data_globals(tree: ast.Module) -> set[str]:
    """Main-module names bound once to a list, dict or set display: the data the program records into."""
    names = set()
    for stmt in tree.body:
        if (isinstance(stmt, ast.Assign) and len(stmt.targets) == 1 and isinstance(stmt.targets[0], ast.Name)
                and isinstance(stmt.value, ast.List | ast.Dict | ast.Set)):
            names.add(stmt.targets[0].id)
    return names - {EFFECT_LOG}


def _records(stmt: ast.stmt, into: set[str]) -> bool:
    """A write to the effect log (``writes_effect_log``), ``NAME.method(...)`` or ``NAME[k] = v`` for a data
    global NAME in ``into``."""
    if writes_effect_log(stmt):
        return True
    if isinstance(stmt, ast.Expr) and isinstance(stmt.value, ast.Call):
        func = stmt.value.func
        return isinstance(func, ast.Attribute) and isinstance(func.value, ast.Name) and func.value.id in into
    if isinstance(stmt, ast.Assign) and len(stmt.targets) == 1 and isinstance(stmt.targets[0], ast.Subscript):
        target = stmt.targets[0].value
        return isinstance(target, ast.Name) and target.id in into | {EFFECT_LOG}
    return False


def _without(prog: Program, into: set[str]) -> Program | None:
    new = prog.copy()
    changed = False
    for owner, field in stmt_lists(new.tree):
        if isinstance(owner, ast.Module):
            continue  # module-level statements set up; only what runs in functions records
        body = getattr(owner, field)
        kept = [s for s in body if not _records(s, into)]
        if len(kept) != len(body):
            body[:] = kept
            _fill(body)
            changed = True
    return new if changed else None


@reduction_pass("strip-observations")
def strip_observations(prog: Program) -> Iterator[Edit]:
    """Remove every effect-log write in one check; then with them every write to a module-level data global."""
    yield lambda: _without(prog, set())  # None when there is nothing to strip
    data = _data_globals(prog.tree)
    if data:
        yield lambda: _without(prog, data)
