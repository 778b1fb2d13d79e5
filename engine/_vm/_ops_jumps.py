"""Jumps, branches and for-loops."""

from __future__ import annotations

from typing import TYPE_CHECKING

from .. import _runtime as R
from .._errors import Unsupported
from . import _version as V
from ._arith import is_same, truth
from ._generators import resume_for
from ._iface import Inline
from ._iters import get_iter, iter_next
from ._objects import call_dunder, instance_type
from ._opcodes import EagerSpec, Resume, handles
from ._values import ConstVar, GenVar, IterVar

if TYPE_CHECKING:
    from ._code import Instr
    from ._frame import Frame
    from ._interp import VM


@handles(*V.UNCONDITIONAL_JUMPS)
def _jump(vm: VM, frame: Frame, ins: Instr) -> None:
    frame.ip = ins.target


def _none_or_false(x):
    """What a `None` test retries on: None stays None, anything else becomes a value that is not None."""
    return None if x is None else False


def _pop_jump_eager(frame: Frame, ins: Instr) -> EagerSpec:
    # The operand is replaced by a real value with the same answer and the jump is retried on it: bool()
    # for a truth test, None-or-not for a None test.
    if V.CONDITIONAL_POP_JUMPS[ins.opname] in ("true", "false"):
        return EagerSpec(bool, 1, resume=Resume.RETRY, label="bool")
    return EagerSpec(_none_or_false, 1, resume=Resume.RETRY, label="is None")


@handles(*V.CONDITIONAL_POP_JUMPS, eager=_pop_jump_eager)
def _pop_jump(vm: VM, frame: Frame, ins: Instr) -> None:
    kind = V.CONDITIONAL_POP_JUMPS[ins.opname]
    v = vm.peek(1)[0]
    if kind in ("true", "false"):
        b = truth(vm, v)
        jump = b if kind == "true" else not b
    else:
        n = is_same(vm, v, ConstVar(None))
        if n is None:
            raise Unsupported("is-none", "`is None` on an unknown value")
        jump = n if kind == "none" else not n
    frame.stack.pop()
    frame.ip = ins.target if jump else frame.ip + 1


def _or_pop_jump_eager(frame: Frame, ins: Instr) -> EagerSpec:
    # bool() runs for real without consuming v: the result is pushed above it and the jump is decided
    # from it when the next segment starts (see or_pop_commit).
    return EagerSpec(bool, 1, npop=0, resume=Resume.DECIDE, label="bool")


@handles(*V.OR_POP_JUMPS, eager=_or_pop_jump_eager)
def _or_pop_jump(vm: VM, frame: Frame, ins: Instr) -> None:
    kind = V.OR_POP_JUMPS[ins.opname]
    v = vm.peek(1)[0]
    b = truth(vm, v)
    or_pop_commit(frame, ins, kind, b)


def or_pop_commit(frame: Frame, ins: Instr, kind, b) -> None:
    if b == (kind == "true"):
        frame.ip = ins.target
    else:
        frame.stack.pop()
        frame.ip += 1


def _get_iter_eager(frame: Frame, ins: Instr) -> EagerSpec:
    return EagerSpec(iter, 1, label="iter")


@handles("GET_ITER", eager=_get_iter_eager)
def _get_iter(vm: VM, frame: Frame, ins: Instr) -> None:
    v = vm.peek(1)[0]

    if instance_type(v) is not None:
        it = call_dunder(vm, v, "__iter__", [])  # a user (or torch.nn) __iter__, traced
    else:
        it = get_iter(vm, v)

    if isinstance(it, Inline):
        frame.stack.pop()
        vm.push_frame(frame, it)
        return
    frame.stack[-1] = it
    frame.ip += 1


def _next_or_exhausted(it):
    return next(it, R.EXHAUSTED)


def _for_iter_eager(frame: Frame, ins: Instr) -> EagerSpec:
    return EagerSpec(_next_or_exhausted, 1, npop=0, resume=Resume.FORITER, label="next")


@handles("FOR_ITER", eager=_for_iter_eager, attach=False)
def _for_iter(vm: VM, frame: Frame, ins: Instr) -> None:
    it = vm.peek(1)[0]

    if type(it) is GenVar:
        resume_for(vm, frame, it, ins)
        return
    if type(it) is not IterVar:
        raise Unsupported("for-iter", f"iterating a {type(it).__name__}",
                          eager=_for_iter_eager(frame, ins))
    it.loop = (frame, frame.ip, len(frame.stack) - 1)
    try:
        x = iter_next(vm, it)
    except Unsupported as u:  # (a dict that changed while iterated: eager's next raises)
        if u.eager is None:
            u.eager = _for_iter_eager(frame, ins)
        raise
    if x is None:
        frame.stack.pop()
        frame.ip = ins.target
    else:
        frame.stack.append(x)
        frame.ip += 1
