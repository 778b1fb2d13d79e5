"""Test-case reduction: shrink a failing program while it keeps failing the same way.

``reduce_source`` works on any program file with any predicate; ``reduce_program`` is the oracle front end
(keeps the same verdict signature on one target, re-checks the result in fresh processes).
"""

from fuzz.reduce._driver import PassStats, ReduceError, ReduceResult, reduce_source
from fuzz.reduce._passes import PASSES, ReductionPass, pass_names
from fuzz.reduce._tree import code_lines

__all__ = [
    "PASSES",
    "PassStats",
    "ReduceError",
    "ReduceResult",
    "ReductionPass",
    "code_lines",
    "pass_names",
    "reduce_program",
    "reduce_source",
]


def __getattr__(name):
    # The oracle front end imports the oracle; load it only when asked for.
    if name in ("reduce_program", "oracle_predicate"):
        from fuzz.reduce import _oracle

        return getattr(_oracle, name)
    raise AttributeError(name)
