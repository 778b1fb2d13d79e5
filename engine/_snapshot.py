"""The frame-stack snapshot of a break: persisting the VM's frames as env entries and frame shapes, and
building the frames of the next segment from them.

Every live local and stack slot becomes one env entry (a real value), except a generator made by traced
code that only the VM's own frames can reach: the exit of a `@contextmanager` block (the with-block's
stack slot; nothing else can name it), a for-loop's iterator (the loop's stack slot; only FOR_ITER uses
it), the delegate of `yield from` (the delegating frame's stack slot; only SEND uses it), and one held by
locals whose code ahead only steps it (next(), send(), a for-loop, list()...: _vm/_gen_uses.py; it has
no try/with blocks and returns constants). Such a generator is more data in the snapshot: its frame is
persisted like any other (a `GenShape` in a `GenRef` slot; one per generator, whichever slots hold it),
created, suspended or finished, or, while it runs, its frame is in the frame list. So a break inside a
`@contextmanager` block, a generator's loop or a generator that next() steps, at any depth, resumes
without making anything eager. A generator reachable any other way must become a real object: the trace
restarts with its creation eager (as one with try/with blocks iterated by a loop must, see
_vm/_generators.py).
"""

from __future__ import annotations

import builtins
from typing import TYPE_CHECKING

from ._errors import Unsupported
from ._faults import fault
from ._vm._code import is_live
from ._vm._ending import Fatal, Restart
from ._vm._frame import Frame, FrameShape, GenRef, GenShape
from ._vm._frame_readers import keeps_locals
from ._vm._gen_uses import returns_constants, uses_ahead
from ._vm._values import CMExitVar, ConstVar, GenVar, LazyVar, MethodVar, TensorVar

if TYPE_CHECKING:
    from ._residual import Emitter
    from ._vm._interp import VM
    from ._vm._values import Var

Slot = int | GenRef


class _Persist:
    """One snapshot being written: env expressions, and the generators persisted so far (by identity)."""

    def __init__(self, vm: VM, em: Emitter, env_exprs: list[str]) -> None:
        self.vm = vm
        self.em = em
        self.env = env_exprs
        self.gens: dict[int, GenShape] = {}
        self.running = {id(f.gen): k for k, f in enumerate(vm.frames) if f.gen is not None}

    def value(self, v: Var) -> int:
        self.env.append(self.em.expr(v))
        return len(self.env) - 1

    def slot(self, f: Frame, k: int | None, v: Var, operand: bool) -> Slot:
        """Stack slot `k` of `f` (None: a local) holding `v`; the eager op's operands are plain values."""
        gs = None
        if operand:
            pass
        elif k is None:
            if type(v) is GenVar and _held_ok(self.vm, f, v):
                gs = self.gen(v)
        elif type(v) is CMExitVar:
            if v.gen.cm and (not v.gen.frame.info.gen_handlers or _yields_once(v.gen)):
                gs = self.gen(v.gen)
            if gs is not None:
                return GenRef(gs, True)
        elif type(v) is GenVar:  # a for-loop's iterator, a `yield from` delegate (see _loop_slot)
            if _loop_slot(f, k, v):
                gs = self.gen(v)
        elif type(v) is MethodVar and v.name == "send" and type(v.self_var) is GenVar:
            if _gen_ok(v.self_var):  # g.send(...) loaded for its call (only that call consumes it)
                gs = self.gen(v.self_var)
            if gs is not None:
                return GenRef(gs, False, True)
        return GenRef(gs, False) if gs is not None else self.value(v)

    def gen(self, g: GenVar) -> GenShape | None:
        gs = self.gens.get(id(g))
        if gs is not None:
            return gs
        if g.cm and g.frame.info.gen_handlers and not _yields_once(g):
            return None  # (see _yields_once)
        if g.state == "running":
            index = self.running.get(id(g), -1)
            if index < 0 or (g.mode == "next" and g.default is None and not returns_constants(g.frame.info)):
                return None  # (its return raises StopIteration with the value: _generators._stop)
        else:
            index = -1
        gs = self.gens[id(g)] = GenShape(None, index, g.state, g.mode, g.target, g.cm, g.for_at, g.for_depth)
        if g.mode == "throw":
            assert g.thrown is not None and g.thrown_tb is not None  # mode "throw" sets both
            gs.thrown, gs.thrown_tb = self.value(g.thrown), self.value(g.thrown_tb)
        if type(g.exc_state) is not ConstVar or g.exc_state.value is not None:
            gs.exc_state = self.value(g.exc_state)
        if g.state == "running" and g.caller_exc is not None:
            gs.caller_exc = self.value(g.caller_exc)
        if g.mode == "collect":
            assert g.acc is not None  # mode "collect" sets it
            gs.acc, gs.acc_tuple = self.value(g.acc), g.acc_tuple
        if g.default is not None:
            gs.default = self.value(g.default)
        if g.state == "done":  # its frame is gone, as eager's (which has dropped its locals)
            f = g.frame
            gs.frame = FrameShape(f.info, f.fglobals, f.builtins, f.ip, (), (), None, None, -1, -1, f.name)
        elif index < 0:
            gs.frame = self.frame(g.frame, 0)
        return gs

    def frame(self, f: Frame, nargs: int, step: bool = False) -> FrameShape:
        at = f.call_index if f.call_index >= 0 else f.ip
        locs = []
        keep = keeps_locals(self.vm, f.info.code)
        for k, v in enumerate(f.locals):
            if v is None or not (keep or is_live(f.info, at, k)):
                continue
            locs.append((k, self.slot(f, None, v, False)))
        ret = -1
        if f.ret_override is not None:
            ret = self.value(f.ret_override)
        namespace = self.value(f.namespace) if f.namespace is not None else -1
        n = len(f.stack)
        st = [self.slot(f, k, v, k >= n - nargs) for k, v in enumerate(f.stack)]
        if step and fault(self.vm.ctx, "corrupt-parent-slot"):
            _corrupt_top_slot(self.vm, f, st, locs)
        return FrameShape(f.info, f.fglobals, f.builtins, f.ip, tuple(locs), tuple(st), None, f.exit_grad,
                          f.call_index, f.call_no, f.name, ret, namespace=namespace)


def _loop_slot(f: Frame, k: int, g: GenVar) -> bool:
    """Stack slot `k` of `f` is the iterator of the for-loop (or the delegate of the `yield from`) that
    `f` is in: FOR_ITER (SEND) is its only user. (Its record stays while next() steps it in the loop.)"""
    at = f.call_index if f.call_index >= 0 else f.ip
    return (g.owner is f and g.for_depth == k and not g.frame.info.gen_handlers and g.target is not None
            and g.for_at <= at < g.target)


def _gen_ok(g: GenVar, stepped: bool = True) -> bool:
    """`g` itself may stay VM data: no try/with blocks to run when it is abandoned (unless finished, see
    _generators.check_abandoned), and, if next()/send() may step it, constant returns (the StopIteration
    they raise: _generators._stop)."""
    info = g.frame.info
    return (
        not g.cm and (not info.gen_handlers or g.state == "done") and (not stepped or returns_constants(info))
    )


def _held_ok(vm: VM, f: Frame, g: GenVar) -> bool:
    """Generator `g`, in locals of `f`, may stay VM data as far as `f` goes: its code ahead only steps it
    (builtins it calls for that are the builtins: guarded) and `f` cannot read its namespace."""
    if not _gen_ok(g, False) or keeps_locals(vm, f.info.code):
        return False
    at = f.call_index if f.call_index >= 0 else f.ip
    names = uses_ahead(f.info, at, frozenset(k for k, x in enumerate(f.locals) if x is g))
    if names is None or not _gen_ok(g, bool(names & {"next", "send"})):
        return False
    glob, b = f.fglobals, f.builtins
    names = names - {"send"}
    for name in names:
        if (id(glob), name) in vm.gover or name in glob or b.get(name) is not getattr(builtins, name):
            return False
    for name in sorted(names):
        vm.guards.global_absent(glob, name)
        vm.guards.global_identity(b, name, b[name])
    return True


def _yields_once(g: GenVar) -> bool:
    """One yield, in no loop: its exit cannot yield again, which would leave a generator with try/with
    blocks suspended, to be closed whenever eager's context manager object is collected. (Only a backward
    jump over the yield can run it again; 3.12 also jumps back from a with-block's handler to its exit.)"""
    instrs = g.frame.info.instrs
    at = [k for k, ins in enumerate(instrs) if ins.opname == "YIELD_VALUE"]
    return len(at) == 1 and not any(ins.opname.startswith("JUMP_BACKWARD") and ins.target <= at[0] < k
                                    for k, ins in enumerate(instrs))


def snapshot(vm: VM, em: Emitter, env_exprs: list[str], nargs: int, step: bool = False) -> list[FrameShape]:
    """Persist the frame stack (the top frame's last `nargs` stack slots are the eager op's operands)."""
    p = _Persist(vm, em, env_exprs)
    env_exprs.append(em.expr(vm.cur_exc))
    shapes = []
    top = vm.frames[-1]
    for f in vm.frames:
        gs = None
        if f.gen is not None:  # (its values before the frame's: the eager op's operands stay last)
            gs = p.gen(f.gen)
            if gs is None:  # a generator stepped by a builtin, or reachable as a value: made eager
                raise Restart(f.gen.call_no, "eager") if f.gen.call_no > 0 else not_real()
        sh = p.frame(f, nargs if f is top else 0, step and f is not top)
        sh.gen = gs
        shapes.append(sh)
    return shapes


def not_real() -> Fatal:
    """A generator restored from a snapshot that must become a real object: no re-trace can make it eager
    (its creation was in an earlier segment). Persisting only what the VM's frames alone can reach keeps
    this from happening; it is an engine error, never a wrong result."""
    return Fatal(Unsupported("generator", "a generator persisted at an earlier break cannot become real"))


def env_len(shapes: list[FrameShape]) -> int:
    """How many env entries the snapshot uses (the highest index + 1)."""
    top = 0

    def gen(gs: GenShape) -> None:
        nonlocal top
        top = max(top, gs.thrown, gs.thrown_tb, gs.exc_state, gs.caller_exc, gs.acc, gs.default)
        if gs.frame is not None:
            shape(gs.frame)

    def slot(s: Slot) -> None:
        nonlocal top
        if isinstance(s, GenRef):
            gen(s.gen)
        else:
            top = max(top, s)

    def shape(sh: FrameShape) -> None:
        nonlocal top
        top = max(top, sh.ret_override, sh.namespace)
        if sh.gen is not None:
            gen(sh.gen)
        for _, s in sh.locals:
            slot(s)
        for s in sh.stack:
            slot(s)

    for sh in shapes:
        shape(sh)
    return top + 1


def restore(vm: VM, shapes: list[FrameShape]) -> list[Frame]:
    """The frames of a segment that starts at a break point: env slots are lazy, persisted generators are
    generator values again (one per generator, whichever slots or frames refer to it)."""
    frames = [_new_frame(sh) for sh in shapes]
    gens: dict[int, GenVar] = {}

    def gen(gs: GenShape) -> GenVar:
        g = gens.get(id(gs))
        if g is None:
            if gs.frame is not None:
                f = _new_frame(gs.frame)
                fill(f, gs.frame)
            else:
                f = frames[gs.index]
            g = gens[id(gs)] = GenVar(f, -1, cm=gs.cm)  # -1: no call of this trace made it
            f.gen = g
            g.state, g.mode, g.target = gs.state, gs.mode, gs.target
            g.for_at, g.for_depth = gs.for_at, gs.for_depth
            if gs.thrown >= 0:
                g.thrown, g.thrown_tb = LazyVar(gs.thrown), LazyVar(gs.thrown_tb)
            if gs.exc_state >= 0:
                g.exc_state = LazyVar(gs.exc_state)
            if gs.caller_exc >= 0:
                g.caller_exc = LazyVar(gs.caller_exc)
            if gs.acc >= 0:
                g.acc, g.acc_tuple = LazyVar(gs.acc), gs.acc_tuple
            if gs.default >= 0:
                g.default = LazyVar(gs.default)
        return g

    def value(s: Slot, owner: Frame | None = None, k: int = -1) -> Var:
        if isinstance(s, GenRef):
            g = gen(s.gen)
            if owner is not None and k == s.gen.for_depth and not s.exit and not s.send:
                g.owner = owner  # (a loop's iterator: see _loop_slot)
            return CMExitVar(g) if s.exit else MethodVar(g, "send") if s.send else g
        return LazyVar(s)

    def fill(f: Frame, sh: FrameShape) -> None:
        for li, s in sh.locals:
            f.locals[li] = value(s)
        f.stack.extend(value(s, f, k) for k, s in enumerate(sh.stack))

    for f, sh in zip(frames, shapes):
        fill(f, sh)
    for sh in shapes:
        if sh.gen is not None:
            gen(sh.gen)
    return frames


def _new_frame(sh: FrameShape) -> Frame:
    # call_no -1: a resumed frame was not made by a call of this trace, so no re-trace can run it eagerly
    # instead (see VM._on_unsupported)
    return Frame(
        sh.info,
        sh.fglobals,
        sh.builtins,
        [None] * sh.info.nlocalsplus,
        [],
        sh.ip,
        None,
        sh.exit_grad,
        sh.call_index,
        -1,
        sh.name,
        LazyVar(sh.ret_override) if sh.ret_override >= 0 else None,
        namespace=LazyVar(sh.namespace) if sh.namespace >= 0 else None,
    )


def _corrupt_top_slot(vm: VM, f: Frame, st: list[Slot], locs: list[tuple[int, Slot]]) -> None:
    """Fault "corrupt-parent-slot": a top stack slot holding a tensor is persisted from another tensor of the
    frame (a stack slot below, else a local), so the bug shows as a wrong result rather than a crash."""

    def tensor(v: Var) -> bool:
        if type(v) is LazyVar:
            return type(vm.lazy.get(v.index)) is TensorVar
        return type(v) is TensorVar

    if not f.stack or not tensor(f.stack[-1]):
        return
    top = f.stack[-1]
    for k in range(len(f.stack) - 2, -1, -1):
        if tensor(f.stack[k]) and f.stack[k] is not top:
            st[-1] = st[k]
            return
    for k, ei in locs:
        if tensor(f.locals[k]) and f.locals[k] is not top:
            st[-1] = ei
            return
