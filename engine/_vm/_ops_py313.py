"""Instructions CPython 3.13 runs differently from 3.12 that no rewriting covers (the rest of 3.13 runs under
the 3.12 handlers: `_version._rewrite_313` puts its new instructions in their 3.12 forms).

PUSH_NULL: 3.13 pushes the NULL *above* a callable (`f, NULL, args...`: LOAD_GLOBAL/LOAD_ATTR with their low
bit push `f, NULL` too, and CALL reads `callable, self_or_null`), where 3.11/3.12 push it below. The VM keeps
3.12's layout on every version (`NULL, f` or `meth, self`): LOAD_GLOBAL, LOAD_ATTR and LOAD_SUPER_ATTR push
it as on 3.12 and 3.13's PUSH_NULL, which the compiler emits right after the callable, goes below the top of
the stack. So CALL, CALL_FUNCTION_EX, their eager forms and the stacks persisted across breaks are the same
on all versions. (A with-block's exit is called as `exit, None, None, None; CALL 2` on both 3.12 and 3.13,
the first None taking the self slot: the same stack under either reading.)

TO_BOOL: `bool(v)` replaces v, ahead of the POP_JUMP_IF_*/UNARY_NOT that reads it (3.13's conditional jumps
take a bool and cannot raise, so the exception table may leave them out: the truth test, and a break on a
tensor's value, belong here). COMPARE_OP's to-bool bit is a TO_BOOL after it (`_version._rewrite_313`).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from ._arith import truth
from ._opcodes import EagerSpec, handles
from ._values import NULL, ConstVar

if TYPE_CHECKING:
    from ._code import Instr
    from ._frame import Frame
    from ._interp import VM


@handles("PUSH_NULL_BELOW")
def _push_null_below(vm: VM, frame: Frame, ins: Instr) -> None:
    frame.stack.insert(len(frame.stack) - 1, NULL)
    frame.ip += 1


def _to_bool_eager(frame: Frame, ins: Instr) -> EagerSpec:
    return EagerSpec(bool, 1, label="bool")


@handles("TO_BOOL", eager=_to_bool_eager)
def _to_bool(vm: VM, frame: Frame, ins: Instr) -> None:
    frame.stack[-1] = ConstVar(truth(vm, vm.peek(1)[0]))
    frame.ip += 1
