"""Call shapes: the call graph (a chain or a tree) and how a callee is defined and called (its signature).

A signature piece's template is the call expression (``{name}`` the callee as the caller names it, ``{arg}`` the
argument, ``{cm}`` a context manager passed down); part ``params`` its parameters, ``prologue`` a first line that
binds ``x``, ``method`` the method a class form defines. Traits: ``decorable`` (may carry context-manager
decorators), ``class`` (a method of a generated class ``C<index>``: ``C1(0.5).run(x)``), ``lambda`` (bound to a
global lambda over ``<name>_impl``), ``recursive`` (``f(x, n)``, runs three times), ``leaf`` (a pure leaf only,
drawn where the callee has no callees; its body is tame arithmetic), ``cm`` (takes a context manager made by its
caller). Part ``decorator``: the ``ctx`` kind the signature always puts on the def. A function with none of these
has the plain signature ``f(x)``, which the strategies draw with weight 6.
"""

from __future__ import annotations

from fuzz.program.families._registry import Construct, Family, Piece


def _sig(kind: str, call: str, params: str = "x", *traits: str, **parts: str) -> tuple[Piece]:
    return (Piece("signature", kind, call, traits=frozenset(traits), parts=(("params", params), *parts.items())),)


FAMILY = Family(
    "call",
    "the call graph's shape and the callees' signatures",
    (
        Construct("call.chain", 3, "a chain of calls entry -> f1 -> ... -> fN", pieces=(Piece("shape", "chain"),)),
        Construct("call.tree", 2, "a tree of calls: functions with several callees", pieces=(Piece("shape", "tree"),)),
        Construct("call.recursion", 0.6, "a self-recursive function f(x, n)",
                  pieces=_sig("recursive", "{name}({arg}, 2)", "x, n", "decorable", "recursive")),
        Construct("call.method", 0.6, "a callee that is a method of a generated class",
                  pieces=_sig("method", "{name}(0.5).run({arg})", "x", "class", method="run")),
        Construct("call.lambda", 0.4, "a callee that is a lambda bound to a global",
                  pieces=_sig("lambda", "{name}({arg})", "x", "decorable", "lambda")),
        Construct("call.varargs", 0.4, "a callee taking *args",
                  pieces=_sig("varargs", "{name}({arg})", "*args", "decorable", prologue="x = args[0]")),
        Construct("call.kwargs", 0.4, "a callee taking **kwargs",
                  pieces=_sig("kwargs", "{name}(x={arg})", "**kw", "decorable", prologue='x = kw["x"]')),
        Construct("call.nonstrict", 0.4, "a pure leaf decorated with torch._dynamo.nonstrict_trace",
                  pieces=(*_sig("nonstrict", "{name}({arg})", "x", "leaf", decorator="nonstrict"),
                          Piece("ctx", "nonstrict", "torch._dynamo.nonstrict_trace",
                                traits=frozenset({"placed", "not_cm"})))),
        Construct("call.callable", 0.4, "a callee that is an instance with __call__",
                  pieces=_sig("callable", "{name}(0.5)({arg})", "x", "class", method="__call__")),
    ),
)
