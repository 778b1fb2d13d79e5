"""Strategies for whole programs: call structure, callee interfaces, function bodies, inputs."""

from __future__ import annotations

import dataclasses

from hypothesis import strategies as st

from fuzz.program import families, ir
from fuzz.program.features import GenerationConfig
from fuzz.program.strategies._draw import chance, integer, pick, weighted
from fuzz.program.strategies._state import LIMIT, MULT_LIMIT, RETURN_BOUND, Body, Gen
from fuzz.program.strategies._statements import (
    _arith_impl,
    _break_stmt_impl,
    _filler_impl,
    _squash_impl,
    _wrapped_impl,
    ctx_kind,
)

__all__ = ["call_structure", "callee_interface", "call_site", "function", "inputs", "programs"]



def _placed(kind: str) -> str:
    """The tag of the construct the strategies place at one spot of their own (``placed`` slot)."""
    return families.tag("placed", kind)


def _sig_traits(sig: str) -> frozenset[str]:
    return frozenset({"decorable"}) if sig == "plain" else families.piece("signature", sig).traits


def _call_structure_impl(draw, config: GenerationConfig) -> tuple[int, ...]:
    """Parent index per function (``-1`` for entry): a spine of the drawn depth, plus side branches for trees."""
    buckets = [((c.name, int(p.part("lo")), int(p.part("hi"))), config.weight(c.name))
               for c, p in families.pieces("depth") if int(p.part("lo")) <= config.max_depth]
    _, lo, hi = weighted(draw, buckets)
    depth = integer(draw, lo, min(hi, config.max_depth, config.max_functions - 1))
    parents = [-1, *range(depth)]
    if weighted(draw, [(p.kind, config.weight(c.name)) for c, p in families.pieces("shape")]) == "tree":
        extra = integer(draw, 1, 4 if depth < 20 else 2)
        level = list(range(depth + 1))
        for e in range(extra):
            if len(parents) >= config.max_functions:
                break
            top = depth - 1 if e == 0 else len(parents) - 1
            parent = integer(draw, 0, max(top, 0))
            if level[parent] + 1 > config.max_depth:
                parent = 0
            parents.append(parent)
            level.append(level[parent] + 1)
    return tuple(parents)


def _callee_interface_impl(draw, body: Body, j: int) -> str:
    """Draw how callee ``j`` is defined (signature, module, decorators); returns the signature."""
    gen = body.gen
    options = [("plain", 6.0)]  # the plain signature f(x); then the registry's signature pieces
    for c, p in families.pieces("signature"):
        if "recursive" in p.traits and (
            body.mult * 3 > MULT_LIMIT or gen.level[j] + gen.height[j] + 2 > gen.config.max_depth
        ):
            continue
        if "leaf" in p.traits and gen.children[j]:
            continue  # e.g. nonstrict_trace bodies must be pure: a leaf of tame arithmetic (and graph breaks)
        options.append((p.kind, gen.w(c.name) * p.share))
    sig = weighted(draw, options)
    gen.sigs[j] = sig
    if gen.helpers:
        gen.modules[j] = weighted(draw, [("", 2.0), ("h1", 1.5), ("h2", 0.75)])
    decorators: tuple[str, ...] = ()
    traits = _sig_traits(sig)
    if "decorable" in traits:
        count = weighted(draw, [(0, 10.0), (1, gen.w(families.tag("stack", "decorator"))),
                                (2, gen.w(_placed("nested_decorators")))])
        decorators = tuple(ctx_kind(draw, body, avoid="no_decorator") for _ in range(count))
        if chance(draw, gen.w(families.tag("ctx", "disable_ngb")) * 0.06):
            decorators += ("disable_ngb",)
    if sig != "plain" and families.piece("signature", sig).part("decorator"):
        decorators = (families.piece("signature", sig).part("decorator"),)
    gen.decorators[j] = decorators
    return sig


def _call_site_impl(draw, body: Body, j: int) -> tuple:
    """The call of child ``j`` in an operand-stack context; draws ``j``'s interface first."""
    gen = body.gen
    sig = _callee_interface_impl(draw, body, j)
    traits = _sig_traits(sig)
    key = ("contexts", sig == "plain", "cm" in traits or body.mult * 2 > MULT_LIMIT)
    options = gen.memo.get(key)
    if options is None:
        options = gen.memo[key] = tuple(
            (p, gen.w(c.name) * p.share) for c, p in families.pieces("stack")
            if not ("twice" in p.traits and key[2]) and ("plain_signature" not in p.traits or key[1])
        )
    context = weighted(draw, options)
    cm = ""
    if "cm" in traits or "plain_signature" in context.traits:  # a manager passed down, or the decorator form
        cm = ctx_kind(draw, body, avoid="no_decorator" if "plain_signature" in context.traits else "no_value")
    mult = body.mult * (2 if "twice" in context.traits else 1) * (3 if "recursive" in traits else 1)
    gen.mult[j] = mult
    gen.in_bound[j] = body.bound + 0.5
    body.bound = RETURN_BOUND + 0.75 * body.bound
    out: tuple = (ir.CallSite(j, context.kind, cm),)
    if body.bound > LIMIT:
        out += (_squash_impl(draw, body),)
    return out


def _function_impl(draw, gen: Gen, i: int) -> ir.Function:
    sig = gen.sigs.get(i, "plain")
    module = gen.modules.get(i, "")
    body = Body(gen, i, module, bound=gen.in_bound.get(i, 4.0), mult=gen.mult.get(i, 1))
    traits = _sig_traits(sig)
    if "leaf" in traits:
        return _nonstrict_impl(draw, body, sig)
    children = gen.children[i]
    deep = gen.n > 20
    stmts: list = []
    if i == 0 and not gen.requires_grad and chance(draw, gen.w("side.inplace_input") * 0.15):
        stmts.append(ir.Construct("side.inplace_input"))
    items: list = [("call", j) for j in children]
    if not children or chance(draw, 0.05 if deep else 0.3):
        items.append(("break", None))
    if "recursive" in traits:
        items.append(("recurse", None))
    items += [("fill", None)] * integer(draw, 0, 1 if deep else 3)
    while items:
        kind, j = items.pop(integer(draw, 0, len(items) - 1) if len(items) > 1 else 0)
        if kind == "fill":
            stmts.append(_filler_impl(draw, body))
        elif kind == "call":
            stmts.extend(_wrapped_impl(draw, body, lambda d, j=j: _call_site_impl(d, body, j)))
        elif kind == "break":
            stmts.extend(_wrapped_impl(draw, body, lambda d: (_break_stmt_impl(d, body),)))
        else:
            stmts.append(ir.Recurse())
            body.bound = RETURN_BOUND
            if body.bound > LIMIT:
                stmts.append(_squash_impl(draw, body))
    if stmts and chance(draw, gen.w(_placed("early_return")) * 0.06):
        at = integer(draw, 0, len(stmts))
        stmts.insert(at, ir.Return(taken=chance(draw, 0.5)))
    if "cm" in traits:  # a break, then the manager the caller made is entered
        stmts.append(_break_stmt_impl(draw, body))
        with_kind = families.piece("signature", sig).part("with")
        stmts.append(ir.With(with_kind, (ir.Probe("grad"), _filler_impl(draw, body))))
    if not children and chance(draw, gen.w(_placed("raise")) * 0.03):
        stmts.append(ir.Raise("escape"))
    if body.bound > RETURN_BOUND:
        stmts.append(_squash_impl(draw, body))
    return ir.Function(i, module, sig, gen.decorators.get(i, ()), tuple(stmts))


def _nonstrict_impl(draw, body: Body, sig: str) -> ir.Function:
    """A pure leaf (``leaf`` signature: ``@torch._dynamo.nonstrict_trace``): tame arithmetic, maybe the plainest
    graph break inside (allowed there); no effects or state, which nonstrict_trace documents as unsafe."""
    stmts: list = [_arith_impl(draw, body) for _ in range(integer(draw, 1, 3))]
    plainest, piece = families.pieces("break")[0]
    if body.gen.w(plainest.name) > 0 and chance(draw, 0.5):
        stmts.insert(integer(draw, 0, len(stmts)), ir.Break(piece.kind))
    if body.bound > RETURN_BOUND:
        stmts.append(_squash_impl(draw, body))
    deco = families.piece("signature", sig).part("decorator")
    return ir.Function(body.index, body.module, sig, (deco,) if deco else (), tuple(stmts))


def _inputs_impl(draw, config: GenerationConfig) -> tuple[ir.Inputs, bool]:
    """The inputs record and whether the program wants backward."""
    w = config.weight
    wants_grad = chance(draw, w(_placed("wants_grad")) * 0.12)
    requires_grad = wants_grad or chance(draw, w(_placed("requires_grad")) * 0.1)
    layout = "transposed" if chance(draw, w(_placed("noncontiguous")) * 0.12) else "contiguous"
    extras = tuple(p.kind for c, p in families.pieces("extra") if chance(draw, w(c.name) * 0.08))
    dtype = weighted(draw, [("float32", 7.0), *((p.part("dtype"), w(c.name)) for c, p in families.pieces("dtype"))])
    rank = weighted(draw, [(2, 5.0), *((int(p.part("rank")), w(c.name)) for c, p in families.pieces("rank"))])
    record = ir.Inputs(
        seed=integer(draw, 0, 9999),
        rows=integer(draw, 2, 5),
        cols=integer(draw, 2, 5),
        layout=layout,
        requires_grad=requires_grad,
        extras=extras,
        dtype=dtype,
        rank=rank,
        batch=integer(draw, 2, 3) if rank == 3 else 2,
    )
    return record, wants_grad


# Public construct strategies. Internal drawing calls the ``_impl`` functions directly: creating a strategy
# object per statement costs more than drawing it, and fuzz.program._conjecture's fast path can only draw integers.
call_structure = st.composite(_call_structure_impl)
callee_interface = st.composite(_callee_interface_impl)
call_site = st.composite(_call_site_impl)
function = st.composite(_function_impl)
inputs = st.composite(_inputs_impl)


def _programs_impl(draw, config: GenerationConfig | None = None) -> ir.Program:
    config = config or GenerationConfig()
    parents = _call_structure_impl(draw, config)
    record, wants_grad = _inputs_impl(draw, config)
    children: list[list[int]] = [[] for _ in parents]
    for j, p in enumerate(parents):
        if p >= 0:
            children[p].append(j)
    gen = Gen(
        config=config,
        parents=parents,
        children=children,
        cols=record.cols,
        lead=record.shape[0],
        requires_grad=record.requires_grad,
        allow_inference=not record.requires_grad,
        # Decided per program: torch 2.13 cannot inline functions of modules missing from sys.modules (one crash
        # signature), so helper modules in most programs would hide everything else they could find.
        helpers=chance(draw, min(0.9, config.weight(_placed("helpers")) * 0.15)),
        n=len(parents),
    )
    functions = tuple(_function_impl(draw, gen, i) for i in range(len(parents)))
    modules = tuple(
        ir.HelperModule(name, pick(draw, (0.5, 0.75, 1.25)), pick(draw, (0.125, 0.25, 0.5)))
        for name in sorted(set(gen.modules.values()) - {""})
    )
    returns = weighted(draw, [("x", 6.0), ("tuple", 1.0), ("dict", 1.0)])
    # drawn last, so that every other draw stays as it was. A third call on other sizes costs about 1.4 times
    # the rest of a program's check (a recompile of every frame with dynamic shapes; benchmarks/third_call.py):
    # some 15% of programs have it
    record = dataclasses.replace(record, mark_dynamic=chance(draw, config.weight(_placed("mark_dynamic")) * 0.1),
                                 other_sizes=chance(draw, config.weight(_placed("other_sizes")) * 0.3))
    return ir.Program(functions, modules, record, wants_grad, returns)


programs = st.composite(_programs_impl)
