"""Models of everyday Python the VM met as opaque calls (issue #29's list). None has a registry target
(`_iface.model`: any instance, any singledispatch wrapper, an opcode, an attribute), so the call, attribute
and DELETE_SUBSCR paths ask them directly; they reach the VM only through `vm` (`vm.call`, `vm.wrap`...).
A call model returns a Var, an `Inline` (a frame to push) or NotImplemented (not for these arguments: the
call goes on as without the model).

- calling an instance whose class defines `__call__` in Python (`obj(x)`, `Registry[key]()(x)`): the
  method is traced as a frame, bound to the instance, as `type(obj).__call__(obj, ...)` runs it.
- a `functools.singledispatch` function: the implementation its `dispatch` picks for the first argument's
  (known, guarded) type is traced; a guard re-asks `dispatch` for that type, so a later `register` is seen.
  (As for other wrappers the VM models, an exception's traceback lacks the wrapper's frame.)
- `t.grad` of a leaf tensor the segment reads from its inputs (a parameter, an argument): the gradient is
  one more input, read from `t.grad` and guarded (None, or a tensor's metadata), as any input is.
- `del d[k]` / `del lst[i]` on a dict or list (a `match` statement's `**rest` does it too): the container's
  `pop` model with the result dropped -- the same effect (and, for a key it lacks, an index out of range or a
  slice, the instruction's eager form raises eager's error).
"""

from __future__ import annotations

import functools
from typing import TYPE_CHECKING, Any

from .._guards import AttrSrc
from ._effects import SetAttrEffect
from ._objects import class_lookup, instance_type, python_type, user_function
from ._values import BoundMethodVar, ConstVar, DictVar, ListVar, NewObjVar, ObjVar, Var

if TYPE_CHECKING:
    from ._interp import VM


def call_instance(vm: VM, fn: Var, args: list[Var], kwargs: dict[str, Var]) -> Any:
    """`obj(*args, **kwargs)` for a user object whose class's `__call__` is a Python function. The class is
    what the object's type guard (or the trace, for an object it made) pins; `__call__` is looked up on it
    as CPython does (the instance's own attributes are not consulted)."""
    if type(fn) not in (ObjVar, NewObjVar):
        return NotImplemented
    tp = instance_type(fn)
    if tp is None:
        return NotImplemented
    f = class_lookup(tp, "__call__")
    if not user_function(f):
        return NotImplemented
    return vm.call(BoundMethodVar(fn, vm.wrap_fixed(f)), args, kwargs)



@functools.singledispatch
def _probe(x: object) -> None:
    """Only its wrapper's code is used: what every singledispatch function runs."""


_SINGLEDISPATCH_CODE = _probe.__code__


def call_function_model(vm: VM, fv: Any, args: list[Var], kwargs: dict[str, Var]) -> Any:
    """A model of a library function the VM would otherwise run eagerly (`fv.real` is the function)."""
    real = fv.real
    if real.__code__ is _SINGLEDISPATCH_CODE and args and hasattr(real, "dispatch"):
        return _singledispatch(vm, real, args, kwargs)
    return NotImplemented


def _singledispatch(vm: VM, real: Any, args: list[Var], kwargs: dict[str, Var]) -> Any:
    tp = python_type(vm, vm.resolve(args[0]))
    if tp is None or any("__class__" in k.__dict__ for k in tp.__mro__[:-1]):
        return NotImplemented  # the wrapper dispatches on `args[0].__class__`: known only for a plain type
    impl = real.dispatch(tp)
    ns = vm.ns
    vm.guards.add(f"{ns.const(real, 'f')}.dispatch({ns.const(tp, 'T')}) is {ns.const(impl, 'f')}")
    return vm.call(vm.wrap_fixed(impl), args, kwargs)


def delete_item(vm: VM, container: Var, key: Var) -> bool:
    """`del container[key]` traced (True) for a dict or list the trace holds; False: not modeled here."""
    t = type(container)
    if type(key) is not ConstVar:
        return False
    if t is DictVar and (container.real is None or type(container.real) is dict):
        pass
    elif t is ListVar and (container.real is None or type(container.real) is list) and type(key.value) is int:
        if not -len(vm.list_items(container)) <= key.value < len(vm.list_items(container)):
            return False
    else:
        return False
    return isinstance(vm.call_method(container, "pop", [key], {}), Var)


def leaf_input(vm: VM, v: Any) -> bool:
    """`v` is a graph input with a source, a leaf (guarded)."""
    if v.src is None:
        return False
    real = next((r for s, r in vm.graph.inputs if s is v.src), None)
    if real is None or not real.is_leaf:
        return False
    vm.guards.add(f"{v.src.expr(vm.ns)}.is_leaf")
    return True


def tensor_grad(vm: VM, v: Any) -> Var | None:
    """`v.grad` for a TensorVar that is a graph input with a source, a leaf (reading `.grad` of a non-leaf
    warns: left to the eager op); None: not modeled here."""
    if v in vm.grads_cleared:
        return ConstVar(None)
    if not leaf_input(vm, v):
        return None
    real = next(r for s, r in vm.graph.inputs if s is v.src)
    return vm.wrap(real.grad, AttrSrc(v.src, "grad"))


def clear_grad(vm: VM, v: Any, value: Var) -> bool:
    """`v.grad = None` (a manual optimizer step, `zero_grad` written out) on a leaf graph input: a replayed
    store, after the graph (which read the gradient before it, as eager did); reads of `v.grad` later in the
    segment see None. False: not modeled here (another value is checked by the store itself: eager)."""
    if type(value) is not ConstVar or value.value is not None or not leaf_input(vm, v):
        return False
    vm.effects.append(SetAttrEffect(v, "grad", value))
    vm.grads_cleared.add(v)
    return True
