"""Closures: a nested function with a ``nonlocal`` cell, wrapped around a call or a break (ir.Closure)."""

from __future__ import annotations

from fuzz.program import ir
from fuzz.program.families._registry import Construct, Family, Kit, Piece, RenderKit


def _closure(draw, kit: Kit, body, inside, before: float) -> tuple:
    stmts = inside()
    if kit.chance(draw, 0.4):  # read the defining module's globals after the break (May-2026 bug shape 2)
        if body.bound + 1.0 > kit.limit:
            stmts += (kit.squash(draw, body),)
        stmts += (ir.Arith(kit.pick(draw, ("global_tensor", "global_affine"))),)
        body.bound = body.bound * 1.25 + 1.0
    body.bound = 0.625 * body.bound + 0.125 * before
    return (ir.Closure(stmts),)


def _render(s: ir.Closure, r: RenderKit) -> list[str]:
    pad, ind, k = r.pad, r.ind, r.k
    body, uses_global = r.nested(s.body)
    decl = [pad + ind + f"nonlocal acc{k}"] + ([pad + ind + "global COUNTER"] if uses_global else [])
    return [
        pad + f"acc{k} = x * 0.5",
        pad + f"def inner{k}(x):",
        *decl,
        *body,
        pad + ind + f"acc{k} = acc{k} * 0.5 + x * 0.25",
        pad + ind + "return x",
        pad + f"x = inner{k}(x) * 0.5 + acc{k} * 0.5",
    ]

FAMILY = Family(
    "closure",
    "nested functions with nonlocal cells",
    (Construct("closure.nonlocal", 1.2, "a nested function writing a nonlocal cell around the call/break",
               pieces=(Piece("wrapper", "closure", share=1.2, draw=_closure,
                                    reads=lambda s: isinstance(s, ir.Closure), render=_render),)),),
)
