"""Stack shuffling and no-op instructions."""

from __future__ import annotations

from typing import TYPE_CHECKING

from ._opcodes import handles
from ._values import NULL

if TYPE_CHECKING:
    from ._code import Instr
    from ._frame import Frame
    from ._interp import VM


@handles("NOP", "RESUME", "PRECALL", "EXTENDED_ARG", "CACHE", "COPY_FREE_VARS")
def _nop(vm: VM, frame: Frame, ins: Instr) -> None:
    # COPY_FREE_VARS: the closure cells were placed in the frame when it was created.
    frame.ip += 1


@handles("POP_TOP")
def _pop_top(vm: VM, frame: Frame, ins: Instr) -> None:
    frame.stack.pop()
    frame.ip += 1


@handles("PUSH_NULL")
def _push_null(vm: VM, frame: Frame, ins: Instr) -> None:
    frame.stack.append(NULL)
    frame.ip += 1


@handles("COPY")
def _copy(vm: VM, frame: Frame, ins: Instr) -> None:
    frame.stack.append(frame.stack[-ins.arg])
    frame.ip += 1


@handles("SWAP")
def _swap(vm: VM, frame: Frame, ins: Instr) -> None:
    st = frame.stack
    st[-1], st[-ins.arg] = st[-ins.arg], st[-1]
    frame.ip += 1
