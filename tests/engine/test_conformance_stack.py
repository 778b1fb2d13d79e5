"""Conformance: a break in a callee while every caller holds values on its operand stack."""

from __future__ import annotations

import pytest
import torch

from .conformance import Scenario, check_scenario, x1

gb = torch._dynamo.graph_break


def _brk(log, v, tag="b"):
    log.append(tag)
    gb()
    return v + 1


def _brk_deep(log, v):
    return _brk(log, v * 2, "deep") - 1


def tuple_display(log, x):
    return (x * 2, _brk(log, x), x - 3, "k")


def list_display(log, x):
    return [x, _brk(log, x), _brk(log, x * 2, "c")]


def dict_display(log, x):
    return {"a": x + 1, "b": _brk_deep(log, x), "c": 3}


def set_display(log, x):
    return sorted({1, int(_brk(log, x).sum() > -100), 5})


def binary_op_left(log, x):
    return (x * 3) + _brk(log, x)


def binary_op_chain(log, x):
    return x - (x * 2 + _brk_deep(log, x)) * (x + 1)


def call_arguments(log, x):
    return torch.cat([x, x + 1, _brk(log, x)], dim=0)


def keyword_arguments(log, x):
    def f(a, b, *, c, d=0):
        return a * b + c - d

    return f(x, 2, c=_brk(log, x), d=x)


def method_call(log, x):
    return x.add(_brk(log, x), alpha=2).mul(2)


def fstring_parts(log, x):
    n = 3
    return f"{n}-{_brk(log, x).shape}-{'z'}", x + 1


def subscript_index(log, x):
    lst = [x, x + 1, x + 2]
    return lst[int(_brk(log, x).sum() > -100)] * 2


def comprehension_element(log, x):
    return [_brk(log, x * k, f"k{k}") for k in range(3)]


def conditional_expression(log, x):
    return x + (_brk(log, x) if len(log) == 0 else x)


def unpacking_result(log, x):
    def pair(v):
        gb()
        return v + 1, v - 1

    a, b = pair(x)
    c, *rest = (x, pair(x * 2), 7)
    return a * b, c, rest


def star_args_call(log, x):
    def f(*args, **kwargs):
        return sum(args) + kwargs["k"]

    return f(*[x, _brk(log, x)], **{"k": x * 2})


def nested_calls_all_holding(log, x):
    def a(v):
        return [v, b(v) * 2]

    def b(v):
        return (v + 1, c(v))[1] - 3

    def c(v):
        return {"r": _brk(log, v)}["r"]

    return a(x)


def compare_chain(log, x):
    return 0 < len(log) + 1 < _brk(log, x).numel() + 5, x * 1


SCENARIOS = [
    Scenario(tuple_display, x1, 2),
    Scenario(list_display, x1, 2),
    Scenario(dict_display, x1, 2),
    Scenario(set_display, x1, 1),
    Scenario(binary_op_left, x1, 2),
    Scenario(binary_op_chain, x1, 2),
    Scenario(call_arguments, x1, 2),
    Scenario(keyword_arguments, x1, 1),
    Scenario(method_call, x1, 1),
    Scenario(fstring_parts, x1, 1),
    Scenario(subscript_index, x1, 3),
    Scenario(comprehension_element, x1, 4),
    Scenario(conditional_expression, x1, 1),
    Scenario(unpacking_result, x1, 2),
    Scenario(star_args_call, x1, 1),
    Scenario(nested_calls_all_holding, x1, 2),
    Scenario(compare_chain, x1, 1),
]


@pytest.mark.parametrize("sc", SCENARIOS, ids=lambda sc: sc.name)
def test_operand_stack(sc):
    check_scenario(sc)
