"""hypothesmith filler: arbitrary statement blocks screened to run under eager (ir.Filler)."""

from __future__ import annotations

from fuzz.program import ir
from fuzz.program.families._registry import Construct, Family, Piece


def _render(s: ir.Filler, r) -> list[str]:
    """The block in a nested function of its own, so its locals cannot disturb the code around it."""
    body = [r.pad + r.ind + line for line in s.source.splitlines()]
    return [r.pad + f"def filler{r.k}():", *body, r.pad + f"filler{r.k}()"]


FAMILY = Family(
    "filler",
    "hypothesmith statement blocks",
    (Construct("filler.hypothesmith", 0.1,
               "a hypothesmith statement block (screened to run under eager) in a nested def",
               pieces=(Piece("placed", "hypothesmith", reads=lambda s: isinstance(s, ir.Filler), render=_render),)),),
)
