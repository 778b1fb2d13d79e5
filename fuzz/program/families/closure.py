"""Closures: a nested function with a ``nonlocal`` cell, wrapped around a call or a break (ir.Closure)."""

from __future__ import annotations

from fuzz.program.families._registry import Construct, Family, Piece

FAMILY = Family(
    "closure",
    "nested functions with nonlocal cells",
    (Construct("closure.nonlocal", 1.2, "a nested function writing a nonlocal cell around the call/break",
               pieces=(Piece("wrapper", "closure", share=1.2),)),),
)
