"""Generators created by traced code, run as suspendable frames of the same VM.

FOR_ITER resumes a generator's frame on the frame stack (YIELD_VALUE hands the value back to the loop), and
so does SEND for the delegate of `yield from`, list()/tuple() consuming one (`collect`), and next(g[, d]) /
g.send(v) stepping one (`step`); other builtins that consume one (sum, all, ...) step it with `drive`, a
nested run of the VM on a frame list holding just the generator. A `@contextmanager` block is contextlib's
protocol on a generator frame: entering pushes it until its yield ("enter"), a normal exit resumes it and
it must return ("exit"), an exception leaving the block is thrown in at its yield ("throw": back out means
__exit__ returned False, a return means suppressed, anything else propagates), with contextlib's
RuntimeErrors and its traceback entries.

Across a break, a generator only the VM's frames reach (a with-block's exit, a for-loop's iterator, a
`yield from` delegate, locals whose code ahead only steps it: _gen_uses.py) is persisted in the snapshot,
created, suspended, running or finished (engine/_snapshot.py), and resumes where it was. Anything else
that must make a generator real (a break while a builtin drives it, a generator reachable as a value)
restarts the segment's trace with its creation as an eager call, after which it is a real generator.

A generator with try/with blocks runs code when it is abandoned while suspended (close() throws
GeneratorExit into it when its last reference goes, which may be mid-segment or later, held by a
traceback). The VM does not track references, so such a generator is traced, and if it is left suspended
when the trace ends the trace restarts with its creation eager (`check_abandoned`); one that ran to its
end ran its finally/with exits in the trace, as eagerly. (A `@contextmanager` generator is never abandoned
by its block: the block always exits it.)
"""

from __future__ import annotations

import contextlib
import dis
import functools
import inspect
import types
from typing import TYPE_CHECKING

from .._errors import Unsupported
from ._ending import Ending, EndKind, Fatal, Restart
from ._exceptions import raise_new, set_state, tb_entry, tb_here
from ._iface import Inline, Raise
from ._opcodes import EagerSpec, Resume
from ._values import CMExitVar, ConstVar, EscapedVar, ExcVar, GenVar, IterVar, ListVar, ObjVar, TupleVar

if TYPE_CHECKING:
    from ._code import Instr
    from ._frame import Frame
    from ._interp import VM
    from ._values import GenMode, Var


def drive(vm: VM, gen: GenVar):
    """One step of `gen`: the yielded value, or None when it is exhausted."""
    if gen.state == "done":
        return None
    if gen.state == "running":
        raise Unsupported("generator-running", "generator already executing")
    gen.frame.stack.append(ConstVar(None))  # the value sent in (next() sends None)
    gen.state = "running"
    enter_exc_state(vm, gen)
    gen.mode = "drive"
    saved = vm.frames
    vm.check_depth(saved[-1], gen.frame)  # (past the recursion limit: the builtin's call raises)
    vm.frames = [gen.frame]
    vm.drive_depth += 1
    vm.frames_below += len(saved)  # (they count against the recursion limit: VM.push_frame)
    try:
        ending = vm.run()
    finally:
        vm.frames = saved
        vm.drive_depth -= 1
        vm.frames_below -= len(saved)
    if ending.kind is EndKind.YIELD:
        return ending.value
    if ending.kind is EndKind.RETURN:
        gen.state = "done"
        return None
    raise Restart(gen.call_no, "eager")


def step(vm: VM, gen: GenVar, sent: Var, default: Var | None) -> Inline | Var:
    """next(gen[, default]) / gen.send(sent): the generator runs as a frame above the call (mode "next"), so
    a break inside it resumes there; what it yields is the call's value, and its return raises
    StopIteration in the caller (or gives `default`). A finished generator raises StopIteration at once
    (or gives `default`); a value sent into one not started yet raises CPython's TypeError."""
    if gen.state == "done":
        if default is not None:
            return default
        raise Raise(ExcVar(StopIteration, ()))
    if gen.state == "created":
        v = vm.resolve(sent)
        if type(v) is not ConstVar or v.value is not None:
            raise Raise(ExcVar(TypeError, ("can't send non-None value to a just-started generator",)))
    frame = _resume(vm, gen, "next", sent)
    gen.default = default
    return Inline(frame)


def send_call(vm: VM, gen: GenVar, args: list[Var], kwargs: dict[str, Var]) -> Inline | Var:
    """gen.send(...): one argument, none by keyword (CPython's TypeErrors otherwise)."""
    if kwargs:
        raise Raise(ExcVar(TypeError, ("generator.send() takes no keyword arguments",)))
    if len(args) != 1:
        raise Raise(ExcVar(TypeError, (f"generator.send() takes exactly one argument ({len(args)} given)",)))
    return step(vm, gen, args[0], None)


class Returned:
    """What SEND's eager form gives when the delegate finished: the value it returned."""

    __slots__ = ("value",)

    def __init__(self, value: object) -> None:
        self.value = value


def send_step(receiver: object, value: object) -> object:
    """SEND for real: one step of the delegate (next() when None is sent, as CPython does for iterators)."""
    try:
        return next(receiver) if value is None else receiver.send(value)
    except StopIteration as e:
        return Returned(e.value)


def send_eager(frame: Frame, ins: Instr) -> EagerSpec:
    return EagerSpec(send_step, 2, npop=1, resume=Resume.SEND, label="send")


def send(vm: VM, frame: Frame, ins: Instr) -> None:
    """SEND (the loop of `yield from`) with None sent in: one step of the delegate. A traced generator runs
    as a frame pushed above (a value it yields goes on the stack for YIELD_VALUE; what it returns replaces
    it and the loop is left), so a break inside it resumes there; an iterator value is stepped in place;
    anything else (a real delegate, a value sent in) is an eager op."""
    receiver, value = frame.stack[-2], frame.stack[-1]
    if type(value) is not ConstVar or value.value is not None:
        raise Unsupported("yield-from", "a value sent into `yield from`", eager=send_eager(frame, ins))
    if type(receiver) is GenVar and receiver.state != "done":
        gen_frame = _resume(vm, receiver, "send")
        frame.stack.pop()
        receiver.owner, receiver.for_at, receiver.for_depth = frame, frame.ip, len(frame.stack) - 1
        receiver.target = ins.target
        vm.push_frame(frame, gen_frame)
        return
    if type(receiver) is GenVar:  # finished already: SEND's next() gives nothing, `yield from` is None
        x, done = None, ConstVar(None)
    elif type(receiver) is IterVar:
        try:
            x = vm.iter_next(receiver)
        except Unsupported as u:
            u.eager = u.eager or send_eager(frame, ins)
            raise
        done = ConstVar(None) if x is None else None
    else:
        raise Unsupported("yield-from", f"`yield from` a {type(receiver).__name__}", eager=send_eager(frame, ins))
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


def enter_exc_state(vm: VM, gen: GenVar) -> None:
    """A generator resumes: it has its own handled exception, over the caller's (which it sees when it
    handles none itself), as CPython's exc_info stack of generator frames."""
    gen.caller_exc = vm.cur_exc
    if type(gen.exc_state) is not ConstVar or gen.exc_state.value is not None:
        vm.cur_exc = gen.exc_state


def leave_exc_state(vm: VM, gen: GenVar, suspended: bool) -> None:
    """The generator yields (keeping the exception it handles, if any) or finishes: the caller's is back."""
    own = vm.resolve(vm.cur_exc)
    caller = gen.caller_exc if gen.caller_exc is not None else ConstVar(None)
    keep = suspended and own is not vm.resolve(caller)
    gen.exc_state = own if keep else ConstVar(None)
    vm.cur_exc = caller


def collect(vm: VM, gen: GenVar, as_tuple: bool):
    """list(gen) / tuple(gen): the generator runs as a frame above the call, each yielded value appended to
    a list and the generator resumed at once, so a break inside it resumes there."""
    frame = _resume(vm, gen, "collect")
    gen.acc, gen.acc_tuple = ListVar([]), as_tuple
    return Inline(frame)


def on_yield(vm: VM, frame: Frame, value: Var):
    gen = frame.gen
    if type(value) is EscapedVar:
        return _escaped(vm, frame, gen, value.exc)
    if gen.mode == "collect":  # appended; the generator goes on (the value sent in is None)
        vm.call_method(vm.resolve(gen.acc), "append", [value], {})
        frame.ip += 1
        frame.stack.append(ConstVar(None))
        return None
    leave_exc_state(vm, gen, True)
    frame.ip += 1
    vm.frames.pop()
    gen.state = "suspended"
    if gen.mode == "drive":
        return Ending(EndKind.YIELD, value=value)
    caller = vm.frames[-1]
    if gen.mode in ("exit", "throw"):  # contextlib's __exit__: the generator must stop
        if frame.info.gen_handlers:  # left suspended: its handlers run whenever eager's object is collected
            if gen.call_no <= 0:
                raise Fatal(Unsupported("contextmanager-exit", "a @contextmanager generator with try/with "
                                        "blocks that yields again in its exit, restored from a snapshot"))
            raise Restart(gen.call_no, "eager")
        msg = "generator didn't stop" if gen.mode == "exit" else "generator didn't stop after throw()"
        return _raise_in(vm, caller, ExcVar(RuntimeError, (msg,)))
    caller.call_index = -1
    gen.default = None
    caller.stack.append(value)  # the loop's next value, next()'s, or the value of the with-block (`as v`)
    return None


def _escaped(vm: VM, frame: Frame, gen: GenVar, exc: Var):
    """A modeled C iterator's callback raised StopIteration `exc` (`_models_itertools._escape`): as the C
    object's `__next__` it passes it on and stays usable (its generator form stays suspended), so a loop or
    list() over it ends, next() gives its default or raises `exc` in the caller."""
    if gen.mode not in ("next", "for", "collect"):
        raise Fatal(Unsupported("stop-iteration", f"a callback's StopIteration inside a modeled iterator "
                                f"stepped by {gen.mode}"))
    leave_exc_state(vm, gen, True)
    frame.ip += 1
    vm.frames.pop()
    gen.state = "suspended"
    caller = vm.frames[-1]
    default, gen.default = gen.default, None
    if gen.mode == "next" and default is None:
        tb_here(vm, exc, caller)
        return vm.raise_exc(exc)
    caller.call_index = -1
    if gen.mode == "next":
        caller.stack.append(default)
    elif gen.mode == "collect":
        acc = vm.resolve(gen.acc)
        caller.stack.append(TupleVar(list(vm.list_items(acc))) if gen.acc_tuple else acc)
    else:
        caller.stack.pop()  # the loop's iterator
        caller.ip = gen.target
    return None


def on_return(vm: VM, frame: Frame, value: Var):
    """A generator frame returned (frame already popped): for-loops jump past the loop; a @contextmanager
    exit gives __exit__'s result, an enter contextlib's RuntimeError."""
    gen = frame.gen
    gen.state = "done"
    leave_exc_state(vm, gen, False)
    if gen.mode == "drive":
        return Ending(EndKind.RETURN, value=ConstVar(None))
    caller = vm.frames[-1]
    if gen.mode == "enter":  # `except StopIteration: raise RuntimeError(...) from None`
        stop = ExcVar(StopIteration, () if type(value) is ConstVar and value.value is None else ())
        saved, vm.cur_exc = vm.cur_exc, stop
        try:
            return _raise_in(vm, caller, ExcVar(RuntimeError, ("generator didn't yield",)), ConstVar(None))
        finally:
            vm.cur_exc = saved
    if gen.mode == "next":
        return _stop(vm, gen, caller, value)
    caller.call_index = -1
    if gen.mode in ("exit", "throw"):  # a normal exit: False; a thrown exception caught there: suppressed
        caller.stack.append(ConstVar(gen.mode == "throw"))
        return None
    if gen.mode == "collect":
        acc = vm.resolve(gen.acc)
        if gen.acc_tuple:
            acc = TupleVar(list(vm.list_items(acc)))
        caller.stack.append(acc)
        return None
    if gen.mode == "send":  # `yield from` evaluates to what it returned
        caller.stack[-1] = value
    else:
        caller.stack.pop()  # the generator (the loop's iterator)
    caller.ip = gen.target
    return None


def _stop(vm: VM, gen: GenVar, caller: Frame, value: Var):
    """next()/send() of a generator that returned `value`: the default, else StopIteration raised at the
    call (StopIteration() for None, else StopIteration(value), as CPython's gen_send_ex makes it)."""
    default, gen.default = gen.default, None
    if default is not None:
        caller.call_index = -1
        caller.stack.append(default)
        return None
    v = vm.resolve(value)
    if type(v) is not ConstVar:  # (_gen_uses persists only generators whose returns are constants)
        if gen.call_no > 0:
            raise Restart(gen.call_no, "eager")
        raise Fatal(Unsupported("generator", "StopIteration of a value made by traced code"))

    return raise_new(vm, caller, ExcVar(StopIteration, () if v.value is None else (v.value,)))


def on_raise(vm: VM, frame: Frame, exc: Var) -> Var | None:
    """An exception left generator frame `frame` (popped): what goes on unwinding into the caller, or None
    when the caller goes on normally -- the exception thrown into a @contextmanager block came back out, so
    __exit__ returns False (contextlib puts back the traceback __exit__ was given) and the with-block
    re-raises it. A StopIteration leaving a generator becomes RuntimeError (PEP 479)."""
    gen = frame.gen
    gen.state = "done"
    gen.default = None
    leave_exc_state(vm, gen, False)
    if gen.mode == "drive":
        return exc
    thrown = gen.mode == "throw" and vm.resolve(exc) is vm.resolve(gen.thrown)
    exc = _pep479(vm, exc)
    if not thrown:
        if gen.mode in ("enter", "exit", "throw"):
            _contextlib_entry(vm, exc, gen.mode)  # it leaves through contextlib's __enter__/__exit__
        return exc

    set_state(vm, vm.resolve(gen.thrown), "__traceback__", gen.thrown_tb)
    caller = vm.frames[-1]
    caller.call_index = -1
    caller.stack.append(ConstVar(False))
    return None


def refused(vm: VM, gen: GenVar) -> bool:
    """Resuming `gen` would pass the recursion limit (VM.push_frame): as in CPython, its frame is never
    entered and the generator is finished (no handler of it runs; the RecursionError is raised in the
    caller). False where contextlib's own frames would meet the limit first (a @contextmanager block)."""
    if gen.mode in ("enter", "exit", "throw"):
        return False
    gen.state = "done"
    gen.default = None
    leave_exc_state(vm, gen, False)
    return True


def _pep479(vm: VM, exc: Var) -> Var:
    """`raise RuntimeError("generator raised StopIteration") from exc`, as CPython does for a StopIteration
    leaving a generator frame."""
    v = vm.resolve(exc)
    cls = v.cls if type(v) is ExcVar else type(v.obj) if type(v) is ObjVar else None
    if cls is None or not issubclass(cls, StopIteration):
        return exc
    new = ExcVar(RuntimeError, ("generator raised StopIteration",))
    new.cause = new.context = v
    new.suppress = True
    return new


def _raise_in(vm: VM, frame: Frame, exc: ExcVar, cause: Var | None = None):
    """contextlib's own RuntimeError, raised in its __enter__/__exit__ (an entry there) into `frame`."""
    _contextlib_entry(vm, exc, exc.args[0])
    return raise_new(vm, frame, exc, cause)


_CM = contextlib._GeneratorContextManager
# Where contextlib's __enter__/__exit__ are when an exception leaves them: (function, source text, opcode)
_CM_SITES = {"enter": (_CM.__enter__, "next(self.gen)", "CALL"), "exit": (_CM.__exit__, "next(self.gen)", "CALL"),
             "throw": (_CM.__exit__, "self.gen.throw(", "CALL"),
             "generator didn't yield": (_CM.__enter__, "generator didn't yield", "RAISE_VARARGS"),
             "generator didn't stop": (_CM.__exit__, "generator didn't stop\")", "RAISE_VARARGS"),
             "generator didn't stop after throw()": (_CM.__exit__, "after throw()", "RAISE_VARARGS")}


@functools.cache
def _cm_site(key: str) -> tuple[types.CodeType, dict, int] | None:
    fn, text, opname = _CM_SITES[key]
    try:
        lines, start = inspect.getsourcelines(fn)
        line = start + next(k for k, src in enumerate(lines) if text in src)
        offset = next(i.offset for i in dis.get_instructions(fn) if i.opname == opname
                      and i.positions is not None and i.positions.lineno == line)
    except (OSError, StopIteration):  # no source: the entry is left out
        return None
    return fn.__code__, fn.__globals__, offset


def _contextlib_entry(vm: VM, exc: Var, key: str) -> None:
    site = _cm_site(key)
    if site is not None:
        tb_entry(vm, exc, *site)


def _resume(vm: VM, gen: GenVar, mode: GenMode, sent: Var | None = None) -> Frame:
    """Make `gen`'s frame the next to run, resumed from its yield (the value sent in: None by default)."""
    if gen.state == "running":
        raise Unsupported("generator-running", "generator already executing")
    gen.frame.stack.append(sent if sent is not None else ConstVar(None))
    gen.state = "running"
    enter_exc_state(vm, gen)
    gen.mode = mode
    return gen.frame


def cm_enter(vm: VM, frame: Frame, gen: GenVar) -> None:
    """BEFORE_WITH over a @contextmanager object: the block's exit goes on the stack and the generator runs
    as a frame up to its yield (whose value the block gets), so a break inside it resumes there."""
    if gen.state != "created":
        raise Unsupported("contextmanager", "a @contextmanager object entered twice")
    frame.stack[-1] = CMExitVar(gen)
    vm.push_frame(frame, _resume(vm, gen, "enter"))


def cm_exit(vm: VM, gen: GenVar, exc: Var | None, tb: Var | None) -> Frame:
    """contextlib's __exit__ of a traced @contextmanager block: a normal exit resumes the generator (it
    must return); an exit by `exc` throws it in at the yield (the frame to push is returned)."""
    if gen.state != "suspended":
        raise Unsupported("contextmanager-exit", f"leaving a @contextmanager block whose generator is {gen.state}")
    if exc is None:
        return _resume(vm, gen, "exit")

    f = gen.frame
    gen.state = "running"
    enter_exc_state(vm, gen)
    gen.mode = "throw"
    gen.thrown, gen.thrown_tb = exc, tb
    f.call_index = f.ip - 1  # raised at its YIELD_VALUE, as gen.throw() does
    tb_here(vm, exc, f)
    return f


def throw_pending(vm: VM) -> Ending | None:
    """After cm_exit pushed a frame to throw into: unwind from its yield."""
    gen = vm.frames[-1].gen
    return vm.raise_exc(gen.thrown)


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
    enter_exc_state(vm, gen)
    gen.mode = "for"
    gen.target = ins.target
    gen.owner, gen.for_at, gen.for_depth = frame, frame.ip, len(frame.stack) - 1
    vm.push_frame(frame, gen.frame)
