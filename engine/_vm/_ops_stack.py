"""Stack shuffling and no-op instructions."""

from __future__ import annotations

from ._opcodes import handles
from ._values import NULL


@handles("NOP", "RESUME", "PRECALL", "EXTENDED_ARG", "CACHE", "COPY_FREE_VARS")
def _nop(vm, frame, ins):
    # COPY_FREE_VARS: the closure cells were placed in the frame when it was created.
    frame.ip += 1


@handles("POP_TOP")
def _pop_top(vm, frame, ins):
    frame.stack.pop()
    frame.ip += 1


@handles("PUSH_NULL")
def _push_null(vm, frame, ins):
    frame.stack.append(NULL)
    frame.ip += 1


@handles("COPY")
def _copy(vm, frame, ins):
    frame.stack.append(frame.stack[-ins.arg])
    frame.ip += 1


@handles("SWAP")
def _swap(vm, frame, ins):
    st = frame.stack
    st[-1], st[-ins.arg] = st[-ins.arg], st[-1]
    frame.ip += 1
