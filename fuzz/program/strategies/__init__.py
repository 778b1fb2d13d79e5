"""Hypothesis strategies over the program IR (:mod:`fuzz.program.ir`): one ``@composite`` per construct.

``programs(config)`` is the entry point; the construct strategies are exported for tests and for users who want
to compose their own program shapes.

Every decision is one bounded integer choice (``_draw.integer``/``weighted``/``chance``), so the same code runs
under Hypothesis (``@given``, the shrinker, :func:`fuzz.program.generate.replay_program`) and under the fast seeded path
of :func:`fuzz.program.generate.generate_program`. Adding a construct: one :class:`fuzz.program.families.Construct` in its
family's module under ``fuzz/program/families/`` (template, weight, bound, definitions); the strategies draw registry
constructs as wrappers around a drawn body (those with a hole) or as filler statements (those without), and
draw each slot of the IR (break kind, operand-stack context, manager kind, signature, wrapper ...) among the
registry's pieces of that slot.
"""

from fuzz.program.strategies._programs import (
    call_site,
    call_structure,
    callee_interface,
    function,
    inputs,
    programs,
)
from fuzz.program.strategies._statements import arith, break_stmt, filler, squash, wrapped

__all__ = [
    "arith",
    "break_stmt",
    "call_site",
    "call_structure",
    "callee_interface",
    "filler",
    "function",
    "inputs",
    "programs",
    "squash",
    "wrapped",
]
