"""Context managers: ``with`` blocks (ir.With), decorators on callees, managers passed down as values.

A ``ctx`` piece's template is the manager expression (``{tag}``: a unique effect tag). Traits: ``no_value``
(switches state when made, so never made ahead as a value: ``torch.set_grad_enabled``), ``no_decorator``
(never a decorator), ``inference`` (enters inference mode: only in programs that allow it), ``with_weight``
(its weight counts toward how often a ``with`` wrapper is drawn), ``breaks`` (entering it breaks by itself),
``placed`` (not drawn as a manager kind; the strategies place it), ``not_cm`` (a decorator that is no context
manager). Part ``state``: the global state a torch manager sets (root-cause grouping's state-object rule
and the reducer's decorator rules read it).
"""

from __future__ import annotations

from fuzz.program.families._registry import Construct, Family, Piece


def _cm(kind: str, weight: float, description: str, template: str, *traits: str, state: str = "") -> Construct:
    parts = (("state", state),) if state else ()
    return Construct(f"ctx.{kind}", weight, description,
                     pieces=(Piece("ctx", kind, template, traits=frozenset(traits), parts=parts),))


_NOT_MADE_AHEAD = frozenset({"no_value", "no_decorator"})
_GRAD = (("state", "grad"),)

FAMILY = Family(
    "ctx",
    "context managers: with blocks, decorators, managers as values",
    (
        _cm("no_grad", 2, "with torch.no_grad()", "torch.no_grad()", "with_weight", state="grad"),
        _cm("enable_grad", 1, "with torch.enable_grad()", "torch.enable_grad()", state="grad"),
        Construct("ctx.set_grad_enabled", 1, "with torch.set_grad_enabled(flag)", pieces=(
            Piece("ctx", "set_grad_enabled_false", "torch.set_grad_enabled(False)", 0.5, _NOT_MADE_AHEAD, _GRAD),
            Piece("ctx", "set_grad_enabled_true", "torch.set_grad_enabled(True)", 0.5, _NOT_MADE_AHEAD, _GRAD),
        )),
        _cm("user_class", 1, "with an instance of a user class with __enter__/__exit__", '_Ctx("{tag}")',
            "with_weight"),
        _cm("contextmanager", 1, "with a contextlib.contextmanager function", '_cm("{tag}")'),
        _cm("contextmanager_disabled", 0.7, "@contextmanager over @torch._disable_dynamo(recursive=False)",
            '_cm_disabled("{tag}")', "breaks"),
        _cm("autocast", 0.5, "with torch.autocast('cpu', dtype=torch.bfloat16)",
            'torch.autocast("cpu", dtype=torch.bfloat16)', "no_decorator", state="autocast"),
        _cm("inference_mode", 0.5, "with torch.inference_mode()", "torch.inference_mode()", "inference", state="inference_mode"),
        Construct("ctx.decorator", 1,
                  "a context manager applied as a decorator (def-site or torch.no_grad()(f)(x))",
                  pieces=(Piece("stack", "decorator", "x = {deco}({fn})(x)", 0.6, frozenset({"plain_signature"})),)),
        Construct("ctx.nested_decorators", 0.5, "two context-manager decorators stacked on one function",
                  pieces=(Piece("placed", "nested_decorators"),)),
        _cm("disable_ngb", 0.4, "@torch._dynamo.disable_nested_graph_breaks on a callee",
            "torch._dynamo.disable_nested_graph_breaks", "placed", "no_value"),
        Construct("ctx.as_value", 0.4, "a context manager created by the caller, entered by the callee after a break",
                  pieces=(Piece("signature", "cm_param", "{name}({arg}, {cm})", traits=frozenset({"decorable", "cm"}),
                                parts=(("params", "x, cm"), ("with", "param"))),
                          Piece("ctx", "param", "cm", traits=frozenset({"placed"})))),
    ),
)
