"""Deliberate exceptions: a ``ValueError`` raised on purpose (ir.Raise)."""

from __future__ import annotations

from fuzz.program import ir
from fuzz.program.families._registry import Construct, Family, Piece

FAMILY = Family(
    "raise",
    "deliberate exceptions",
    (Construct("raise.deliberate", 0.4, "a ValueError raised on purpose (caught by try/except or escaping entry)",
               pieces=(Piece("placed", "raise", reads=lambda s: isinstance(s, ir.Raise),
                                     render=lambda s, r: [r.pad + f'raise ValueError("ngb deliberate {s.tag} {r.tag}")']),)),),
)
