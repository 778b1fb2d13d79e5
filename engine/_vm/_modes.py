"""Autocast and inference mode as graph state, the way grad mode is.

Entering `torch.autocast(...)` (made by traced code, or the program's own object: `@torch.autocast(...)`'s
wrapper enters its closure's) or `torch.inference_mode(mode)` puts torch's own enter node into the graph
(`torch.amp.autocast_mode._enter_autocast`, `torch.autograd.grad_mode._enter_inference_mode`) and the exit
node where the block ends; the ops between are traced with the mode applied (`applied`), so their metadata
(bfloat16 under CPU autocast, inference tensors) is eager's. The VM keeps the blocks entered and not yet left
(`vm.modes`, innermost last). A segment that ends inside such blocks closes them at the end of its graph (a
graph leaves the state it started in) and its residual code enters the real objects again, outermost first
and under the grad mode each was entered in (`Emitter.enter_modes`), so the eager op runs under the mode and
the exit on the operand stack is the real object's `__exit__` (leaving the block after a break is an eager op).

Autocast's cast cache: eager keeps the casts of float32 leaf tensors that require grad until the outermost
autocast block ends (the nesting drops to 0); a graph closing blocks at a break would clear it there, and a
weight changed in place inside the block after the break would be cast again where eager reuses its stale
cast. So an op traced with the cache on and such a tensor among its arguments marks the open blocks
(`note_op`: a superset of the casts autocast caches), and a segment ending at a break with a marked autocast
block open restarts its trace with the outermost one entered by an eager op (`check_cache`, a `Restart` of
kind "autocast" naming the block by its number among the trace's autocast enters; the real object then
stays entered across the break, the ops inside are traced under the real mode, which the guards hold).
Exact under the eager backend; blocks with no break inside, with `cache_enabled=False` or with no such op
before the break stay traced. (A compiled backend computes the graph's casts at run time, not from the
cache, wherever the block is: see engine/README.md.)

Inference mode is traced only where the graph's nodes run as Python (the eager backend): a compiled graph
(aot_eager, inductor) would drop the mode at run time and with it the inference-ness of its outputs.
"""

from __future__ import annotations

import contextlib
import warnings
from collections.abc import Iterator
from dataclasses import dataclass
from typing import TYPE_CHECKING

import torch
from torch.amp.autocast_mode import _enter_autocast, _exit_autocast
from torch.autograd.grad_mode import _enter_inference_mode, _exit_inference_mode

from .._errors import Unsupported
from ._effects import SetAttrEffect
from ._ending import EndKind, Restart
from ._values import ConstVar, ListVar, ModeCtxVar, ModeExitVar, ObjVar, SliceVar, TensorVar, TupleVar

if TYPE_CHECKING:
    import torch.fx as fx

    from ._ending import Ending
    from ._interp import VM
    from ._values import Var

AUTOCAST = torch.amp.autocast_mode.autocast
_DEVICES = ("cpu", "cuda")
_NO_TENSOR = (SliceVar,)  # argument kinds that hold no tensor (any other unknown kind counts as one)


@dataclass
class ModeEntry:
    """A mode block traced code entered in this segment: its context value, the graph's enter node, the
    grad mode it was entered under (inference mode changes grad mode too), and for autocast its number
    among the trace's autocast enters (`VM.autocast_enters`) and whether a cast may have been cached while
    it was open (`note_op`)."""

    ctx: ModeCtxVar
    node: fx.Node
    grad_before: bool
    no: int = -1
    cached: bool = False


def make_ctx(vm: VM, obj: object, args: list[Var], kwargs: dict[str, Var]) -> ModeCtxVar | None:
    """`torch.autocast(...)` / `torch.inference_mode(mode)` with constant arguments; None: an eager call."""
    if any(type(a) is not ConstVar for a in (*args, *kwargs.values())):
        return None
    a = [x.value for x in args]
    kw = {k: x.value for k, x in kwargs.items()}
    if obj is torch.inference_mode:
        if not eager_backend(vm) or len(a) + len(kw) > 1 or set(kw) - {"mode"}:
            return None
        mode = a[0] if a else kw.get("mode", True)
        return ModeCtxVar("inference", (mode,)) if type(mode) is bool else None
    try:
        with applied(vm), warnings.catch_warnings(record=True) as caught:
            warnings.simplefilter("always")
            real = AUTOCAST(*a, **kw)  # resolves the defaults from the traced state, validates
    except Exception:
        return None
    if caught:  # (a warning is eager's to give: the call runs eagerly)
        return None
    return ModeCtxVar("autocast", autocast_args(real))


def autocast_args(real: object) -> tuple:
    return (real.device, real.fast_dtype, real._enabled, real._cache_enabled)


def program_ctx(vm: VM, v: ObjVar) -> ModeCtxVar | None:
    """The program's own autocast object (guarded on what it was made with)."""
    obj = v.obj
    if type(obj) is not AUTOCAST or obj.device not in _DEVICES or v.src is None:
        return None
    e = v.src.expr(vm.ns)
    args = autocast_args(obj)
    vm.guards.add(f"({e}.device, {e}.fast_dtype, {e}._enabled, {e}._cache_enabled) == {vm.ns.const(args, 'k')}")
    return ModeCtxVar("autocast", args, real=v, src=v.src)


def cloned_ctx(vm: VM, v: Var) -> ModeCtxVar | None:
    """`inference_mode.clone()` (what torch's context-manager decorator enters at each call): a fresh
    object made by traced code, with the mode of the program's one (guarded)."""
    obj = getattr(v, "obj", None)
    if type(obj) is not torch.inference_mode or type(obj.mode) is not bool or v.src is None \
            or not eager_backend(vm):
        return None
    vm.guards.add(f"{v.src.expr(vm.ns)}.mode is {obj.mode!r}")
    return ModeCtxVar("inference", (obj.mode,))


def enter(vm: VM, ctx: ModeCtxVar) -> tuple[ModeExitVar, Var]:
    """BEFORE_WITH: (the exit value, what `__enter__` returns)."""
    if ctx.prev is not None or any(e.ctx is ctx or (e.ctx.real is not None and e.ctx.real is ctx.real)
                                   for e in vm.modes):  # (autocast's second enter overwrites what it saved)
        raise Unsupported("mode-ctx", "entering a mode object that is entered already")
    no = -1
    if ctx.kind == "autocast":
        no = vm.autocast_enters
        vm.autocast_enters += 1
        if no in vm.eager_autocast:
            u = Unsupported("autocast-cache", "this autocast block is entered by an eager op: a break inside "
                            "it would drop its cast cache")
            u.forced = True  # (made eager by a restart: the break inside is the one recorded)
            raise u
        device = ctx.args[0]
        with applied(vm):
            ctx.prev = (torch.is_autocast_enabled(device), torch.get_autocast_dtype(device),
                        torch.is_autocast_cache_enabled())
        node = vm.graph.mode_node(_enter_autocast, ctx.args)
        if ctx.real is not None:  # __enter__ stores the state it saves on the object
            for name, value in zip(("prev", "prev_fastdtype", "prev_cache_enabled"), ctx.prev):
                vm.effects.append(SetAttrEffect(ctx.real, name, ConstVar(value)))
        result: Var = ctx if ctx.real is None else ctx.real
    else:
        ctx.prev = (True,)
        node = vm.graph.mode_node(_enter_inference_mode, ctx.args)
        result = ConstVar(None)
    vm.modes.append(ModeEntry(ctx, node, vm.grad, no))
    if ctx.kind == "inference":
        vm.set_grad_silently(not ctx.args[0])  # InferenceMode(mode) sets grad mode to `not mode`
    return ModeExitVar(ctx), result


def exit_(vm: VM, fn: ModeExitVar) -> ConstVar:
    """Calling the exit value (a normal exit or an exception leaving the block): the exit node."""
    if not vm.modes or vm.modes[-1].ctx is not fn.ctx:
        raise Unsupported("mode-ctx", "leaving a mode block other than the innermost one")
    entry = vm.modes.pop()
    if entry.ctx.kind == "autocast":
        vm.graph.mode_node(_exit_autocast, (entry.node,))
        return ConstVar(False)
    vm.graph.mode_node(_exit_inference_mode, (entry.node,))
    vm.set_grad_silently(entry.grad_before)  # InferenceMode's exit restores the grad mode it saved
    return ConstVar(None)


def note_op(vm: VM, args: list[Var], kwargs: dict[str, Var]) -> None:
    """Before a graph op under traced modes: if autocast's cache is on (the innermost traced autocast
    block's `cache_enabled`) and an argument is a float32 leaf tensor that requires grad (what autocast
    caches the cast of), mark every open block: the cache holds a cast until the outermost one ends. A
    superset of the ops autocast casts (any op, views included), so the mark is never missing."""
    inner = next((e for e in reversed(vm.modes) if e.ctx.kind == "autocast"), None)
    if inner is None or not inner.ctx.args[3] or inner.cached:
        return
    if any(_cacheable(a) for a in (*args, *kwargs.values())):
        for e in vm.modes:
            e.cached = True


def _cacheable(v: Var) -> bool:
    if type(v) is TensorVar:
        f = v.fake
        return f.dtype == torch.float32 and f.requires_grad and f.is_leaf
    if type(v) is TupleVar or type(v) is ListVar:
        return v.items is None or any(_cacheable(x) for x in v.items)
    if type(v) is ConstVar:
        return isinstance(v.value, torch.Tensor) or isinstance(v.value, (tuple, list)) and any(
            isinstance(x, torch.Tensor) for x in v.value)
    return type(v) not in _NO_TENSOR


def check_cache(vm: VM, ending: Ending) -> None:
    """A segment ending at a break inside traced autocast blocks closes them at the end of its graph: the
    autocast nesting drops, and at 0 torch clears the cast cache, which eager keeps until its block ends
    (a weight changed in place inside the block after the break would be cast again where eager uses its
    stale cast). If a cast may have been cached while they were open, the trace restarts with the
    outermost such block entered by an eager op (the real object stays entered across the break; the ops
    inside are traced under the real mode)."""
    if ending.kind is not EndKind.BREAK:
        return
    for e in vm.modes:
        if e.ctx.kind == "autocast" and e.cached:
            raise Restart(e.no, "autocast")


def close_nodes(vm: VM) -> list[tuple]:
    """The exit nodes that close the blocks still open at the end of the segment's graph, innermost first."""
    return [(_exit_autocast if e.ctx.kind == "autocast" else _exit_inference_mode, e.node)
            for e in reversed(vm.modes)]


@contextlib.contextmanager
def applied(vm: VM) -> Iterator[None]:
    """The traced modes applied for real (around an op's metadata computation or a state query)."""
    with contextlib.ExitStack() as stack:
        for e in vm.modes:
            stack.enter_context(real_ctx(e.ctx.kind, e.ctx.args))
        yield


def real_ctx(kind: str, args: tuple) -> object:
    """A fresh torch object for a mode value (what it is when it becomes real)."""
    if kind == "inference":
        return torch.inference_mode(args[0])
    device, dtype, enabled, cache = args
    return AUTOCAST(device, dtype=dtype, enabled=enabled, cache_enabled=cache)


def made_real(kind: str, args: tuple, prev: tuple | None) -> object:
    """The real object of a mode value made by traced code, in the state entering it left (entered and left
    already: autocast keeps the state it saved, inference mode the guard object it made)."""
    obj = real_ctx(kind, args)
    if prev is not None and kind == "autocast":
        obj.prev, obj.prev_fastdtype, obj.prev_cache_enabled = prev
    elif prev is not None:
        obj.__enter__()
        obj.__exit__(None, None, None)
    return obj


def eager_backend(vm: VM) -> bool:
    return vm.ctx.backend is torch._dynamo.lookup_backend("eager")

