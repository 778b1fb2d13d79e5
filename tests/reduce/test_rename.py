"""The rename pass: canonical names, each plain function's locals afresh, never a name still taken."""

from __future__ import annotations

from tests.reduce.helpers import HEAD, TAIL, pass_candidates

LOCALS = HEAD + '''def helper(value):
    doubled = value * 2
    return doubled


def entry(tensor_input):
    return helper(tensor_input)
''' + TAIL


def test_rename_names_each_plain_function_locals_afresh():
    renamed = pass_candidates("rename", LOCALS)[-1]
    assert "def helper(x):\n    y = x * 2\n    return y" in renamed
    assert "def entry(x):\n    return helper(x)" in renamed


def test_rename_keeps_parameters_passed_by_keyword_and_closures():
    source = LOCALS.replace("helper(tensor_input)", "helper(value=tensor_input)").replace(
        "    doubled = value * 2\n", "    doubled = (lambda: value)() * 2\n")
    renamed = pass_candidates("rename", source)[-1]  # the per-function candidate comes last
    assert "def helper(value):" in renamed and "y = (lambda: value)()" not in renamed
    assert "def entry(x):\n    return helper(value=x)" in renamed  # entry itself is plain


def test_rename_one_at_a_time_never_takes_a_name_the_program_still_has():
    # the canonical order makes f7 into f1 and f1 into f2: renaming f7 alone would leave two f1s
    source = HEAD + '''def f7():
    return 1


def f1():
    return f7() + 1


def entry(x):
    return x * f1()
''' + TAIL
    candidates = pass_candidates("rename", source)
    assert any("def f1():\n    return 1" in c and "def f2():\n    return f1() + 1" in c for c in candidates)
    for candidate in candidates:
        defined = [line for line in candidate.splitlines() if line.startswith("def ")]
        assert len(defined) == len(set(defined)), candidate


SHADOW = HEAD + '''def helper():
    def f3():
        yield 1
    return list(f3())


def f3(x):
    return x * len(helper())


def entry(x):
    return f3(x)
''' + TAIL


def test_rename_gives_a_nested_definition_that_shadows_another_its_own_name():
    candidates = [c for c in pass_candidates("rename", SHADOW) if "def f3():" not in c]
    assert candidates, "no candidate renames the nested f3"
    unshadowed = candidates[-1]
    assert "def f3(x):" in unshadowed and "return list(f1())" in unshadowed and "    def f1():" in unshadowed
    namespace: dict = {}
    exec(compile(unshadowed.split("# ----")[0], "<candidate>", "exec"), namespace)
    assert namespace["entry"](3) == 3  # the same program


def test_a_shadow_rebound_in_a_nested_scope_or_by_a_parameter_is_left_alone():
    rebound = SHADOW.replace("    return list(f3())", "    def g():\n        f3 = 1\n        return f3\n    return list(f3())")
    parameter = SHADOW.replace("def helper():\n    def f3", "def helper(f3=None):\n    def f3")
    for source in (rebound, parameter):
        assert all("def f3():" in c for c in pass_candidates("rename", source) if "def f3(x)" in c)
