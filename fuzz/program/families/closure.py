"""Closures: a nested function with a ``nonlocal`` cell, wrapped around a call or a break (ir.Closure)."""

from __future__ import annotations

from fuzz.program import ir
from fuzz.program.families._registry import Construct, Family, Kit, Piece


def _closure(draw, kit: Kit, body, inside, before: float) -> tuple:
    stmts = inside()
    if kit.chance(draw, 0.4):  # read the defining module's globals after the break (May-2026 bug shape 2)
        if body.bound + 1.0 > kit.limit:
            stmts += (kit.squash(draw, body),)
        stmts += (ir.Arith(kit.pick(draw, ("global_tensor", "global_affine"))),)
        body.bound = body.bound * 1.25 + 1.0
    body.bound = 0.625 * body.bound + 0.125 * before
    return (ir.Closure(stmts),)

FAMILY = Family(
    "closure",
    "nested functions with nonlocal cells",
    (Construct("closure.nonlocal", 1.2, "a nested function writing a nonlocal cell around the call/break",
               pieces=(Piece("wrapper", "closure", share=1.2, draw=_closure,
                                    reads=lambda s: isinstance(s, ir.Closure)),)),),
)
