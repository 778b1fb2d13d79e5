"""local-inputs: an input the bug does not need from outside becomes a tensor made at the top of ``entry``.

A reduced repro often keeps ``entry(x)`` and a two-line ``make_inputs`` only to hand ``entry`` one small seeded
tensor that the bug does not care about (a grad-mode leak, a resume assertion, a lost generator value). This pass
offers the program with that parameter gone and ``x = torch.ones(shape)`` as ``entry``'s first statement: all
inputs at once, then one at a time from the last; with the last one goes ``make_inputs`` (the program format
lets an ``entry`` that takes nothing go without one). inline-variables may then put the tensor where it is read.

Only an input whose construction can be read statically is moved: a ``torch`` factory with literal sizes
(``torch.randn(3, 4, generator=g)``, ``torch.ones((2,))``), possibly through one local of ``make_inputs``, a
trailing ``.to(device)`` and ``.requires_grad_()``. Its sizes, ``dtype`` and ``requires_grad`` are kept; its values become ones, which a
data-dependent bug notices (the predicate then refuses the candidate, as for any edit). A tensor made inside the
compiled function is traced where an input was not: whether the bug survives is the predicate's call.
"""

from __future__ import annotations

import ast
from collections.abc import Iterator

from fuzz.reduce._tree import Program, simple_signature
from fuzz.reduce.passes._edits import Edit, reduction_pass
from fuzz.reduce.passes._inputs import _read_elsewhere

__all__ = ["local_inputs"]

_FACTORIES = frozenset({"randn", "rand", "ones", "zeros", "empty", "full", "tensor"})  # floating, or as given
_KEPT_KEYWORDS = ("dtype", "requires_grad")


def _is_torch_attr(node: ast.expr, names: frozenset[str]) -> bool:
    return (isinstance(node, ast.Attribute) and node.attr in names and isinstance(node.value, ast.Name)
            and node.value.id == "torch")


def _sizes(call: ast.Call) -> list[ast.expr] | None:
    """The literal sizes of a factory call, as positional arguments (``randn(3, 4)``, ``ones((3, 4))``)."""
    args = call.args[:-1] if call.func.attr == "full" else call.args  # type: ignore[attr-defined]
    if len(args) == 1 and isinstance(args[0], ast.Tuple | ast.List):
        args = args[0].elts
    if not all(isinstance(a, ast.Constant) and type(a.value) is int and 0 <= a.value <= 64 for a in args):
        return None
    return list(args)


def _method(node: ast.expr, name: str) -> bool:
    return isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) and node.func.attr == name


def _local_value(element: ast.expr, maker: ast.FunctionDef) -> ast.expr | None:
    """``torch.ones(sizes, dtype=..., requires_grad=...)`` standing for one returned input, or None."""
    grad = _method(element, "requires_grad_") and not element.args and not element.keywords  # type: ignore
    if grad:
        element = element.func.value  # type: ignore[attr-defined]
    device = maker.args.args[0].arg if maker.args.args else None
    if (_method(element, "to") and not element.keywords and len(element.args) == 1  # type: ignore[attr-defined]
            and isinstance(element.args[0], ast.Name) and element.args[0].id == device):  # type: ignore
        element = element.func.value  # type: ignore[attr-defined]  # ``.to(device)``: where the check runs anyway
    if isinstance(element, ast.Name):  # one local of make_inputs: ``x = torch.randn(...); return (x.to(d),)``
        stores = [s for s in ast.walk(maker) if isinstance(s, ast.Assign) and len(s.targets) == 1
                  and isinstance(s.targets[0], ast.Name) and s.targets[0].id == element.id]
        if len(stores) != 1:
            return None
        element = stores[0].value
    if not (isinstance(element, ast.Call) and _is_torch_attr(element.func, _FACTORIES)):
        return None
    keywords = [k for k in element.keywords if k.arg in _KEPT_KEYWORDS and not (grad and k.arg == "requires_grad")]
    if grad:
        keywords.append(ast.keyword("requires_grad", ast.Constant(True)))
    if element.func.attr == "tensor":  # type: ignore[attr-defined]
        if element.args and all(isinstance(n, ast.Constant | ast.List | ast.Tuple | ast.UnaryOp | ast.expr_context
                                           | ast.unaryop) for n in ast.walk(element.args[0])):
            return ast.Call(element.func, element.args[:1], keywords)
        return None
    sizes = _sizes(element)
    if sizes is None:
        return None
    return ast.Call(ast.Attribute(ast.Name("torch", ast.Load()), "ones", ast.Load()), sizes, keywords)


_Inputs = tuple[ast.FunctionDef, ast.FunctionDef, list[ast.expr], list["ast.expr | None"]]


def _inputs(prog: Program) -> _Inputs | None:
    """``entry``, ``make_inputs``, the items of the tuple it returns, and each item's stand-in (or None)."""
    top = {s.name: s for s in prog.tree.body if isinstance(s, ast.FunctionDef)}
    entry, maker = top.get("entry"), top.get("make_inputs")
    if entry is None or maker is None or not entry.args.args or not simple_signature(entry.args):
        return None
    returns = [n for n in ast.walk(maker) if isinstance(n, ast.Return)]
    if len(returns) != 1 or not isinstance(returns[0].value, ast.Tuple | ast.List):
        return None
    elements = returns[0].value.elts
    if len(elements) != len(entry.args.args) or any(isinstance(e, ast.Starred) for e in elements):
        return None
    if _read_elsewhere(prog.tree, "make_inputs", maker):
        return None  # something else calls make_inputs: it stays whole
    return entry, maker, elements, [_local_value(e, maker) for e in elements]


def _move(prog: Program, positions: list[int]) -> Edit:
    def build() -> Program | None:
        new = prog.copy()
        found = _inputs(new)
        if found is None:
            return None
        entry, maker, returned, values = found
        body_start = 1 if (entry.body and isinstance(entry.body[0], ast.Expr)
                           and isinstance(entry.body[0].value, ast.Constant)) else 0
        for k in sorted(positions, reverse=True):
            name = entry.args.args.pop(k).arg
            entry.body.insert(body_start, ast.Assign([ast.Name(name, ast.Store())], values[k], lineno=0))
            returned.pop(k)  # make_inputs' returned tuple, in place
        if not entry.args.args:
            new.tree.body.remove(maker)
        ast.fix_missing_locations(new.tree)
        return new

    return build


@reduction_pass("local-inputs")
def local_inputs(prog: Program) -> Iterator[Edit]:
    """Inputs made as ``torch.ones(shape)`` at the top of ``entry``: all at once, then each from the last."""
    found = _inputs(prog)
    if found is None:
        return
    movable = [k for k, value in enumerate(found[3]) if value is not None]
    if len(movable) > 1:
        yield _move(prog, movable)
    for k in reversed(movable):
        yield _move(prog, [k])
