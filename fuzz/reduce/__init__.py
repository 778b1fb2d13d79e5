"""Test-case reduction: shrink a failing program while it keeps failing the same way.

``reduce_source`` works on any program file with any predicate; ``reduce_program`` is the oracle front end
(keeps the same verdict signature on one target, re-checks the result in fresh processes).
"""

from fuzz.reduce._driver import (
    IRResult,
    PassStats,
    ReduceError,
    ReduceResult,
    described,
    reduce_ir,
    reduce_source,
)
from fuzz.reduce._tree import code_lines
from fuzz.reduce.passes import IR_PASSES, PASSES, ReductionPass, pass_names

__all__ = [
    "IR_PASSES",
    "IRResult",
    "PASSES",
    "PassStats",
    "ReduceError",
    "ReduceResult",
    "ReductionPass",
    "code_lines",
    "described",
    "pass_names",
    "reduce_ir",
    "reduce_program",
    "reduce_source",
]


def __getattr__(name):
    # The oracle front end imports the oracle; load it only when asked for.
    if name in ("reduce_program", "oracle_predicate"):
        from fuzz.reduce import _oracle

        return getattr(_oracle, name)
    raise AttributeError(name)
