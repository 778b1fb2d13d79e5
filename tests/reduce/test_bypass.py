"""The bypass passes one at a time: cut-call-graph (the call graph cut at one depth, entry calling a deep function
directly) and bypass-definitions (definitions deleted with their uses). In-process predicates (no oracle, no
torch)."""

from __future__ import annotations

import ast

from fuzz.reduce import PASSES, reduce_source
from fuzz.reduce._tree import Program
from tests.reduce.helpers import HEAD, TAIL, deep_chain, one_pass, pass_candidates, raises, run_entry


def _bypassing(source: str, predicate):
    """The two bypass passes, in their order: the cheap cuts and shortcuts, then ddmin chunks of definitions."""
    return reduce_source(source, predicate, passes=[p for p in PASSES if p.name in ("cut-call-graph",
                                                                                   "bypass-definitions")])


def _defs(source: str) -> set[str]:
    return {n.name for n in ast.walk(ast.parse(source)) if isinstance(n, ast.FunctionDef | ast.ClassDef)}


# ---- bypass-definitions ---------------------------------------------------------------------------------------

CHAIN = HEAD + '''def leaf(x):
    return x + 1


def middle(x):
    return leaf(x) * 2


def divide(x):
    y = middle(x)
    return y / 0


def entry(x):
    log(x)
    return divide(x)


def log(x):
    EFFECTS.append(x)
''' + TAIL


def test_bypass_cuts_the_call_graph_below_the_bug_in_one_check():
    result = _bypassing(CHAIN, raises(ZeroDivisionError))
    # divide stays (the bug); everything it calls goes at once, the call replaced by its argument
    assert _defs(result.source) == {"divide", "entry", "make_inputs"}
    assert "y = x" in result.source and "log(" not in result.source
    assert isinstance(run_entry(result.source), ZeroDivisionError)
    cut, chunks = result.passes
    assert (cut.name, cut.successes, chunks.successes) == ("cut-call-graph", 1, 1)  # the depth cut, then log


def test_bypass_keeps_a_definition_the_bug_needs():
    # The bug is in leaf, at the bottom of the chain: nothing on the path may go.
    source = CHAIN.replace("return x + 1", "return x / 0").replace("return y / 0", "return y")
    result = _bypassing(source, raises(ZeroDivisionError))
    assert "leaf" in _defs(result.source) and "x / 0" in result.source  # never bypassed
    assert "log" not in _defs(result.source) and isinstance(run_entry(result.source), ZeroDivisionError)


def test_bypass_tries_chunks_of_definitions_before_single_ones():
    leaves = "".join(f"def leaf{k}(x):\n    return x + {k}\n\n\n" for k in range(4))
    calls = "".join(f"    x = leaf{k}(x)\n" for k in range(4))
    source = HEAD + leaves + f"def entry(x):\n{calls}    return x / 0\n" + TAIL
    candidates = pass_candidates("bypass-definitions", source)
    gone = [4 - len([d for d in _defs(c) if d.startswith("leaf")]) for c in candidates]
    assert gone.index(2) < gone.index(1)  # two leaves in one check before any alone
    assert gone.count(2) == 2 and gone.count(1) == 4
    result = one_pass("bypass-definitions", source, raises(ZeroDivisionError))
    assert not any(d.startswith("leaf") for d in _defs(result.source))
    assert result.passes[0].successes < 4  # a chunk of two went in one check


def test_bypass_turns_with_blocks_and_method_calls_into_their_bodies():
    source = HEAD + '''import contextlib


@contextlib.contextmanager
def ctx(tag):
    yield


class Step:
    def run(self, x):
        return x


def entry(x):
    with ctx("a"):
        x = Step().run(x) + 1
    return x / 0
''' + TAIL
    result = _bypassing(source, raises(ZeroDivisionError))
    assert "with" not in result.source and "Step" not in result.source and "x = x + 1" in result.source


SHORTCUT = HEAD + '''def c(x):
    return x / 0


def b(x):
    return c(x + 1) * 2


def a(x):
    y = b(x)
    return y


def entry(x):
    return a(x) + 1
''' + TAIL


def test_shortcut_calls_the_deep_function_from_entry_and_drops_the_chain():
    result = one_pass("cut-call-graph", SHORTCUT, raises(ZeroDivisionError))
    assert _defs(result.source) == {"c", "entry", "make_inputs"} and "return c(x) + 1" in result.source


def test_shortcut_and_bypass_pass_a_keyword_argument_through():
    # generated programs call along keyword paths (f1(x=x)); what flows through is that keyword's value
    source = SHORTCUT.replace("return a(x) + 1", "return a(x=x) + 1")
    result = one_pass("cut-call-graph", source, raises(ZeroDivisionError))
    assert _defs(result.source) == {"c", "entry", "make_inputs"} and "return c(x) + 1" in result.source


def test_shortcut_sees_through_a_wrapper_applied_to_the_first_callee():
    # generated programs call through a context manager used as a decorator: torch.no_grad()(a)(x); a 452-line
    # 2.15 mismatch whose bug sat in its deepest function was never reduced while this call hid the chain
    source = ("import torch\n" + SHORTCUT).replace("return a(x) + 1", "return torch.no_grad()(a)(x) + 1")
    assert isinstance(run_entry(source), ZeroDivisionError)
    result = one_pass("cut-call-graph", source, raises(ZeroDivisionError))
    assert _defs(result.source) == {"c", "entry", "make_inputs"} and "return c(x) + 1" in result.source


def test_shortcut_calls_a_function_of_more_parameters_as_the_program_does():
    # the other arguments of a call elsewhere come along when they read no caller's locals; the bug needs c's
    # second argument (it divides by n - 2), so a call without it would lose the bug
    for signature, call in (("x, n", "c(x + 1, 2)"), ("*args", "c(x + 1)"), ("**kw", "c(x=x + 1)")):
        body = {"x, n": "return x / (n - 2)", "*args": "return args[0] / 0", "**kw": "return kw['x'] / 0"}[signature]
        source = SHORTCUT.replace("def c(x):\n    return x / 0", f"def c({signature}):\n    {body}").replace(
            "c(x + 1)", call)
        assert isinstance(run_entry(source), ZeroDivisionError), signature
        result = one_pass("cut-call-graph", source, raises(ZeroDivisionError))
        assert _defs(result.source) == {"c", "entry", "make_inputs"}, signature
        assert f"return {call.replace('x + 1', 'x')} + 1" in result.source, signature


def test_shortcut_passes_no_caller_s_local():
    # b's call of c reads b's local m: a direct call from entry would raise NameError, so none is made
    source = SHORTCUT.replace("def c(x):\n    return x / 0", "def c(x, n):\n    return x / n").replace(
        "return c(x + 1) * 2", "m = 0\n    return c(x + 1, m) * 2")
    assert isinstance(run_entry(source), ZeroDivisionError)
    result = one_pass("cut-call-graph", source, raises(ZeroDivisionError))
    assert "return c(" not in result.source.split("def entry")[1]


def test_bypass_makes_a_wrapped_call_its_argument():
    from fuzz.reduce.passes._definitions import bypass

    source = ("import torch\n" + SHORTCUT).replace("return a(x) + 1", "y = torch.no_grad()(a)(x) + 1\n    return y")
    candidate = bypass(Program.parse(source), {"a"})
    assert candidate is not None and "y = x + 1" in candidate.source and "def a" not in candidate.source


def test_shortcut_stops_above_a_function_the_bug_needs():
    # the bug needs b's "+ 1" (c divides by x - 3 and x is 2): calling c directly loses it, calling b does not
    source = SHORTCUT.replace("return x / 0", "return x / (x - 3)")
    assert isinstance(run_entry(source), ZeroDivisionError)
    result = one_pass("cut-call-graph", source, raises(ZeroDivisionError))
    assert _defs(result.source) == {"b", "c", "entry", "make_inputs"} and "return b(x) + 1" in result.source


def test_cut_call_graph_bisects_the_depth_of_a_deep_bug():
    source = deep_chain(16, needed=11)
    assert isinstance(run_entry(source), ZeroDivisionError)
    checked: list[bool] = []

    def predicate(candidate: str) -> bool:
        checked.append(isinstance(run_entry(candidate), ZeroDivisionError))
        return checked[-1]

    result = one_pass("cut-call-graph", source, predicate)
    # below f11 cut (its call of f12 became its argument), then entry calls f11 directly
    assert _defs(result.source) == {"f11", "entry", "make_inputs"} and "return x / (x - 2)" in result.source
    # after the original's check: the cut at 8 loses the bug, the one at 12 keeps it; 2 checks, not one per
    # depth from the top (12)
    assert checked[0] and checked.index(True, 1) == 2


def test_cuts_keep_the_effect_log_helper_an_effects_finding_is_seen_through():
    source = HEAD + '''def _effect(tag, value):
    EFFECTS.append((tag, value))


def f2(x):
    return x + 1


def f1(x):
    _effect("f1", x)
    return f2(x)


def entry(x):
    return f1(x)
''' + TAIL

    def logged(candidate: str) -> bool:  # the finding: the effect log says ("f1", 2)
        namespace: dict = {}
        exec(compile(candidate, "candidate", "exec"), namespace)
        namespace["entry"](*namespace["make_inputs"]("cpu"))
        return namespace["EFFECTS"] == [("f1", 2)]

    result = one_pass("cut-call-graph", source, logged)
    # the cut below f1 keeps _effect (at the same depth as f2, which goes)
    assert _defs(result.source) == {"_effect", "f1", "entry", "make_inputs"}
