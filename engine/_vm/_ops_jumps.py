"""Jumps, branches and for-loops."""

from __future__ import annotations

from .. import _runtime as R
from .._errors import Unsupported
from . import _version as V
from ._arith import is_same, truth
from ._iters import get_iter, iter_next
from ._opcodes import EagerSpec, handles
from ._values import ConstVar


@handles(*V.UNCONDITIONAL_JUMPS)
def _jump(vm, frame, ins):
    frame.ip = ins.target


def _truth_or_break(vm, v):
    try:
        return truth(vm, v)
    except Unsupported as u:
        # Run bool() for real; the jump is retried with the real answer on the stack.
        u.eager = EagerSpec(bool, 1, resume="retry", label="bool")
        raise


def _is_none(vm, v):
    r = is_same(vm, v, ConstVar(None))
    if r is None:
        raise Unsupported("is-none", "`is None` on an unknown value", "",
                          EagerSpec(lambda x: x is None, 1, resume="retry"))
    return r


@handles(*V.CONDITIONAL_POP_JUMPS)
def _pop_jump(vm, frame, ins):
    kind = V.CONDITIONAL_POP_JUMPS[ins.opname]
    v = vm.peek(1)[0]
    if kind in ("true", "false"):
        b = _truth_or_break(vm, v)
        jump = b if kind == "true" else not b
    else:
        n = _is_none(vm, v)
        jump = n if kind == "none" else not n
    frame.stack.pop()
    frame.ip = ins.target if jump else frame.ip + 1


@handles(*V.OR_POP_JUMPS)
def _or_pop_jump(vm, frame, ins):
    kind = V.OR_POP_JUMPS[ins.opname]
    v = vm.peek(1)[0]
    try:
        b = truth(vm, v)
    except Unsupported as u:
        # bool() runs for real without consuming v: the result is pushed above it and the
        # "decided" form of this jump (DECIDED_OR_POP) runs next.
        u.eager = EagerSpec(bool, 1, npop=0, resume="decide", label="bool")
        raise
    or_pop_commit(frame, ins, kind, b)


def or_pop_commit(frame, ins, kind, b):
    if b == (kind == "true"):
        frame.ip = ins.target
    else:
        frame.stack.pop()
        frame.ip += 1


@handles("GET_ITER")
def _get_iter(vm, frame, ins):
    v = vm.peek(1)[0]
    try:
        from ._objects import call_dunder, instance_type

        if instance_type(v) is not None:
            it = call_dunder(vm, v, "__iter__", [])  # a user (or torch.nn) __iter__, traced
        else:
            it = get_iter(vm, v)
    except Unsupported as u:
        u.eager = EagerSpec(iter, 1, label="iter")
        raise
    from ._calls import Inline

    if isinstance(it, Inline):
        frame.stack.pop()
        frame.ip += 1
        frame.call_index = frame.ip - 1
        vm.frames.append(it.frame)
        return
    frame.stack[-1] = it
    frame.ip += 1


def _next_or_exhausted(it):
    return next(it, R.EXHAUSTED)


@handles("FOR_ITER")
def _for_iter(vm, frame, ins):
    it = vm.peek(1)[0]
    from ._values import GenVar, IterVar

    if type(it) is GenVar:
        from ._generators import resume_for

        resume_for(vm, frame, it, ins)
        return
    if type(it) is not IterVar:
        raise Unsupported("for-iter", f"iterating a {type(it).__name__}", "it runs eagerly",
                          EagerSpec(_next_or_exhausted, 1, npop=0, resume="foriter", label="next"))
    x = iter_next(vm, it)
    if x is None:
        frame.stack.pop()
        frame.ip = ins.target
    else:
        frame.stack.append(x)
        frame.ip += 1
