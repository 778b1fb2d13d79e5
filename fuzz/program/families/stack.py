"""Operand-stack contexts: where the call that may break sits in its statement (ir.CallSite.context).

Templates fill ``{call}`` (the call on ``x``), ``{call_c}`` (on ``x + c<k>``, inside a comprehension),
``{k}``, ``{tag}``, ``{rank}`` (x's rank), ``{deco}`` and ``{fn}`` (a context manager and the callee's name, for
decorator forms); ``str.format`` fills them, so literal braces are doubled. Traits: ``operands`` (the call runs
with values already on the operand stack), ``twice`` (the call runs twice: kept from ``cm`` callees, which
would enter one manager twice, and from statements already run too often).
"""

from __future__ import annotations

from fuzz.program.families._registry import Construct, Family, Piece


def _ctx(kind: str, weight: float, description: str, template: str, *traits: str) -> Construct:
    return Construct(f"stack.{kind}", weight, description,
                     pieces=(Piece("stack", kind, template, traits=frozenset(traits)),))


FAMILY = Family(
    "stack",
    "the operand-stack context of the call that breaks",
    (
        _ctx("plain", 3, "x = f(x): empty operand stack", "x = {call}"),
        _ctx("tuple_display", 1, "t = (x, f(x))", "t{k} = (x, {call})\nx = t{k}[0] * 0.5 + t{k}[1]", "operands"),
        _ctx("list_display", 1, "l = [x, f(x), ...]",
             "l{k} = [x * 0.5, {call}, x]\nx = l{k}[0] + l{k}[1] - l{k}[2] * 0.25", "operands"),
        _ctx("dict_display", 1, "d = {'a': x, 'b': f(x)}",
             'd{k} = {{"a": x, "b": {call}}}\nx = d{k}["a"] * 0.5 + d{k}["b"]', "operands"),
        _ctx("binop", 1, "x * c + f(x)", "x = x * 0.5 + {call}", "operands"),
        _ctx("call_arg", 1, "torch.add(x * c, f(x))", "x = torch.add(x * 0.5, {call})", "operands"),
        _ctx("method", 1, "(x * c).add(f(x))", "x = (x * 0.5).add({call})", "operands"),
        _ctx("fstring", 0.6, "f'{k}:{_keep(box, f(x))}'",
             'box{k} = []\ns{k} = f"{tag}:{{x.shape[0]}}:{{_keep(box{k}, {call})}}"\n'
             '_effect("{tag}", s{k})\nx = box{k}[0]', "operands"),
        _ctx("subscript", 0.6, "(a, b)[_keep(box, f(x))]",
             "box{k} = []\nx = (x * 0.5, x)[_keep(box{k}, {call})] + box{k}[0]", "operands"),
        _ctx("comprehension", 0.6, "[f(x + c) for c in (...)]",
             "v{k} = [{call_c} for c{k} in (0.0, 0.5)]\nx = v{k}[0] * 0.5 + v{k}[1] * 0.5", "operands", "twice"),
        _ctx("conditional", 0.6, "f(x) if flag else x - c", "flag{k} = x.dim() == {rank}\nx = {call} if flag{k} else x - 0.5"),
        _ctx("unpack", 0.6, "a, *rest = [x, f(x), x]",
             "a{k}, *r{k} = [x, {call}, x * 0.5]\nx = a{k} * 0.25 + r{k}[0] + r{k}[1] * 0.25", "operands"),
        _ctx("star_args", 0.5, "torch.add(*[x * c, f(x)])", "x = torch.add(*[x * 0.5, {call}])", "operands"),
        _ctx("kwargs", 0.5, "torch.add(**{'input': x, 'other': f(x)})",
             'x = torch.add(**{{"input": x * 0.5, "other": {call}}})', "operands"),
    ),
)
