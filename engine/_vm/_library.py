"""Models of the library callables the policy table marks MODEL, and the one place a policy rule is applied.

A model computes a call's result from VM values (folding constants, answering a query from the trace, or
turning the call into the operation it stands for). It returns NotImplemented when it cannot answer for
these arguments; the call then runs eagerly, as every call the VM does not model does.
"""

from __future__ import annotations

import operator
import types
from collections.abc import Callable
from typing import TYPE_CHECKING, Any

import torch

from .. import _policy as P
from .._errors import Unsupported
from .._guards import AttrSrc, CallSrc, ConstSrc, ItemSrc, Src
from .._policy import Decision, Rule
from . import _regions
from . import _version as V
from ._arith import unary
from ._consts import is_const_value
from ._members import members_model
from ._modules import module_setattr
from ._objects import _ABSENT, class_lookup, slot_of
from ._values import (
    ConstVar,
    FuncVar,
    ListVar,
    NewObjVar,
    ObjVar,
    TensorVar,
    TupleVar,
    Var,
)

_PLAIN_TENSOR_TYPES = (torch.Tensor, torch.nn.Parameter)


if TYPE_CHECKING:
    from ._interp import VM


def apply_rule(vm: VM, rule: Rule, fv: Var, args: list[Var], kwargs: dict[str, Var]) -> Any:
    """Apply a MODEL or EAGER rule of the policy table to a call (TRACE/GRAPH_OP go the usual way: None)."""
    name = _name(fv)
    if rule.decision is Decision.EAGER:
        raise Unsupported("print" if name == "print" else "library-eager", f"{name}() runs eagerly: {rule.reason}")
    model = rule.model or MODELS.get(rule)
    if rule.decision is Decision.MODEL and model is not None:
        res = model(vm, fv, args, kwargs)
        if res is NotImplemented:
            raise Unsupported("library-model", f"{name}() with these arguments is not modeled ({rule.reason})")
        return res
    return None


def _name(fv: Var) -> str:
    obj = fv.real if type(fv) is FuncVar else getattr(fv, "obj", None)
    return getattr(obj, "__qualname__", None) or type(obj).__name__


def _real(fv: Var) -> Any:
    return fv.real if type(fv) is FuncVar else fv.obj


def _src(fv: Var) -> Src:
    return fv.src if fv.src is not None else ConstSrc(_real(fv))


# -- torch queries ------------------------------------------------------------------------------------------

def _plain(vm: VM, v: Var) -> bool:
    """No __torch_function__ override can be reached through v."""
    t = type(v)
    if t is TensorVar:
        return v.pytype in _PLAIN_TENSOR_TYPES
    if t is ConstVar:
        return True
    if t is TupleVar:
        return all(_plain(vm, x) for x in v.items)
    if t is ListVar:
        return all(_plain(vm, x) for x in vm.list_items(v))
    if t in (ObjVar, NewObjVar):
        tp = type(v.obj) if t is ObjVar else v.cls
        return not isinstance(v.obj if t is ObjVar else None, torch.Tensor) and \
            getattr(tp, "__torch_function__", torch._C._disabled_torch_function_impl) is \
            torch._C._disabled_torch_function_impl
    return False


def torch_function_check(vm: VM, fv: Var, args: list[Var], kwargs: dict[str, Var]) -> Var:
    """has_torch_function(args) / _unary(x) / _variadic(*xs): False on plain tensors with no mode active."""
    if kwargs or torch._C._len_torch_function_stack():
        return NotImplemented
    items = args
    if _real(fv) is torch._C._has_torch_function:
        if len(args) != 1:
            return NotImplemented

        items = vm.seq_items(args[0])
    return ConstVar(False) if all(_plain(vm, x) for x in items) else NotImplemented


def always_false(vm: VM, fv: Var, args: list[Var], kwargs: dict[str, Var]) -> Var:
    return ConstVar(False) if not args and not kwargs else NotImplemented


def tracing_state(vm: VM, fv: Var, args: list[Var], kwargs: dict[str, Var]) -> Var:
    if args or kwargs:
        return NotImplemented
    value = torch._C._is_tracing()
    vm.guards.add(f"{vm.ns.const(torch._C._is_tracing, 'fn')}() is {value!r}")
    return ConstVar(value)


def state_now(vm: VM, fv: Var, args: list[Var], kwargs: dict[str, Var]) -> Var:
    """`torch.compiler.is_exporting()` / `_get_current_dispatch_mode_stack()`: their value now, guarded (a bool,
    or an empty stack -- a stack with modes in it is left to run for real)."""
    fn = _real(fv)
    if args or kwargs:
        return NotImplemented
    value = fn()
    if type(value) is bool:
        vm.guards.add(f"{vm.ns.const(fn, 'fn')}() is {value!r}")
        return ConstVar(value)
    if type(value) is list and not value:
        vm.guards.add(f"not {vm.ns.const(fn, 'fn')}()")
        return ListVar([])
    return NotImplemented


def fold_constants(vm: VM, fv: Var, args: list[Var], kwargs: dict[str, Var]) -> Var:
    """A pure function of constants, evaluated now (math.*)."""
    vals = [a.value for a in args if type(a) is ConstVar]
    kv = {k: v.value for k, v in kwargs.items() if type(v) is ConstVar}
    if len(vals) != len(args) or len(kv) != len(kwargs):
        return NotImplemented
    try:
        out = _real(fv)(*vals, **kv)
    except Exception:
        return NotImplemented  # the eager call raises it at the right point
    return ConstVar(out) if is_const_value(out) else NotImplemented


# -- attribute queries --------------------------------------------------------------------------------------

def _has_attr(vm: VM, v: Var, name: str) -> bool | None:
    """hasattr(v, name) as the trace can answer it, with the guard that keeps the answer; None: cannot."""
    t = type(v)
    if t is ConstVar:
        return hasattr(v.value, name)
    if t is TensorVar:  # a tensor made by the graph has no instance attributes; an input may have
        return True if hasattr(v.pytype, name) else (False if v.src is None else None)
    if t is NewObjVar:
        if slot_of(v.cls, name):  # a slot: set or not (the descriptor on the class does not count)
            return name in v.attrs
        return name in v.attrs or hasattr(v.cls, name)
    if t is not ObjVar:
        return None
    if v.attrs is not None and name in v.attrs:
        return True
    obj, tp = v.obj, type(v.obj)
    if tp.__getattribute__ is not object.__getattribute__ and not isinstance(obj, type):
        return None
    getattr_hook = class_lookup(tp, "__getattr__")
    if getattr_hook is not _ABSENT and getattr_hook is not torch.nn.Module.__getattr__:
        return None  # a user __getattr__ may compute anything
    cls_attr = class_lookup(tp, name)
    if cls_attr is not _ABSENT and hasattr(type(cls_attr), "__get__") and \
            not isinstance(cls_attr, (types.FunctionType, staticmethod, classmethod)):
        return None  # a property or other descriptor runs code
    result = hasattr(obj, name)
    vm.guards.add(f"hasattr({_src(v).expr(vm.ns)}, {name!r}) is {result!r}")
    return result


def hasattr_model(vm: VM, fv: Var, args: list[Var], kwargs: dict[str, Var]) -> Var:
    if len(args) != 2 or kwargs or type(args[1]) is not ConstVar or type(args[1].value) is not str:
        return NotImplemented
    res = _has_attr(vm, args[0], args[1].value)
    return NotImplemented if res is None else ConstVar(res)


def getattr_model(vm: VM, fv: Var, args: list[Var], kwargs: dict[str, Var]) -> Any:
    """getattr(obj, name[, default]): LOAD_ATTR's lookup; with a default, hasattr decides first."""
    if kwargs or len(args) not in (2, 3) or type(args[1]) is not ConstVar or type(args[1].value) is not str:
        return NotImplemented

    if len(args) == 3:
        res = _has_attr(vm, args[0], args[1].value)
        if res is None:
            return NotImplemented
        if not res:
            return args[2]
    return vm.load_attr(args[0], args[1].value)


# -- operator, weakref, functools.partial -------------------------------------------------------------------

def operator_model(vm: VM, fv: Var, args: list[Var], kwargs: dict[str, Var]) -> Any:
    """operator.add(a, b) is `a + b`: the same model as the opcode."""
    fn = _real(fv)
    if kwargs:
        return NotImplemented
    if len(args) == 2:
        for sym, f in V.BINARY_OPS.values():
            if f is fn:
                return vm.binary(fn, sym, *args)
        for sym, f in V.COMPARE_OPS.items():
            if f is fn:
                return vm.compare(fn, sym, *args)
        if fn is operator.getitem:
            return vm.get_item(*args)
    if len(args) == 1:
        if fn in (operator.neg, operator.not_):
            return unary(vm, fn, args[0])
        if fn is operator.index and type(args[0]) is ConstVar:
            return fold_constants(vm, fv, args, kwargs)
    return NotImplemented


def weakref_call(vm: VM, fv: Var, args: list[Var], kwargs: dict[str, Var]) -> Any:
    """ref(): the referent, re-read through the reference (guarded) when the segment starts."""
    if args or kwargs:
        return NotImplemented
    target = fv.obj()
    src = CallSrc(_src(fv))
    if target is None:
        vm.guards.add(f"{src.expr(vm.ns)} is None")
        return ConstVar(None)
    return vm.wrap(target, src)


def partial_call(vm: VM, fv: Var, args: list[Var], kwargs: dict[str, Var]) -> Any:
    """partial(f, *a, **k)(*args, **kw) is f(*a, *args, **k, **kw); a partial's parts are read-only."""
    p, base = fv.obj, _src(fv)
    if not all(type(k) is str for k in p.keywords):
        return NotImplemented
    # The partial is guarded by its type only (the call's guard, _calls._guard_callee): its parts are read
    # and guarded as any input is, so another partial of the same function and arguments takes this trace.
    func = vm.wrap(p.func, AttrSrc(base, "func"))
    vm.guards.length(AttrSrc(base, "args"), len(p.args))
    pargs = [vm.wrap(a, ItemSrc(AttrSrc(base, "args"), k)) for k, a in enumerate(p.args)]
    kwsrc = AttrSrc(base, "keywords")
    vm.guards.add(f"tuple({kwsrc.expr(vm.ns)}) == {tuple(p.keywords)!r}")
    pkw = {k: vm.wrap(a, ItemSrc(kwsrc, k)) for k, a in p.keywords.items()}
    return vm.call(func, pargs + list(args), {**pkw, **kwargs})


# The model of each MODEL rule of the policy table (engine/_policy.py says which callables and why).
MODELS: dict[Rule, Callable[..., Any]] = {
    P.TORCH_FUNCTION_CHECK: torch_function_check, P.FOLD_FALSE: always_false, P.TRACING: tracing_state,
    P.STATE_NOW: state_now,
    P.OPERATOR: operator_model, P.MATH: fold_constants, P.HASATTR: hasattr_model, P.GETATTR: getattr_model,
    P.WEAKREF_CALL: weakref_call, P.PARTIAL_CALL: partial_call,
    P.REGION: _regions.factory_model, P.REGION_EXIT: _regions.exit_model, P.MODULE_SETATTR: module_setattr,
    P.MODULE_MEMBERS: members_model,
}
_unmodeled = {r.reason for r in [*P.CALLABLES.values(), *P.INSTANCE_CALLS.values()]
              if r.decision is Decision.MODEL and r.model is None and r not in MODELS}
assert not _unmodeled, f"MODEL rules without a model: {_unmodeled}"
