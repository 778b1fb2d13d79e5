"""Conformance: closures and nonlocal cells across breaks; closures of another module reading its globals."""

from __future__ import annotations

import types

import pytest
import torch

from .conformance import Scenario, check_scenario, x1

gb = torch._dynamo.graph_break


def nonlocal_before_and_after_break(log, x):
    acc = x

    def bump(v):
        nonlocal acc
        acc = acc + v
        gb()
        acc = acc * 2
        log.append("bumped")

    bump(1)
    bump(2)
    return acc


def nonlocal_three_depths(log, x):
    total = x

    def a(v):
        def b(w):
            def c(z):
                nonlocal total
                total = total + z
                gb()
                total = total - 1
                return total

            return c(w * 2)

        return b(v + 1)

    r = a(x)
    return r, total


def cell_read_after_caller_writes(log, x):
    scale = 2

    def inner(v):
        gb()
        return v * scale

    scale = 3
    a = inner(x)
    scale = 4
    return a, inner(x)


def dead_cell(log, x):
    def make():
        hidden = x + 1

        def get():
            return hidden

        return get

    g = make()
    gb()
    return g() * 2


def unbound_cell_read(log, x):
    def inner():
        return later  # noqa: F821  (bound below, read before it is)

    try:
        inner()
    except NameError as e:
        log.append(type(e).__name__)
    gb()
    later = x + 1
    return inner()


def closure_counter(log, x):
    def counter():
        n = 0

        def step():
            nonlocal n
            n += 1
            gb()
            return n

        return step

    s = counter()
    return s(), s(), s(), x * s()


def lambda_closure_across_break(log, x):
    k = 5
    f = lambda v: v * k  # noqa: E731
    gb()
    k = 7
    return f(x)


def closure_list_cell(log, x):
    items = []

    def add(v):
        items.append(v)
        gb()
        items.append(v + 1)

    add(x)
    add(x * 2)
    return items


_OTHER = types.ModuleType("conformance_other")
exec(
    """
import torch
SCALE = 3
CALLS = []

def scaled(x):
    CALLS.append('scaled')
    torch._dynamo.graph_break()
    return x * SCALE

def make_adder(k):
    def add(x):
        torch._dynamo.graph_break()
        return x + k + SCALE
    return add
""",
    _OTHER.__dict__,
)

SCALE = 100


def other_module_globals(log, x):
    y = _OTHER.scaled(x)
    return y + SCALE


def other_module_closure(log, x):
    add = _OTHER.make_adder(2)
    return add(x) * SCALE


def other_module_closure_made_here(log, x):
    inner = _OTHER.make_adder(SCALE)

    def outer(v):
        gb()
        return inner(v) - SCALE

    return outer(x)


def _reset_other():
    _OTHER.CALLS.clear()


def _other_calls():
    return list(_OTHER.CALLS)


def function_default_captured(log, x):
    def f(v, k=x + 1):
        gb()
        return v * k

    return f(x), f(x, 2)


SCENARIOS = [
    Scenario(nonlocal_before_and_after_break, x1, 3),
    Scenario(nonlocal_three_depths, x1, 2),
    Scenario(cell_read_after_caller_writes, x1, 2),
    Scenario(dead_cell, x1, 2),
    Scenario(unbound_cell_read, x1, 1),
    Scenario(closure_counter, x1, 1),
    Scenario(lambda_closure_across_break, x1, 1),
    Scenario(closure_list_cell, x1, 2),
    Scenario(other_module_globals, x1, 1, setup=_reset_other, observe=_other_calls),
    Scenario(other_module_closure, x1, 1),
    Scenario(other_module_closure_made_here, x1, 1),
    Scenario(function_default_captured, x1, 3),
]


@pytest.mark.parametrize("sc", SCENARIOS, ids=lambda sc: sc.name)
def test_closures(sc):
    check_scenario(sc)
