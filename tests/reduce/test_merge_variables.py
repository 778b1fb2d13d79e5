"""merge-variables: a temporary the bug does not need reads as another variable of its function, and its store
goes; and simplify-expressions' ``yield x`` to ``yield``."""

from __future__ import annotations

import types

from fuzz.reduce import code_lines, reduce_source
from tests.reduce.helpers import pass_candidates

GENERATOR = '''import torch


def f1(x):
    def f2():
        yield x
        return x
    y = f2()
    z = next(y)
    try:
        next(y)
    except StopIteration as stop:
        x = z + stop.value
    return x


def entry(x):
    return f1(x)


def make_inputs(device):
    return (3,)
'''


def _body(source: str, name: str) -> str:
    return source.split(f"def {name}(")[1].split("\n\n")[0]


def test_a_read_takes_another_variable_and_the_store_keeps_its_call():
    candidates = pass_candidates("merge-variables", GENERATOR)
    merged = [c for c in candidates if "x = x + stop.value" in c]
    assert len(merged) == 1
    assert "\n    next(y)\n    try:" in merged[0] and "z = " not in merged[0]


def test_only_a_variable_stored_once_by_a_plain_assignment_and_not_read_from_a_nested_scope():
    candidates = pass_candidates("merge-variables", GENERATOR)
    # x is a parameter (and read by f2); stop is bound by the handler; y and z are stored once
    for c in candidates:
        assert "def f2():\n        yield x\n        return x" in c
    replaced = {n for n in ("y", "z") if any(f"{n} = " not in _body(c, "f1") for c in candidates)}
    assert replaced == {"y", "z"}
    source = ("def entry(a):\n    b = a + 1\n    b = b * 2\n    c = a\n    def g():\n        return c\n"
              "    return b + g()\n\n\ndef make_inputs(device):\n    return (1,)\n")
    assert pass_candidates("merge-variables", source) == []  # b stored twice, c read from g


def test_a_plain_value_goes_with_its_store_and_declared_names_stay():
    source = ("def entry(a):\n    b = 7\n    return a + b\n\n\ndef make_inputs(device):\n    return (1,)\n")
    (merged,) = pass_candidates("merge-variables", source)
    assert _body(merged, "entry") == "a):\n    return a + a"
    declared = ("G = 0\n\n\ndef entry(a):\n    global G\n    G = a\n    return a + G\n\n\n"
                "def make_inputs(device):\n    return (1,)\n")
    assert pass_candidates("merge-variables", declared) == []


def _value(source: str):
    module = types.ModuleType("candidate")
    exec(compile(source, "candidate", "exec"), module.__dict__)
    return module.entry(*module.make_inputs("cpu"))


def test_the_reducer_merges_a_temporary_only_when_the_outcome_survives():
    # z is read twice (inline-variables takes a variable read once); it equals a, the step it stores is needed
    source = ("def entry(a):\n    it = iter([a, a + 1])\n    z = next(it)\n    return z + next(it) + z\n\n\n"
              "def make_inputs(device):\n    return (5,)\n")
    out = reduce_source(source, lambda s: _value(s) == 16).source
    assert _value(out) == 16
    assert "    next(y)\n    return x + next(y) + x\n" in out  # renamed: a is x, it is y
    assert code_lines(out) == 6


def test_yield_loses_its_value_when_the_bug_does_not_need_it():
    with_value = [c for c in pass_candidates("simplify-expressions", GENERATOR) if "        yield\n" in c]
    assert len(with_value) == 1 and "        return x\n" in with_value[0]


def _inlined(body: str) -> list[str]:
    source = f"def entry(a):\n{body}\n\n\ndef make_inputs(device):\n    return (1,)\n"
    return [_body(c, "entry") for c in pass_candidates("inline-variables", source)]


def test_inline_variables_takes_a_store_read_once_after_it_though_the_name_is_stored_before():
    assert "a):\n    x = a + 1\n    return f(x)" in _inlined("    x = a + 1\n    x = f(x)\n    return x")


def test_inline_variables_leaves_a_store_read_again_later_in_a_loop_or_a_closure_or_rebound_otherwise():
    # read twice after the store
    assert not any("return f(x) + x" in c for c in _inlined("    x = f(a)\n    y = x\n    return y + x"))
    # read on every turn of the loop, stored again in it: x = a stays; y (read once, after it) goes
    assert _inlined("    x = a\n    for i in range(2):\n        y = x\n        x = y + 1\n    return x") == [
        "a):\n    x = a\n    for i in range(2):\n        x = x + 1\n    return x"]
    # in a loop, a store that an earlier statement of the body reads on the next turn stays
    assert _inlined("    for i in range(2):\n        y = f(x)\n        x = g(a)\n        h(x)\n    return y") == []
    # a closure defined before the store reads it when called
    loop = _inlined("    def g():\n        return x\n    x = f(a)\n    return x + g()")
    assert not any("return f(a) + g()" in c for c in loop)
    # an except-clause name rebinds it between the store and the read
    rebound = _inlined("    x = f(a)\n    try:\n        pass\n    except E as x:\n        pass\n    return x")
    assert not any("return f(a)" in c for c in rebound)
