"""The one dispatch table: opcode name -> handler(vm, frame, instr). Handlers register with `@handles`.

Handler contract: compute first, then commit. A handler that raises `Unsupported` must not have changed the
frame (the instruction then runs eagerly from exactly that state).
"""

from __future__ import annotations

DISPATCH = {}


def handles(*opnames):
    def register(fn):
        for name in opnames:
            assert name not in DISPATCH, f"two handlers for {name}"
            DISPATCH[name] = fn
        return fn

    return register


class EagerSpec:
    """How a break runs its instruction for real: `fn(*top nargs stack items)`, then `npop` items are
    dropped and `resume` says what happens with the result ("push", "pushn", "none", "retry", "foriter")."""

    __slots__ = ("fn", "nargs", "npop", "resume", "label")

    def __init__(self, fn, nargs, npop=None, resume="push", label=""):
        self.fn = fn
        self.nargs = nargs
        self.npop = nargs if npop is None else npop
        self.resume = resume
        self.label = label or getattr(fn, "__name__", "op")
