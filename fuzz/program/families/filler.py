"""hypothesmith filler: arbitrary statement blocks screened to run under eager (ir.Filler)."""

from __future__ import annotations

from fuzz.program import ir
from fuzz.program.families._registry import Construct, Family, Piece

FAMILY = Family(
    "filler",
    "hypothesmith statement blocks",
    (Construct("filler.hypothesmith", 0.1,
               "a hypothesmith statement block (screened to run under eager) in a nested def",
               pieces=(Piece("placed", "hypothesmith", reads=lambda s: isinstance(s, ir.Filler)),)),),
)
