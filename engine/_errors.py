"""Errors of the engine: one root exception, and the structured `Unsupported` that becomes a break."""

from __future__ import annotations

from typing import TYPE_CHECKING

from torch._dynamo.exc import Unsupported as TorchUnsupported

from ._reasons import reason

if TYPE_CHECKING:
    from ._vm._opcodes import EagerSpec


class EngineError(Exception):
    """Root of every error the engine raises on purpose."""


class Unsupported(EngineError):
    """A construct the VM does not trace. Never reaches the user: the VM turns it into a break.

    `gb_id` is a stable id of `engine._reasons.REASONS` (tests and reports group by it; the table holds its
    meaning and hint), `explanation` says what was met here, `hint` what to do (the table's unless given),
    `where` is the user's file:line (filled in by the VM), and `eager` is how to run the instruction for real.
    """

    def __init__(self, gb_id: str, explanation: str, hint: str = "", eager: EagerSpec | None = None) -> None:
        super().__init__(f"[{gb_id}] {explanation}")
        self.gb_id = gb_id
        self.explanation = explanation
        self.hint = hint or reason(gb_id).hint
        self.where = "?"
        self.eager = eager
        self.forced = False  # a call made to run on its own by a Restart: not a break of its own
        self.classic = False  # ...and compiled as its own top-level function (nested=False)


class FrameBound(Unsupported):
    """An instruction that reads its own frame (`locals()`, `sys._getframe()`, an unmodeled zero-argument
    `super()`...): it has no eager form outside that frame, so the frame itself runs for real."""


class GraphBreakError(EngineError, TorchUnsupported):
    """A graph break where none is allowed (`fullgraph=True`, inside `error_on_graph_break(True)`). Also a
    `torch._dynamo.exc.Unsupported`, so code written for torch.compile catches it; `gb_id` is the break's
    id."""

    def __init__(self, msg: str, gb_id: str) -> None:
        # counted as Dynamo counts its own (counters["unimplemented"])
        TorchUnsupported.__init__(self, msg, gb_id)
        self.gb_id = gb_id


class CannotCompile(EngineError):
    """The whole function runs eagerly (e.g. a generator function as the compiled entry)."""
