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

from .._guards import ConstSrc, module_hooks, module_plain
from ._values import BoundMethodVar, DictVar, ObjVar, TupleVar, Var

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


def forward_function(tp: type) -> types.FunctionType | None:
    """The Python function `forward` of a module class (through an engine.compile'd forward too)."""
    from ._objects import class_lookup

    forward = class_lookup(tp, "forward")
    forward = forward.__wrapped__ if isinstance(forward, CompiledBase) else forward
    return forward if isinstance(forward, types.FunctionType) else None


class CompiledBase:
    """Base class of `engine.compile`'s result (`engine._segments.Compiled`), defined here so the VM can
    recognise a compiled `forward` without importing the runtime that compiles it. `__wrapped__` is the
    function it compiles (set by functools.update_wrapper)."""

    __wrapped__: types.FunctionType


def call_module(vm: VM, fv: ObjVar, args: list[Var], kwargs: dict[str, Var]) -> Any:
    """`module(*args, **kwargs)`: a Var or an Inline frame, or NotImplemented (the call runs eagerly)."""
    from ._calls import call
    from ._wrap import wrap_fixed

    m = fv.obj
    tp = type(m)
    forward = forward_function(tp)
    if tp.__call__ is not torch.nn.Module.__call__ or forward is None:
        return NotImplemented
    src = (fv.src or ConstSrc(m)).expr(vm.ns)
    bound = BoundMethodVar(fv, wrap_fixed(vm, forward))
    if module_plain(m):
        vm.guards.add(f"_module_plain({src})")
        return call(vm, bound, args, kwargs)
    hooks = module_hooks(m)
    if hooks is None:
        return NotImplemented
    vm.guards.add(f"_module_hooks({src}) == {vm.ns.const(hooks, 'hooks')}")
    pre, post = (TupleVar([wrap_fixed(vm, h) for h in hs]) for hs in hooks)
    helper = wrap_fixed(vm, call_with_hooks)
    return call(vm, helper, [fv, bound, pre, post, TupleVar(args), DictVar(dict(kwargs))], {})
