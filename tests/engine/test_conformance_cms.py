"""Conformance: `@contextmanager` blocks alive across a break resume where they were, their generators' frames
persisted in the snapshot: a break in the block, in the generator before or after its yield, an exception
thrown in (suppressed, translated, let through), grad mode inside the generator, at depth."""

from __future__ import annotations

import contextlib

import pytest
import torch

from .conformance import Scenario, check_scenario, x1, xg
from .test_conformance_exc import describe
from .test_conformance_gens import _leaf

gb = torch._dynamo.graph_break


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
]


@pytest.mark.parametrize("sc", SCENARIOS, ids=lambda sc: sc.name)
def test_contextmanagers_across_breaks(sc):
    check_scenario(sc)
