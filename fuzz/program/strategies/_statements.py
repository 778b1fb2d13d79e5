"""One ``@composite`` strategy per statement construct: arithmetic, effects, probes, side effects, breaks and the
compound wrappers (``with``, closures, data-dependent ``if``, loops, ``try``, generators) placed around a core.
"""

from __future__ import annotations

from hypothesis import strategies as st

from fuzz.program import families, ir
from fuzz.program.strategies._draw import chance, pick, weighted
from fuzz.program.strategies._filler import pool as filler_pool
from fuzz.program.strategies._state import LIMIT, MULT_LIMIT, Body

__all__ = ["arith", "squash", "filler", "break_stmt", "wrapped", "ctx_kind"]

_CONSTS = {
    "add": (0.25, 0.5, 1.0, 1.5),
    "sub": (0.25, 0.5, 1.0, 1.5),
    "mul": (0.5, 0.75, 1.25, 1.5, 2.0),
    "affine": (0.5, 0.75, 1.25, 1.5),
    "clamp": (1.0, 2.0, 3.0),
}
# (op, weight) -- simplest first; bounds in _next_bound
_OPS = (
    ("add", 3), ("sub", 2), ("mul", 3), ("affine", 1), ("sin", 1.5), ("cos", 1), ("tanh", 1.5),
    ("sigmoid", 0.7), ("relu", 1), ("abs", 0.7), ("clamp", 1), ("square", 0.5), ("mean", 0.7),
    ("rowsum", 0.7), ("matmul", 0.7), ("global_affine", 1.5), ("global_tensor", 1.2),
)
_SQUASH = (("tanh", 3), ("sin", 2), ("cos", 1), ("sigmoid", 1), ("clamp", 2), ("matmul", 0.7))


def _next_bound(op: str, c: float, b: float, cols: int) -> float:
    if op in ("add", "sub"):
        return b + c
    if op == "mul":
        return b * c
    if op == "affine":
        return b * c + 0.25
    if op in ("sin", "cos", "tanh", "sigmoid", "matmul"):
        return 1.0
    if op == "relu":
        return b
    if op == "abs":
        return 0.5 * b
    if op == "clamp":
        return c
    if op == "square":
        return 0.25 * b * b
    if op == "mean":
        return 2 * b
    if op == "rowsum":
        return 0.5 * b + 0.1 * cols * b
    if op == "global_affine":
        return b * 1.25 + 0.5
    if op == "global_tensor":
        return b + 1.0
    raise KeyError(op)


def _squash_impl(draw, body: Body) -> ir.Arith:
    op = weighted(draw, _SQUASH)
    c = pick(draw, _CONSTS["clamp"]) if op == "clamp" else 0.0
    body.bound = _next_bound(op, c, body.bound, body.gen.cols)
    return ir.Arith(op, c)


def _arith_impl(draw, body: Body) -> ir.Arith:
    op = weighted(draw, _OPS)
    c = pick(draw, _CONSTS[op]) if op in _CONSTS else 0.0
    nb = _next_bound(op, c, body.bound, body.gen.cols)
    if nb > LIMIT:
        return _squash_impl(draw, body)
    body.bound = nb
    return ir.Arith(op, c)


def _fillers(gen) -> tuple:
    """Plain registry constructs drawn as filler statements, with their weights."""
    options = gen.memo.get("fillers")
    if options is None:
        options = gen.memo["fillers"] = tuple(
            (c, gen.w(c.name) * 0.5) for c in families.plain(gen.config.for_python) if c.filler and _fits(gen, c)
        )
    return options


def _fits(gen, c: families.Construct) -> bool:
    """Constructs that run autograd stay out of programs that may enter inference mode."""
    return not c.grad or not gen.allow_inference


def _filler_impl(draw, body: Body):
    gen = body.gen
    options = gen.memo.get("filler")
    if options is None:
        options = gen.memo["filler"] = (
            (("arith", 6), ("effect", 1.5), ("probe", 1.0))
            + _fillers(gen)
            + ((("hypothesmith", gen.w(families.tag("placed", "hypothesmith")) * 0.5),) if filler_pool() else ())
        )
    kind = weighted(draw, options)
    if kind == "arith":
        return _arith_impl(draw, body)
    if kind == "effect":
        return ir.Effect(weighted(draw, [("x", 3), ("x.sum()", 1)]))
    if kind == "probe":
        return ir.Probe(weighted(draw, [("grad", 4), ("autocast", 1), ("inference", 1)]))
    if kind == "hypothesmith":
        return ir.Filler(pick(draw, filler_pool()))
    body.bound = kind.bound(body.bound, body.bound)
    return ir.Construct(kind.name)


def _break_stmt_impl(draw, body: Body):
    options = body.gen.memo.get("break")
    if options is None:
        options = body.gen.memo["break"] = tuple((p, body.gen.w(c.name) * p.share) for c, p in families.pieces("break"))
    piece = weighted(draw, options)
    if "branch" in piece.traits:  # a data-dependent if: a filler statement in each branch
        before = body.bound
        then = _filler_impl(draw, body)
        b1, body.bound = body.bound, before
        orelse = _filler_impl(draw, body)
        body.bound = max(b1, body.bound)
        return ir.DataIf((then,), (orelse,))
    if piece.bound is not None:
        body.bound = piece.bound(body.bound, body.bound)
    return ir.Break(piece.kind)


def ctx_kind(draw, body: Body, avoid: str = "") -> str:
    """A context-manager kind of the registry's ``ctx`` slot, none with trait ``avoid`` (``no_value``,
    ``no_decorator``) and none the strategies place themselves."""
    gen = body.gen
    options = gen.memo.get(("ctx", avoid))
    if options is None:
        options = gen.memo["ctx", avoid] = tuple(
            (p.kind, gen.w(c.name) * p.share)
            for c, p in families.pieces("ctx")
            if "placed" not in p.traits and avoid not in p.traits and ("inference" not in p.traits or gen.allow_inference)
        )
    if not any(w > 0 for _, w in options):
        return options[0][0]  # every kind switched off but a construct that needs one was not: the plainest
    return weighted(draw, options)


# The weight of the "construct" wrapper when every hosting construct has its catalog weight (the options
# beside it: "none" 8, each other wrapper about 1); it scales with the constructs' weights in the config.
_CONSTRUCT_WEIGHT = 1.5


def _hosting(gen, mult: int) -> tuple:
    """Registry constructs with a hole that fit ``mult`` (runs per call so far), with their weights."""
    key = ("hosting", mult)
    options = gen.memo.get(key)
    if options is None:
        options = gen.memo[key] = tuple(
            (c, gen.w(c.name)) for c in families.hosting(gen.config.for_python) if mult * c.calls <= MULT_LIMIT and _fits(gen, c)
        )
    return options


def _wrapped_impl(draw, body: Body, core) -> tuple:
    """``core`` (``draw -> statement tuple``) inside 0-2 compound wrappers; returns a statement tuple."""
    gen = body.gen
    loops = body.mult * 2 <= MULT_LIMIT
    options = gen.memo.get(("wrap", loops, body.mult))
    if options is None:
        # a with block of a drawn manager kind, the registry's wrapper pieces, a hosting construct
        with_w = 2.5 * sum(gen.w(c.name) for c, p in families.pieces("ctx") if "with_weight" in p.traits) / 3.0
        options = [("none", 8.0), ("with", with_w)]
        options += [(p.kind, gen.w(c.name) * p.share) for c, p in families.pieces("wrapper")
                    if "loops" not in p.traits or loops]
        default = sum(c.weight for c in families.hosting(gen.config.for_python)) or 1.0
        options.append(("construct", _CONSTRUCT_WEIGHT * sum(cw for _, cw in _hosting(gen, body.mult)) / default))
        options = gen.memo["wrap", loops, body.mult] = tuple((k, w) for k, w in options if w > 0)
    kind = weighted(draw, options)
    if kind == "none":
        return tuple(core(draw))
    inner_wrap = (lambda d: _wrapped_impl(d, body, core)) if chance(draw, 0.2) else None
    before = body.bound

    def inside():
        stmts = tuple(inner_wrap(draw)) if inner_wrap is not None else tuple(core(draw))
        if chance(draw, 0.5):
            stmts += (ir.Probe("grad") if chance(draw, 0.7) else _filler_impl(draw, body),)
        return stmts

    if kind == "with":
        ck = ctx_kind(draw, body)
        return (ir.With(ck, inside()),)
    if kind == "construct":
        return _construct_impl(draw, body, inside, before)
    return families.piece("wrapper", kind).draw(draw, _KIT, body, inside, before)


def _construct_impl(draw, body: Body, inside, before: float) -> tuple:
    """A registry construct with a hole; the hole's body is drawn inside it and runs ``calls`` times."""
    c = weighted(draw, _hosting(body.gen, body.mult))
    saved = body.mult
    body.mult *= c.calls
    stmts = inside()
    body.mult = saved
    body.bound = c.bound(before, body.bound)
    out: tuple = (ir.Construct(c.name, stmts),)
    if body.bound > LIMIT:
        out += (_squash_impl(draw, body),)
    return out


_KIT = families.Kit(chance, pick, weighted, _filler_impl, _squash_impl, LIMIT, MULT_LIMIT)


# Public construct strategies; ``wrapped`` takes the core as a strategy of statement tuples.
squash = st.composite(_squash_impl)
arith = st.composite(_arith_impl)
filler = st.composite(_filler_impl)
break_stmt = st.composite(_break_stmt_impl)


@st.composite
def wrapped(draw, body: Body, core: st.SearchStrategy) -> tuple:
    return _wrapped_impl(draw, body, lambda d: d(core))
