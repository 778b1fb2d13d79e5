"""Conformance: generators alive across a break resume where they were, as frames persisted in the snapshot
— `@contextmanager` blocks (a break in the block, in the generator before or after its yield, an exception
thrown in) and generators iterated by a for-loop (a break in the loop body or in the generator), at depth."""

from __future__ import annotations

import contextlib

import pytest
import torch

from .conformance import Scenario, check_scenario, x1, xg
from .test_conformance_exc import describe

gb = torch._dynamo.graph_break


def _leaf(log, x):
    log.append(("leaf", torch.is_grad_enabled()))
    gb()
    return x * 2


@contextlib.contextmanager
def breaks_before_yield(log):
    log.append("enter")
    gb()
    yield "v"
    log.append("exit")


@contextlib.contextmanager
def breaks_after_yield(log, x):
    log.append("enter")
    yield x + 1
    gb()
    log.append("exit")


@contextlib.contextmanager
def suppresses(log):
    try:
        yield
    except KeyError as e:
        log.append(("suppressed", e.args))


@contextlib.contextmanager
def translates(log):
    try:
        yield
    except KeyError as e:
        raise ValueError("translated") from e


@contextlib.contextmanager
def lets_through(log):
    log.append("in")
    yield
    log.append("never")


@contextlib.contextmanager
def no_grad_block(log):
    with torch.no_grad():
        log.append(("cm", torch.is_grad_enabled()))
        yield
    log.append(("cm-after", torch.is_grad_enabled()))


@contextlib.contextmanager
def yields_twice(log):
    yield 1
    log.append("second")
    yield 2


@contextlib.contextmanager
def yields_again_after_throw(log):
    try:
        yield 1
    except KeyError:
        log.append("caught")
    yield 2  # contextlib: "generator didn't stop after throw()"; eager closes it when the exception dies


@contextlib.contextmanager
def never_yields(log):
    gb()
    log.append("no yield")
    if False:
        yield


def cm_break_before_its_yield(log, x):
    with breaks_before_yield(log) as v:
        y = x + 1
    return y, v


def cm_break_after_its_yield(log, x):
    with breaks_after_yield(log, x) as v:
        y = v * 3
    log.append("after")
    return y


def cm_break_in_block_at_depth(log, x):
    def inner(v):
        with lets_through(log):
            return _leaf(log, v) + 1

    def outer(v):
        with breaks_after_yield(log, v) as w:
            return inner(w) * 2

    return outer(x)


def cm_suppresses_after_break(log, x):
    with suppresses(log):
        log.append(_leaf(log, x))
        raise KeyError("k")
    log.append("after")
    return x + 1


def cm_translates_after_break(log, x):
    try:
        with translates(log):
            _leaf(log, x)
            raise KeyError("k")
    except ValueError as e:
        err = e
    return x - 1, describe(err)


def cm_lets_exception_through_after_break(log, x):
    try:
        with lets_through(log):
            _leaf(log, x)
            raise KeyError("through")
    except KeyError as e:
        err = e
    return x * 3, describe(err)


def cm_grad_mode_inside_generator(log, x):
    with no_grad_block(log):
        y = _leaf(log, x)
        z = x * 4
    return y, z, y.requires_grad, z.requires_grad, torch.is_grad_enabled()


def cm_yields_twice(log, x):
    try:
        with yields_twice(log) as v:
            log.append(_leaf(log, x) + v)
    except RuntimeError as e:
        log.append(str(e))
    return x


def cm_yields_again_after_throw(log, x):
    try:
        with yields_again_after_throw(log):
            _leaf(log, x)
            raise KeyError("k")
    except RuntimeError as e:
        log.append(str(e))
    log.append("after")
    return x


def cm_never_yields(log, x):
    try:
        with never_yields(log):
            log.append("block")
    except RuntimeError as e:
        log.append(str(e))
    return x + 1


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
    Scenario(cm_break_before_its_yield, x1, 1),
    Scenario(cm_break_after_its_yield, x1, 1),
    Scenario(cm_break_in_block_at_depth, x1, 2),
    Scenario(cm_suppresses_after_break, x1, 1),
    Scenario(cm_translates_after_break, x1, 1),
    Scenario(cm_lets_exception_through_after_break, x1, 1),
    Scenario(cm_grad_mode_inside_generator, xg, 1),
    Scenario(cm_yields_twice, x1, 1),
    # two yields and a try block: made eager (left suspended, eager closes it when its object dies)
    Scenario(cm_yields_again_after_throw, x1, 1, restarts=1),
    Scenario(cm_never_yields, x1, 1),
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
