"""drop-arguments: parameters with their arguments, keywords, display items and class bases, one per candidate."""

from __future__ import annotations

import ast
from collections.abc import Iterator

from fuzz.reduce._tree import Program, iter_nodes
from fuzz.reduce.passes._edits import Edit, _edit_at, _indexed, reduction_pass

__all__ = ["drop_arguments"]


@reduction_pass("drop-arguments")
def drop_arguments(prog: Program) -> Iterator[Edit]:
    """Drop a parameter with its argument at every call (for ``entry``, also its input); drop keywords, items and
    a class's bases (an empty base class left behind is then unused)."""
    for i, node in _indexed(prog.tree):
        if isinstance(node, ast.FunctionDef) and not (node.args.vararg or node.args.kwarg):
            for k in range(len(node.args.args)):
                yield _edit_at(prog, i, lambda tree, n, k=k: _drop_param(tree, n, k))
    for i, node in _indexed(prog.tree):
        if isinstance(node, ast.ClassDef):
            for k in range(len(node.bases)):
                yield _edit_at(prog, i, lambda tree, n, k=k: n.bases.pop(k) and None)
        elif isinstance(node, ast.Call):
            for k in range(len(node.keywords)):
                yield _edit_at(prog, i, lambda tree, n, k=k: n.keywords.pop(k) and None)
        elif isinstance(node, ast.Tuple | ast.List | ast.Set) and isinstance(getattr(node, "ctx", ast.Load()), ast.Load):
            for k in range(len(node.elts)):
                yield _edit_at(prog, i, lambda tree, n, k=k: n.elts.pop(k) and None)
        elif isinstance(node, ast.Dict):
            for k in range(len(node.keys)):
                yield _edit_at(prog, i, lambda tree, n, k=k: (n.keys.pop(k), n.values.pop(k)) and None)


def _drop_param(tree: ast.Module, fn: ast.FunctionDef, k: int) -> bool | None:
    name = fn.args.args[k].arg
    is_method = any(isinstance(n, ast.ClassDef) and fn in n.body for n in ast.walk(tree))
    if is_method:
        return False
    defaults = fn.args.defaults
    first_default = len(fn.args.args) - len(defaults)
    if k >= first_default:
        defaults.pop(k - first_default)
    fn.args.args.pop(k)
    for node in iter_nodes(tree):
        if isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id == fn.name:
            if any(isinstance(a, ast.Starred) for a in node.args[: k + 1]):
                return False
            if len(node.args) > k:
                node.args.pop(k)
            node.keywords = [kw for kw in node.keywords if kw.arg != name]
    if fn.name == "entry":
        return _drop_input(tree, k)
    return None


def _drop_input(tree: ast.Module, k: int) -> bool | None:
    for stmt in tree.body:
        if isinstance(stmt, ast.FunctionDef) and stmt.name == "make_inputs":
            for node in ast.walk(stmt):
                if isinstance(node, ast.Return) and isinstance(node.value, ast.Tuple | ast.List):
                    if len(node.value.elts) <= k:
                        return False
                    node.value.elts.pop(k)
            return None
    return None
