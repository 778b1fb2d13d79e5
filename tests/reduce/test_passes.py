"""The coarse source passes one at a time: a small program in, the expected smaller program out, and a case where
the pass must not apply because the bug would be lost. In-process predicates (no oracle, no torch)."""

from __future__ import annotations

import ast
import types

from fuzz.reduce import PASSES, reduce_source
from fuzz.reduce._tree import Program
from tests.reduce.helpers import HEAD, TAIL, pass_candidates


def _run(source: str):
    module = types.ModuleType("candidate")
    try:
        exec(compile(source, "candidate", "exec"), module.__dict__)
        return module.entry(*module.make_inputs("cpu"))
    except Exception as exc:  # noqa: BLE001 - the outcome is what the predicate looks at
        return exc


def _raises(kind: type[BaseException]):
    return lambda source: isinstance(_run(source), kind)


def _one_pass(name: str, source: str, predicate):
    chosen = [p for p in PASSES if p.name == name]
    assert chosen, name
    return reduce_source(source, predicate, passes=chosen)


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
    result = _bypassing(CHAIN, _raises(ZeroDivisionError))
    # divide stays (the bug); everything it calls goes at once, the call replaced by its argument
    assert _defs(result.source) == {"divide", "entry", "make_inputs"}
    assert "y = x" in result.source and "log(" not in result.source
    assert isinstance(_run(result.source), ZeroDivisionError)
    cut, chunks = result.passes
    assert (cut.name, cut.successes, chunks.successes) == ("cut-call-graph", 1, 1)  # the depth cut, then log


def test_bypass_keeps_a_definition_the_bug_needs():
    # The bug is in leaf, at the bottom of the chain: nothing on the path may go.
    source = CHAIN.replace("return x + 1", "return x / 0").replace("return y / 0", "return y")
    result = _bypassing(source, _raises(ZeroDivisionError))
    assert "leaf" in _defs(result.source) and "x / 0" in result.source  # never bypassed
    assert "log" not in _defs(result.source) and isinstance(_run(result.source), ZeroDivisionError)


def test_bypass_tries_chunks_of_definitions_before_single_ones():
    leaves = "".join(f"def leaf{k}(x):\n    return x + {k}\n\n\n" for k in range(4))
    calls = "".join(f"    x = leaf{k}(x)\n" for k in range(4))
    source = HEAD + leaves + f"def entry(x):\n{calls}    return x / 0\n" + TAIL
    candidates = pass_candidates("bypass-definitions", source)
    gone = [4 - len([d for d in _defs(c) if d.startswith("leaf")]) for c in candidates]
    assert gone.index(2) < gone.index(1)  # two leaves in one check before any alone
    assert gone.count(2) == 2 and gone.count(1) == 4
    result = _one_pass("bypass-definitions", source, _raises(ZeroDivisionError))
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
    result = _bypassing(source, _raises(ZeroDivisionError))
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
    result = _one_pass("cut-call-graph", SHORTCUT, _raises(ZeroDivisionError))
    assert _defs(result.source) == {"c", "entry", "make_inputs"} and "return c(x) + 1" in result.source


def test_shortcut_and_bypass_pass_a_keyword_argument_through():
    # generated programs call along keyword paths (f1(x=x)); what flows through is that keyword's value
    source = SHORTCUT.replace("return a(x) + 1", "return a(x=x) + 1")
    result = _one_pass("cut-call-graph", source, _raises(ZeroDivisionError))
    assert _defs(result.source) == {"c", "entry", "make_inputs"} and "return c(x) + 1" in result.source


def test_shortcut_sees_through_a_wrapper_applied_to_the_first_callee():
    # generated programs call through a context manager used as a decorator: torch.no_grad()(a)(x); a 452-line
    # 2.15 mismatch whose bug sat in its deepest function was never reduced while this call hid the chain
    source = ("import torch\n" + SHORTCUT).replace("return a(x) + 1", "return torch.no_grad()(a)(x) + 1")
    assert isinstance(_run(source), ZeroDivisionError)
    result = _one_pass("cut-call-graph", source, _raises(ZeroDivisionError))
    assert _defs(result.source) == {"c", "entry", "make_inputs"} and "return c(x) + 1" in result.source


def test_shortcut_calls_a_function_of_more_parameters_as_the_program_does():
    # the other arguments of a call elsewhere come along when they read no caller's locals; the bug needs c's
    # second argument (it divides by n - 2), so a call without it would lose the bug
    for signature, call in (("x, n", "c(x + 1, 2)"), ("*args", "c(x + 1)"), ("**kw", "c(x=x + 1)")):
        body = {"x, n": "return x / (n - 2)", "*args": "return args[0] / 0", "**kw": "return kw['x'] / 0"}[signature]
        source = SHORTCUT.replace("def c(x):\n    return x / 0", f"def c({signature}):\n    {body}").replace(
            "c(x + 1)", call)
        assert isinstance(_run(source), ZeroDivisionError), signature
        result = _one_pass("cut-call-graph", source, _raises(ZeroDivisionError))
        assert _defs(result.source) == {"c", "entry", "make_inputs"}, signature
        assert f"return {call.replace('x + 1', 'x')} + 1" in result.source, signature


def test_shortcut_passes_no_caller_s_local():
    # b's call of c reads b's local m: a direct call from entry would raise NameError, so none is made
    source = SHORTCUT.replace("def c(x):\n    return x / 0", "def c(x, n):\n    return x / n").replace(
        "return c(x + 1) * 2", "m = 0\n    return c(x + 1, m) * 2")
    assert isinstance(_run(source), ZeroDivisionError)
    result = _one_pass("cut-call-graph", source, _raises(ZeroDivisionError))
    assert "return c(" not in result.source.split("def entry")[1]


def test_bypass_makes_a_wrapped_call_its_argument():
    from fuzz.reduce.passes._definitions import bypass

    source = ("import torch\n" + SHORTCUT).replace("return a(x) + 1", "y = torch.no_grad()(a)(x) + 1\n    return y")
    candidate = bypass(Program.parse(source), {"a"})
    assert candidate is not None and "y = x + 1" in candidate.source and "def a" not in candidate.source


def test_shortcut_stops_above_a_function_the_bug_needs():
    # the bug needs b's "+ 1" (c divides by x - 3 and x is 2): calling c directly loses it, calling b does not
    source = SHORTCUT.replace("return x / 0", "return x / (x - 3)")
    assert isinstance(_run(source), ZeroDivisionError)
    result = _one_pass("cut-call-graph", source, _raises(ZeroDivisionError))
    assert _defs(result.source) == {"b", "c", "entry", "make_inputs"} and "return b(x) + 1" in result.source


def _deep_chain(depth: int, needed: int) -> str:
    """entry -> f1 -> ... -> f<depth>; f<needed> divides by ``x - 2`` (x is 2): the bug needs every definition
    down to f<needed> and none below it."""
    defs = [f"def f{k}(x):\n    return f{k + 1}(x){' / (x - 2)' if k == needed else ''}\n" for k in range(1, depth)]
    defs.append(f"def f{depth}(x):\n    return x + 1\n")
    return HEAD + "\n\n".join(defs) + "\n\ndef entry(x):\n    return f1(x)\n" + TAIL


def test_cut_call_graph_bisects_the_depth_of_a_deep_bug():
    source = _deep_chain(16, needed=11)
    assert isinstance(_run(source), ZeroDivisionError)
    checked: list[bool] = []

    def predicate(candidate: str) -> bool:
        checked.append(isinstance(_run(candidate), ZeroDivisionError))
        return checked[-1]

    result = _one_pass("cut-call-graph", source, predicate)
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

    result = _one_pass("cut-call-graph", source, logged)
    # the cut below f1 keeps _effect (at the same depth as f2, which goes)
    assert _defs(result.source) == {"_effect", "f1", "entry", "make_inputs"}


# ---- remove-unused: class members and helper-module links ---------------------------------------------------

MEMBERS = HEAD + '''class Box:
    def __init__(self, v):
        self.v = v

    def spare(self):
        return self.v * 3

    def named(self):
        return 0


def entry(x):
    b = Box(x)
    return getattr(b, "named")() + b.v / 0
''' + TAIL


def test_unused_methods_go_in_one_check_and_a_method_named_in_a_string_stays():
    result = _one_pass("remove-unused", MEMBERS, _raises(ZeroDivisionError))
    assert "spare" not in result.source and "def named" in result.source and "__init__" in result.source
    assert result.invocations == 2  # the original and one batch


def test_an_unused_method_stays_when_removing_it_loses_the_bug():
    result = _one_pass("remove-unused", MEMBERS, lambda s: _raises(ZeroDivisionError)(s) and "spare" in s)
    assert "def spare" in result.source


def test_a_method_a_base_class_calls_by_name_is_never_unused():
    # json calls Enc.default itself: nothing in the program names it, and removing it would lose the bug
    source = HEAD + '''import json


class Enc(json.JSONEncoder):
    def default(self, o):
        return 1 / 0


def entry(x):
    return json.dumps(object(), cls=Enc)
''' + TAIL
    assert isinstance(_run(source), ZeroDivisionError)
    assert not any("default" not in c for c in pass_candidates("remove-unused", source))


LINKS = HEAD + '''import types


def helper_a(x):
    return x


def helper_b(x):
    return x / 0


ngb_h = types.ModuleType("ngb_h")
ngb_h.__dict__.update({"helper_a": helper_a, "helper_b": helper_b})
exec(compile(\'\'\'
def run(x):
    return helper_b(x)
\'\'\', "ngb_h", "exec"), ngb_h.__dict__)


def entry(x):
    return ngb_h.run(x)
''' + TAIL


def test_helper_module_links_nobody_reads_go_with_what_they_kept_alive():
    result = _one_pass("remove-unused", LINKS, _raises(ZeroDivisionError))
    assert "helper_a" not in result.source and '"helper_b": helper_b' in result.source.replace("'", '"')
    assert isinstance(_run(result.source), ZeroDivisionError)


def test_helper_module_links_stay_when_the_bug_needs_them():
    # The helper reads helper_a in a way no static analysis sees: removing its link loses the bug.
    source = LINKS.replace("return helper_b(x)", 'return globals()["helper_a"](x) / 0')
    assert isinstance(_run(source), ZeroDivisionError)
    result = _one_pass("remove-unused", source, _raises(ZeroDivisionError))
    assert "def helper_a" in result.source and '"helper_a": helper_a' in result.source.replace("'", '"')
    assert isinstance(_run(result.source), ZeroDivisionError)


# ---- inline-classes -------------------------------------------------------------------------------------------

CLASSES = HEAD + '''class Step:
    def __init__(self, scale):
        self.scale = scale

    def run(self, x):
        return x * self.scale


class Box:
    def __init__(self, value):
        self.value = value - 2


def entry(x):
    y = Step(0.5).run(x)
    return y / Box(x).value
''' + TAIL


def test_a_method_on_a_fresh_instance_becomes_its_expression_and_a_wrapper_its_value():
    result = _one_pass("inline-classes", CLASSES, _raises(ZeroDivisionError))
    assert "y = x * 0.5" in result.source and "y / (x - 2)" in result.source
    assert "class" not in result.source  # both classes went with their last use
    assert isinstance(_run(result.source), ZeroDivisionError)


def test_a_method_of_several_statements_on_a_fresh_instance_becomes_a_function():
    source = CLASSES.replace("        return x * self.scale", "        z = x * self.scale\n        return z")
    result = _one_pass("inline-classes", source, _raises(ZeroDivisionError))
    assert "def Step_run(x):\n    z = x * 0.5\n    return z" in result.source
    assert "y = Step_run(x)" in result.source and "class" not in result.source


MODULE = HEAD + '''import torch


class Scale(torch.nn.Module):
    def __init__(self, by):
        super().__init__()
        self.by = torch.nn.Parameter(torch.full((), by))

    def forward(self, y):
        return y * self.by


def entry(x):
    return Scale(2.0)(x).sum()
''' + TAIL.replace("(2,)", "(torch.tensor(3.0),)")


def test_a_module_whose_forward_returns_one_expression_is_collapsed_into_it():
    expected = _run(MODULE)
    result = _one_pass("inline-classes", MODULE, lambda s: not isinstance(_run(s), Exception))
    assert "return (x * torch.nn.Parameter(torch.full((), 2.0))).sum()" in result.source
    assert "class" not in result.source and _run(result.source) == expected
    # forward needing its instance (a method call) stays a module call; an argument evaluated after the
    # parameter was built (eager's order) keeps that order: forward becomes a function, the parameter its argument
    assert pass_candidates("inline-classes", MODULE.replace("return y * self.by",
                                                            "return y * self.by + self.other()")) == []
    (function,) = pass_candidates("inline-classes", MODULE.replace("Scale(2.0)(x)", "Scale(2.0)(x * 2)"))
    assert "def Scale_forward(by, y):\n    return y * by" in function
    assert "Scale_forward(torch.nn.Parameter(torch.full((), 2.0)), x * 2).sum()" in function


def test_a_method_that_needs_its_instance_is_not_inlined():
    source = CLASSES.replace("return x * self.scale", "return x * self.scale + self.extra()").replace(
        "    def run(self, x):", "    def extra(self):\n        return 0\n\n    def run(self, x):")
    assert isinstance(_run(source), ZeroDivisionError)
    assert not any("Step_run" in c for c in pass_candidates("inline-classes", source))  # not even tried
    result = _one_pass("inline-classes", source, _raises(ZeroDivisionError))
    assert "Step(0.5).run(x)" in result.source and "class Box" not in result.source  # the wrapper still goes


def test_a_class_stays_when_inlining_loses_the_bug():
    # Only a program that still builds a Step is interesting.
    result = _one_pass("inline-classes", CLASSES, lambda s: _raises(ZeroDivisionError)(s) and "Step(" in s)
    assert "Step(0.5).run(x)" in result.source and "Step_run" not in result.source


# ---- delete-statements: top-down ------------------------------------------------------------------------------


def test_statement_deletion_goes_outermost_first():
    source = HEAD + '''def entry(x):
    a = 1
    if x:
        b = 2
        c = 3
    return x / 0
''' + TAIL
    candidates = pass_candidates("delete-statements", source)
    # A candidate edits the if's body when the if is still there with a statement of its body gone.
    inner = ["if x:" in c and not ("b = 2" in c and "c = 3" in c) for c in candidates]
    assert inner == sorted(inner) and 0 < sum(inner) < len(inner)  # entry's body first, then the if's



def test_statement_deletion_tries_coarse_chunks_of_every_function_before_single_statements():
    body = "".join(f"    x = x + {k}\n" for k in range(4))
    source = HEAD + f"def helper(x):\n{body}    return x\n\n\ndef entry(x):\n{body}    return helper(x) / 0\n" + TAIL

    def edited(candidate: str) -> tuple[str, int]:  # (the function whose body lost statements, how many)
        helper, entry = (candidate.split("def entry")[k].count("x = x +") for k in (0, 1))
        return ("helper", 4 - helper) if helper < 4 else ("entry", 4 - entry)

    inside = [edited(c) for c in pass_candidates("delete-statements", source) if "def helper" in c and "def entry" in c
              and "return" in c.split("def entry")[1] and "    return x\n" in c]
    assert inside[:2] == [("helper", 4), ("entry", 4)]  # each function's coarsest chunk before any finer one
    assert inside.index(("helper", 2)) < inside.index(("entry", 2)) and ("helper", 1) not in inside
    # single statements are a later pass's, after those that take a definition or a block per check
    singles = [edited(c) for c in pass_candidates("delete-single-statements", source) if "def helper" in c
               and "def entry" in c and "return" in c.split("def entry")[1] and "    return x\n" in c
               and "EFFECTS = []" in c]  # (the module's own statements come first; not what this is about)
    assert singles[:4] == [("helper", 1)] * 4 and ("entry", 1) in singles and ("entry", 2) not in singles
    names = [p.name for p in PASSES]
    assert names.index("delete-statements") < names.index("inline-calls") < names.index("delete-single-statements")

# ---- read like a bug report: one-iteration loops unrolled, constants folded -----------------------------------


def test_a_loop_of_one_iteration_is_unrolled_keeping_its_variable():
    source = HEAD + "def entry(x):\n    for c in [0]:\n        x = x / c\n    return x\n" + TAIL
    out = _one_pass("unwrap-blocks", source, _raises(ZeroDivisionError)).source
    assert "for" not in out and "c = 0\n    x = x / c" in out


def test_a_loop_with_break_is_unwrapped_to_its_body_run_once():
    source = HEAD + """def entry(x):
    i = 0
    while True:
        i += 1
        for k in [1, 2]:
            if k:
                break
        x = x / 0
        if i >= 3:
            break
    return x
""" + TAIL
    (once,) = [c for c in pass_candidates("unwrap-blocks", source) if "while" not in c]
    assert "    i += 1\n    for k in [1, 2]:" in once and "if i >= 3:\n        pass" in once
    assert "            break" in once  # the nested loop keeps its own break
    out = _one_pass("unwrap-blocks", source, _raises(ZeroDivisionError)).source
    assert "while" not in out and "pass" not in out and "x = x / 0" in out

def test_a_match_is_replaced_by_the_body_of_the_case_the_bug_needs():
    # a torch 2.10 reduction stopped at 24 lines, its break nested in two match statements the bug did not need
    source = HEAD + """def entry(x):
    match 0:
        case 1 | 0:
            match 1:
                case 0:
                    pass
                case n:
                    x = x / 0
        case y:
            x = x + y
    return x
""" + TAIL
    out = _one_pass("unwrap-blocks", source, _raises(ZeroDivisionError)).source
    assert "match" not in out and "    x = x / 0\n" in out
    # a case whose pattern binds a name is only its body where the body reads no such name; else it is kept
    bound = source.replace("x = x / 0", "x = x / (n - 1)")
    out = _one_pass("unwrap-blocks", bound, _raises(ZeroDivisionError)).source
    assert "case n:" in out and "case 0:" not in out and "case y:" not in out


def test_an_empty_finally_goes_and_the_handler_stays():
    source = HEAD + """def entry(x):
    try:
        x = x / 0
    except ZeroDivisionError as e:
        raise TypeError(str(e))
    finally:
        pass
    return x
""" + TAIL
    out = _one_pass("unwrap-blocks", source, _raises(TypeError)).source
    assert "finally" not in out and "except ZeroDivisionError" in out  # the bug is the handler's: it stays

def test_a_loop_that_breaks_is_not_unrolled():
    source = HEAD + "def entry(x):\n    for c in [0]:\n        x = x / c\n        break\n    return x\n" + TAIL
    # unrolled, its break would leave the loop's caller: not even a candidate
    assert not any("c = 0" in c for c in pass_candidates("unwrap-blocks", source))
    out = _one_pass("unwrap-blocks", source, _raises(ZeroDivisionError)).source
    assert "for c in [0]:" in out


def test_constants_are_folded_when_the_bug_survives_and_kept_when_it_does_not():
    source = HEAD + "def entry(x):\n    return x / (0.5 * 4 - 2)\n" + TAIL
    out = _one_pass("simplify-expressions", source, _raises(ZeroDivisionError)).source
    assert "x / 0.0" in out
    kept = _one_pass("simplify-expressions", source, lambda s: _raises(ZeroDivisionError)(s) and "0.5" in s).source
    assert "0.5 * 4" in kept


def test_a_name_passed_that_the_bug_does_not_need_becomes_0():
    # two reductions of one bug had kept self.x(self) and self.x(0): two shapes, two root causes
    source = HEAD + "def g(a, b):\n    return WHAT\n\n\ndef entry(x):\n    y = [x]\n    return g(y, x - x)\n" + TAIL
    out = _one_pass("simplify-expressions", source.replace("WHAT", "1 / b"), _raises(ZeroDivisionError)).source
    assert "g(0, " in out
    needs_y = _one_pass("simplify-expressions", source.replace("WHAT", "1 / b"),
                        lambda s: _raises(ZeroDivisionError)(s) and "g(y" in s).source
    assert "g(y, " in needs_y


# ---- orphans: the clean-up riding along with every source edit --------------------------------------------------

ORPHANS = HEAD + '''LOG = []


def spare(x):
    return x


def helper(x):
    LOG.append(x)
    return x


def entry(x):
    helper(x)
    return x / 0
''' + TAIL


def test_a_definition_the_edit_orphaned_goes_in_the_same_candidate():
    from fuzz.reduce.passes._orphans import drop_orphans

    before = Program.parse(ORPHANS)
    after = before.copy()
    entry = next(s for s in after.tree.body if isinstance(s, ast.FunctionDef) and s.name == "entry")
    del entry.body[0]  # the only call of helper
    out = drop_orphans(before, after).source
    assert "def helper" not in out
    assert "def spare" in out  # nothing read it before the edit either: remove-unused's business, not the edit's
    assert "LOG = []" in out  # data globals are observed: never a clean-up


def test_an_else_of_nothing_goes_with_any_edit():
    source = HEAD + "def entry(x):\n    if x:\n        x = x / 0\n    else:\n        pass\n    return x\n" + TAIL
    out = _one_pass("delete-single-statements", source.replace("    return x\n", "    y = 1\n    return x\n"),
                    _raises(ZeroDivisionError)).source
    assert "    if x:\n        x = x / 0\n" in out and "else" not in out


def test_delete_statements_never_checks_a_candidate_with_an_orphaned_helper():
    checked = []

    def predicate(source: str) -> bool:
        checked.append(source)
        return isinstance(_run(source), ZeroDivisionError)

    result = reduce_source(ORPHANS, predicate, passes=[p for p in PASSES if p.name.startswith("delete-")])
    assert "def helper" not in result.source and "helper(" not in result.source
    assert not [s for s in checked if "def helper" in s and "helper(x)\n" not in s.split("def entry")[1]]


# ---- rename: locals per function ----------------------------------------------------------------------------------

def test_a_base_class_the_bug_does_not_need_is_dropped_and_one_it_needs_stays():
    source = HEAD + ("class Base:\n    pass\n\n\nclass Child(Base):\n    def __init__(self, x):\n        self.v = 1 / x\n"
                     "\n\ndef entry(x):\n    return Child(x - x)\n" + TAIL)
    out = _one_pass("drop-arguments", source, _raises(ZeroDivisionError)).source
    assert "class Child:" in out and "class Child(Base)" not in out
    needed = source.replace("class Base:\n    pass\n", "class Base:\n    def __init__(self, x):\n        self.v = 1 / x\n")
    needed = needed.replace("    def __init__(self, x):\n        self.v = 1 / x\n\n\ndef entry",
                            "    pass\n\n\ndef entry")
    assert "class Child(Base):\n    pass" in needed
    assert "class Child(Base)" in _one_pass("drop-arguments", needed, _raises(ZeroDivisionError)).source
