"""Hypothesis strategies over the program IR (:mod:`fuzz.ir`): one ``@composite`` per construct.

``programs(config)`` is the entry point; the construct strategies are exported for tests and for users who want
to compose their own program shapes.
"""

from fuzz.strategies._programs import call_site, call_structure, callee_interface, function, inputs, programs
from fuzz.strategies._statements import arith, break_stmt, filler, squash, wrapped

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
