"""Instructions CPython 3.12 added (the rest of 3.12 runs under 3.11's handlers, see `_version.opname`).

RETURN_CONST, END_FOR, END_SEND, CLEANUP_THROW, BINARY_SLICE/STORE_SLICE, LOAD_FAST_AND_CLEAR (an inlined comprehension saving a local
of the same name; STORE_FAST of its NULL puts the local back unbound), LOAD_SUPER_ATTR (`super().name` and
`super(C, x).name` in one instruction) and CALL_INTRINSIC_1's StopIteration handler of a generator body.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from .._errors import Unsupported
from .._runtime import NULL as NULL_REAL
from ._attrs import get_item, load_attr, store_item
from ._iface import Inline
from ._opcodes import EagerSpec, Resume, handles
from ._values import NULL, ConstVar, ObjVar, SliceVar, SuperVar

if TYPE_CHECKING:
    from ._code import Instr
    from ._frame import Frame
    from ._interp import VM


@handles("RETURN_CONST")
def _return_const(vm: VM, frame: Frame, ins: Instr):
    return vm.return_value(ConstVar(ins.argval))


@handles("END_FOR")
def _end_for(vm: VM, frame: Frame, ins: Instr) -> None:
    # (an exhausted FOR_ITER jumps past it: _code.CodeInfo; it pops the iterator and its last value)
    vm.popn(2)
    frame.ip += 1


@handles("END_SEND")
def _end_send(vm: VM, frame: Frame, ins: Instr) -> None:
    # reached from CLEANUP_THROW's path only (a SEND whose delegate returned skips it: _code.CodeInfo)
    v = frame.stack.pop()
    frame.stack[-1] = v
    frame.ip += 1


@handles("CLEANUP_THROW")
def _cleanup_throw(vm: VM, frame: Frame, ins: Instr) -> None:
    # An exception raised at a `yield from`'s yield (thrown in while suspended there): CPython throws it into
    # the delegate first, which the VM does not model on 3.12. No eager form: the trace gives up (restarts with
    # the generator made eagerly, or fails), never a wrong result.
    raise Unsupported("yield-from", "an exception thrown into `yield from` (3.12's CLEANUP_THROW)")


@handles("STOPITERATION_ERROR")
def _stopiteration_error(vm: VM, frame: Frame, ins: Instr) -> None:
    # A generator body's handler turns StopIteration into RuntimeError, then re-raises: the VM makes that
    # conversion where an exception leaves a generator's frame (as on 3.11), so here it passes through.
    frame.ip += 1


@handles("LOAD_FAST_AND_CLEAR")
def _load_fast_and_clear(vm: VM, frame: Frame, ins: Instr) -> None:
    v = frame.locals[ins.arg]
    frame.stack.append(NULL if v is None else v)
    frame.locals[ins.arg] = None
    frame.ip += 1


def _get_slice(container, start, stop):
    return container[start:stop]


def _binary_slice_eager(frame: Frame, ins: Instr) -> EagerSpec:
    return EagerSpec(_get_slice, 3, label="getitem")


@handles("BINARY_SLICE", eager=_binary_slice_eager)
def _binary_slice(vm: VM, frame: Frame, ins: Instr) -> None:
    c, start, stop = vm.peek(3)
    r = get_item(vm, c, SliceVar(start, stop, ConstVar(None)))
    vm.popn(3)
    if isinstance(r, Inline):
        vm.push_frame(frame, r)
        return
    frame.stack.append(r)
    frame.ip += 1


def _set_slice(value, container, start, stop) -> None:
    container[start:stop] = value


def _store_slice_eager(frame: Frame, ins: Instr) -> EagerSpec:
    return EagerSpec(_set_slice, 4, resume=Resume.NONE, label="setitem")


@handles("STORE_SLICE", eager=_store_slice_eager)
def _store_slice(vm: VM, frame: Frame, ins: Instr) -> None:
    v, c, start, stop = vm.peek(4)
    r = store_item(vm, c, SliceVar(start, stop, ConstVar(None)), v)
    vm.popn(4)
    if isinstance(r, Inline):
        vm.push_frame(frame, r)
        return
    frame.ip += 1


def _super_adapter(name: str, two_args: bool, method: bool):
    """CPython's LOAD_SUPER_ATTR: `global_super(class, self)` (`global_super()` for a zero-argument call
    of something other than the builtin, which the builtin answers as super(class, self))."""

    def load_super_attr(global_super, cls, self):
        if global_super is super or two_args:
            sup = global_super(cls, self)
        else:
            sup = global_super()
        r = getattr(sup, name)
        return [NULL_REAL, r] if method else r

    return load_super_attr


def _load_super_attr_eager(frame: Frame, ins: Instr) -> EagerSpec:
    method = bool(ins.arg & 1)
    return EagerSpec(_super_adapter(ins.argval, bool(ins.arg & 2), method), 3,
                     resume=Resume.PUSHN if method else Resume.PUSH, label="super")


@handles("LOAD_SUPER_ATTR", eager=_load_super_attr_eager)
def _load_super_attr(vm: VM, frame: Frame, ins: Instr) -> None:
    gs, cls, obj = vm.peek(3)
    if not (type(gs) is ObjVar and gs.obj is super and type(cls) is ObjVar and isinstance(cls.obj, type)):
        raise Unsupported("super", "super() that is not the builtin over a known class")
    r = load_attr(vm, SuperVar(cls.obj, obj), ins.argval)
    if isinstance(r, Inline):
        raise Unsupported("super-attr", f"super().{ins.argval} runs a property")
    vm.popn(3)
    if ins.arg & 1:
        frame.stack.append(NULL)
    frame.stack.append(r)
    frame.ip += 1
