"""Compile-time regions: `torch._dynamo.error_on_graph_break(b)` and `torch._dynamo.disable_nested_graph_breaks`.

Both are context managers (and decorators through torch's `wrap_dunder_call_ctx_manager`, whose wrapper is
just `with self: return func(...)`: the policy traces that wrapper, so the decorator form is the with form
in a frame of its own). They change nothing at run time: entering one pushes a no-op exit callable
(`RegionExit`) on the operand stack of the frame that entered the region, where it survives breaks like
any other stack value, and leaving it calls that no-op. What they mean is decided at a break (`on_break`), from the regions
active on the frame stack at that point, innermost first, as Dynamo reads its settings when it breaks:

- error_on_graph_break(True): the break is an error, the same `GraphBreakError` as for fullgraph=True (an
  `EngineError` that is also torch's `torch._dynamo.exc.Unsupported`, which Dynamo raises); an inner error_on_graph_break(False) lets the break resume again.
- disable_nested_graph_breaks: a break below the outermost frame is handled as with nested=False: the
  outermost frame's call that leads to it runs as its own compiled call without nested resumption (Dynamo
  too unwinds such a break to the top frame, which breaks at that call and compiles the callee on its own).

`torch._dynamo.nonstrict_trace(fn)` is a region of frames too: its wrapper (`return fn(*args, **kwargs)`) is
traced, so `fn`'s ops join the graph with no break, and `graph_break()` anywhere below the wrapper is what
it is in eager, a no-op, as Dynamo does not trace there. Dynamo makes the call one opaque op whose Python
runs again while tracing; the engine traces it instead, because running user Python an extra time repeats
its side effects (Dynamo documents that as a silent-incorrectness hazard). What the VM cannot trace inside
still breaks, correctly.
"""

from __future__ import annotations

import types
from typing import TYPE_CHECKING

import torch._dynamo
import torch._dynamo.decorators as _decorators
import torch._dynamo.external_utils as _external

from .._errors import GraphBreakError, Unsupported
from .._guards import ConstSrc
from ._ending import Restart
from ._values import ConstVar, LazyVar, ObjVar

if TYPE_CHECKING:
    from ._interp import VM

_ErrorOnGraphBreak = getattr(_decorators, "ErrorOnGraphBreakDecoratorContextManager", None)
_ConfigPatch = getattr(_decorators, "DynamoConfigPatchProxy", None)

# The code of the decorator wrapper (`with self: return func(*args, **kwargs)`): traced, not run eagerly.
WRAPPER_CODE = _external.wrap_dunder_call_ctx_manager(None, None).__code__ if hasattr(
    _external, "wrap_dunder_call_ctx_manager") else None


def _nested_code(fn: object, name: str) -> types.CodeType | None:
    code = getattr(fn, "__code__", None)
    for c in code.co_consts if code is not None else ():
        if isinstance(c, types.CodeType) and c.co_name == name:
            return c
    return None


# The wrapper nonstrict_trace returns (`return traceable_fn(*args, **kwargs)`), found without calling it (the
# call registers the function with Dynamo).
NONSTRICT_CODE = _nested_code(getattr(torch._dynamo, "nonstrict_trace", None), "wrapped")
TRACED_WRAPPERS = {c: why for c, why in (
    (WRAPPER_CODE, "the decorator form of a context manager: traced as a with-block around the call"),
    (NONSTRICT_CODE, "nonstrict_trace: the function is traced, graph_break() inside it is a no-op "
                     "(engine/_vm/_regions.py)")) if c is not None}


def graph_break_call(vm: VM, fn: object):
    """`graph_break()` / `step_unsupported()` called in traced code: a break, or below a nonstrict_trace
    wrapper what eager does (nothing)."""
    if NONSTRICT_CODE is not None and any(f.info.code is NONSTRICT_CODE for f in vm.frames):
        return ConstVar(None)
    raise Unsupported("graph_break", f"{getattr(fn, '__name__', 'graph_break')}() called", "remove the graph break")


def _is_region(obj: object) -> bool:
    if _ErrorOnGraphBreak is not None and type(obj) is _ErrorOnGraphBreak:
        return type(getattr(obj, "error_on_graph_break", None)) is bool
    if _ConfigPatch is not None and type(obj) is _ConfigPatch:
        return _nested_off(obj)
    return False


def _nested_off(obj: object) -> bool:
    try:
        return dict(obj.changes) == {"nested_graph_breaks": False}
    except Exception:
        return False


class RegionExit:
    """The exit callable a with-block over a region keeps on its stack: a no-op, also when a break makes it
    run for real (an exception leaving the block). Torch's own `__exit__` would undo an `__enter__` that
    never ran."""

    __slots__ = ("region",)

    def __init__(self, region: object) -> None:
        self.region = region

    def __call__(self, *exc: object) -> None:
        return None


def enter(vm: VM, ctx) -> tuple[ObjVar, ConstVar] | None:
    """BEFORE_WITH over a region object: (exit callable, value of `as`), or None for any other object."""
    if type(ctx) is not ObjVar or not _is_region(ctx.obj):
        return None
    exit_ = RegionExit(ctx.obj)
    return ObjVar(exit_, ConstSrc(exit_)), ConstVar(None)


def exit_model(vm: VM, fv, args, kwargs) -> ConstVar:
    """Calling a RegionExit in traced code (leaving the block): nothing happens."""
    return ConstVar(None)


def _region_of(vm: VM, v) -> object | None:
    """The region object whose exit callable `v` is (a stack value), else None."""
    if type(v) is LazyVar:
        real = vm.env[v.index]
        return real.region if type(real) is RegionExit else None
    if type(v) is ObjVar and type(v.obj) is RegionExit:
        return v.obj.region
    return None


def active(vm: VM) -> tuple[bool | None, bool]:
    """(innermost error_on_graph_break setting or None, whether nested breaks are disabled) right now."""
    error = None
    nested_off = False
    for frame in reversed(vm.frames):
        for v in reversed(frame.stack):
            obj = _region_of(vm, v)
            if obj is None:
                continue
            if type(obj) is _ErrorOnGraphBreak:
                if error is None:
                    error = obj.error_on_graph_break
            else:
                nested_off = True
    return error, nested_off


def on_break(vm: VM, u, depth: int) -> None:
    """Apply the active regions to a break: raise the fullgraph error, or restart with a classic call."""
    error, nested_off = active(vm)
    if error:
        hint = f"; hint: {u.hint}" if u.hint else ""
        raise GraphBreakError(f"[{u.gb_id}] graph break at {u.where} inside error_on_graph_break(True): "
                              f"{u.explanation}{hint}", u.gb_id)
    if nested_off and depth > 0:
        # the outermost call still made by this trace: resumed frames below it cannot be re-run
        for frame in vm.frames[1:]:
            if frame.call_no > 0:
                raise Restart(frame.call_no, "classic")


def factory_model(vm: VM, fv, args, kwargs):
    """`error_on_graph_break(b)` / `disable_nested_graph_breaks()` called in traced code: the region object,
    made once at trace time (entering and leaving it are modeled, so it keeps no state between calls)."""
    if kwargs or not all(type(a) is ConstVar for a in args):
        return NotImplemented
    values = [a.value for a in args]
    if fv.real is getattr(torch._dynamo, "error_on_graph_break", None):
        if len(values) != 1 or type(values[0]) is not bool:
            return NotImplemented
    elif values:  # disable_nested_graph_breaks(fn): the decorator applied in traced code runs eagerly
        return NotImplemented
    obj = fv.real(*values)
    return ObjVar(obj, ConstSrc(obj))


def region_factories() -> list[object]:
    return [f for f in (getattr(torch._dynamo, "error_on_graph_break", None),
                        getattr(torch._dynamo, "disable_nested_graph_breaks", None)) if f is not None]
