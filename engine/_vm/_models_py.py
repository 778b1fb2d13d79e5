"""Models of everyday Python the VM met as opaque calls (issue #29's list), kept in one module so they can
move to a model registry as they are: each is `model(vm, fn, args, kwargs)` returning a Var, an `Inline`
(a frame to push) or NotImplemented (not for these arguments: the call goes on as without the model).

- calling an instance whose class defines `__call__` in Python (`obj(x)`, `Registry[key]()(x)`): the
  method is traced as a frame, bound to the instance, as `type(obj).__call__(obj, ...)` runs it.
- a `functools.singledispatch` function: the implementation its `dispatch` picks for the first argument's
  (known, guarded) type is traced; a guard re-asks `dispatch` for that type, so a later `register` is seen.
  (As for other wrappers the VM models, an exception's traceback lacks the wrapper's frame.)
"""

from __future__ import annotations

import functools
from typing import TYPE_CHECKING, Any

from ._builtins import python_type
from ._objects import class_lookup, instance_type, user_function
from ._values import BoundMethodVar, NewObjVar, ObjVar, Var

if TYPE_CHECKING:
    from ._interp import VM


def call_instance(vm: VM, fn: Var, args: list[Var], kwargs: dict[str, Var]) -> Any:
    """`obj(*args, **kwargs)` for a user object whose class's `__call__` is a Python function. The class is
    what the object's type guard (or the trace, for an object it made) pins; `__call__` is looked up on it
    as CPython does (the instance's own attributes are not consulted)."""
    from ._calls import call
    from ._wrap import wrap_fixed

    if type(fn) not in (ObjVar, NewObjVar):
        return NotImplemented
    tp = instance_type(fn)
    if tp is None:
        return NotImplemented
    f = class_lookup(tp, "__call__")
    if not user_function(f):
        return NotImplemented
    return call(vm, BoundMethodVar(fn, wrap_fixed(vm, f)), args, kwargs)



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
    from ._calls import call
    from ._wrap import wrap_fixed

    tp = python_type(vm, vm.resolve(args[0]))
    if tp is None or any("__class__" in k.__dict__ for k in tp.__mro__[:-1]):
        return NotImplemented  # the wrapper dispatches on `args[0].__class__`: known only for a plain type
    impl = real.dispatch(tp)
    ns = vm.ns
    vm.guards.add(f"{ns.const(real, 'f')}.dispatch({ns.const(tp, 'T')}) is {ns.const(impl, 'f')}")
    return call(vm, wrap_fixed(vm, impl), args, kwargs)
