"""The VM: an explicit frame stack interpreted one instruction at a time, with no host recursion per call.

A VM traces one *segment*: from a function entry or a break's snapshot up to a return, an uncaught raise, or
the next instruction it cannot trace. `run()` returns an `Ending`; the residual code generator turns the VM
state at that point into a runnable segment (see `engine._residual`).
"""

from __future__ import annotations

import builtins as _builtins_mod
import os
import sys
from typing import TYPE_CHECKING, Any, Literal

from .._errors import Unsupported
from .._graph import GraphBuilder
from .._guards import EnvSrc, Guards, Namespace
from . import _code
from ._ending import Ending, EndKind, Fatal, Forced, Restart
from ._exceptions import is_exception, raise_new, tb_here
from ._frame import Frame
from ._generators import on_raise, on_return, refused
from ._iface import Inline, VMOps
from ._methods import list_items
from ._modes import applied, note_op
from ._opcodes import ATTACHED, DISPATCH, eager_form
from ._regions import on_break
from ._values import DISCARD, ConstVar, ExcVar, LazyVar, ListVar, ObjVar
from ._wrap import wrap

if TYPE_CHECKING:
    from .._segments import Compiled
    from ._code import CodeInfo
    from ._effects import Effect
    from ._modes import ModeEntry
    from ._values import Var

OpKind = Literal["call_function", "call_method"]  # the two kinds of FX node a graph op becomes

# -- the recursion limit ---------------------------------------------------------------------------------
# The VM's frames are no real frames, so it counts them itself: a frame pushed where eager's would pass
# sys.getrecursionlimit() (the VM's frames plus the real Python frames below the compiled call) raises
# CPython's RecursionError at the calling instruction instead. A trace that came near the limit is guarded
# on the room left, so a warm call from a deeper site (or under a lower limit) traces again.
_ENGINE_DIR = os.path.dirname(os.path.dirname(os.path.abspath(__file__))) + os.sep
_SEGMENT_FILE = "<engine segment"
RECURSION_MESSAGE = "maximum recursion depth exceeded"  # CPython's, for a Python frame pushed past the limit
NEAR_LIMIT = 64  # a trace this deep, or this close to the limit, is guarded on the room left


def depth_room() -> int:
    """How many frames eager could still push at the compiled call: the limit less the real Python frames
    below it (the engine's own frames and its segments' generated code not counted)."""
    f = sys._getframe(1)
    while f is not None and (f.f_code.co_filename.startswith(_ENGINE_DIR)
                             or f.f_code.co_filename.startswith(_SEGMENT_FILE)):
        f = f.f_back
    n = 0
    while f is not None:
        n += 1
        f = f.f_back
    return sys.getrecursionlimit() - n


class _TooDeep(Exception):
    """push_frame refused a function frame: the VM loop raises RecursionError at `caller`'s instruction."""

    def __init__(self, caller: Frame) -> None:
        super().__init__()
        self.caller = caller


class BreakRecord:
    """One graph break as reported: its stable id, explanation, the user's file:line, frame depth, hint."""

    __slots__ = ("gb_id", "reason", "where", "depth", "hint")

    def __init__(self, gb_id, reason, where, depth, hint) -> None:
        self.gb_id, self.reason, self.where, self.depth, self.hint = gb_id, reason, where, depth, hint

    def __repr__(self) -> str:
        return f"Break({self.gb_id} at {self.where}, depth {self.depth}: {self.reason})"


class VM(VMOps):
    """The symbolic interpreter of one segment: the explicit frame stack and everything the trace learnt.

    Owns the frames (`frames`, innermost last; no host recursion per call), the guards and namespace of the
    generated code, the graph builder, the env inputs read so far (`lazy`, `memo`: one VM value per real
    object), side effects on pre-existing objects (`effects`, program order), containers written back at the
    end (`writeback`), globals stored by traced code (`gover`), the traced grad mode (`grad`, from `grad0`),
    the current exception, and the calls forced to run on their own (`forced`, by call number). `run()` steps
    handlers until one ends the segment. Invariants: a handler that raises Unsupported left the frame as it
    was, so a break runs the instruction from that state; anything read from the env is guarded; a VM is
    used for one trace only (a Restart builds a new one with more forced calls). The recursive operations
    models use (`call`, `load_attr`, `get_iter`, `binary`, `wrap`...) are those of `VMOps` (_iface.py)."""

    def __init__(self, ctx: Compiled, env: list[Any], grad: bool, forced: dict[int, Forced]) -> None:
        self.ctx = ctx  # the compiled function: options and stats
        self.env = env
        self.ns = Namespace()
        self.guards = Guards(self.ns)
        self.graph = GraphBuilder()
        self.frames = []
        self.lazy = {}
        self.memo = {}
        self.keep = []
        self.effects: list[Effect] = []  # side effects on pre-existing objects, in program order
        self.writeback = []  # real containers/iterators whose tracked contents are written back
        self.gover = {}  # (id(globals), name) -> Var stored by traced code
        self.grads_cleared: set[Var] = set()  # leaf inputs whose `.grad = None` traced code replays (_models_py)
        self.grad = grad
        self.grad0 = grad
        self.grad_set_in_graph = False
        self.modes: list[ModeEntry] = []  # autocast / inference-mode blocks entered and not left (_modes.py)
        self.autocast_enters = 0  # autocast blocks traced code entered so far (numbers them)
        self.eager_autocast: set[int] = set()  # ...those entered by an eager op (a Restart made them so)
        self.cur_exc: Var = ConstVar(None)
        self.call_no = 0
        self.forced: dict[int, Forced] = forced
        self.frames_traced = 0
        self.iter_log = {}
        self.eager_ops = False
        self.closing_gens = []  # generators with try/with blocks made by this trace (_generators.check_abandoned)
        self.dict_iters = []  # iterators over dicts (IterVar, or enumerate/zip's DictPart) (_iters.iterated)
        self.drive_depth = 0  # every graph op runs eagerly (after a graph failed at run time)
        self.frames_below = 0  # VM frames of the runs a nested `drive` (a generator stepped by a builtin) left
        self.room = -1  # depth_room() at this trace (-1: not read yet)
        self.deepest = 0  # the most VM frames this trace had at once
        self.refused = 0  # the depth of the first frame push refused for the recursion limit (0: none)
        self.guards.grad_mode(grad)

    # -- values ---------------------------------------------------------------------------------------
    def resolve(self, v: Var) -> Var:
        if type(v) is LazyVar:
            r = self.lazy.get(v.index)
            if r is None:
                r = self.lazy[v.index] = wrap(self, self.env[v.index], EnvSrc(v.index))
            return r
        return v

    def push(self, v: Var) -> None:
        self.frames[-1].stack.append(v)

    def pop(self) -> Var:
        return self.resolve(self.frames[-1].stack.pop())

    def peek(self, n: int = 1) -> list[Var]:
        """The top n stack values, resolved, bottom first."""
        st = self.frames[-1].stack
        return [self.resolve(v) for v in st[len(st) - n:]]

    def popn(self, n: int) -> None:
        st = self.frames[-1].stack
        if n:
            del st[len(st) - n:]

    def op(self, kind: OpKind, target: Any, args: list[Var], kwargs: dict[str, Var], grad: bool,
           name: str) -> Var:
        """One graph op; real lists among the arguments are read (guarded) first."""
        if self.eager_ops:
            raise Unsupported("eager-ops", f"{name} runs eagerly (its graph failed at run time)")
        for a in list(args) + list(kwargs.values()):
            if type(a) is ListVar and a.items is None:
                list_items(self, a)
        if not self.modes:
            return self.graph.call(kind, target, args, kwargs, grad, name)

        note_op(self, args, kwargs)
        return self.graph.call(kind, target, args, kwargs, grad, name, applied(self))

    def set_grad(self, enabled: bool) -> None:
        if enabled != self.grad:
            self.graph.set_grad(enabled, self.grad)
            self.grad_set_in_graph = True
            self.grad = enabled

    def set_grad_silently(self, enabled: bool) -> None:
        """Grad mode as a mode node of the graph set it (inference mode's enter and exit): no node."""
        self.grad = enabled
        self.graph.forget_grad_node()

    def new_frame(self, info: CodeInfo, fglobals: dict[str, Any], localsplus: list[Var | None], name: str,
                  exit_grad: bool | None = None) -> Frame:
        b = fglobals.get("__builtins__", _builtins_mod)
        if not isinstance(b, dict):
            b = b.__dict__
        self.frames_traced += 1
        return Frame(info, fglobals, b, localsplus, [], 0, None, exit_grad, -1, self.call_no, name)

    def push_result(self, frame: Frame, res: Var | Inline) -> None:
        """The result of ``frame``'s current instruction: a frame to run above it (an Inline), or a value pushed
        on its stack and the instruction done."""
        if isinstance(res, Inline):
            self.push_frame(frame, res)
        else:
            frame.stack.append(res)
            frame.ip += 1

    def push_frame(self, caller: Frame, callee: Frame | Inline) -> None:
        """The caller's current instruction made a frame run above it (an inlined call, a generator resumed):
        the caller goes on after that instruction when the frame returns; decorator-form grad mode is entered."""
        self.check_depth(caller, callee.frame if type(callee) is Inline else callee)
        caller.ip += 1
        caller.call_index = caller.ip - 1
        if type(callee) is Inline:
            self.frames.append(callee.frame)
            if callee.grad is not None:
                self.set_grad(callee.grad)
        else:
            self.frames.append(callee)

    def check_depth(self, caller: Frame, callee: Frame) -> None:
        """`callee` is about to run above `caller` (the top frame): refused past the recursion limit."""
        depth = len(self.frames) + self.frames_below + 1
        if depth > self.deepest:
            self._deeper(caller, callee, depth)

    def _deeper(self, caller: Frame, callee: Frame, depth: int) -> None:
        """A push to a depth this trace has not reached: refused past the recursion limit. A function frame
        raises RecursionError in its caller (`_TooDeep`, the handler having committed its instruction), and
        so does a generator's, which is finished (`refused`); a @contextmanager block's restarts the trace
        with its generator made eagerly, so Python itself enters it and raises."""
        if self.room < 0:
            self.room = depth_room()
        if depth <= self.room:
            self.deepest = depth
            return
        if not self.refused:
            self.refused = depth
        if callee.gen is None or refused(self, callee.gen):
            raise _TooDeep(caller)
        if callee.gen.call_no > 0:
            raise Restart(callee.gen.call_no, "eager")
        raise Fatal(Unsupported("recursion", "a generator restored from a snapshot resumed past the "
                                "recursion limit"))

    def _recursion_error(self, caller: Frame) -> Ending | None:
        """RecursionError raised at `caller`'s current instruction, as CPython raises it for a frame pushed
        past the limit (no entry for the frame that was not pushed)."""
        try:
            return raise_new(self, caller, ExcVar(RecursionError, (RECURSION_MESSAGE,)))
        except Unsupported as u:  # (the instruction's items are gone: no eager form of it is left)
            if caller.call_no > 0:
                raise Restart(caller.call_no, "eager") from None
            raise Fatal(u) from None

    def guard_depth(self) -> None:
        """Keep a trace that came near the recursion limit to calls with the same outcome: room for its
        deepest frame and, if it raised RecursionError, no room for the frame it refused. Once per trace, when
        it ends (`engine._segments`): by then `deepest` and `refused` are final."""
        if self.room < 0 or not (self.refused or self.deepest >= NEAR_LIMIT
                                 or self.room - self.deepest < NEAR_LIMIT):
            return
        room = f"{self.ns.const(depth_room, 'k')}()"
        upper = f" < {self.refused}" if self.refused else ""
        self.guards.add(f"{self.deepest} <= {room}{upper}")

    def where(self, frame: Frame | None = None) -> str:
        frame = frame or self.frames[-1]
        ins = frame.info.instrs[min(frame.ip, len(frame.info.instrs) - 1)]
        return f"{frame.info.filename}:{ins.line}"

    # -- the loop -------------------------------------------------------------------------------------
    def run(self) -> Ending:
        frames = self.frames
        while True:
            frame = frames[-1]
            ins = frame.info.instrs[frame.ip]
            handler = DISPATCH.get(ins.opname)
            if self.iter_log:
                self.iter_log.clear()
            try:
                if handler is None:
                    raise Unsupported("opcode", f"opcode {ins.opname} is not modeled")
                ending = handler(self, frame, ins)
            except Unsupported as u:
                if u.eager is None and ins.opname in ATTACHED:  # (the handler left the frame as it was)
                    u.eager = eager_form(frame, ins)
                return self._on_unsupported(u, frame)
            except (Restart, Fatal):
                raise
            except _TooDeep as t:
                ending = self._recursion_error(t.caller)
            except Exception as e:  # a gap in the VM: run the instruction eagerly rather than guess
                # (handlers compute before they commit, so the frame is still in the state before it)
                u = Unsupported("internal", f"{ins.opname}: {type(e).__name__}: {e}"[:300],
                                eager=eager_form(frame, ins))
                return self._on_unsupported(u, frame)
            if ending is not None:
                return ending

    def _on_unsupported(self, u: Unsupported, frame: Frame) -> Ending:
        # The record outlives the trace: drop its traceback, which would keep the VM (and the real
        # objects it saw) alive, and with them finalizers eager would have run by now.
        u.__traceback__ = u.__context__ = u.__cause__ = None
        for it, (index, done) in self.iter_log.items():
            it.index, it.done = index, done
        depth = len(self.frames) - 1
        u.where = self.where(frame)
        if self.drive_depth:  # a break inside a generator stepped by a builtin
            gen = self.frames[0].gen
            if gen.call_no <= 0:  # restored from a snapshot: no call of this trace made it
                raise Fatal(u)
            raise Restart(gen.call_no, "eager")
        if not u.forced:
            self.ctx.record_break(BreakRecord(u.gb_id, u.explanation, u.where, depth, u.hint))
            on_break(self, u, depth)  # error_on_graph_break / disable_nested_graph_breaks regions
        if self.ctx.nested is False and depth > 0 and self.frames[1].call_no > 0:
            raise Restart(self.frames[1].call_no, "classic")  # (a resumed generator's frame: a break in it)
        if u.eager is None:
            if depth > 0 and frame.call_no > 0:
                raise Restart(frame.call_no, "eager")
            raise Fatal(u)
        return Ending(EndKind.BREAK, spec=u.eager, reason=u)

    # -- exceptions -----------------------------------------------------------------------------------
    def raise_exc(self, exc: Var) -> Ending | None:
        """Unwind the explicit stack to the innermost handler; an exception leaving every frame ends the
        segment with a raise. Each caller it propagates into gets its traceback entry (_exceptions.py)."""
        frames = self.frames
        known = is_exception(exc)
        while frames:
            f = frames[-1]
            at = f.call_index if f.call_index >= 0 else f.ip
            h = f.info.handler_for(at)
            if h is not None:
                target, depth, lasti = h
                del f.stack[depth:]
                if lasti:
                    f.stack.append(ConstVar(f.info.instrs[at].offset))
                f.stack.append(exc)
                f.ip = target
                f.call_index = -1
                return None
            frames.pop()
            if f.exit_grad is not None:
                self.set_grad(f.exit_grad)
            if f.gen is not None:
                exc = on_raise(self, f, exc)
                if exc is None:
                    return None
                known = is_exception(exc)
            if frames and known:
                tb_here(self, exc, frames[-1])
        return Ending(EndKind.RAISE, value=exc)

    def return_value(self, value: Var) -> Ending | None:
        frames = self.frames
        f = frames.pop()
        if f.gen is not None:
            return on_return(self, f, value)
        if f.exit_grad is not None:
            self.set_grad(f.exit_grad)
        override = self.resolve(f.ret_override) if f.ret_override is not None else None
        if override is not None and override is not DISCARD:
            value = override
        if not frames:
            return Ending(EndKind.RETURN, value=value)
        caller = frames[-1]
        caller.call_index = -1
        if override is not DISCARD:
            caller.stack.append(value)
        return None

    def builtin_obj(self, name: str) -> ObjVar:
        return ObjVar(getattr(_builtins_mod, name), None)


code_info = _code.code_info
