"""Side effects on program state: a global list, dict, rebound global, attribute of a global object, an input
mutated in place. What the compiler must replay, in order, around its breaks."""

from __future__ import annotations

from fuzz.program.families._registry import Construct, Family

FAMILY = Family(
    "side",
    "side effects on program state (globals, containers, attributes, inputs)",
    (
        Construct("side.list", 0.6, "append to a global list", "LOG.append(x * 0.5)"),
        Construct("side.dict", 0.6, "store into a global dict", 'TABLE["{tag}"] = x * 0.25'),
        Construct(
            "side.global", 0.6, "rebind a module global (global statement)",
            "COUNTER = COUNTER + 1\nx = x + COUNTER * 0.01",
            bound=lambda b, _: b + 0.1, uses_global=True,
        ),
        Construct(
            "side.attr", 0.5, "set an attribute on a global object",
            "STATE.calls = STATE.calls + 1\nx = x + STATE.calls * 0.01",
            bound=lambda b, _: b + 0.1,
            defs="class _State:\n    def __init__(self):\n        self.calls = 0\n\n\nSTATE = _State()\n",
        ),
        # drawn by the strategies at the start of entry only, where x is still the caller's tensor
        Construct("side.inplace_input", 0.3, "an in-place op on an input tensor", "x.mul_(0.5)", filler=False),
    ),
)
