"""Errors of the engine: one root exception, and the structured `Unsupported` that becomes a break."""

from __future__ import annotations


class EngineError(Exception):
    """Root of every error the engine raises on purpose."""


class Unsupported(EngineError):
    """A construct the VM does not trace. Never reaches the user: the VM turns it into a break.

    `gb_id` is stable (tests and reports group by it), `explanation` says what was met, `hint` what to do,
    `where` is the user's file:line (filled in by the VM), and `eager` is how to run the instruction for real.
    """

    def __init__(self, gb_id: str, explanation: str, hint: str = "", eager=None):
        super().__init__(f"[{gb_id}] {explanation}")
        self.gb_id = gb_id
        self.explanation = explanation
        self.hint = hint
        self.where = "?"
        self.eager = eager
        self.forced = False  # a call made to run on its own by a Restart: not a break of its own
        self.classic = False  # ...and compiled as its own top-level function (nested=False)


class FrameBound(Unsupported):
    """An instruction that reads its own frame (`locals()`, `sys._getframe()`, an unmodeled zero-argument
    `super()`...): it has no eager form outside that frame, so the frame itself runs for real."""


class CannotCompile(EngineError):
    """The whole function runs eagerly (e.g. a generator function as the compiled entry)."""
