"""Generation state threaded through the construct strategies of one program.

The state is created afresh inside :func:`fuzz.program.strategies.programs` for every draw, so replaying a choice
sequence (the shrinker does that) rebuilds it identically. ``Body`` tracks a conservative bound on ``|x|`` so
every drawn program stays numerically tame: ops that would leave the bound are replaced by squashing ops.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from fuzz.program.features import GenerationConfig

LIMIT = 8.0  # |x| never exceeds this (approximately) anywhere
RETURN_BOUND = 4.0  # functions return |x| <= this
INPUT_BOUND = 4.0
MULT_LIMIT = 8  # how many times a function may run per entry call (loops, comprehensions, recursion)

__all__ = ["Gen", "Body", "LIMIT", "RETURN_BOUND", "INPUT_BOUND", "MULT_LIMIT"]


@dataclass
class Gen:
    config: GenerationConfig
    parents: tuple[int, ...]
    children: list[list[int]]
    cols: int  # x's last dimension (what a sum over dim=-1 adds up)
    requires_grad: bool
    allow_inference: bool
    helpers: bool = False  # may functions live in helper modules?
    lead: int = 2  # x's leading dimension: the iterations of a TensorLoop over x
    n: int = 0
    sigs: dict[int, str] = field(default_factory=dict)
    decorators: dict[int, tuple[str, ...]] = field(default_factory=dict)
    modules: dict[int, str] = field(default_factory=dict)
    mult: dict[int, int] = field(default_factory=lambda: {0: 1})
    in_bound: dict[int, float] = field(default_factory=dict)
    memo: dict = field(default_factory=dict)  # option tables per choice point (weights are fixed per config)
    level: list[int] = field(default_factory=list)  # frames between entry and each function
    height: list[int] = field(default_factory=list)  # longest call path below each function

    def __post_init__(self):
        self.level = [0] * len(self.parents)
        for j, p in enumerate(self.parents):
            if p >= 0:
                self.level[j] = self.level[p] + 1
        self.height = [0] * len(self.parents)
        for j in range(len(self.parents) - 1, 0, -1):
            p = self.parents[j]
            self.height[p] = max(self.height[p], self.height[j] + 1)

    def w(self, name: str) -> float:
        return self.config.weight(name)


@dataclass
class Body:
    """Per-function drawing state."""

    gen: Gen
    index: int
    module: str
    bound: float = INPUT_BOUND
    mult: int = 1  # executions of the current statement per call of the function

    @property
    def is_entry(self) -> bool:
        return self.index == 0
