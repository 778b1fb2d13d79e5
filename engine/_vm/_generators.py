"""Generators created by traced code, run as suspendable frames of the same VM.

FOR_ITER resumes a generator's frame on the frame stack (YIELD_VALUE hands the value back to the loop);
builtins that consume one (list, sum, all, next, ...) step it with `drive`, a nested run of the VM on a
frame list holding just the generator. Anything a suspended frame cannot survive (a break while the
generator is alive, an exception leaving it while a builtin drives it) restarts the segment's trace with
the generator's creation as an eager call, after which it is a real generator like any other.

A generator with try/with blocks runs code when it is abandoned while suspended (close() throws
GeneratorExit into it when its last reference goes, which may be mid-segment or later, held by a
traceback). The VM does not track references, so such a generator is traced, and if it is left suspended
when the trace ends the trace restarts with its creation eager (`check_abandoned`); one that ran to its
end ran its finally/with exits in the trace, as eagerly.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from .._errors import Unsupported
from ._ending import Ending, EndKind, Restart
from ._values import ConstVar

if TYPE_CHECKING:
    from ._code import Instr
    from ._frame import Frame
    from ._interp import VM
    from ._values import GenVar, Var


def drive(vm: VM, gen: GenVar):
    """One step of `gen`: the yielded value, or None when it is exhausted."""
    if gen.state == "done":
        return None
    if gen.state == "running":
        raise Unsupported("generator-running", "generator already executing")
    gen.frame.stack.append(ConstVar(None))  # the value sent in (next() sends None)
    gen.state = "running"
    gen.mode = "drive"
    saved = vm.frames
    vm.frames = [gen.frame]
    vm.drive_depth += 1
    try:
        ending = vm.run()
    finally:
        vm.frames = saved
        vm.drive_depth -= 1
    if ending.kind is EndKind.YIELD:
        return ending.value
    if ending.kind is EndKind.RETURN:
        gen.state = "done"
        return None
    raise Restart(gen.call_no, "eager")


def send(vm: VM, frame: Frame, ins: Instr) -> None:
    """SEND (the loop of `yield from`) with None sent in: one step of the delegate, a traced generator or
    an iterator value. A value it yields stays on the stack for YIELD_VALUE; when it is exhausted, what it
    returned replaces it and the loop is left. Anything else (a real delegate, a value sent in) has no
    eager form inside a traced generator: the trace restarts with this generator made eagerly."""
    from ._iters import iter_next
    from ._values import GenVar, IterVar

    receiver, value = frame.stack[-2], frame.stack[-1]
    if type(value) is not ConstVar or value.value is not None:
        raise Unsupported("yield-from", "a value sent into `yield from`")
    if type(receiver) is GenVar:
        x = drive(vm, receiver)
        done = receiver.retval if x is None else None
    elif type(receiver) is IterVar:
        x = iter_next(vm, receiver)
        done = ConstVar(None) if x is None else None
    else:
        raise Unsupported("yield-from", f"`yield from` a {type(receiver).__name__}")
    if done is not None:
        frame.stack.pop()
        frame.stack[-1] = done
        frame.ip = ins.target
    else:
        frame.stack[-1] = x
        frame.ip += 1


def check_abandoned(vm: VM) -> None:
    """At the end of a trace: a generator with try/with blocks made here and not finished would run its
    handlers when closed, at a time the VM does not know: restart with its creation as an eager call."""
    for gen in vm.closing_gens:
        if gen.state in ("suspended", "running"):
            raise Restart(gen.call_no, "eager")


def on_yield(vm: VM, frame: Frame, value: Var):
    gen = frame.gen
    frame.ip += 1
    vm.frames.pop()
    gen.state = "suspended"
    if gen.mode == "drive":
        return Ending(EndKind.YIELD, value=value)
    caller = vm.frames[-1]
    caller.call_index = -1
    caller.stack.append(value)
    return None


def on_return(vm: VM, frame: Frame, value: Var):
    """A generator frame returned (frame already popped): for-loops jump past the loop."""
    gen = frame.gen
    gen.state = "done"
    gen.retval = value
    if gen.mode == "drive":
        return Ending(EndKind.RETURN, value=ConstVar(None))
    caller = vm.frames[-1]
    caller.call_index = -1
    caller.stack.pop()  # the generator (the loop's iterator)
    caller.ip = gen.target
    return None


def resume_for(vm: VM, frame: Frame, gen: GenVar, ins: Instr) -> None:
    """FOR_ITER over a generator: push its frame; the caller continues after the yield."""
    if gen.state == "done":
        frame.stack.pop()
        frame.ip = ins.target
        return
    if gen.state == "running":
        raise Unsupported("generator-running", "generator already executing")
    gen.frame.stack.append(ConstVar(None))
    gen.state = "running"
    gen.mode = "for"
    gen.target = ins.target
    frame.ip += 1
    frame.call_index = frame.ip - 1
    vm.frames.append(gen.frame)
