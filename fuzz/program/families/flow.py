"""Control flow around calls and breaks: loops, ``try``, generators, early returns, branches that recompile.

``wrapper`` pieces are compound statements the strategies wrap around a call or a break, drawn with the
construct's weight times ``share`` by their ``draw`` hook (see ``DrawHook``); trait ``loops``: it runs its body
several times (left out where the body runs too often already).
"""

from __future__ import annotations

from fuzz.program import ir
from fuzz.program.families._registry import Construct, DrawHook, Family, Kit, Piece, RenderKit


def _wrap(kind: str, weight: float, description: str, wrapper: str, hook: DrawHook, reads, render,
          *traits: str) -> Construct:
    piece = Piece("wrapper", wrapper, share=1.2, traits=frozenset(traits), draw=hook, reads=reads, render=render)
    return Construct(f"flow.{kind}", weight, description, pieces=(piece,))


def render_branch(s: ir.DataIf, r: RenderKit, head: list[str]) -> list[str]:
    """``head`` (the lines ending in ``if ...:``), the then-branch, ``else:``, the other branch."""
    return [*(r.pad + line for line in head), *r.body(s.then), r.pad + "else:", *r.body(s.orelse)]


def _render_counter(s: ir.DataIf, r: RenderKit) -> list[str]:
    r.uses_global()
    return render_branch(s, r, ["COUNTER = COUNTER + 1", "if COUNTER % 2 == 1:"])


def _render_loop(s: ir.Loop, r: RenderKit) -> list[str]:
    pad, ind, k = r.pad, r.ind, r.k
    if s.kind == "while":  # while True + break: the loop exits through a jump after the body's breaks
        return [pad + f"i{k} = 0", pad + "while True:", pad + ind + f"i{k} += 1", *r.body(s.body),
                pad + ind + f"if i{k} >= {s.count}:", pad + ind * 2 + "break"]
    head = f"for i{k} in range({s.count}):" if s.kind == "range" else f"for c{k} in {[0.5] * s.count!r}:"
    return [pad + head, *r.body(s.body)]


def _render_tensor_loop(s: ir.TensorLoop, r: RenderKit) -> list[str]:
    """Iterate over the slices of ``x`` (as it is at the loop head), accumulate them, run the body on ``x``."""
    pad, ind, k = r.pad, r.ind, r.k
    over = "x" if s.kind == "iter" else "x.unbind(0)"
    head = f"for i{k}, r{k} in enumerate({over}):" if s.exit == "index" else f"for r{k} in {over}:"
    lines = [pad + f"acc{k} = torch.zeros_like(x)", pad + head, pad + ind + f"acc{k} = acc{k} + r{k}"]
    lines += r.body(s.body)
    if s.exit:
        cond = f"i{k} >= 1" if s.exit == "index" else f"r{k}.sum() > 0"
        lines += [pad + ind + f"if {cond}:", pad + ind * 2 + "break"]
    return lines + [pad + f"x = x * 0.5 + acc{k} * 0.125"]


def _render_try(s: ir.Try, r: RenderKit) -> list[str]:
    pad, ind, k, tag = r.pad, r.ind, r.k, r.tag
    lines = [pad + "try:", *r.body(s.body)]
    if s.kind == "except":
        lines += [pad + f"except ValueError as e{k}:", pad + ind + f'_effect("{tag}", str(e{k}))']
    else:
        lines += [pad + "finally:", pad + ind + f'_effect("{tag}", x)']
    if s.handler:
        lines += r.body(s.handler)
    return lines


def _render_generator(s: ir.Generator, r: RenderKit) -> list[str]:
    pad, ind, k, tag = r.pad, r.ind, r.k, r.tag
    body, uses_global = r.nested(s.body)
    decl = [pad + ind + "global COUNTER"] if uses_global else []
    head = [pad + f"def gen{k}(x):", *decl, *body, pad + ind + "yield x"]
    if s.mode == "exhaust":
        return head + [pad + ind + "yield x * 0.5", pad + f"vals{k} = list(gen{k}(x))",
                       pad + f"x = vals{k}[0] * 0.5 + vals{k}[1]"]
    if s.mode == "suspend":
        return head + [pad + ind + f'_effect("{tag}.never", 0)', pad + ind + "yield x", pad + f"g{k} = gen{k}(x)",
                       pad + f"x = next(g{k})"]
    return head + [
        pad + ind + "return x * 0.5",
        pad + f"g{k} = gen{k}(x)",
        pad + f"first{k} = next(g{k})",
        pad + "try:",
        pad + ind + f"next(g{k})",
        pad + f"except StopIteration as stop{k}:",
        pad + ind + f"x = first{k} * 0.5 + stop{k}.value",
    ]


def _render_return(s: ir.Return, r: RenderKit) -> list[str]:
    cond = f"x.dim() == {r.rank if s.taken else r.rank + 1}"
    return [r.pad + f"if {cond}:", r.pad + r.ind + "return torch.tanh(x)"]


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
        _wrap("loop", 0.8, "for loops around calls and breaks", "loop", _loop, lambda s: isinstance(s, ir.Loop), _render_loop, "loops"),
        _wrap("try_except", 0.6, "try/except catching a deliberate raise", "try_except", _try_except,
              lambda s: isinstance(s, ir.Try) and s.kind == "except", _render_try),
        _wrap("try_finally", 0.6, "try/finally", "try_finally", _try_finally,
              lambda s: isinstance(s, ir.Try) and s.kind == "finally", _render_try),
        _wrap("generator", 0.6, "a generator function run around calls and breaks", "generator", _generator,
              lambda s: isinstance(s, ir.Generator), _render_generator),
        _wrap("recompile", 0.5, "a branch on a global call counter: the second call takes the other path",
              "counter_if", branch("counter"),
              lambda s: isinstance(s, ir.DataIf) and s.cond == "counter", _render_counter),
        _wrap("tensor_loop", 0.6, "a loop over x's data (for r in x / x.unbind(0)) accumulating, a call inside",
              "tensor_loop", _tensor_loop, lambda s: isinstance(s, ir.TensorLoop),
              _render_tensor_loop, "loops"),
        Construct("flow.early_return", 0.5, "an early return behind a constant flag",
                  pieces=(Piece("placed", "early_return", reads=lambda s: isinstance(s, ir.Return),
                                 render=_render_return),)),
    ),
)
