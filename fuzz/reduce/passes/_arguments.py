"""drop-arguments: parameters with their arguments, keywords, display items and class bases, one per candidate.

A parameter goes with its argument at every call, positional or keyword: a function's at every ``f(...)``, an
``__init__``'s at every construction ``C(...)`` (when the class is only ever called by name and has no subclass,
so those are all of its calls). An ``__init__`` that does nothing (``pass``, in a class without other bases than
``object``; or only ``super().__init__()``, which the base's own ``__init__`` does as well) goes with every
construction's arguments at once: ``C1(1.0)(x)`` as ``C1()(x)``.
"""

from __future__ import annotations

import ast
from collections.abc import Iterator

from fuzz.reduce._tree import Program, helper_update, iter_nodes
from fuzz.reduce.passes._classes import _is_super_init
from fuzz.reduce.passes._edits import Edit, _edit_at, _fill, _indexed, reduction_pass

__all__ = ["drop_arguments"]


@reduction_pass("drop-arguments")
def drop_arguments(prog: Program) -> Iterator[Edit]:
    """Drop a parameter with its argument at every call (for ``entry``, also its input; for ``__init__``, at every
    construction); drop an ``__init__`` that does nothing with every construction's arguments; drop an unread
    ``*args``/``**kw``; drop keywords, items and a class's bases (an empty base class left behind is then
    unused)."""
    for i, node in _indexed(prog.tree):
        if isinstance(node, ast.ClassDef) and any(isinstance(s, ast.FunctionDef) and s.name == "__init__"
                                                  for s in node.body):
            yield _edit_at(prog, i, _drop_init)  # before its parameters one by one: one check for them all
        if isinstance(node, ast.FunctionDef) and not (node.args.vararg or node.args.kwarg):
            for k in range(len(node.args.args)):
                yield _edit_at(prog, i, lambda tree, n, k=k: _drop_param(tree, n, k))
        elif isinstance(node, ast.FunctionDef):
            for star in ("vararg", "kwarg"):
                yield _edit_at(prog, i, lambda tree, n, star=star: _drop_unread_star(n, star))
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
    cls = next((n for n in iter_nodes(tree) if isinstance(n, ast.ClassDef) and fn in n.body), None)
    if cls is not None:  # a method: only ``__init__``'s parameters, whose arguments are at the constructions
        if fn.name != "__init__" or k == 0 or not _constructed_by_name(tree, cls):
            return False
        callee, at = cls.name, k - 1
    else:
        callee, at = fn.name, k
    name = fn.args.args[k].arg
    defaults = fn.args.defaults
    first_default = len(fn.args.args) - len(defaults)
    if k >= first_default:
        defaults.pop(k - first_default)
    fn.args.args.pop(k)
    for node in iter_nodes(tree):
        if isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id == callee:
            if any(isinstance(a, ast.Starred) for a in node.args[: at + 1]):
                return False
            if len(node.args) > at:
                node.args.pop(at)
            node.keywords = [kw for kw in node.keywords if kw.arg != name]
    if cls is None and fn.name == "entry":
        return _drop_input(tree, k)
    return None


def _drop_unread_star(fn: ast.FunctionDef, star: str) -> bool | None:
    """``*args`` (``star="vararg"``) or ``**kw`` (``"kwarg"``) that nothing in ``fn`` reads, dropped (a call that
    still passes it something then raises TypeError, which the predicate's eager run rejects)."""
    param = getattr(fn.args, star)
    if param is None or any(isinstance(n, ast.Name) and n.id == param.arg for n in ast.walk(fn)):
        return False
    setattr(fn.args, star, None)
    return None


def _constructed_by_name(tree: ast.Module, cls: ast.ClassDef) -> bool:
    """Whether every use of the module-level class ``cls`` is a call ``C(...)``: its constructions are all known,
    and no subclass inherits its ``__init__`` (or calls it through ``super()``). A helper module's link to it
    under its own name (``_h.__dict__.update({"C": C})``) is no other use: the helper's code calls it as ``C``,
    and that code is part of the tree."""
    if not any(isinstance(n, ast.Module) and cls in n.body for n in iter_nodes(tree)):
        return False
    calls = {id(n.func) for n in iter_nodes(tree) if isinstance(n, ast.Call)}
    links = _links(tree, cls.name)
    for node in iter_nodes(tree):
        if isinstance(node, ast.Name) and node.id == cls.name and id(node) not in calls and id(node) not in links:
            return False  # a base, a link under another name, an alias
        if isinstance(node, ast.Attribute) and node.attr == cls.name:
            return False  # ``_h.C(...)``: a helper module's class called from elsewhere
        if isinstance(node, ast.FunctionDef | ast.ClassDef) and node.name == cls.name and node is not cls:
            return False
    return True


def _links(tree: ast.Module, name: str) -> set[int]:
    """The ``name`` values linked into a helper module under that same name: ``X.__dict__.update({"name": name})``."""
    links: set[int] = set()
    for node in iter_nodes(tree):
        if helper_update(node) is not None and len(node.args) == 1 and isinstance(node.args[0], ast.Dict):
            for key, value in zip(node.args[0].keys, node.args[0].values):
                if isinstance(key, ast.Constant) and key.value == name and isinstance(value, ast.Name) and value.id == name:
                    links.add(id(value))
    return links


def _drop_init(tree: ast.Module, cls: ast.ClassDef) -> bool | None:
    """The ``__init__`` of ``cls`` gone, and every construction's arguments, when it did nothing: only ``pass``
    (a docstring) in a class without bases other than ``object``, or only ``super().__init__()``, which the
    inherited ``__init__`` does the same (a ``torch.nn.Module`` needs it: it stays a call, the base's)."""
    init = next(s for s in cls.body if isinstance(s, ast.FunctionDef) and s.name == "__init__")
    work = [s for s in init.body
            if not (isinstance(s, ast.Pass) or isinstance(s, ast.Expr) and isinstance(s.value, ast.Constant))]
    if work and not (len(work) == 1 and _is_super_init(work[0])):
        return False
    if not work and not all(isinstance(b, ast.Name) and b.id == "object" for b in cls.bases):
        return False  # a base's own ``__init__`` would run instead of nothing
    if init.decorator_list or cls.keywords or not _constructed_by_name(tree, cls):
        return False
    cls.body.remove(init)
    _fill(cls.body)
    for node in iter_nodes(tree):
        if isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id == cls.name:
            node.args, node.keywords = [], []
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
