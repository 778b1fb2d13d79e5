"""Classes made plain: a method called on a fresh instance becomes a function, a wrapper's attribute its value.

Generated programs wrap steps in small classes (``C2(0.5).run(x)``, ``_Box(x).value``) that a bug report would
not have. Two edits, each at one use site:

- ``C(a).m(b)``, where ``m`` reads ``self`` only as attributes that ``__init__`` set from constant arguments,
  becomes ``C_m(b)``: ``m`` moved to a module-level function without ``self``, those attributes replaced by
  the constants. The class goes with it when nothing else names it, else the method when nothing names that.
- ``C(a).attr``, where ``__init__`` only sets attributes (``self.attr = expr``), becomes ``expr`` with the
  parameters replaced by the arguments: a helper class that wraps a tensor is unwrapped.

Whether the bug survives is the predicate's call, as for any other edit.
"""

from __future__ import annotations

import ast
import copy
from collections.abc import Iterator

from fuzz.reduce._tree import Program, iter_nodes, replace_node
from fuzz.reduce.passes._edits import Edit, _edit_at, _indexed, reduction_pass
from fuzz.reduce.passes._expressions import _replace
from fuzz.reduce.passes._wrappers import _arguments, _in_order, _substituted

__all__ = ["inline_classes"]


_MODULE_BASES = frozenset({"torch.nn.Module", "nn.Module"})


def _plain_classes(tree: ast.Module) -> dict[str, tuple[ast.Module, ast.ClassDef]]:
    """Module-level classes without bases (or only ``object`` or ``torch.nn.Module``, whose ``__init__`` starts
    with ``super().__init__()``), keywords or decorators, by name."""
    found: dict[str, tuple[ast.Module, ast.ClassDef]] = {}
    for module in (n for n in iter_nodes(tree) if isinstance(n, ast.Module)):
        for stmt in module.body:
            if (isinstance(stmt, ast.ClassDef) and not stmt.decorator_list and not stmt.keywords
                    and all(isinstance(b, ast.Name) and b.id == "object" or ast.unparse(b) in _MODULE_BASES
                            for b in stmt.bases)):
                found[stmt.name] = (module, stmt)
    return found


def _is_nn_module(cls: ast.ClassDef) -> bool:
    return any(ast.unparse(b) in _MODULE_BASES for b in cls.bases)


def _is_super_init(stmt: ast.stmt) -> bool:
    """``super().__init__()``."""
    call = stmt.value if isinstance(stmt, ast.Expr) else None
    return (isinstance(call, ast.Call) and not call.args and not call.keywords
            and isinstance(call.func, ast.Attribute) and call.func.attr == "__init__"
            and isinstance(call.func.value, ast.Call) and isinstance(call.func.value.func, ast.Name)
            and call.func.value.func.id == "super" and not call.func.value.args)


def _method(cls: ast.ClassDef, name: str) -> ast.FunctionDef | None:
    fn = next((s for s in cls.body if isinstance(s, ast.FunctionDef) and s.name == name), None)
    if fn is None or fn.decorator_list:
        return None
    a = fn.args
    if a.vararg or a.kwarg or a.kwonlyargs or a.posonlyargs or a.defaults or not a.args:
        return None
    return fn


def _init_fields(cls: ast.ClassDef, args: list[ast.expr]) -> dict[str, ast.expr] | None:
    """``attr -> expression`` set by ``__init__`` called with ``args`` (parameters replaced by the arguments),
    when ``__init__`` does nothing else; {} without an ``__init__``; None otherwise."""
    init = next((s for s in cls.body if isinstance(s, ast.FunctionDef) and s.name == "__init__"), None)
    if init is None:
        return {} if not args else None
    fn = _method(cls, "__init__")
    if fn is None or len(fn.args.args) != len(args) + 1 or any(isinstance(a, ast.Starred) for a in args):
        return None
    self_name = fn.args.args[0].arg
    params = {p.arg: a for p, a in zip(fn.args.args[1:], args)}
    fields: dict[str, ast.expr] = {}
    for k, stmt in enumerate(fn.body):
        if isinstance(stmt, ast.Expr) and isinstance(stmt.value, ast.Constant):
            continue  # a docstring
        if k == 0 and _is_super_init(stmt):
            continue
        if not (isinstance(stmt, ast.Assign) and len(stmt.targets) == 1 and isinstance(stmt.targets[0], ast.Attribute)
                and isinstance(stmt.targets[0].value, ast.Name) and stmt.targets[0].value.id == self_name):
            return None
        if any(isinstance(n, ast.Name) and n.id == self_name for n in ast.walk(stmt.value)):
            return None
        fields[stmt.targets[0].attr] = _Substitute(params).visit(copy.deepcopy(stmt.value))
    return fields


class _Substitute(ast.NodeTransformer):
    """Parameters replaced by (copies of) the arguments."""

    def __init__(self, params: dict[str, ast.expr]):
        self.params = params

    def visit_Name(self, node: ast.Name) -> ast.expr:
        if isinstance(node.ctx, ast.Load) and node.id in self.params:
            return copy.deepcopy(self.params[node.id])
        return node


@reduction_pass("inline-classes")
def inline_classes(prog: Program) -> Iterator[Edit]:
    """Turn ``C(a).m(b)`` into a function call ``C_m(b)`` and ``C(a).attr`` into the value ``__init__`` gives it."""
    classes = _plain_classes(prog.tree)
    if not classes:
        return
    for i, node in _indexed(prog.tree):
        if isinstance(node, ast.Call) and _construction(node.func, classes):
            yield _edit_at(prog, i, _collapse)
        elif (isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute)
              and _construction(node.func.value, classes) and not node.func.attr.startswith("__")):
            yield _edit_at(prog, i, _collapse)
            yield _edit_at(prog, i, _method_to_function)
        elif (isinstance(node, ast.Attribute) and isinstance(node.ctx, ast.Load)
              and _construction(node.value, classes)):
            yield _edit_at(prog, i, _unwrap_field)


def _construction(node: ast.AST, classes) -> bool:
    return isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id in classes


def _method_to_function(tree: ast.Module, call: ast.Call) -> bool | None:
    construct = call.func.value
    module, cls = _plain_classes(tree)[construct.func.id]
    fn = _method(cls, call.func.attr)
    fields = _init_fields(cls, construct.args) if not construct.keywords else None
    if fn is None or fields is None:
        return False
    self_name = fn.args.args[0].arg
    body = copy.deepcopy(fn.body)
    for stmt in body:
        for node in list(ast.walk(stmt)):
            if (isinstance(node, ast.Attribute) and isinstance(node.value, ast.Name) and node.value.id == self_name
                    and isinstance(node.ctx, ast.Load) and isinstance(fields.get(node.attr), ast.Constant)):
                _replace(stmt, node, copy.deepcopy(fields[node.attr]))
    if any(isinstance(n, ast.Name) and n.id == self_name for s in body for n in ast.walk(s)):
        return False  # the method still needs its instance
    taken = {n.id for n in iter_nodes(tree) if isinstance(n, ast.Name)}
    taken |= {n.name for n in iter_nodes(tree) if isinstance(n, ast.FunctionDef | ast.ClassDef)}
    name = f"{cls.name}_{fn.name}"
    if name in taken:
        return False
    args = copy.deepcopy(fn.args)
    args.args = args.args[1:]
    function = ast.FunctionDef(name=name, args=args, body=body, decorator_list=[], returns=None, lineno=0)
    module.body.insert(module.body.index(cls) + 1, function)
    call.func = ast.Name(name, ast.Load())
    _drop_if_unused(tree, module, cls, fn)
    return None


def _collapse(tree: ast.Module, call: ast.Call) -> bool | None:
    """``C(a)(b)`` (``forward`` of a ``torch.nn.Module``, else ``__call__``) or ``C(a).m(b)``, the method only
    returning an expression: that expression, with ``self``'s attributes replaced by what ``__init__`` set them to
    and the parameters by the arguments (as inline-wrappers does: each evaluated once, in eager's order, the
    attributes first as the instance was built first)."""
    construct = call.func if isinstance(call.func, ast.Call) else call.func.value
    module, cls = _plain_classes(tree)[construct.func.id]
    name = call.func.attr if isinstance(call.func, ast.Attribute) else (
        "forward" if _is_nn_module(cls) else "__call__")
    fn = _method(cls, name)
    fields = _init_fields(cls, construct.args) if not construct.keywords else None
    if fn is None or fields is None or len(fn.body) != 1 or not isinstance(fn.body[0], ast.Return):
        return False
    self_name = fn.args.args[0].arg
    expr = copy.deepcopy(fn.body[0].value or ast.Constant(None))
    placeholders: dict[str, str] = {}
    for node in list(ast.walk(expr)):
        if (isinstance(node, ast.Attribute) and isinstance(node.value, ast.Name) and node.value.id == self_name
                and isinstance(node.ctx, ast.Load) and node.attr in fields):
            placeholders[node.attr] = f"__ngb_self_{node.attr}"
            stand_in = ast.Name(placeholders[node.attr], ast.Load())
            if node is expr:
                expr = stand_in
            else:
                replace_node(expr, node, stand_in)
    if any(isinstance(n, ast.Name) and n.id == self_name for n in ast.walk(expr)):
        return False  # the method still needs its instance
    args = _arguments(call, [p.arg for p in fn.args.args[1:]])
    if args is None:
        return False
    params = list(placeholders.values()) + [p.arg for p in fn.args.args[1:]]
    values = [fields[attr] for attr in placeholders] + args
    if not _in_order(expr, params, values) or _replace(tree, call, _substituted(expr, params, values)) is False:
        return False
    _drop_if_unused(tree, module, cls, fn if isinstance(call.func, ast.Attribute) else None)
    return None


def _drop_if_unused(tree: ast.Module, module: ast.Module, cls: ast.ClassDef, method: ast.FunctionDef | None) -> None:
    """The class goes when nothing names it any more, else the inlined method when nothing names that: the
    candidate must be smaller than the program it came from."""
    names = {n.id for n in iter_nodes(tree) if isinstance(n, ast.Name)}
    if cls.name not in names:
        module.body.remove(cls)
    elif method is not None and method.name not in {n.attr for n in iter_nodes(tree) if isinstance(n, ast.Attribute)}:
        cls.body.remove(method)
        if not cls.body:
            cls.body.append(ast.Pass())


def _unwrap_field(tree: ast.Module, attribute: ast.Attribute) -> bool | None:
    construct = attribute.value
    _, cls = _plain_classes(tree)[construct.func.id]
    fields = _init_fields(cls, construct.args) if not construct.keywords else None
    if not fields or attribute.attr not in fields:
        return False
    if _replace(tree, attribute, fields[attribute.attr]) is False:
        return False
    module, cls = _plain_classes(tree)[construct.func.id]
    _drop_if_unused(tree, module, cls, None)
    return None
