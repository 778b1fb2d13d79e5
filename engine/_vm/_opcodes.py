"""The one dispatch table: opcode name -> handler(vm, frame, instr), and the instruction's eager form.

Handlers register with `@handles(*opnames, eager=form)`. The eager form `form(frame, instr)` says how the
instruction runs for real from the frame state before it (an `EagerSpec`, or None where it has none). The
VM attaches it to whatever `Unsupported` leaves the handler without one (a handler just raises, or lets a
model's `Unsupported` through), and uses it when a handler fails with an engine error rather than an
`Unsupported`. A handler registered with `attach=False` decides its break's eager form itself (CALL: a
classic callee; or paths that must restart rather than run eagerly, such as a traced generator's). One
place per opcode: adding an opcode touches its family module only.

Handler contract: compute first, then commit. A handler that raises `Unsupported` must not have changed the
frame (the instruction then runs eagerly from exactly that state).
"""

from __future__ import annotations

import enum
from collections.abc import Callable
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from ._code import Instr
    from ._frame import Frame
    from ._interp import VM

    Handler = Callable[[VM, Frame, Instr], Any]
    EagerForm = Callable[[Frame, Instr], "EagerSpec | None"]

DISPATCH: dict[str, Handler] = {}
EAGER_FORMS: dict[str, EagerForm] = {}
ATTACHED: set[str] = set()  # opcodes whose breaks get their eager form from the VM


def handles(*opnames: str, eager: EagerForm | None = None, attach: bool = True) -> Callable[[Handler], Handler]:
    """Register the decorated handler (and its eager form, if the instruction has one) for `opnames`;
    `attach=False`: the handler sets its breaks' eager form itself (see the module docstring)."""

    def register(fn: Handler) -> Handler:
        for name in opnames:
            assert name not in DISPATCH, f"two handlers for {name}"
            DISPATCH[name] = fn
            if eager is not None:
                EAGER_FORMS[name] = eager
                if attach:
                    ATTACHED.add(name)
        return fn

    return register


def eager_form(frame: Frame, ins: Instr) -> EagerSpec | None:
    """How `ins` runs for real from `frame`'s current state; None if it has no eager form."""
    form = EAGER_FORMS.get(ins.opname)
    return None if form is None else form(frame, ins)


def raising(exc_type: type[BaseException], msg: str) -> Callable[..., Any]:
    """An eager op that raises CPython's own error for the instruction (its operands are ignored)."""

    def raise_it(*_: object) -> Any:
        raise exc_type(msg)

    return raise_it


class Resume(enum.Enum):
    """How a segment that starts at a break point takes in what happened before it (`BreakPoint.resume`):
    the outcome of the eager op (`EagerSpec.resume`: the first six), or the start of a call."""

    PUSH = "push"  # its result is pushed; the frame goes on after the instruction
    PUSHN = "pushn"  # its result is a list of values, pushed in order
    NONE = "none"  # it has no result (a store); the frame goes on after the instruction
    RETRY = "retry"  # its result replaces the operand and the same instruction runs again (a jump)
    FORITER = "foriter"  # next(it) or EXHAUSTED: FOR_ITER goes on in the loop or jumps past it
    SEND = "send"  # a yielded value (pushed, on to YIELD_VALUE) or Returned(v): v replaces the delegate, jump
    DECIDE = "decide"  # bool(x), pushed above x, decides a JUMP_IF_*_OR_POP
    RAISE = "raise"  # it raised: the exception unwinds from the instruction
    ENTRY = "entry"  # no eager op: a function entry, with the call's arguments as the env


class EagerSpec:
    """How a break runs its instruction for real: `fn(*top nargs stack items)`, then `npop` items are
    dropped and `resume` says what happens with the result."""

    __slots__ = ("fn", "nargs", "npop", "resume", "label")

    def __init__(self, fn: Callable[..., Any], nargs: int, npop: int | None = None, resume: Resume = Resume.PUSH,
                 label: str = "") -> None:
        self.fn = fn
        self.nargs = nargs
        self.npop = nargs if npop is None else npop
        self.resume = resume
        self.label = label or getattr(fn, "__name__", "op")
