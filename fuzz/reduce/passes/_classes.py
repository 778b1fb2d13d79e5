"""Classes made plain: a method called on a fresh instance becomes a function, a wrapper's attribute its value.

Generated programs wrap steps in small classes (``C2(0.5).run(x)``, ``C1(1.0)(x)``, ``_Box(x).value``) that a
bug report would not have. Two edits, each at one use site:

- ``C(a).m(b)`` and ``C(a)(b)`` (``__call__``; a ``torch.nn.Module``'s ``forward``), where the method reads
  ``self`` only as attributes that ``__init__`` set, become ``C_m(b)``: the method moved to a module-level
  function without ``self``, an attribute set to a constant replaced by it, any other passed as a leading
  argument (``C_forward(torch.nn.Parameter(...), x)``), evaluated where the instance was built, before ``b``.
  The class goes with it when nothing else names it, else the method (not ``__call__``) when nothing names that.
- ``C(a).attr``, where ``__init__`` only sets attributes (``self.attr = expr``), becomes ``expr`` with the
  parameters replaced by the arguments: a helper class that wraps a tensor is unwrapped.

Whether the bug survives is the predicate's call, as for any other edit.
"""

from __future__ import annotations

import ast
import copy
from collections.abc import Iterator

from fuzz.reduce._tree import Program, iter_nodes, replace_node, simple_signature
from fuzz.reduce.passes._edits import Edit, _edit_at, _indexed, reduction_pass
from fuzz.reduce.passes._expressions import _replace
from fuzz.reduce.passes._wrappers import _arguments, _in_order, _shadowed, _substituted

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
    if not simple_signature(fn.args) or not fn.args.args:
        return None
    return fn


def _init_assignments(cls: ast.ClassDef) -> tuple[list[str], list[tuple[str, ast.expr]]] | None:
    """``__init__``'s parameters (``self`` aside) and the ``self.attr = expr`` statements it makes, in order, when
    that is all it does (a docstring, ``pass`` and a first ``super().__init__()`` aside, each attribute set once,
    ``self`` read nowhere); ``([], [])`` without an ``__init__``; None otherwise."""
    if not any(isinstance(s, ast.FunctionDef) and s.name == "__init__" for s in cls.body):
        return [], []
    fn = _method(cls, "__init__")
    if fn is None:
        return None
    self_name = fn.args.args[0].arg
    sets: list[tuple[str, ast.expr]] = []
    for k, stmt in enumerate(fn.body):
        if isinstance(stmt, ast.Pass) or isinstance(stmt, ast.Expr) and isinstance(stmt.value, ast.Constant):
            continue  # a docstring
        if k == 0 and _is_super_init(stmt):
            continue
        if not (isinstance(stmt, ast.Assign) and len(stmt.targets) == 1 and isinstance(stmt.targets[0], ast.Attribute)
                and isinstance(stmt.targets[0].value, ast.Name) and stmt.targets[0].value.id == self_name):
            return None
        attr = stmt.targets[0].attr
        if any(isinstance(n, ast.Name) and n.id == self_name for n in ast.walk(stmt.value)) or attr in dict(sets):
            return None
        sets.append((attr, stmt.value))
    return [p.arg for p in fn.args.args[1:]], sets


def _init_fields(cls: ast.ClassDef, args: list[ast.expr]) -> dict[str, ast.expr] | None:
    """``attr -> expression`` set by ``__init__`` called with ``args`` (parameters replaced by the arguments),
    when ``__init__`` does nothing else; {} without an ``__init__``; None otherwise."""
    found = _init_assignments(cls)
    if found is None or len(found[0]) != len(args) or any(isinstance(a, ast.Starred) for a in args):
        return None
    params, sets = found
    return {attr: _Substitute(dict(zip(params, args))).visit(copy.deepcopy(value)) for attr, value in sets}


def _called_method(cls: ast.ClassDef) -> str:
    """The method ``C(a)(b)`` runs: ``__call__`` when the class has one, else a module's ``forward``."""
    if _is_nn_module(cls) and not any(isinstance(s, ast.FunctionDef) and s.name == "__call__" for s in cls.body):
        return "forward"
    return "__call__"


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
    """Turn ``C(a).m(b)`` and ``C(a)(b)`` into their method's expression, else into a function call ``C_m(b)``, and
    ``C(a).attr`` into the value ``__init__`` gives it."""
    classes = _plain_classes(prog.tree)
    if not classes:
        return
    for i, node in _indexed(prog.tree):
        if isinstance(node, ast.Call) and _construction(node.func, classes):
            yield _edit_at(prog, i, _collapse)
            yield _edit_at(prog, i, _method_to_function)
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
    """``C(a).m(b)`` or ``C(a)(b)`` as ``C_m(f, b)``: the method a module-level function, each attribute of
    ``self`` it reads replaced by the constant ``__init__`` set it to, else by a leading parameter whose argument
    is the expression ``__init__`` set it to (``a`` substituted)."""
    called = isinstance(call.func, ast.Call)
    construct = call.func if called else call.func.value
    module, cls = _plain_classes(tree)[construct.func.id]
    fn = _method(cls, _called_method(cls) if called else call.func.attr)
    found = _init_assignments(cls) if not construct.keywords else None
    fields = _init_fields(cls, construct.args) if found is not None else None
    if fn is None or fields is None or not any(n is call for n in ast.walk(module)):
        return False  # (a class of a helper module called from another module: its function would not be seen)
    self_name = fn.args.args[0].arg
    body = copy.deepcopy(fn.body)
    reads = [n for s in body for n in ast.walk(s) if isinstance(n, ast.Attribute) and isinstance(n.value, ast.Name)
             and n.value.id == self_name and isinstance(n.ctx, ast.Load) and n.attr in fields]
    passed = [a for a in fields if any(r.attr == a for r in reads) and not isinstance(fields[a], ast.Constant)]
    taken = {p.arg for p in fn.args.args} | {n.id for s in body for n in ast.walk(s) if isinstance(n, ast.Name)}
    names: dict[str, str] = {}
    for attr in passed:
        names[attr] = next((n for n in (attr, f"self_{attr}") if n not in taken), "")
        if not names[attr]:
            return False
        taken.add(names[attr])
    for read in reads:
        stand_in = ast.Name(names[read.attr], ast.Load()) if read.attr in names else copy.deepcopy(fields[read.attr])
        for stmt in body:
            if _replace(stmt, read, stand_in) is None:
                break
    if any(isinstance(n, ast.Name) and n.id in (self_name, "super", "__class__") for s in body for n in ast.walk(s)):
        return False  # the method still needs its instance (or its class)
    if passed and not _passed_in_order(tree, call, construct, found, passed):
        return False
    taken = {n.id for n in iter_nodes(tree) if isinstance(n, ast.Name)}
    taken |= {n.name for n in iter_nodes(tree) if isinstance(n, ast.FunctionDef | ast.ClassDef)}
    name = f"{cls.name}_{fn.name.strip('_')}"
    if name in taken:
        return False
    args = copy.deepcopy(fn.args)
    args.args = [ast.arg(names[a]) for a in passed] + args.args[1:]
    function = ast.FunctionDef(name=name, args=args, body=body, decorator_list=[], returns=None, lineno=0)
    module.body.insert(module.body.index(cls) + 1, function)
    call.func = ast.Name(name, ast.Load())
    call.args = [copy.deepcopy(fields[a]) for a in passed] + call.args
    _drop_if_unused(tree, module, cls, None if called else fn)
    return None


def _passed_in_order(tree: ast.Module, call: ast.Call, construct: ast.Call,
                     found: tuple[list[str], list[tuple[str, ast.expr]]], passed: list[str]) -> bool:
    """Whether the attributes' expressions, evaluated at the call as arguments, run as eager ran them when the
    instance was built: each constructor argument they read that is more than a name or a literal read once, in
    the arguments' order, nothing that could do something before it (inline-wrappers' rule); and no name they
    read from the class's module bound where the call is."""
    params, sets = found
    values = ast.Tuple([value for attr, value in sets if attr in passed], ast.Load())
    read = {n.id for n in ast.walk(values) if isinstance(n, ast.Name)}
    given = [(p, a) for p, a in zip(params, construct.args) if p in read]
    if not _in_order(values, [p for p, _ in given], [a for _, a in given]):
        return False
    parents = {id(child): node for node in iter_nodes(tree) for child in ast.iter_child_nodes(node)}
    return not _shadowed(call, parents, read - set(params))


def _collapse(tree: ast.Module, call: ast.Call) -> bool | None:
    """``C(a)(b)`` (``__call__``, else a ``torch.nn.Module``'s ``forward``) or ``C(a).m(b)``, the method only
    returning an expression: that expression, with ``self``'s attributes replaced by what ``__init__`` set them to
    and the parameters by the arguments (as inline-wrappers does: each evaluated once, in eager's order, the
    attributes first as the instance was built first)."""
    construct = call.func if isinstance(call.func, ast.Call) else call.func.value
    module, cls = _plain_classes(tree)[construct.func.id]
    name = call.func.attr if isinstance(call.func, ast.Attribute) else _called_method(cls)
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
