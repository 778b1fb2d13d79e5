"""Arithmetic, comparisons, identity, membership and truth of VM values."""

from __future__ import annotations

import operator
from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from .._errors import Unsupported
from ._consts import is_const_value
from ._graph_ops import graph_fn
from ._iface import MODELS, implements
from ._methods import call_method, dict_view, list_items
from ._sets import contains as set_contains
from ._values import (
    NULL,
    BoundMethodVar,
    CellVar,
    ConstVar,
    DictVar,
    ExcVar,
    FuncVar,
    GenVar,
    ListVar,
    NewObjVar,
    ObjVar,
    SetVar,
    TensorVar,
    TracebackVar,
    TupleVar,
    Var,
)

if TYPE_CHECKING:
    from ._interp import VM

_INPLACE_TO_BINARY = {operator.iadd: operator.add, operator.imul: operator.mul}


def _fold(fn, *vals):
    try:
        out = fn(*vals)
    except Exception as e:
        raise Unsupported("op-raises", f"{fn.__name__} raised {type(e).__name__}") from None
    if not is_const_value(out):
        raise Unsupported("op-result", f"{fn.__name__} result is not a constant")
    return ConstVar(out)


@implements("binary")
def binary(vm: VM, fn: Callable[..., Any], sym: str, a: Var, b: Var):
    ta, tb = type(a), type(b)
    if ta is TensorVar or tb is TensorVar:
        if ta in (TensorVar, ConstVar) and tb in (TensorVar, ConstVar):
            return graph_fn(vm, fn, [a, b], sym)
        raise Unsupported("tensor-op", f"{sym} between a tensor and a {(tb if ta is TensorVar else ta).__name__}")
    if ta is ConstVar and tb is ConstVar:
        return _fold(fn, a.value, b.value)
    if ta is TupleVar and tb is TupleVar and fn in (operator.add, operator.iadd):
        return TupleVar(a.items + b.items)
    if ta is TupleVar and tb is ConstVar and type(b.value) is int and fn in (operator.mul, operator.imul):
        return TupleVar(a.items * b.value)
    if ta is ListVar and fn is operator.iadd:
        call_method(vm, a, "extend", [b], {})
        return a
    if ta is ListVar and tb is ListVar and fn is operator.add:
        return ListVar(list(list_items(vm, a)) + list(list_items(vm, b)))
    if ta is ListVar and tb is ConstVar and type(b.value) is int and fn is operator.mul:
        return ListVar(list(list_items(vm, a)) * b.value)
    raise Unsupported("binary-op", f"{ta.__name__} {sym} {tb.__name__}")


@implements("compare")
def compare(vm: VM, fn: Callable, sym: str, a: Var, b: Var) -> Var:
    ta, tb = type(a), type(b)
    if ta is TensorVar or tb is TensorVar:
        if ta in (TensorVar, ConstVar) and tb in (TensorVar, ConstVar):
            return graph_fn(vm, fn, [a, b], sym)
        raise Unsupported("tensor-compare", "comparison of a tensor with a non-constant")
    if ta is ConstVar and tb is ConstVar:
        return _fold(fn, a.value, b.value)
    ca, cb = _const_tuple(a), _const_tuple(b)  # tuples of constants, torch.Size included
    if ca is not None and cb is not None:
        return _fold(fn, ca, cb)
    if ta is ObjVar and tb is ObjVar and fn in (operator.eq, operator.ne) and \
            type(a.obj).__eq__ is object.__eq__:
        return ConstVar((a.obj is b.obj) == (fn is operator.eq))
    raise Unsupported("compare", f"{ta.__name__} {sym} {tb.__name__}")


def _const_tuple(v: Var) -> tuple | None:
    if type(v) is ConstVar and isinstance(v.value, tuple):
        return v.value
    if type(v) is TupleVar and all(type(x) is ConstVar for x in v.items):
        return tuple(x.value for x in v.items)
    return None


_NEW_KINDS = (TupleVar, FuncVar, CellVar, BoundMethodVar)


_MADE = (NewObjVar, ExcVar, GenVar, TracebackVar)  # made by traced code: identical only to themselves


def is_same(vm: VM, a: Var, b: Var) -> bool | None:
    """`a is b` where the trace can tell; None if it cannot."""
    if a is b:
        return True
    ta, tb = type(a), type(b)
    if ta is ConstVar and tb is ConstVar:
        return a.value is b.value
    if ta is ObjVar and tb is ObjVar:
        return a.obj is b.obj
    if (ta is ConstVar and a.value is None) or (tb is ConstVar and b.value is None):
        other = b if ta is ConstVar and a.value is None else a
        return type(other) is ConstVar and other.value is None
    if ta is TensorVar and tb is TensorVar:
        return a.fake is b.fake
    if ta is FuncVar and tb is FuncVar and a.real is not None and b.real is not None:
        return a.real is b.real  # real functions are read with identity guards
    if ta is ListVar and tb is ListVar:
        return a.real is not None and a.real is b.real
    if ta is not tb and {ta, tb} <= {TensorVar, ConstVar, ListVar, DictVar, TupleVar, FuncVar}:
        return False
    if a is NULL or b is NULL or ta in _MADE or tb in _MADE:
        return False
    return None


def contains(vm: VM, item: Var, container: Var):
    t = type(container)
    if t is ConstVar and type(item) is ConstVar:
        return _fold(operator.contains, container.value, item.value)
    if t in (TupleVar, ListVar):
        items = container.items if t is TupleVar else list_items(vm, container)
        if type(item) is ConstVar and all(type(x) is ConstVar for x in items):
            return ConstVar(item.value in [x.value for x in items])
    if t is SetVar:
        return set_contains(container, item)
    if t is DictVar and type(item) is ConstVar:
        items = dict_view(vm, container) if container.real is not None else container.items
        return ConstVar(item.value in items)
    raise Unsupported("contains", f"`in` on a {t.__name__}")


@implements("truth")
def truth(vm: VM, v: Var):
    """bool(v) where the trace knows it; Unsupported (eager bool) otherwise."""
    t = type(v)
    if t is ConstVar:
        return bool(v.value)
    if t is TupleVar:
        return bool(v.items)
    if t is ListVar:
        return bool(list_items(vm, v))
    if t is SetVar:
        return bool(v.model)
    if t is DictVar:
        return bool(dict_view(vm, v) if v.real is not None else v.items)
    if t in (FuncVar, BoundMethodVar):
        return True
    if t is ObjVar:
        tp = type(v.obj)
        if not hasattr(tp, "__bool__") and not hasattr(tp, "__len__"):
            return True
    if t is ExcVar or t is GenVar or t is TracebackVar:
        return True
    if t is NewObjVar and not hasattr(v.cls, "__bool__") and not hasattr(v.cls, "__len__"):
        return True
    if t is TensorVar:
        raise Unsupported("data-dependent-branch", "branching on a tensor's value")
    family = MODELS.get((t, "__len__"))  # a model family's own container value (_iface.model)
    if family is not None:
        n = family(vm, [v], {})
        if type(n) is ConstVar:
            return bool(n.value)
    raise Unsupported("truth", f"truth value of a {t.__name__}")


def unary(vm: VM, fn: Callable[..., Any], v: Var):
    if type(v) is TensorVar and fn is not operator.not_:
        return graph_fn(vm, fn, [v], fn.__name__)
    if fn is operator.not_:
        return ConstVar(not truth(vm, v))
    if type(v) is ConstVar:
        return _fold(fn, v.value)
    raise Unsupported("unary-op", f"{fn.__name__} of a {type(v).__name__}")
