"""Helper modules: callees defined in in-memory modules with globals of their own (ir.HelperModule)."""

from __future__ import annotations

from fuzz.program.families._registry import Construct, Family, Piece

FAMILY = Family(
    "module",
    "in-memory helper modules",
    (Construct("module.helper", 1.2, "a callee defined in an in-memory helper module with its own globals",
               pieces=(Piece("placed", "helpers"),)),),
)
