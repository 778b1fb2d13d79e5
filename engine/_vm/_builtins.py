"""Builtins applied to VM values: modeled where the answer is known from the trace, else Unsupported."""

from __future__ import annotations

import builtins
import collections
import math
import operator
from typing import TYPE_CHECKING

from .._errors import Unsupported
from .._guards import ConstSrc
from . import _version as V
from ._consts import is_const_value
from ._generators import collect, drive, step
from ._iface import MODELS as MODELS_BY_VALUE
from ._iface import Inline
from ._iface import model as register_model
from ._iters import ZipView, as_sequence
from ._members import container_items
from ._methods import key_of
from ._models_callbacks import minmax_call, sorted_call
from ._models_itertools import enumerate_gen, reversed_list, zip_gen
from ._objects import class_lookup, instance_type, python_type, user_function
from ._sets import new_set, sorted_set
from ._values import (
    BoundMethodVar,
    ConstVar,
    DictVar,
    DictViewVar,
    ExcVar,
    FuncVar,
    GenVar,
    IterVar,
    ListVar,
    MethodVar,
    ObjVar,
    SetVar,
    TensorVar,
    TupleVar,
    Var,
)

if TYPE_CHECKING:
    from ._interp import VM

# Pure on constant arguments: folded while tracing.
PURE = {abs, all, any, ascii, bin, bool, chr, divmod, float, format, hex, int, len, max, min, oct, ord, pow,
        repr, round, sorted, str, sum, tuple, complex, bytes, hash, math.sqrt, math.floor, math.ceil}


def _consts(args):
    if all(type(a) is ConstVar for a in args):
        return [a.value for a in args]
    return None


def _fold(fn, args, kwargs):
    vals = _consts(args)
    kv = _consts(list(kwargs.values()))
    if vals is None or kv is None:
        return NotImplemented
    try:
        out = fn(*vals, **dict(zip(kwargs, kv)))
    except Exception as e:
        raise Unsupported("builtin-raises", f"{fn.__name__} raised {type(e).__name__}") from None
    if is_const_value(out):
        return ConstVar(out) if type(out) is not tuple else TupleVar([ConstVar(x) for x in out])
    if type(out) is list and all(is_const_value(x) for x in out):
        return ListVar([ConstVar(x) for x in out])
    return NotImplemented


def _isinstance(vm: VM, args: list[Var], kwargs: dict[str, Var]):
    if len(args) != 2 or kwargs:
        return NotImplemented
    t = python_type(vm, args[0])
    cls = args[1]
    if type(cls) is ObjVar and isinstance(cls.obj, type):
        classes = cls.obj
    elif type(cls) is TupleVar and all(type(c) is ObjVar and isinstance(c.obj, type) for c in cls.items):
        classes = tuple(c.obj for c in cls.items)
    else:
        return NotImplemented
    if t is None:
        return NotImplemented
    v = args[0]
    if type(v) is TensorVar and _instancecheck_reads_instance(classes):
        # nn.Parameter / nn.Buffer answer True for a plain tensor carrying their flag: ask the input itself
        if v.src is None:  # made by the graph: a new tensor object, no flag set
            return ConstVar(issubclass(t, classes))
        real = next((r for src, r in vm.graph.inputs if src is v.src), None)
        if real is None:
            return NotImplemented
        result = isinstance(real, classes)
        vm.guards.add(f"isinstance({v.src.expr(vm.ns)}, {vm.ns.const(classes, 'T')}) is {result!r}")
        return ConstVar(result)
    return ConstVar(issubclass(t, classes))


def _instancecheck_reads_instance(classes: type | tuple[type, ...]) -> bool:
    """A class whose metaclass answers isinstance() from the instance, not only its type (nn.Parameter's
    and nn.Buffer's metaclasses check a flag on the tensor)."""
    return any(type(c).__instancecheck__ is not type.__instancecheck__
               for c in (classes if isinstance(classes, tuple) else (classes,)))


_SIZED = (dict, list, tuple, set, frozenset, str, bytes, collections.deque)


def _len(vm: VM, args: list[Var], kwargs: dict[str, Var]):
    if len(args) != 1 or kwargs:
        return NotImplemented
    v = args[0]

    tp = instance_type(v)
    if type(v) is ObjVar and isinstance(v.obj, _SIZED) and not user_function(class_lookup(tp, "__len__")):
        # a builtin container's subclass (the OrderedDicts of module hooks): its length, guarded
        vm.guards.length(v.src or ConstSrc(v.obj), len(v.obj))
        return ConstVar(len(v.obj))
    if tp is not None:
        return vm.call_dunder(v, "__len__", [])
    family = MODELS_BY_VALUE.get((type(v), "__len__"))  # a model family's own value (_iface.model)
    if family is not None:
        return family(vm, [v], {})
    if type(v) is TensorVar:
        if v.fake.dim() == 0:
            return NotImplemented
        return ConstVar(int(v.fake.shape[0]))
    if type(v) is SetVar:
        return ConstVar(len(v.model))
    if type(v) in (TupleVar, ListVar, DictVar, DictViewVar) or (
            type(v) is ConstVar and hasattr(v.value, "__len__")):
        return ConstVar(len(vm.seq_items(v)))
    return NotImplemented


def _range(vm: VM, args: list[Var], kwargs: dict[str, Var]):
    return _fold(range, args, kwargs)


def _seq_of(vm: VM, v: Var):
    if type(v) is SetVar or (type(v), "__items__") in MODELS_BY_VALUE:
        # consumed at once: no mutation can interleave (a for-loop over a set or a deque is eager)
        return vm.seq_items(v)
    return vm.seq_items(vm_iter(vm, v))


def vm_iter(vm: VM, v: Var):
    return vm.get_iter(v)


def _enumerate(vm: VM, args: list[Var], kwargs: dict[str, Var]):
    if "start" in kwargs and len(args) == 1:
        args, kwargs = [args[0], kwargs["start"]], {k: v for k, v in kwargs.items() if k != "start"}
    if not 1 <= len(args) <= 2 or kwargs:
        return NotImplemented
    if len(args) == 2 and (type(args[1]) is not ConstVar or type(args[1].value) is not int):
        return NotImplemented

    start = args[1].value if len(args) == 2 else 0
    try:
        seq = as_sequence(vm, args[0])
    except Unsupported:  # an iterator or generator: enumerate's traced form pulls from it as eager's does
        return enumerate_gen(vm, args[0], start)
    return IterVar(ZipView([seq], start))


def _zip(vm: VM, args: list[Var], kwargs: dict[str, Var]) -> Var:
    strict = kwargs.get("strict", ConstVar(False))
    if set(kwargs) - {"strict"} or type(strict) is not ConstVar:
        return NotImplemented
    try:
        seqs = [as_sequence(vm, a) for a in args]
    except Unsupported:
        if strict.value:
            raise
        return zip_gen(vm, args)
    return IterVar(ZipView(seqs, None, bool(strict.value)))


def _reversed(vm: VM, args: list[Var], kwargs: dict[str, Var]):
    if len(args) == 1 and not kwargs and type(args[0]) is ObjVar:
        items = container_items(vm, args[0], reverse=True)
        return NotImplemented if items is None else IterVar(TupleVar(items[::-1]), rev=args[0])
    if len(args) == 1 and not kwargs and type(args[0]) is ListVar:
        return reversed_list(vm, args[0])
    if len(args) != 1 or kwargs or type(args[0]) not in (TupleVar, ConstVar):
        return NotImplemented
    return IterVar(TupleVar(list(reversed(vm.seq_items(args[0])))), rev=args[0])


def _iter(vm: VM, args: list[Var], kwargs: dict[str, Var]):
    if len(args) != 1 or kwargs:
        return NotImplemented
    return vm_iter(vm, args[0])


def _next_item(vm: VM, it: Var):
    if type(it) is GenVar:
        return drive(vm, it)

    return vm.iter_next(it)


def _next(vm: VM, args: list[Var], kwargs: dict[str, Var]):
    if not 1 <= len(args) <= 2 or kwargs or type(args[0]) not in (IterVar, GenVar):
        return NotImplemented
    if type(args[0]) is GenVar:  # a frame above the call (see _generators.step)
        return step(vm, args[0], ConstVar(None), args[1] if len(args) == 2 else None)
    x = _next_item(vm, args[0])
    if x is None:
        if len(args) == 2:
            return args[1]
        raise Unsupported("stop-iteration", "next() on an exhausted iterator")
    return x


def _container(kind):
    def build(vm: VM, args: list[Var], kwargs: dict[str, Var]):
        if kwargs and kind is not dict:
            return NotImplemented
        if not args:
            items = []
        elif len(args) == 1 and kind in (list, tuple) and type(args[0]) is GenVar and \
                args[0].state in ("created", "suspended"):
            return collect(vm, args[0], kind is tuple)
        elif len(args) == 1:
            items = _seq_of(vm, args[0]) if kind is not dict or type(args[0]) is not DictVar else None
        else:
            return NotImplemented
        if kind is tuple:
            return TupleVar(items)
        if kind is list:
            return ListVar(items)

        d = {}
        if items is None:
            src = args[0]
            d.update(vm.dict_view(src) if src.real is not None else src.items)
        else:
            for pair in items:
                kv = vm.seq_items(pair)
                if len(kv) != 2:
                    return NotImplemented
                d[key_of(kv[0])] = kv[1]
        d.update(kwargs)
        return DictVar(d)

    return build


def _minmax(fn):
    def model(vm: VM, args: list[Var], kwargs: dict[str, Var]):
        if kwargs or (len(args) == 1 and type(args[0]) is GenVar):
            return minmax_call(vm, fn is max, args, kwargs)
        vals = list(args) if len(args) > 1 else vm.seq_items(args[0]) if args else []
        if vals and all(type(v) is ConstVar for v in vals):
            return ConstVar(fn([v.value for v in vals]))
        return NotImplemented

    return model


def _sum(vm: VM, args: list[Var], kwargs: dict[str, Var]):
    if kwargs or not 1 <= len(args) <= 2:
        return NotImplemented
    items = _seq_of(vm, args[0])
    acc = args[1] if len(args) == 2 else ConstVar(0)

    for x in items:
        acc = vm.binary(operator.add, "+", acc, x)
    return acc


def _abs(vm: VM, args: list[Var], kwargs: dict[str, Var]):
    if len(args) == 1 and type(args[0]) is TensorVar:
        return vm.op("call_function", operator.abs, args, {}, vm.grad, "abs")
    return _fold(abs, args, kwargs)


def _type(vm: VM, args: list[Var], kwargs: dict[str, Var]):
    if len(args) != 1 or kwargs:
        return NotImplemented
    t = python_type(vm, args[0])
    return NotImplemented if t is None else ObjVar(t, None)


def _callable(vm: VM, args: list[Var], kwargs: dict[str, Var]):
    if len(args) != 1:
        return NotImplemented
    v = args[0]
    if type(v) in (FuncVar, BoundMethodVar, MethodVar):
        return ConstVar(True)
    t = python_type(vm, v)
    return NotImplemented if t is None else ConstVar(any("__call__" in k.__dict__ for k in t.__mro__))


def _set(vm: VM, args: list[Var], kwargs: dict[str, Var]):
    if kwargs or len(args) > 1:
        return NotImplemented
    return new_set(vm, list(args))


def _sorted(vm: VM, args: list[Var], kwargs: dict[str, Var]):
    """sorted() of a set (see _sets.sorted_set); anything else folds as a pure builtin."""
    rev = kwargs.get("reverse", ConstVar(False))
    if len(args) == 1 and type(args[0]) is SetVar and set(kwargs) <= {"reverse"} and type(rev) is ConstVar \
            and type(rev.value) is bool:
        out = sorted_set(args[0], rev.value)
        if out is not None:
            return out
    out = _fold(sorted, args, kwargs)
    return sorted_call(vm, args, kwargs) if out is NotImplemented else out


def _setattr(vm: VM, args: list[Var], kwargs: dict[str, Var]):
    """setattr(obj, "name", value) is `obj.name = value` (STORE_ATTR's store) and returns None."""
    if kwargs or len(args) != 3 or type(args[1]) is not ConstVar or type(args[1].value) is not str:
        return NotImplemented

    res = vm.store_attr(args[0], args[1].value, args[2])
    if isinstance(res, Inline):  # a __setattr__ frame: setattr() returns None whatever it returns
        res.frame.ret_override = ConstVar(None)
        return res
    return ConstVar(None)


MODELS = {
    setattr: _setattr, isinstance: _isinstance, len: _len, range: _range, enumerate: _enumerate, zip: _zip, reversed: _reversed,
    iter: _iter, next: _next, tuple: _container(tuple), list: _container(list), dict: _container(dict),
    min: _minmax(min), max: _minmax(max), sum: _sum, abs: _abs, type: _type, callable: _callable,
    set: _set, sorted: _sorted,
}  # getattr/hasattr: engine/_policy.py


def _text(fn):
    def model(vm: VM, args: list[Var], kwargs: dict[str, Var]):
        if len(args) == 1 and not kwargs and type(args[0]) is ExcVar:
            return ConstVar(fn(args[0].real()))
        return _fold(fn, args, kwargs)

    return model


def _all_any(want):
    """all()/any() stop at the first deciding element, like CPython (the rest is never produced)."""

    def model(vm: VM, args: list[Var], kwargs: dict[str, Var]):
        if len(args) != 1 or kwargs:
            return NotImplemented
        it = vm_iter(vm, args[0])
        while True:
            x = _next_item(vm, it)
            if x is None:
                return ConstVar(not want)
            if vm.truth(x) == want:
                return ConstVar(want)

    return model


def _operator_binary(fn, sym):
    """operator.add(a, b) and friends mean exactly `a + b`: the same model as the BINARY_OP instruction."""

    def model(vm: VM, args: list[Var], kwargs: dict[str, Var]):
        if len(args) != 2 or kwargs:
            return NotImplemented
        return vm.binary(fn, sym, args[0], args[1])

    return model


def _operator_compare(fn, sym):
    def model(vm: VM, args: list[Var], kwargs: dict[str, Var]):
        if len(args) != 2 or kwargs:
            return NotImplemented
        return vm.compare(fn, sym, args[0], args[1])

    return model


def _operator_getitem(vm: VM, args: list[Var], kwargs: dict[str, Var]):
    if len(args) != 2 or kwargs:
        return NotImplemented
    return vm.get_item(args[0], args[1])


for _sym, _fn in V.BINARY_OPS.values():
    MODELS[_fn] = _operator_binary(_fn, _sym)
for _sym, _fn in V.COMPARE_OPS.items():
    MODELS[_fn] = _operator_compare(_fn, _sym)
MODELS[operator.getitem] = _operator_getitem
MODELS[all] = _all_any(False)
MODELS[any] = _all_any(True)
MODELS[str] = _text(str)
MODELS[repr] = _text(repr)


def _builtin_model(obj, model):
    """A builtin's entry in the registry: its model, else constant folding (pure builtins); print() is a
    side effect."""

    def run(vm: VM, args: list[Var], kwargs: dict[str, Var]):
        if model is not None:
            res = model(vm, args, kwargs)
            if res is not NotImplemented:
                return res
        if obj in PURE:
            return _fold(obj, args, kwargs)
        if obj is builtins.print:
            raise Unsupported("print", "print() is a side effect on stdout")
        return NotImplemented

    return run


for _obj in (*MODELS, *(PURE - MODELS.keys()), builtins.print):
    register_model(_obj)(_builtin_model(_obj, MODELS.get(_obj)))
