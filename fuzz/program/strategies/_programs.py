"""Strategies for whole programs: call structure, callee interfaces, function bodies, inputs."""

from __future__ import annotations

import dataclasses

from hypothesis import strategies as st

from fuzz.program import ir
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

_DEPTHS = (("depth.1", 1, 1), ("depth.2-3", 2, 3), ("depth.4-9", 4, 9), ("depth.10+", 10, 29), ("depth.30+", 30, 100))
_CONTEXTS = (
    "plain", "tuple_display", "list_display", "dict_display", "binop", "call_arg", "method", "fstring",
    "subscript", "comprehension", "conditional", "unpack", "star_args", "kwargs",
)
_SIGS = (
    ("plain", None, 6.0), ("cm_param", "ctx.as_value", 1.0), ("recursive", "call.recursion", 1.0),
    ("method", "call.method", 1.0), ("lambda", "call.lambda", 1.0), ("varargs", "call.varargs", 1.0),
    ("kwargs", "call.kwargs", 1.0), ("nonstrict", "call.nonstrict", 1.0), ("callable", "call.callable", 1.0),
)
# torch.set_grad_enabled(flag) switches grad mode when it is *constructed*: as a value or a decorator it would
# leak grad mode out of the program (eager itself would be flaky), so it only appears in `with` statements.
_NOT_AS_VALUE = ("set_grad_enabled_false", "set_grad_enabled_true")
_NOT_AS_DECORATOR = _NOT_AS_VALUE + ("autocast",)
_DECORABLE = frozenset({"plain", "cm_param", "recursive", "varargs", "kwargs", "lambda"})


def _call_structure_impl(draw, config: GenerationConfig) -> tuple[int, ...]:
    """Parent index per function (``-1`` for entry): a spine of the drawn depth, plus side branches for trees."""
    buckets = [(b, config.weight(b[0])) for b in _DEPTHS if b[1] <= config.max_depth]
    _, lo, hi = weighted(draw, buckets)
    depth = integer(draw, lo, min(hi, config.max_depth, config.max_functions - 1))
    parents = [-1, *range(depth)]
    if weighted(draw, [("chain", config.weight("call.chain")), ("tree", config.weight("call.tree"))]) == "tree":
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
    options = []
    for sig, feature, base in _SIGS:
        w = base if feature is None else gen.w(feature) * base
        if sig == "recursive" and (
            body.mult * 3 > MULT_LIMIT or gen.level[j] + gen.height[j] + 2 > gen.config.max_depth
        ):
            continue
        if sig == "nonstrict" and gen.children[j]:
            continue  # nonstrict_trace bodies must be pure: a leaf of tame arithmetic (and graph breaks)
        options.append((sig, w))
    sig = weighted(draw, options)
    gen.sigs[j] = sig
    if gen.helpers:
        gen.modules[j] = weighted(draw, [("", 2.0), ("h1", 1.5), ("h2", 0.75)])
    decorators: tuple[str, ...] = ()
    if sig in _DECORABLE:
        count = weighted(draw, [(0, 10.0), (1, gen.w("ctx.decorator")), (2, gen.w("ctx.nested_decorators"))])
        decorators = tuple(ctx_kind(draw, body, exclude=_NOT_AS_DECORATOR) for _ in range(count))
        if chance(draw, gen.w("ctx.disable_ngb") * 0.06):
            decorators += ("disable_ngb",)
    if sig == "nonstrict":
        decorators = ("nonstrict",)
    gen.decorators[j] = decorators
    return sig


def _call_site_impl(draw, body: Body, j: int) -> tuple:
    """The call of child ``j`` in an operand-stack context; draws ``j``'s interface first."""
    gen = body.gen
    sig = _callee_interface_impl(draw, body, j)
    key = ("contexts", sig == "plain", sig == "cm_param" or body.mult * 2 > MULT_LIMIT)
    options = gen.memo.get(key)
    if options is None:
        options = [(c, gen.w("stack." + c)) for c in _CONTEXTS if not (c == "comprehension" and key[2])]
        if key[1]:
            options.append(("decorator", gen.w("ctx.decorator") * 0.6))
        options = gen.memo[key] = tuple(options)
    context = weighted(draw, options)
    cm = ""
    if sig == "cm_param" or context == "decorator":
        cm = ctx_kind(draw, body, exclude=_NOT_AS_DECORATOR if context == "decorator" else _NOT_AS_VALUE)
    mult = body.mult * (2 if context == "comprehension" else 1) * (3 if sig == "recursive" else 1)
    gen.mult[j] = mult
    gen.in_bound[j] = body.bound + 0.5
    body.bound = RETURN_BOUND + 0.75 * body.bound
    out: tuple = (ir.CallSite(j, context, cm),)
    if body.bound > LIMIT:
        out += (_squash_impl(draw, body),)
    return out


def _function_impl(draw, gen: Gen, i: int) -> ir.Function:
    sig = gen.sigs.get(i, "plain")
    module = gen.modules.get(i, "")
    body = Body(gen, i, module, bound=gen.in_bound.get(i, 4.0), mult=gen.mult.get(i, 1))
    if sig == "nonstrict":
        return _nonstrict_impl(draw, body)
    children = gen.children[i]
    deep = gen.n > 20
    stmts: list = []
    if i == 0 and not gen.requires_grad and chance(draw, gen.w("side.inplace_input") * 0.15):
        stmts.append(ir.Construct("side.inplace_input"))
    items: list = [("call", j) for j in children]
    if not children or chance(draw, 0.05 if deep else 0.3):
        items.append(("break", None))
    if sig == "recursive":
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
    if stmts and chance(draw, gen.w("flow.early_return") * 0.06):
        at = integer(draw, 0, len(stmts))
        stmts.insert(at, ir.Return(taken=chance(draw, 0.5)))
    if sig == "cm_param":
        stmts.append(_break_stmt_impl(draw, body))
        stmts.append(ir.With("param", (ir.Probe("grad"), _filler_impl(draw, body))))
    if not children and chance(draw, gen.w("raise.deliberate") * 0.03):
        stmts.append(ir.Raise("escape"))
    if body.bound > RETURN_BOUND:
        stmts.append(_squash_impl(draw, body))
    return ir.Function(i, module, sig, gen.decorators.get(i, ()), tuple(stmts))


def _nonstrict_impl(draw, body: Body) -> ir.Function:
    """A pure leaf under ``@torch._dynamo.nonstrict_trace``: tame arithmetic, maybe a graph break inside (allowed
    there); no effects or state, which nonstrict_trace documents as unsafe."""
    stmts: list = [_arith_impl(draw, body) for _ in range(integer(draw, 1, 3))]
    if body.gen.w("break.graph_break") > 0 and chance(draw, 0.5):
        stmts.insert(integer(draw, 0, len(stmts)), ir.Break("graph_break"))
    if body.bound > RETURN_BOUND:
        stmts.append(_squash_impl(draw, body))
    return ir.Function(body.index, body.module, "nonstrict", ("nonstrict",), tuple(stmts))


def _inputs_impl(draw, config: GenerationConfig) -> tuple[ir.Inputs, bool]:
    """The inputs record and whether the program wants backward."""
    w = config.weight
    wants_grad = chance(draw, w("grad.backward") * 0.12)
    requires_grad = wants_grad or chance(draw, w("input.requires_grad") * 0.1)
    layout = "transposed" if chance(draw, w("input.noncontiguous") * 0.12) else "contiguous"
    extras = tuple(k for k in ("scalar", "empty", "double", "int") if chance(draw, w("input." + k) * 0.08))
    dtype = weighted(
        draw, [("float32", 7.0), ("float64", w("input.main_float64")), ("bfloat16", w("input.main_bfloat16"))]
    )
    rank = weighted(draw, [(2, 5.0), (1, w("input.rank1")), (3, w("input.rank3"))])
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
        helpers=chance(draw, min(0.9, config.weight("module.helper") * 0.15)),
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
    record = dataclasses.replace(record, mark_dynamic=chance(draw, config.weight("input.mark_dynamic") * 0.1),
                                 other_sizes=chance(draw, config.weight("input.other_sizes") * 0.3))
    return ir.Program(functions, modules, record, wants_grad, returns)


programs = st.composite(_programs_impl)
