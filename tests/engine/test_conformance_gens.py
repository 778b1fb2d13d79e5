"""Conformance: generators alive across a break resume where they were, as frames persisted in the snapshot
— generators iterated by a for-loop (a break in the loop body or in the generator), `yield from` delegates,
generators list() consumes, and generators held by locals that next()/send() step (a break between steps
or inside the generator, at depth, the same generator in two locals or passed to a callee, finished or not
started; one the code reads as an object is made real). (`@contextmanager` blocks: test_conformance_cms.py.)"""

from __future__ import annotations

import pytest
import torch

from .conformance import Scenario, check_scenario, x1, xg
from .helpers import t
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

def _two(log, x):
    log.append("start")
    yield x + 1
    log.append("middle")
    yield x * 2
    log.append("end")


def next_across_break(log, x):
    g = _two(log, x)
    a = next(g)
    gb()
    b = next(g)
    return a + b, next(g, "done"), next(g, "again")


def next_across_break_at_depth(log, x):
    def inner(v):
        log.append("inner")
        gb()
        return v - 1

    def mid(v):
        g = _two(log, v)
        a = next(g)
        b = inner(a)  # the break is a frame deeper than the one holding the generator
        return b + next(g)

    return mid(x) * 2


def _breaks_inside(log, x):
    log.append("a")
    gb()
    yield x + 1
    gb()
    log.append("b")
    yield x - 1


def next_with_break_inside_generator(log, x):
    def mid(v):
        g = _breaks_inside(log, v)
        a = next(g)  # the break is in the generator, while next() steps it
        return a * next(g), next(g, "done")

    g = _breaks_inside(log, x)
    return next(g), mid(x + 1)


def _accumulate(log, x):
    total = x
    while True:
        v = yield total
        if v is None:
            return
        log.append("got")
        total = total + v


def send_across_break(log, x):
    g = _accumulate(log, x)
    a = next(g)
    gb()
    b = g.send(x * 2)
    gb()
    c = g.send(1.5)
    try:
        g.send(None)
    except StopIteration as e:
        stop = describe(e)
    return a, b, c, stop


def send_into_a_new_generator(log, x):
    g = _accumulate(log, x)
    h = _accumulate(log, x)
    gb()
    try:
        g.send(1)
    except TypeError as e:
        err = describe(e)
    return err, h.send(None), next(g, "g")


def exhausted_generator_across_break(log, x):
    g = _two(log, x)
    out = list(g)
    gb()
    out.append(next(g, "empty"))
    try:
        next(g)
    except StopIteration as e:
        out.append(describe(e))
    for v in g:
        out.append(v)
    out.append(tuple(g))
    return out


def generator_run_out_across_breaks(log, x):
    g = _two(log, x)
    out = []
    while True:
        try:
            v = next(g)
        except StopIteration as e:
            out.append(describe(e))
            break
        gb()
        out.append(v * 2)
    return out


def same_generator_in_two_locals(log, x):
    g = _two(log, x)
    h = g
    a = next(g)
    gb()
    b = next(h)  # the same generator: one frame, persisted once
    return a, b, g is h, h is not None, next(g, "done"), next(h, "done")


def generator_argument_to_callee(log, x):
    def consume(gen):
        a = next(gen)
        gb()
        return a + next(gen)

    g = _two(log, x)
    return consume(g), next(g, "done")


def _doubled(log, gen):
    for v in gen:
        log.append("doubled")
        yield v * 2


def generator_holding_generator(log, x):
    inner = _two(log, x)
    outer = _doubled(log, inner)
    a = next(outer)
    gb()
    return a, next(outer), next(inner, "inner done"), list(outer)


def generator_for_loop_and_next(log, x):
    g = _two(log, x)
    out = []
    for v in g:
        gb()
        out.append(v)
        break
    out.append(next(g))
    gb()
    out.extend(g)  # (not a use the VM follows: made real at the break above)
    return out


def generator_escapes_after_break(log, x):
    g = _two(log, x)
    a = next(g)
    gb()
    b = next(g)
    next(g, None)
    return a + b, type(g).__name__, g.gi_frame is None  # read as an object: made real


_held = []


def generator_stored_before_break(log, x):
    g = _two(log, x)
    _held.append(g)
    a = next(g)
    gb()
    return a + next(g), len(_held)


def generator_not_started_across_break(log, x):
    g = _two(log, x)
    gb()
    log.append("resumed")
    return list(g)


def generator_data_dependent_across_break(log, x):
    g = _two(log, x)
    a = next(g)
    if a.sum() > 0:  # a break whose outcome depends on the input: the second call takes the other way
        log.append("pos")
        return next(g) - a, next(g, "done")
    log.append("neg")
    return next(g, "unused"), list(g)


def _three(log, x):
    for i in range(3):
        log.append(("g", i))
        yield x + i


def next_in_the_loop_over_it(log, x):
    g = _three(log, x)
    out = []
    for v in g:
        out.append(next(g, "none"))  # the loop's iterator, stepped by next() too
        gb()
        out.append(v)
    return out


def send_argument_breaks(log, x):
    def h(v):
        gb()
        return v * 3

    g = _accumulate(log, x)
    a = next(g)
    b = g.send(h(x))  # the break comes while the argument is computed: g.send is on the stack
    return a, b, g.send(h(b))


def send_wrong_arguments(log, x):
    g = _accumulate(log, x)
    next(g)
    gb()
    out = []
    for k in range(3):
        try:
            if k == 0:
                g.send()
            elif k == 1:
                g.send(1, 2)
            else:
                g.send(v=1)
        except TypeError as e:
            out.append(describe(e))
    return out, g.send(2.0)


def _raises_after_break(log, x):
    yield x
    gb()
    raise ValueError("boom")


def generator_raises_through_next(log, x):
    g = _raises_after_break(log, x)
    a = next(g)
    gb()
    try:
        next(g)
    except ValueError as e:
        return a * 2, describe(e), next(g, "after")


def _pos():
    return (t(3).abs() + 1,)


def _neg():
    return (-(t(3).abs() + 3),)


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
    Scenario(next_across_break, x1, 2),
    Scenario(next_across_break_at_depth, x1, 2),
    Scenario(next_with_break_inside_generator, x1, 3),
    Scenario(send_across_break, x1, 2),
    Scenario(send_into_a_new_generator, x1, 0),
    Scenario(send_argument_breaks, x1, 2),
    Scenario(send_wrong_arguments, x1, 1),
    Scenario(exhausted_generator_across_break, x1, 1),
    Scenario(generator_run_out_across_breaks, x1, 3),
    Scenario(generator_raises_through_next, x1, 1),
    Scenario(same_generator_in_two_locals, x1, 2),
    Scenario(generator_argument_to_callee, x1, 2),
    Scenario(generator_holding_generator, x1, 2),
    Scenario(next_in_the_loop_over_it, x1, 2),
    Scenario(generator_not_started_across_break, x1, 1),
    Scenario(generator_data_dependent_across_break, _pos, 3, inputs2=_neg),
    # read as an object, stored, or stepped by what the VM does not follow: made real, as before
    Scenario(generator_escapes_after_break, x1, 1, restarts=1),
    Scenario(generator_stored_before_break, x1, 2, restarts=1, setup=_held.clear),
    Scenario(generator_for_loop_and_next, x1, 0, restarts=1),
]


@pytest.mark.parametrize("sc", SCENARIOS, ids=lambda sc: sc.name)
def test_generators_across_breaks(sc):
    check_scenario(sc)
