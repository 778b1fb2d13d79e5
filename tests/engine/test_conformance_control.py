"""Conformance: control flow resumed inside a break — loops, try blocks, early returns, recursion,
comprehensions and generators (suspended across a break, exhausted, returning a value, `yield from`)."""

from __future__ import annotations

import pytest
import torch

from .conformance import Scenario, check_scenario, x1

gb = torch._dynamo.graph_break


def for_loop_break_each_iteration(log, x):
    for i in range(3):
        x = x * 2
        log.append(i)
        gb()
    return x


def for_loop_over_list_break_in_callee(log, x):
    def step(v, k):
        gb()
        return v + k

    for k in [1, 2, 3]:
        x = step(x, k)
    return x


def while_loop_with_break_and_continue(log, x):
    i = 0
    while i < 6:
        i += 1
        if i % 2:
            continue
        gb()
        x = x + i
        if i == 4:
            break
    else:
        log.append("no break")
    return x, i


def try_except_break_in_try(log, x):
    try:
        gb()
        y = x + 1
        raise KeyError("k")
    except KeyError:
        log.append("caught")
        y = x * 3
    return y


def try_finally_break_in_finally(log, x):
    try:
        y = x + 1
    finally:
        log.append("finally")
        gb()
        y = y * 2
    return y


def exception_from_callee_after_break(log, x):
    def bad(v):
        gb()
        raise ZeroDivisionError("div")

    try:
        bad(x)
    except ZeroDivisionError as e:
        log.append(str(e))
        return x - 1
    return x


def early_return_from_loop(log, x):
    for i in range(10):
        gb()
        if i == 2:
            return x * i
    return x


def recursion_break_at_bottom(log, x):
    def rec(v, n):
        if n == 0:
            gb()
            return v
        return rec(v + n, n - 1) * 2

    return rec(x, 4)


def list_comprehension_with_break(log, x):
    def f(k):
        gb()
        return x * k

    return [f(k) for k in range(3) if k != 1]


def dict_comprehension_with_break(log, x):
    return {k: (gb(), x + i)[1] for i, k in enumerate("ab")}


def _count_up(log, x, n):
    for i in range(n):
        log.append(("gen", i))
        yield x + i


def generator_consumed_by_for(log, x):
    acc = x
    for v in _count_up(log, x, 3):
        acc = acc + v
    return acc


def generator_suspended_across_break(log, x):
    g = _count_up(log, x, 3)
    a = next(g)
    gb()
    b = next(g)
    return a + b


def generator_break_inside(log, x):
    def gen():
        for i in range(2):
            gb()
            yield x * i

    return list(gen())


def generator_exhausted(log, x):
    g = _count_up(log, x, 2)
    out = list(g)
    gb()
    return out, next(g, "done"), list(g)


def _returns_value(log, x):
    yield x
    return "result"


def generator_return_value(log, x):
    g = _returns_value(log, x)
    first = next(g)
    try:
        next(g)
    except StopIteration as e:
        log.append(e.value)
    return first + 1


def _outer_gen(log, x):
    r = yield from _returns_value(log, x)
    log.append(("delegated", r))
    yield x * 2


def yield_from_delegation(log, x):
    return [v + 1 for v in _outer_gen(log, x)]


def yield_from_across_break(log, x):
    out = []
    for v in _outer_gen(log, x):
        gb()
        out.append(v)
    return out


def generator_with_try_finally(log, x):
    def gen():
        try:
            yield x
            yield x + 1
        finally:
            log.append("closed")

    out = [v * 2 for v in gen()]
    return out


def generator_expression_sum(log, x):
    return sum(x * k for k in range(4))


SCENARIOS = [
    Scenario(for_loop_break_each_iteration, x1, 3),
    Scenario(for_loop_over_list_break_in_callee, x1, 3),
    Scenario(while_loop_with_break_and_continue, x1, 2),
    Scenario(try_except_break_in_try, x1, 1),
    Scenario(try_finally_break_in_finally, x1, 2),
    Scenario(exception_from_callee_after_break, x1, 1),
    Scenario(early_return_from_loop, x1, 1),
    Scenario(recursion_break_at_bottom, x1, 2),
    Scenario(list_comprehension_with_break, x1, 2),
    Scenario(dict_comprehension_with_break, x1, 2),
    Scenario(generator_consumed_by_for, x1, 1),
    Scenario(generator_suspended_across_break, x1, 2),
    Scenario(generator_break_inside, x1, 2),  # list() runs the generator as a frame: resumed inside it
    Scenario(generator_exhausted, x1, 1),
    Scenario(generator_return_value, x1, 1),
    Scenario(yield_from_delegation, x1, 1),
    Scenario(yield_from_across_break, x1, 1),  # the delegating generator is persisted in the snapshot
    Scenario(generator_with_try_finally, x1, 1),
    Scenario(generator_expression_sum, x1, 1),
]


@pytest.mark.parametrize("sc", SCENARIOS, ids=lambda sc: sc.name)
def test_control_flow(sc):
    check_scenario(sc)
