"""Control flow around calls and breaks: loops, ``try``, generators, early returns, branches that recompile.

``wrapper`` pieces are compound statements the strategies wrap around a call or a break, drawn with the
construct's weight times ``share``; trait ``loops``: it runs its body several times (left out where the body
runs too often already).
"""

from __future__ import annotations

from fuzz.program.families._registry import Construct, Family, Piece


def _wrap(kind: str, weight: float, description: str, wrapper: str, *traits: str) -> Construct:
    return Construct(f"flow.{kind}", weight, description,
                     pieces=(Piece("wrapper", wrapper, share=1.2, traits=frozenset(traits)),))


FAMILY = Family(
    "flow",
    "control flow: loops, try, generators, early returns, recompiling branches",
    (
        _wrap("loop", 0.8, "for loops around calls and breaks", "loop", "loops"),
        _wrap("try_except", 0.6, "try/except catching a deliberate raise", "try_except"),
        _wrap("try_finally", 0.6, "try/finally", "try_finally"),
        _wrap("generator", 0.6, "a generator function run around calls and breaks", "generator"),
        _wrap("recompile", 0.5, "a branch on a global call counter: the second call takes the other path",
              "counter_if"),
        _wrap("tensor_loop", 0.6, "a loop over x's data (for r in x / x.unbind(0)) accumulating, a call inside",
              "tensor_loop", "loops"),
        Construct("flow.early_return", 0.5, "an early return behind a constant flag",
                  pieces=(Piece("placed", "early_return"),)),
    ),
)
