"""Gradients: a backward pass through the result (``WANTS_GRAD``)."""

from __future__ import annotations

from fuzz.program.families._registry import Construct, Family, Piece

FAMILY = Family(
    "grad",
    "backward through the result",
    (Construct("grad.backward", 0.5, "WANTS_GRAD: backward through the result",
               pieces=(Piece("placed", "wants_grad"),)),),
)
