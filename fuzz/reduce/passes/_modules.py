"""Helper modules folded into the main module, when the bug does not need them to be separate modules.

A generated program may define helper modules in its own file: ``ngb_h = types.ModuleType("ngb_h")``, a few
``ngb_h.__dict__.update({...})`` links, and ``exec(compile('''<source>''', "ngb_h", "exec"), ngb_h.__dict__)``.
Inlining puts the helper's statements where its ``exec`` was, turns ``ngb_h.name`` into ``name`` and drops the
module's set-up lines. The helper's own globals that the main module defines too (``G_SCALE``, ``LOG``) are
renamed (``G_SCALE_h``) so each module keeps its own; imports the main module already has are dropped.
Whether the bug survives is the predicate's call, like for any other edit.
"""

from __future__ import annotations

import ast
from collections.abc import Iterator

from fuzz.reduce._tree import Program, helper_update, iter_nodes
from fuzz.reduce.passes._edits import Edit, reduction_pass

__all__ = ["inline_helper_modules"]


def _helper_exec(stmt: ast.stmt) -> tuple[str, ast.Module] | None:
    """(module variable, parsed helper source) for ``exec(compile(SRC, ...), X.__dict__)``; else None."""
    if not (isinstance(stmt, ast.Expr) and isinstance(stmt.value, ast.Call) and isinstance(stmt.value.func, ast.Name)
            and stmt.value.func.id == "exec" and len(stmt.value.args) == 2):
        return None
    code, namespace = stmt.value.args
    if not (isinstance(namespace, ast.Attribute) and namespace.attr == "__dict__"
            and isinstance(namespace.value, ast.Name)):
        return None
    if isinstance(code, ast.Call) and isinstance(code.func, ast.Name) and code.func.id == "compile" and code.args:
        code = code.args[0]
    module = getattr(code, "ngb_module", None)
    return (namespace.value.id, module) if module is not None else None


def _is_setup(stmt: ast.stmt, name: str) -> bool:
    """``X = types.ModuleType(...)`` or ``X.__dict__.update(...)``."""
    if isinstance(stmt, ast.Assign) and [t.id for t in stmt.targets if isinstance(t, ast.Name)] == [name]:
        value = stmt.value
        return isinstance(value, ast.Call) and isinstance(value.func, ast.Attribute) and value.func.attr == "ModuleType"
    return isinstance(stmt, ast.Expr) and helper_update(stmt.value) == name


def _top_names(body: list[ast.stmt]) -> set[str]:
    names: set[str] = set()
    for stmt in body:
        if isinstance(stmt, ast.FunctionDef | ast.AsyncFunctionDef | ast.ClassDef):
            names.add(stmt.name)
        elif isinstance(stmt, ast.Assign):
            names.update(t.id for t in stmt.targets if isinstance(t, ast.Name))
        elif isinstance(stmt, ast.Import | ast.ImportFrom):
            names.update((a.asname or a.name).split(".")[0] for a in stmt.names)
    return names


@reduction_pass("inline-helper-modules")
def inline_helper_modules(prog: Program) -> Iterator[Edit]:
    """Fold a helper module (types.ModuleType + exec in the program file) into the main module."""
    for pos, stmt in enumerate(prog.tree.body):
        found = _helper_exec(stmt)
        if found is not None:
            yield lambda pos=pos, name=found[0]: _inline(prog, pos, name)


def _inline(prog: Program, pos: int, name: str) -> Program | None:
    new = prog.copy()
    body = new.tree.body
    _, helper = _helper_exec(body[pos])
    main = [s for k, s in enumerate(body) if k != pos and not _is_setup(s, name)]
    main_imports = {ast.dump(s) for s in main if isinstance(s, ast.Import | ast.ImportFrom)}
    stmts = [s for s in helper.body if ast.dump(s) not in main_imports]
    if _top_names([s for s in stmts if isinstance(s, ast.Import | ast.ImportFrom)]) & _top_names(main):
        return None  # an import under a name the main module binds otherwise
    suffix = name.removeprefix("ngb_")
    clashes = {n: f"{n}_{suffix}" for n in _top_names(stmts) & _top_names(main)}
    if set(clashes.values()) & (_top_names(main) | _top_names(stmts)):
        return None
    for node in (n for s in stmts for n in iter_nodes(s)):
        if isinstance(node, ast.Name) and node.id in clashes:
            node.id = clashes[node.id]
        elif isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef | ast.ClassDef) and node.name in clashes:
            node.name = clashes[node.name]
        elif isinstance(node, ast.Global | ast.Nonlocal):
            node.names = [clashes.get(n, n) for n in node.names]
    body[pos:pos + 1] = stmts
    body[:] = [s for s in body if not _is_setup(s, name)]
    # X.attr -> attr everywhere (main module and other helpers); any other use of X means it is still needed.
    for node in iter_nodes(new.tree):
        for field, value in ast.iter_fields(node):
            items = value if isinstance(value, list) else [value]
            for k, item in enumerate(items):
                if (isinstance(item, ast.Attribute) and isinstance(item.value, ast.Name) and item.value.id == name
                        and item.attr != "__dict__"):
                    replacement = ast.Name(clashes.get(item.attr, item.attr), item.ctx)
                    if isinstance(value, list):
                        value[k] = replacement
                    else:
                        setattr(node, field, replacement)
    if any(isinstance(n, ast.Name) and n.id == name for n in iter_nodes(new.tree)):
        return None
    return new
