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
