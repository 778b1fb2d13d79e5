"""Conformance: generators alive across a break resume where they were, as frames persisted in the snapshot
— generators iterated by a for-loop (a break in the loop body or in the generator), `yield from` delegates,
generators list() consumes, at depth. (`@contextmanager` blocks: test_conformance_cms.py.)"""

from __future__ import annotations

import pytest
import torch

from .conformance import Scenario, check_scenario, x1, xg
from .test_conformance_exc import describe

gb = torch._dynamo.graph_break


def _leaf(log, x):
    log.append(("leaf", torch.is_grad_enabled()))
    gb()
    return x * 2


def _count(log, x, n):
    for i in range(n):
        log.append(("gen", i))
        yield x + i


def _count_breaking(log, x, n):
    for i in range(n):
        gb()
        log.append(("gen", i))
        yield x * i


def for_generator_break_in_body(log, x):
    acc = x
    for v in _count(log, x, 3):
        acc = _leaf(log, acc) + v
    return acc


def for_generator_break_in_generator(log, x):
    acc = x
    for v in _count_breaking(log, x, 3):
        log.append("body")
        acc = acc + v
    return acc


def for_generator_early_exit(log, x):
    for v in _count(log, x, 5):  # noqa: B007  (v is read after the loop)
        gb()
        if len(log) > 2:
            break
    return v


def nested_generator_loops(log, x):
    out = []
    for a in _count(log, x, 2):
        for b in _count_breaking(log, a, 2):
            out.append(a * b)
    return out


def generator_loop_at_depth(log, x):
    def mid(v):
        total = v
        for w in _count(log, v, 2):
            total = total + _leaf(log, w)
        return total

    with torch.no_grad():
        return mid(x) + 1


def _yields_while_handling(log):
    try:
        raise KeyError("in generator")
    except KeyError:
        yield 1  # suspended while it handles KeyError: the caller does not
    yield 2


def generator_handled_exception_is_its_own(log, x):
    out = []
    for v in _yields_while_handling(log):
        try:
            raise ValueError(v)
        except ValueError as e:
            out.append(repr(e.__context__))
    return x + 1, out


def _raises_stop(log, x):
    yield x
    gb()
    raise StopIteration("inside")


def generator_raising_stop_iteration(log, x):
    out = []
    try:
        for v in _raises_stop(log, x):
            out.append(v * 2)
    except RuntimeError as e:  # PEP 479
        out.append(describe(e))
    return out


def _delegate(log, x):
    log.append("delegate")
    gb()
    yield x
    gb()
    yield x + 1
    return "delegated"


def _delegating(log, x):
    r = yield from _delegate(log, x)
    log.append(r)
    r = yield from iter([x * 3])
    log.append(r)


def yield_from_break_inside_delegate(log, x):
    return [v * 2 for v in _delegating(log, x)]


def yield_from_delegate_in_loop_across_break(log, x):
    out = []
    for v in _delegating(log, x):
        out.append(_leaf(log, v))
    return out


_real_gen = torch._dynamo.disable(_count)


def _delegating_to_real(log, x):
    r = yield from _real_gen(log, x, 2)  # a real generator: each step is an eager op
    log.append(r)


def yield_from_real_generator(log, x):
    out = []
    for v in _delegating_to_real(log, x):
        out.append(v - 1)
    return out


def _squares(log, x, n):
    for i in range(n):
        log.append(("sq", i, torch.is_grad_enabled()))
        if i == 1:
            gb()
        yield x * i
    if n > 3:
        raise ValueError("too many")


def list_of_generator_breaking_inside(log, x):
    a = list(_squares(log, x, 3))
    with torch.no_grad():
        b = tuple(_squares(log, x + 1, 2))
    try:
        list(_squares(log, x, 4))
    except ValueError as e:
        log.append(str(e))
    return a, b


def _closes_over_its_parameter(log, x):
    # x is a cell variable: the comprehension and the lambda close over it, so CPython makes its cell at the
    # call, before the generator exists
    yield [x * k for k in (1.0, 2.0)]
    gb()
    x = x + 1
    yield (lambda: x * 3)()


def generator_cell_parameter_across_break(log, x):
    out = []
    for v in _closes_over_its_parameter(log, x):
        log.append(len(v) if isinstance(v, list) else "one")
        out.append(v)
    return out


def _closure_made_before_break(log, x):
    def bump():
        nonlocal x
        x = x * 2
        return x
    yield bump()
    gb()
    yield bump()


def generator_cell_written_by_closure_across_break(log, x):
    return list(_closure_made_before_break(log, x))

SCENARIOS = [
    Scenario(for_generator_break_in_body, x1, 4),
    Scenario(for_generator_break_in_generator, x1, 3),
    Scenario(for_generator_early_exit, x1, 3),
    Scenario(nested_generator_loops, x1, 5),
    Scenario(generator_loop_at_depth, x1, 3),
    Scenario(generator_handled_exception_is_its_own, x1, 1),
    Scenario(yield_from_break_inside_delegate, x1, 2),
    Scenario(yield_from_delegate_in_loop_across_break, x1, 4),
    Scenario(yield_from_real_generator, x1, 2),
    Scenario(generator_raising_stop_iteration, x1, 1),
    Scenario(list_of_generator_breaking_inside, xg, 4),
    Scenario(generator_cell_parameter_across_break, x1, 2),
    Scenario(generator_cell_written_by_closure_across_break, x1, 2),
]


@pytest.mark.parametrize("sc", SCENARIOS, ids=lambda sc: sc.name)
def test_generators_across_breaks(sc):
    check_scenario(sc)
