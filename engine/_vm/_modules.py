"""Calling an nn.Module: `Module.__call__` as the VM traces it.

Eager `Module.__call__` runs the forward pre-hooks, `forward`, then the forward hooks (and sets up backward
hooks, global hooks, hooks with keyword arguments...). The VM traces the common cases and guards on them:

- no hooks at all (`module_plain`): `forward` is inlined directly;
- only plain forward pre-hooks / forward hooks on the module itself: `call_with_hooks` below, ordinary
  Python that the VM traces like user code (so hooks written in Python are traced too), guarded on the
  exact hooks registered (`module_hooks`);
- anything else (backward hooks, global hooks, hooks taking kwargs, a forward in the instance dict, a
  class overriding `__call__`): the module call runs eagerly.
"""

from __future__ import annotations

import types
from typing import TYPE_CHECKING, Any

import torch
import torch.nn.modules.module as _mm

from .._guards import AttrSrc, ConstSrc, module_hooks, module_plain
from ._effects import SetItemEffect
from ._methods import key_of, set_item
from ._objects import _ABSENT, class_lookup, object_setattr
from ._values import (
    BoundMethodVar,
    ConstVar,
    DictVar,
    FuncVar,
    ListVar,
    NewObjVar,
    ObjVar,
    TensorVar,
    TupleVar,
    Var,
)
from ._wrap import wrap, wrap_fixed

if TYPE_CHECKING:
    from ._interp import VM


def module_entry(module: torch.nn.Module, *args: Any, **kwargs: Any) -> Any:
    """What `engine.compile(module)` traces: calling the module, exactly as eager code would."""
    return module(*args, **kwargs)


def call_with_hooks(module, forward, pre_hooks, post_hooks, args, kwargs):
    """Module.__call__ for a module whose only hooks are plain forward (pre-)hooks (traced, not run)."""
    for hook in pre_hooks:
        result = hook(module, args)
        if result is not None:
            if not isinstance(result, tuple):
                result = (result,)
            args = result
    out = forward(*args, **kwargs)
    for hook in post_hooks:
        result = hook(module, args, out)
        if result is not None:
            out = result
    return out


def forward_function(found: object) -> types.FunctionType | None:
    """The Python function behind ``found``, a module class's `forward` (through an engine.compile'd one too)."""
    forward = found.__wrapped__ if isinstance(found, CompiledBase) else found
    return forward if isinstance(forward, types.FunctionType) else None


class CompiledBase:
    """Base class of `engine.compile`'s result (`engine._segments.Compiled`), defined here so the VM can
    recognise a compiled `forward` without importing the runtime that compiles it. `__wrapped__` is the
    function it compiles (set by functools.update_wrapper)."""

    __wrapped__: types.FunctionType


def call_module(vm: VM, fv: ObjVar, args: list[Var], kwargs: dict[str, Var]) -> Any:
    """`module(*args, **kwargs)`: a Var or an Inline frame, or NotImplemented (the call runs eagerly)."""
    m = fv.obj
    tp = type(m)
    found = class_lookup(tp, "forward")
    forward = forward_function(found)
    if tp.__call__ is not torch.nn.Module.__call__ or forward is None:
        return NotImplemented
    src = (fv.src or ConstSrc(m)).expr(vm.ns)
    if getattr(tp, "forward", None) is found:  # eager looks forward up at every call: a patched one must miss
        vm.guards.add(f"type({src}).forward is {vm.ns.const(found, 'k')}")
    bound = BoundMethodVar(fv, wrap_fixed(vm, forward))
    if module_plain(m):
        vm.guards.add("_no_global_hooks()")
        vm.guards.add(f"_module_unhooked({src})")
        return vm.call(bound, args, kwargs)
    hooks = module_hooks(m)
    if hooks is None:
        return NotImplemented
    vm.guards.add(f"_module_hooks({src}) == {vm.ns.const(hooks, 'hooks')}")
    pre, post = (TupleVar([wrap_fixed(vm, h) for h in hs]) for hs in hooks)
    helper = wrap_fixed(vm, call_with_hooks)
    return vm.call(helper, [fv, bound, pre, post, TupleVar(args), DictVar(dict(kwargs))], {})


# -- Module.__setattr__ --------------------------------------------------------------------------------------

_STORES = ("_parameters", "_buffers", "_modules")
_STORABLE = (ConstVar, TupleVar, ListVar, DictVar, TensorVar, NewObjVar, FuncVar, ObjVar)


def _store_unchanged(vm: VM, d: dict) -> bool:
    """The VM's view of a parameter/buffer/module dict has the real one's keys: no store into it traced so
    far, or only stores replacing existing keys (a buffer assigned twice)."""
    dv = vm.memo.get(id(d))
    if dv is None or type(dv) is not DictVar:
        return True
    if dv.items is not None:
        return list(dv.items) == list(d)
    return all(type(e) is SetItemEffect and key_of(e.key) in d for e in vm.effects if e.target is dv)


def _plain_tensor_value(vm: VM, val: Var) -> bool:
    """A tensor value that is neither a Parameter nor flagged as a Buffer (both change what is stored)."""
    if type(val) is not TensorVar or val.pytype is not torch.Tensor:
        return False
    if val.src is not None:  # an input tensor may carry the Buffer flag: keep the answer
        vm.guards.add(f"getattr({val.src.expr(vm.ns)}, '_is_buffer', False) is False")
    return True


def module_setattr(vm: VM, fv: Var, args: list[Var], kwargs: dict[str, Var]) -> Var | None:
    """`Module.__setattr__(self, name, value)` for the two stores forward code makes: a tensor into an
    existing buffer (`self.steps = self.steps + 1`, with no global buffer hooks), and a plain value under a
    name that is no parameter, buffer or submodule (`self.calls += 1`, `self.cache = y.detach()`). The
    membership answers are guarded. None: another case (parameters, submodules, new buffers), traced."""
    if kwargs or len(args) != 3 or type(args[0]) is not ObjVar or type(args[1]) is not ConstVar:
        return None
    self_v, name, val = args[0], args[1].value, args[2]
    m = self_v.obj
    d = getattr(m, "__dict__", None)
    if not isinstance(m, torch.nn.Module) or type(name) is not str or d is None \
            or type(val) not in _STORABLE or any(type(d.get(s)) is not dict for s in _STORES) \
            or not all(_store_unchanged(vm, d[s]) for s in _STORES):
        return None
    if type(val) is ObjVar and isinstance(val.obj, (torch.nn.Module, torch.Tensor)):
        return None
    if type(val) is TensorVar and not _plain_tensor_value(vm, val):
        return None
    src = (self_v.src or ConstSrc(m)).expr(vm.ns)
    where = {s: name in d[s] for s in _STORES}
    if where["_parameters"] or where["_modules"]:
        return None
    if where["_buffers"]:
        if type(val) is not TensorVar or _mm._global_buffer_registration_hooks \
                or getattr(type(m).register_buffer, "__code__", None) is not torch.nn.Module.register_buffer.__code__:
            return None
        vm.guards.add(f"{name!r} in {src}._buffers and {name!r} not in {src}._parameters "
                      f"and {name!r} not in {src}._modules "
                      f"and not {vm.ns.const(_mm._global_buffer_registration_hooks, 'hooks')}")

        buffers = wrap(vm, d["_buffers"], AttrSrc(self_v.src or ConstSrc(m), "_buffers"))
        set_item(vm, buffers, ConstVar(name), val)
        if self_v.attrs is None:
            self_v.attrs = {}
        self_v.attrs[name] = val  # later reads in this trace see the new buffer (the store is replayed)
        return ConstVar(None)

    cls_attr = class_lookup(type(m), name)
    if cls_attr is not _ABSENT and (hasattr(type(cls_attr), "__set__") or hasattr(type(cls_attr), "__delete__")):
        return None
    vm.guards.add(" and ".join(f"{name!r} not in {src}.{s}" for s in _STORES))
    object_setattr(vm, self_v, name, val)
    return ConstVar(None)
