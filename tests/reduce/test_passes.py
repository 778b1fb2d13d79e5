"""The coarse source passes one at a time: a small program in, the expected smaller program out, and a case where
the pass must not apply because the bug would be lost. In-process predicates (no oracle, no torch). The bypass
passes (cut-call-graph, bypass-definitions) are in test_bypass.py."""

from __future__ import annotations

import ast

from fuzz.reduce import PASSES, reduce_source
from fuzz.reduce._tree import Program
from tests.reduce.helpers import HEAD, TAIL, one_pass, pass_candidates, raises, run_entry

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
    result = one_pass("remove-unused", MEMBERS, raises(ZeroDivisionError))
    assert "spare" not in result.source and "def named" in result.source and "__init__" in result.source
    assert result.invocations == 2  # the original and one batch


def test_an_unused_method_stays_when_removing_it_loses_the_bug():
    result = one_pass("remove-unused", MEMBERS, lambda s: raises(ZeroDivisionError)(s) and "spare" in s)
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
    assert isinstance(run_entry(source), ZeroDivisionError)
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
    result = one_pass("remove-unused", LINKS, raises(ZeroDivisionError))
    assert "helper_a" not in result.source and '"helper_b": helper_b' in result.source.replace("'", '"')
    assert isinstance(run_entry(result.source), ZeroDivisionError)


def test_helper_module_links_stay_when_the_bug_needs_them():
    # The helper reads helper_a in a way no static analysis sees: removing its link loses the bug.
    source = LINKS.replace("return helper_b(x)", 'return globals()["helper_a"](x) / 0')
    assert isinstance(run_entry(source), ZeroDivisionError)
    result = one_pass("remove-unused", source, raises(ZeroDivisionError))
    assert "def helper_a" in result.source and '"helper_a": helper_a' in result.source.replace("'", '"')
    assert isinstance(run_entry(result.source), ZeroDivisionError)


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
    result = one_pass("inline-classes", CLASSES, raises(ZeroDivisionError))
    assert "y = x * 0.5" in result.source and "y / (x - 2)" in result.source
    assert "class" not in result.source  # both classes went with their last use
    assert isinstance(run_entry(result.source), ZeroDivisionError)


def test_a_method_of_several_statements_on_a_fresh_instance_becomes_a_function():
    source = CLASSES.replace("        return x * self.scale", "        z = x * self.scale\n        return z")
    result = one_pass("inline-classes", source, raises(ZeroDivisionError))
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
    expected = run_entry(MODULE)
    result = one_pass("inline-classes", MODULE, lambda s: not isinstance(run_entry(s), Exception))
    assert "return (x * torch.nn.Parameter(torch.full((), 2.0))).sum()" in result.source
    assert "class" not in result.source and run_entry(result.source) == expected
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
    assert isinstance(run_entry(source), ZeroDivisionError)
    assert not any("Step_run" in c for c in pass_candidates("inline-classes", source))  # not even tried
    result = one_pass("inline-classes", source, raises(ZeroDivisionError))
    assert "Step(0.5).run(x)" in result.source and "class Box" not in result.source  # the wrapper still goes


def test_a_class_stays_when_inlining_loses_the_bug():
    # Only a program that still builds a Step is interesting.
    result = one_pass("inline-classes", CLASSES, lambda s: raises(ZeroDivisionError)(s) and "Step(" in s)
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
    out = one_pass("unwrap-blocks", source, raises(ZeroDivisionError)).source
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
    out = one_pass("unwrap-blocks", source, raises(ZeroDivisionError)).source
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
    out = one_pass("unwrap-blocks", source, raises(ZeroDivisionError)).source
    assert "match" not in out and "    x = x / 0\n" in out
    # a case whose pattern binds a name is only its body where the body reads no such name; else it is kept
    bound = source.replace("x = x / 0", "x = x / (n - 1)")
    out = one_pass("unwrap-blocks", bound, raises(ZeroDivisionError)).source
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
    out = one_pass("unwrap-blocks", source, raises(TypeError)).source
    assert "finally" not in out and "except ZeroDivisionError" in out  # the bug is the handler's: it stays

def test_a_loop_that_breaks_is_not_unrolled():
    source = HEAD + "def entry(x):\n    for c in [0]:\n        x = x / c\n        break\n    return x\n" + TAIL
    # unrolled, its break would leave the loop's caller: not even a candidate
    assert not any("c = 0" in c for c in pass_candidates("unwrap-blocks", source))
    out = one_pass("unwrap-blocks", source, raises(ZeroDivisionError)).source
    assert "for c in [0]:" in out


def test_constants_are_folded_when_the_bug_survives_and_kept_when_it_does_not():
    source = HEAD + "def entry(x):\n    return x / (0.5 * 4 - 2)\n" + TAIL
    out = one_pass("simplify-expressions", source, raises(ZeroDivisionError)).source
    assert "x / 0.0" in out
    kept = one_pass("simplify-expressions", source, lambda s: raises(ZeroDivisionError)(s) and "0.5" in s).source
    assert "0.5 * 4" in kept


def test_a_name_passed_that_the_bug_does_not_need_becomes_0():
    # two reductions of one bug had kept self.x(self) and self.x(0): two shapes, two root causes
    source = HEAD + "def g(a, b):\n    return WHAT\n\n\ndef entry(x):\n    y = [x]\n    return g(y, x - x)\n" + TAIL
    out = one_pass("simplify-expressions", source.replace("WHAT", "1 / b"), raises(ZeroDivisionError)).source
    assert "g(0, " in out
    needs_y = one_pass("simplify-expressions", source.replace("WHAT", "1 / b"),
                        lambda s: raises(ZeroDivisionError)(s) and "g(y" in s).source
    assert "g(y, " in needs_y


def test_a_display_that_only_carries_an_observed_value_becomes_its_item():
    # a 2.15 repro of a known bug returned its wrong tensor in a one-item tuple, named apart from the corpus form
    # that returns the tensor; a display elsewhere may be what a bug needs, and another shape than a corpus repro's
    source = HEAD + "def entry(x):\n    EFFECTS.append(((x,),))\n    y = [x / 0]\n    return (y, [x, 1])\n" + TAIL
    recorded = lambda s: raises(ZeroDivisionError)(s) and "EFFECTS.append(" in s  # noqa: E731
    out = one_pass("simplify-expressions", source, recorded).source
    assert "EFFECTS.append((" not in out and "return y\n" in out and "y = [x / 0]\n" in out
    assert not any("y = x / 0" in c for c in pass_candidates("simplify-expressions", source))


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
    out = one_pass("delete-single-statements", source.replace("    return x\n", "    y = 1\n    return x\n"),
                    raises(ZeroDivisionError)).source
    assert "    if x:\n        x = x / 0\n" in out and "else" not in out


def test_delete_statements_never_checks_a_candidate_with_an_orphaned_helper():
    checked = []

    def predicate(source: str) -> bool:
        checked.append(source)
        return isinstance(run_entry(source), ZeroDivisionError)

    result = reduce_source(ORPHANS, predicate, passes=[p for p in PASSES if p.name.startswith("delete-")])
    assert "def helper" not in result.source and "helper(" not in result.source
    assert not [s for s in checked if "def helper" in s and "helper(x)\n" not in s.split("def entry")[1]]


# ---- rename: locals per function ----------------------------------------------------------------------------------

def test_a_base_class_the_bug_does_not_need_is_dropped_and_one_it_needs_stays():
    source = HEAD + ("class Base:\n    pass\n\n\nclass Child(Base):\n    def __init__(self, x):\n        self.v = 1 / x\n"
                     "\n\ndef entry(x):\n    return Child(x - x)\n" + TAIL)
    out = one_pass("drop-arguments", source, raises(ZeroDivisionError)).source
    assert "class Child:" in out and "class Child(Base)" not in out
    needed = source.replace("class Base:\n    pass\n", "class Base:\n    def __init__(self, x):\n        self.v = 1 / x\n")
    needed = needed.replace("    def __init__(self, x):\n        self.v = 1 / x\n\n\ndef entry",
                            "    pass\n\n\ndef entry")
    assert "class Child(Base):\n    pass" in needed
    assert "class Child(Base)" in one_pass("drop-arguments", needed, raises(ZeroDivisionError)).source
