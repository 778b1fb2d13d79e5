"""Control flow around calls and breaks: loops, ``try``, generators, early returns, branches that recompile.

``wrapper`` pieces are compound statements the strategies wrap around a call or a break, drawn with the
construct's weight times ``share`` by their ``draw`` hook (see ``DrawHook``); trait ``loops``: it runs its body
several times (left out where the body runs too often already).
"""

from __future__ import annotations

from fuzz.program import ir
from fuzz.program.families._registry import Construct, DrawHook, Family, Kit, Piece


def _wrap(kind: str, weight: float, description: str, wrapper: str, hook: DrawHook, reads, *traits: str) -> Construct:
    piece = Piece("wrapper", wrapper, share=1.2, traits=frozenset(traits), draw=hook, reads=reads)
    return Construct(f"flow.{kind}", weight, description, pieces=(piece,))


def branch(cond: str) -> DrawHook:
    """An ``if`` (``ir.DataIf`` on ``cond``) with the core in one branch and a filler statement in the other."""

    def hook(draw, kit: Kit, body, inside, before: float) -> tuple:
        stmts = inside()
        b1, body.bound = body.bound, before
        other = (kit.filler(draw, body),)
        body.bound = max(b1, body.bound)
        return (ir.DataIf(stmts, other, cond) if kit.chance(draw, 0.5) else ir.DataIf(other, stmts, cond),)

    return hook


def _loop(draw, kit: Kit, body, inside, before: float) -> tuple:
    count = kit.pick(draw, (2, 3)) if body.mult * 3 <= kit.mult_limit else 2
    saved = body.mult
    body.mult *= count
    stmts = inside() + (kit.squash(draw, body),)
    body.mult = saved
    return (ir.Loop(count, stmts, kit.weighted(draw, [("range", 3), ("list", 1), ("while", 1)])),)


def _try_except(draw, kit: Kit, body, inside, before: float) -> tuple:
    stmts = inside() + (ir.Raise(),)
    handler = (kit.filler(draw, body),) if kit.chance(draw, 0.5) else ()
    return (ir.Try("except", stmts, handler),)


def _try_finally(draw, kit: Kit, body, inside, before: float) -> tuple:
    stmts = inside()
    handler = (kit.filler(draw, body),) if kit.chance(draw, 0.3) else ()
    return (ir.Try("finally", stmts, handler),)


def _generator(draw, kit: Kit, body, inside, before: float) -> tuple:
    mode = kit.weighted(draw, [("exhaust", 2), ("suspend", 1), ("return", 1)])
    stmts = inside()
    body.bound = 1.5 * body.bound
    if body.bound > kit.limit:
        return (ir.Generator(mode, stmts), kit.squash(draw, body))
    return (ir.Generator(mode, stmts),)


def _tensor_loop(draw, kit: Kit, body, inside, before: float) -> tuple:
    """A loop over ``x``'s leading dimension; ``exit="index"`` (two slices at most) where every slice would run
    the body too often."""
    lead = body.gen.lead
    exits = [("", 3), ("index", 1), ("data", 1)] if body.mult * lead <= kit.mult_limit else [("index", 1)]
    exit_ = kit.weighted(draw, exits)
    kind = kit.weighted(draw, [("iter", 2), ("unbind", 1)])
    saved = body.mult
    body.mult *= 2 if exit_ == "index" else lead
    stmts = inside() + (kit.squash(draw, body),)
    body.mult = saved
    # x = x * 0.5 + acc * 0.125, acc a sum of at most `lead` slices of x as it was at the loop head
    body.bound = 0.5 * body.bound + 0.125 * lead * before
    return (ir.TensorLoop(kind, stmts, exit_),)


FAMILY = Family(
    "flow",
    "control flow: loops, try, generators, early returns, recompiling branches",
    (
        _wrap("loop", 0.8, "for loops around calls and breaks", "loop", _loop, lambda s: isinstance(s, ir.Loop), "loops"),
        _wrap("try_except", 0.6, "try/except catching a deliberate raise", "try_except", _try_except,
              lambda s: isinstance(s, ir.Try) and s.kind == "except"),
        _wrap("try_finally", 0.6, "try/finally", "try_finally", _try_finally,
              lambda s: isinstance(s, ir.Try) and s.kind == "finally"),
        _wrap("generator", 0.6, "a generator function run around calls and breaks", "generator", _generator,
              lambda s: isinstance(s, ir.Generator)),
        _wrap("recompile", 0.5, "a branch on a global call counter: the second call takes the other path",
              "counter_if", branch("counter"), lambda s: isinstance(s, ir.DataIf) and s.cond == "counter"),
        _wrap("tensor_loop", 0.6, "a loop over x's data (for r in x / x.unbind(0)) accumulating, a call inside",
              "tensor_loop", _tensor_loop, lambda s: isinstance(s, ir.TensorLoop), "loops"),
        Construct("flow.early_return", 0.5, "an early return behind a constant flag",
                  pieces=(Piece("placed", "early_return", reads=lambda s: isinstance(s, ir.Return)),)),
    ),
)
