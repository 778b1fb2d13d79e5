"""Segments, break points and the one runtime loop shared by first calls, warm calls and guard misses.

A break point is where a segment can start: a function entry (keyed by the call's argument layout) or the
instruction after an eager op. It holds the frame-stack snapshot and a list of segments, each guarded on the
live values (a trace tree). Running a compiled function = at each break point, pick the first segment whose
guards hold (trace a new one on a miss), run it, run its eager op, go on at its next break point.
"""

from __future__ import annotations

import functools
import sys
import types
import warnings
from collections.abc import Callable
from typing import TYPE_CHECKING, Any

import torch

from . import _counters
from . import _runtime as R
from ._errors import CannotCompile, EngineError, GraphBreakError
from ._faults import fault
from ._guards import AttrSrc, ConstSrc, EnvSrc
from ._residual import RUNTIME_GLOBALS, generate
from ._snapshot import env_len, restore
from ._tracebacks import call_handling, strip_engine_frames
from ._vm import _handlers  # noqa: F401  (registers the opcode handlers)
from ._vm._calls import bind
from ._vm._code import code_info
from ._vm._ending import EndKind, Fatal, Restart
from ._vm._exceptions import is_none, tb_here
from ._vm._frame import Frame
from ._vm._frame_readers import frame_reader
from ._vm._generators import Returned, check_abandoned
from ._vm._interp import VM
from ._vm._modes import check_cache, close_nodes
from ._vm._modules import CompiledBase
from ._vm._opcodes import Resume
from ._vm._ops_jumps import or_pop_commit
from ._vm._values import ConstVar, FuncVar, LazyVar, ObjVar
from ._vm._version import OR_POP_JUMPS
from ._vm._wrap import wrap

if TYPE_CHECKING:
    from ._errors import Unsupported
    from ._vm._ending import Ending, Forced
    from ._vm._frame import FrameShape
    from ._vm._interp import BreakRecord
    from ._vm._opcodes import EagerSpec
    from ._vm._values import Var

RECOMPILE_LIMIT = 8
CallKey = tuple[int, tuple[str, ...]]  # a call's argument layout: positional count, keyword names


class BreakPoint:
    """A place where a segment can start, with the segments (a trace tree) compiled for it.

    Owns: `shapes`, the frame-stack snapshot a continuation resumes (None for a function entry: the env is
    then the call's arguments); `resume`, how the eager op's outcome enters the frames; `segments`, tried in
    order, the first whose guards hold runs. Invariants: every segment of one break point takes the same env
    layout (the snapshot's), and at most RECOMPILE_LIMIT are cached (past it, an entry runs eagerly and a
    continuation traces without caching)."""

    __slots__ = ("shapes", "resume", "segments", "warned", "base_len")

    def __init__(self, shapes: list[FrameShape] | None, resume: Resume, base_len: int = 0) -> None:
        self.shapes = shapes  # None for a function entry
        self.resume = resume  # how the eager op's result enters the frames (see EagerSpec)
        self.segments: list[Segment] = []
        self.warned = False
        self.base_len = base_len


class Segment:
    """One compiled stretch of the program: generated code `fn(env, check=True)` and how it ends.

    `fn` checks its guards (returning MISS when one fails, having changed nothing), runs the graph, rebuilds
    real values, replays side effects and returns the next env (a break), the value (a return) or the
    exception (a raise). For a break, `spec` is the eager op run next and `next_ok`/`next_exc` the break
    points where the program goes on after it returned or raised. `source` and `gm` are kept for explain()."""

    __slots__ = ("fn", "kind", "spec", "next_ok", "next_exc", "source", "gm", "reason")

    def __init__(self, fn: Callable[..., Any], kind: EndKind, spec: EagerSpec | None, source: str,
                 gm: torch.fx.GraphModule | None, reason: Unsupported | None) -> None:
        self.fn = fn
        self.kind = kind
        self.spec = spec
        self.source = source
        self.gm = gm
        self.reason = reason
        self.next_ok: BreakPoint | None = None  # set for a break (kind BREAK), with `spec`
        self.next_exc: BreakPoint | None = None


class Record:
    """What a compiled function (and, in classic mode, the callees compiled for it) did so far."""

    def __init__(self) -> None:
        self.graphs = 0
        self.breaks = 0
        self.recompiles = 0
        self.frames_traced = 0
        self.eager_calls = 0  # calls that ran the whole function eagerly (its entry could not be compiled)
        # traces started again with an inlined call or an autocast block made eager (Restart)
        self.restarts = 0
        self.break_records: list[BreakRecord] = []
        self.graph_modules: list[torch.fx.GraphModule] = []
        self.sources: list[str] = []

    def stats(self) -> dict[str, int]:
        return {"graphs": self.graphs, "breaks": self.breaks, "recompiles": self.recompiles,
                "frames_traced": self.frames_traced}


class Compiled(CompiledBase):
    """A compiled function: its break points (roots by argument layout), their trace trees, and stats.

    Calling it runs the one runtime loop below; as a class attribute (`@engine.compile def forward(self,
    x)`) it binds like a function, so `self` is an argument the guards see like any other.

    Owns: `roots` (a BreakPoint per argument layout), `eager_keys` (layouts that run `fn` eagerly: its entry
    cannot be compiled, or hit the recompile limit), `classic_cache` (callees compiled on their own for
    nested=False) and `record` (stats, break records, graphs and sources). Invariants: a segment runs only
    when its guards hold, and a miss has changed nothing; between two segments exactly one eager op runs;
    a call either runs to its end through segments and eager ops, or runs `fn` eagerly as a whole, which is
    only decided at its entry (a resumed frame that cannot go on is an EngineError, never a wrong answer).
    """

    def __init__(
        self,
        fn: Callable[..., Any],
        backend: Callable[..., Any],
        nested: bool = True,
        fullgraph: bool = False,
        record: Record | None = None,
    ) -> None:
        self.fn = fn
        self.module: torch.nn.Module | None = None  # the nn.Module for engine.compile(module)
        self.backend = backend
        self.nested = nested
        self.fullgraph = fullgraph
        self.record = record or Record()
        self.roots: dict[CallKey, BreakPoint] = {}
        self.classic_cache: dict[types.FunctionType, Compiled] = {}
        self.eager_keys: set[CallKey] = set()
        # functions found needing their real frame after a break (_unresumable)
        self.eager_codes: set[types.CodeType] = set()
        # functions that may read their namespace: they keep every local
        self.keep_locals: set[types.CodeType] = set()
        self.fault: str | None = None  # a deliberate bug (engine._faults), off by default
        functools.update_wrapper(self, fn, updated=())

    def __get__(self, obj: object, objtype: type | None = None) -> Compiled | types.MethodType:
        return self if obj is None else types.MethodType(self, obj)

    # -- stats hooks used by the VM ----------------------------------------------------------------------
    def record_break(self, rec: BreakRecord) -> None:
        self.record.breaks += 1
        self.record.break_records.append(rec)
        _counters.graph_break(rec.reason)
        if self.fullgraph:
            hint = f"; hint: {rec.hint}" if rec.hint else ""
            raise GraphBreakError(
                f"[{rec.gb_id}] graph break at {rec.where} with fullgraph=True: {rec.reason}{hint}", rec.gb_id
            )

    def stats(self) -> dict[str, int]:
        return self.record.stats()

    def classic_callee(self, fn: Callable[..., Any]) -> Callable[..., Any]:
        """Classic mode: a callee that broke is compiled as its own top-level function."""
        if isinstance(fn, types.MethodType) and isinstance(fn.__func__, types.FunctionType):
            return functools.partial(self._sub(fn.__func__), fn.__self__)
        if isinstance(fn, types.FunctionType):
            return self._sub(fn)
        return fn

    def _sub(self, f: types.FunctionType) -> Compiled:
        sub = self.classic_cache.get(f)
        if sub is None:
            sub = self.classic_cache[f] = Compiled(f, self.backend, nested=False, record=self.record)
            sub.fault = self.fault
        return sub

    # -- the runtime loop ----------------------------------------------------------------------------
    def __call__(self, *args: Any, **kwargs: Any) -> Any:
        key = (len(args), tuple(kwargs))
        if key in self.eager_keys:
            self.record.eager_calls += 1
            return self.fn(*args, **kwargs)
        bp = self.roots.get(key)
        if bp is None:
            bp = self.roots[key] = BreakPoint(None, Resume.ENTRY)
        env = [sys.exc_info()[1], *args, *kwargs.values()]  # env[0]: the exception being handled
        while True:
            out: Any = R.MISS
            seg: Segment | None = None
            grad = torch.is_grad_enabled()
            try:
                for seg in bp.segments:
                    out = seg.fn(env)
                    if out is not R.MISS:
                        break
                if out is R.MISS:
                    seg = self._new_segment(bp, env, key)
                    if seg is not None:
                        out = seg.fn(env, False)
            except EngineError:
                raise
            except Exception:
                if not env:  # it failed after releasing its inputs: not a graph failure, an engine bug
                    raise
                # A graph failed at run time where fake tensors saw no error (e.g. an index out of range):
                # nothing of the segment is observable yet, so run it again with every op eager, which
                # raises at the right point, after the side effects that precede it.
                torch._C._set_grad_enabled(grad)
                seg = self._new_segment(bp, env, key, eager_ops=True)
                if seg is not None:
                    out = seg.fn(env, False)
            if seg is None or out is R.MISS:  # the function runs eagerly (only ever at its entry)
                self.record.eager_calls += 1
                return self.fn(*args, **kwargs)
            kind = seg.kind
            if kind is EndKind.RETURN:
                return out
            if kind is EndKind.RAISE:
                raise out
            env = out
            spec = seg.spec
            assert spec is not None  # a segment that ends in a break has its eager op
            n = len(env)
            operands = env[n - spec.nargs:] if spec.nargs else ()
            if spec.npop:
                del env[n - spec.npop:]
            handled = env[0]  # what the program handles at the op (the snapshot's first entry)
            try:
                result = spec.fn(*operands) if handled is None else call_handling(handled, spec.fn, operands)
            except BaseException as e:  # SystemExit too: with-blocks of the frames must still exit
                strip_engine_frames(e)
                env.append(e)
                bp = _next(seg.next_exc)
                continue
            finally:
                del operands, handled  # hold no reference eager would not hold
            if spec.resume is Resume.PUSHN:
                env.extend(result)
            else:
                env.append(result)
            result = None
            bp = _next(seg.next_ok)
            if fault(self, "forget-upper-cm"):
                _forget_upper_grad_block(bp, env)

    def _new_segment(
        self, bp: BreakPoint, env: list[Any], key: CallKey, eager_ops: bool = False
    ) -> Segment | None:
        cache = not eager_ops
        if len(bp.segments) >= RECOMPILE_LIMIT:
            if not bp.warned:
                bp.warned = True
                warnings.warn(f"engine: recompile limit ({RECOMPILE_LIMIT}) reached for "
                              f"{getattr(self.fn, '__qualname__', self.fn)}; "
                              + ("running eagerly" if bp.shapes is None else "tracing without caching"),
                              stacklevel=3)
            if bp.shapes is None:
                self.eager_keys.add(key)
                return None
            cache = False
        if bp.segments and cache:
            self.record.recompiles += 1
        forced: dict[int, Forced] = {}
        eager_autocast: set[int] = set()
        while True:
            vm = VM(self, env, torch.is_grad_enabled(), forced)
            vm.eager_ops = eager_ops
            vm.eager_autocast = eager_autocast
            _counters.frame(False)
            if bp.shapes is not None:
                _counters.resume(getattr(self.fn, "__name__", "fn"))
            try:
                ending = self._start(vm, bp, env, key)
                if ending is None:
                    ending = vm.run()
                vm.guard_depth()
                check_abandoned(vm)
                check_cache(vm, ending)
                seg = self._build(vm, ending, len(env))
                _counters.frame_ok()
            except Restart as r:
                self.record.frames_traced += vm.frames_traced
                if r.how != "classic":
                    self.record.restarts += 1
                if r.how == "autocast":
                    eager_autocast.add(r.call_no)
                else:
                    forced[r.call_no] = r.how
                continue
            except (Fatal, CannotCompile) as e:
                self.record.frames_traced += vm.frames_traced
                if bp.shapes is None:
                    self.eager_keys.add(key)
                    return None
                raise self._unresumable(vm, e) from None
            self.record.frames_traced += vm.frames_traced
            break
        if cache:
            bp.segments.append(seg)
        return seg

    def _unresumable(self, vm: VM, e: Exception) -> EngineError:
        """A frame resumed after a break met an instruction with no eager form outside it (a frame reader
        reached through a value its start did not show: see engine/_vm/_frame_readers.py). The frame no
        longer exists for real, so this call cannot give eager's result: it fails, and its function is
        remembered and every trace dropped, so that from the next call on it runs for real from its start."""
        frame = vm.frames[-1]
        self.eager_codes.add(frame.info.code)
        self.roots.clear()
        u = getattr(e, "u", e)
        return EngineError(
            f"{u} at {getattr(u, 'where', '?')}, in {frame.name} resumed after a break: the "
            "instruction has no eager form outside its frame, so this call cannot give eager's "
            f"result; from the next call on, {frame.name} runs eagerly as a whole"
        )

    def _start(self, vm: VM, bp: BreakPoint, env: list[Any], key: CallKey) -> Ending | None:
        if bp.shapes is None:
            self._start_root(vm, key)
            return None
        return _start_continuation(vm, bp, bp.shapes, env)

    def _start_root(self, vm: VM, key: CallKey) -> None:
        fn = self.fn
        nargs, kwnames = key
        args: list[Var] = [LazyVar(i) for i in range(1, 1 + nargs)]
        kwargs: dict[str, Var] = {k: LazyVar(1 + nargs + j) for j, k in enumerate(kwnames)}
        if isinstance(fn, types.MethodType) and isinstance(fn.__func__, types.FunctionType):
            args.insert(0, ObjVar(fn.__self__, ConstSrc(fn.__self__)))
            fn = fn.__func__
        if not isinstance(fn, types.FunctionType) or getattr(fn, "_torchdynamo_disable", False):
            raise CannotCompile("not a Python function, or marked torch._dynamo.disable")
        info = code_info(fn.__code__)
        if info.unsupported or info.generator:
            raise CannotCompile(info.unsupported or "a generator function")
        fv = FuncVar(fn.__code__, fn.__globals__, fn.__name__, fn.__qualname__, real=fn, src=ConstSrc(fn))
        try:
            loc = bind(vm, fv, info, args, kwargs)
        except Exception as e:
            raise CannotCompile(str(e)) from None
        if frame_reader(vm, fv, None, loc):
            raise CannotCompile("it may read its own frame (a frame reader under another name)")
        vm.frames.append(vm.new_frame(info, fn.__globals__, loc, fn.__qualname__))
        vm.cur_exc = LazyVar(0)  # the caller's handled exception is the function's too
        return None

    def _build(self, vm: VM, ending: Ending, env_len: int) -> Segment:
        source, em, shapes, has_graph = generate(vm, ending, env_len)
        namespace: dict[str, Any] = dict(RUNTIME_GLOBALS)
        namespace.update(vm.ns.values)
        gm = None
        if has_graph:
            gm = vm.graph.finish(em.out_nodes, close_nodes(vm))
            example = [real for _, real in vm.graph.inputs]
            namespace["__graph"] = self.backend(gm, example)
            self.record.graphs += 1
            self.record.graph_modules.append(gm)
            _counters.graph(gm)
        exec(compile(source, f"<engine segment {len(self.record.sources)}>", "exec"), namespace)
        reason = ending.reason
        seg = Segment(namespace["__segment"], ending.kind, ending.spec, source, gm, reason)
        header = f"# segment {len(self.record.sources)}: ends with {ending.kind.value}"
        if reason is not None:
            label = ending.spec.label if ending.spec is not None else "?"
            header += f" at {reason.where} ({reason.gb_id}: {reason.explanation}); eager op: {label}"
        self.record.sources.append(header + "\n" + source)
        if ending.kind is EndKind.BREAK:
            assert shapes is not None and ending.spec is not None  # a break has a snapshot and an eager op
            top = shapes[-1]
            npop = ending.spec.npop
            if npop:
                top.stack = top.stack[:len(top.stack) - npop]
            seg.next_ok = BreakPoint(shapes, ending.spec.resume)
            seg.next_exc = BreakPoint(shapes, Resume.RAISE)
        return seg


def _start_continuation(vm: VM, bp: BreakPoint, shapes: list[FrameShape], env: list[Any]) -> Ending | None:
    frames = restore(vm, shapes)
    vm.frames = frames
    vm.cur_exc = LazyVar(0)
    base = env_len(shapes)
    top = frames[-1]
    last = LazyVar(len(env) - 1)
    kind = bp.resume
    if kind is Resume.RAISE:
        exc = vm.resolve(last)
        if _adds_entry(vm, top):  # the eager op raised in the top frame (the engine's frames are gone)
            tb_here(vm, exc, top)
        return vm.raise_exc(exc)
    if kind is Resume.PUSH:
        top.stack.append(last)
        top.ip += 1
    elif kind is Resume.PUSHN:
        top.stack.extend(LazyVar(i) for i in range(base, len(env)))
        top.ip += 1
    elif kind is Resume.NONE:
        top.ip += 1
    elif kind is Resume.RETRY:
        top.stack.append(last)
    elif kind is Resume.FORITER:
        done = env[-1] is R.EXHAUSTED
        vm.guards.add(f"(env[{len(env) - 1}] is _EXHAUSTED) is {done!r}")
        if done:
            top.stack.pop()
            top.ip = top.info.instrs[top.ip].target
        else:
            top.stack.append(last)
            top.ip += 1
    elif kind is Resume.SEND:
        done = type(env[-1]) is Returned
        vm.guards.add(f"(type(env[{len(env) - 1}]) is {vm.ns.const(Returned, 'T')}) is {done!r}")
        if done:
            top.stack[-1] = wrap(vm, env[-1].value, AttrSrc(EnvSrc(len(env) - 1), "value"))
            top.ip = top.info.instrs[top.ip].target
        else:
            top.stack.append(last)
            top.ip += 1
    elif kind is Resume.DECIDE:
        b = vm.resolve(last)
        assert isinstance(b, ConstVar)  # the eager op is bool(): its result wraps as a constant
        ins = top.info.instrs[top.ip]

        or_pop_commit(top, ins, OR_POP_JUMPS[ins.opname], bool(b.value))
    else:
        raise AssertionError(kind)
    return None


def _adds_entry(vm: VM, frame: Frame) -> bool:
    """Whether CPython adds a traceback entry for `frame` when its instruction raises: all but RERAISE and a
    bare `raise` of an active exception do."""
    ins = frame.info.instrs[frame.ip]
    if ins.opname == "RERAISE":
        return False
    if ins.opname == "RAISE_VARARGS" and ins.arg == 0:
        return is_none(vm.resolve(vm.cur_exc))
    return True


def _next(bp: BreakPoint | None) -> BreakPoint:
    """Where a break goes on (a segment ending in a break always has both its break points)."""
    assert bp is not None
    return bp


def _forget_upper_grad_block(bp: BreakPoint, env: list[Any]) -> None:
    """Fault "forget-upper-cm": resume under the mode from before a grad-mode with-block of a caller."""
    assert bp.shapes is not None  # a continuation's break point
    for sh in bp.shapes[:-1]:
        for ei in sh.stack:
            if isinstance(ei, int) and isinstance(env[ei], R.GradModeExit):
                torch._C._set_grad_enabled(env[ei].prev)
                return
