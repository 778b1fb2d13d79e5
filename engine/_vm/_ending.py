"""How a trace stops: an `Ending` (return, raise, break, or a generator's yield), a `Restart` (trace again
with a call forced to run on its own) or `Fatal` (no eager form in the bottom frame).

Leaf records shared by the VM loop, the generator frames and the segment builder, so none of them has to
import the VM to say how a trace ended.
"""

from __future__ import annotations

import enum
from typing import TYPE_CHECKING, Literal

if TYPE_CHECKING:
    from .._errors import Unsupported
    from ._opcodes import EagerSpec
    from ._values import Var


class EndKind(enum.Enum):
    """Why a trace stopped."""

    RETURN = "return"  # the bottom frame returned `value`
    RAISE = "raise"  # an exception (`value`) left every frame
    BREAK = "break"  # an instruction runs for real (`spec`), for the reason `reason`
    YIELD = "yield"  # a generator stepped by `drive` yielded `value` (never ends a segment)


class Ending:
    """How a segment's trace stopped: its kind, and the value, eager op and reason that go with it."""

    __slots__ = ("kind", "value", "spec", "reason")

    def __init__(self, kind: EndKind, value: Var | None = None, spec: EagerSpec | None = None,
                 reason: Unsupported | None = None) -> None:
        self.kind = kind
        self.value = value
        self.spec = spec
        self.reason = reason


Forced = Literal["eager", "classic"]  # how a call is made to run on its own (VM.forced, Restart.how)


class Restart(Exception):
    """Re-trace the segment with the inlined call `call_no` turned into an eager call (`how`): "eager" runs
    the callee for real, "classic" compiles it as its own top-level function (nested=False); "autocast":
    the autocast block `call_no` (its number among the trace's autocast enters, VM.eager_autocast) is
    entered by an eager op (see _vm/_modes.py: check_cache)."""

    def __init__(self, call_no: int, how: Forced | Literal["autocast"]) -> None:
        self.call_no = call_no
        self.how = how


class Fatal(Exception):
    """An instruction with no eager form in the bottom frame: the caller decides (run eagerly if it can)."""

    def __init__(self, u: Unsupported) -> None:
        super().__init__(str(u))
        self.u = u
