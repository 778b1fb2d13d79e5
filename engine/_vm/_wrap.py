"""Real values -> VM values, with the guards that make the trace valid for later calls."""

from __future__ import annotations

import types
from typing import TYPE_CHECKING

import torch

from .. import _runtime as R
from .._guards import AttrSrc, ConstSrc, EnvSrc, ItemSrc, IterSeqSrc
from . import _version as V
from ._consts import IMMUTABLE, SCALARS, is_const_value, key_var
from ._iface import implements
from ._iters import ZipView, as_sequence
from ._members import MembersIter, MemberView
from ._sets import wrap_real_set
from ._values import (
    DISCARD,
    NULL,
    UNREAD,
    BoundMethodVar,
    CellVar,
    ConstVar,
    DictVar,
    FuncVar,
    GradCtxVar,
    GradExitVar,
    IterVar,
    ListVar,
    MethodVar,
    ObjVar,
    TupleVar,
)

if TYPE_CHECKING:
    from .._guards import Src
    from ._interp import VM
    from ._values import Var

_METHOD_SELF_TYPES = (list, dict)
# Tensor subclasses (their __torch_function__ must run in program order) and sparse/other layouts are
# opaque objects: every op on them runs eagerly.
_PLAIN_TENSORS = (torch.Tensor, torch.nn.Parameter)


@implements("wrap")
def wrap(vm: VM, value, src: Src, fixed: bool = False):
    """A VM value for a real `value` read from `src`. `fixed`: identity is already guarded (or the object
    is a fixed part of the program such as a module), so no type guards are needed and `src` is constant."""
    g = vm.guards
    t = type(value)
    if t in SCALARS:
        if not fixed:
            g.const(src, value)
        return ConstVar(value)
    if value is R.DISCARD:
        g.identity(src, R.DISCARD)
        return DISCARD
    if value is R.NULL:
        if not fixed:
            g.identity(src, R.NULL)
        return NULL
    key = id(value)
    hit = vm.memo.get(key)
    if hit is not None:
        first = _src_of(hit)
        if first is not None and first is not src and not (fixed and isinstance(first, ConstSrc)):
            g.add(f"{src.expr(vm.ns)} is {first.expr(vm.ns)}")
        return hit
    if t in _PLAIN_TENSORS and value.layout is torch.strided:
        g.tensor(src, value)
        var = vm.graph.placeholder(value, src)
    elif t is tuple:
        if not fixed:
            g.type_is(src, tuple)
            g.length(src, len(value))
        var = TupleVar([wrap(vm, x, ItemSrc(src, k), fixed) for k, x in enumerate(value)])
        return var  # tuples have no identity worth keeping
    elif isinstance(value, tuple) and (hasattr(t, "_fields") or t.__module__ == "torch.return_types"):
        if not fixed:
            g.type_is(src, t)
            g.length(src, len(value))
        return TupleVar([wrap(vm, x, ItemSrc(src, k), fixed) for k, x in enumerate(value)], t)
    elif t in IMMUTABLE:
        if not fixed:
            g.const(src, value)
        return ConstVar(value)
    elif t is list:
        if not fixed:
            g.type_is(src, list)
        var = ListVar(None, real=value, src=src)
    elif t is dict:
        if not fixed:
            g.type_is(src, dict)
        var = DictVar(None, real=value, src=src)
    elif t is set and (var := wrap_real_set(vm, value, src, fixed)) is not None:
        pass
    elif t is types.FunctionType:
        if not fixed:
            e = src.expr(vm.ns)
            g.add(f"type({e}) is _FunctionType and {e}.__code__ is {vm.ns.const(value.__code__, 'code')}"
                  f" and {e}.__globals__ is {vm.ns.const(value.__globals__, 'G')}")
        var = FuncVar(value.__code__, value.__globals__, value.__name__, value.__qualname__,
                      real=value, src=src)
    elif t is types.CellType:
        if not fixed:
            g.type_is(src, types.CellType)
        var = CellVar(UNREAD, real=value, src=src)
    elif t is types.MethodType:
        if not fixed:
            g.type_is(src, types.MethodType)
        self_var = wrap(vm, value.__self__, AttrSrc(src, "__self__"), fixed)
        func = wrap(vm, value.__func__, AttrSrc(src, "__func__"), fixed)
        return BoundMethodVar(self_var, func)
    elif t is types.BuiltinMethodType and (
            type(getattr(value, "__self__", None)) in _METHOD_SELF_TYPES
            or isinstance(getattr(value, "__self__", None), torch.Tensor)
            or (value.__self__ is not None and type(value.__self__) in SCALARS)):
        # `x.add` / `lst.append` made real at a break: the same method value again, not an opaque object.
        if not fixed:
            g.type_is(src, t)
            g.add(f"{src.expr(vm.ns)}.__name__ == {value.__name__!r}")
        self_var = wrap(vm, value.__self__, AttrSrc(src, "__self__"))
        return MethodVar(self_var, value.__name__)
    elif t is R.GradModeExit:
        g.type_is(src, t)
        g.add(f"{src.expr(vm.ns)}.prev is {value.prev!r}")
        return GradExitVar(value.prev)
    elif t is torch.no_grad or t is torch.enable_grad:  # made by traced code (or by the program)
        g.type_is(src, t)
        return GradCtxVar(t is torch.enable_grad)
    elif t is torch.set_grad_enabled and type(value.mode) is bool and type(value.prev) is bool:
        g.type_is(src, t)
        g.add(f"{src.expr(vm.ns)}.mode is {value.mode!r} and {src.expr(vm.ns)}.prev is {value.prev!r}")
        return GradCtxVar(value.mode, value.prev)
    elif t is R.GradCtx:
        g.type_is(src, t)
        g.add(f"{src.expr(vm.ns)}.target is {value.target!r} and {src.expr(vm.ns)}.prev is {value.prev!r}")
        return GradCtxVar(value.target, value.prev)
    elif t in R.POSITIONED_TYPES and (var := _wrap_seq_iter(vm, value, src)) is not None:
        pass
    elif t is R.DictIter and not value.broken:  # (a broken one raises at every step: opaque, stepped eagerly)
        e = src.expr(vm.ns)
        g.type_is(src, t)
        g.add(f"{e}.index == {value.index!r} and {e}.broken is False and {e}.kind == {value.kind!r} and "
              f"{e}.keys == {vm.ns.const(value.keys, 'k')}")
        d = wrap(vm, value.dict, AttrSrc(src, "dict"))
        var = IterVar(TupleVar([key_var(k) for k in value.keys]), value.index, real=value, src=src)
        var.over = (d, value.kind, value.keys)
        vm.dict_iters.append(var)
        vm.writeback.append(var)
    elif t is R.ZipIter and not value.done:  # a loop's own zip/enumerate (see _iters.zip_loop)
        e = src.expr(vm.ns)
        g.type_is(src, t)
        g.add(f"{e}.index == {value.index!r} and {e}.done is False and {e}.start == {value.start!r} and "
              f"len({e}.seqs) == {len(value.seqs)}")
        seqs = [as_sequence(vm, wrap(vm, q, ItemSrc(AttrSrc(src, "seqs"), k))) for k, q in enumerate(value.seqs)]
        var = IterVar(ZipView(seqs, value.start), value.index, real=value, src=src)
        vm.writeback.append(var)
    elif t is MembersIter:
        g.type_is(src, t)
        e = src.expr(vm.ns)
        g.add(f"{e}.index == {value.index!r} and {e}.method == {value.method!r} "
              f"and {e}.kwargs == {vm.ns.const(value.kwargs, 'kw')}")
        module = wrap(vm, value.module, AttrSrc(src, "module"))
        var = IterVar(MemberView(module, value.method, value.kwargs), value.index, real=value, src=src)
        vm.writeback.append(var)
    else:
        if not fixed:
            g.type_is(src, t)
        var = ObjVar(value, src)
    vm.memo[key] = var
    vm.keep.append(value)
    if not fixed and not isinstance(src, ConstSrc):
        g.distinct.append(src)
    return var


def _wrap_seq_iter(vm: VM, value, src: Src) -> IterVar | None:
    """A real list/tuple/range/str/bytes iterator (or `reversed` over a tuple or str) as an IterVar over its
    sequence at its position, put back where the trace leaves it (`_runtime.position`). Other `reversed`
    objects read a sequence the VM does not model live: None (an opaque object)."""
    state = V.seq_iter_state(value)
    g = vm.guards
    e = src.expr(vm.ns)
    g.type_is(src, type(value))
    if len(state) < 3:  # exhausted: it dropped its sequence
        g.add(f"_iter_index({e}) is None")
        var = IterVar(ConstVar(()), 0, real=value, src=src)
        var.done = True
        return var
    seq, index = state[1][0], state[2]
    if type(value) is reversed and type(seq) not in (tuple, str):
        return None
    g.add(f"_iter_index({e}) == {index!r}")
    seq_var = wrap(vm, seq, IterSeqSrc(src))
    if type(value) is reversed:
        items = vm.seq_items(seq_var)
        var = IterVar(TupleVar(items[::-1]), len(items) - 1 - index, real=value, src=src, rev=seq_var)
    else:
        var = IterVar(seq_var, index, real=value, src=src)
    vm.writeback.append(var)
    return var


def _src_of(var: Var) -> Src | None:
    return getattr(var, "src", None)


@implements("wrap_fixed")
def wrap_fixed(vm: VM, value):
    """An object that is part of the program (a global's or module attribute's value, identity-guarded)."""
    return wrap(vm, value, ConstSrc(value), fixed=True)


__all__ = ["wrap", "wrap_fixed", "is_const_value", "EnvSrc"]
