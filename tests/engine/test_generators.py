"""Generators made by traced code: traced as suspendable frames, or made eagerly when they cannot be."""

from __future__ import annotations

import torch

from .helpers import check, t

gb = torch._dynamo.graph_break


def x1():
    return (t(3),)


def gen_squares(x, n, log):
    for i in range(n):
        log.append(("yield", i))
        yield x * i


def consumers(x):
    log = []
    total = sum(x * k for k in range(3))
    firsts = [v for v in gen_squares(x, 3, log)]
    g = gen_squares(x, 4, log)
    a = next(g)
    b = next(g)
    rest = list(g)
    done = next(g, "done")
    flags = (all(v > -100 for v in [1, 2, 3]), any(k > 1 for k in range(3)), all(k < 1 for k in range(5)))
    return total, firsts, a, b, rest, done, flags, log, max(k * 2 for k in range(4))


def lazy_interleaving(x):
    log = []
    for v in gen_squares(x, 3, log):
        log.append("body")
        x = x + v
    return x, log


def break_inside_generator(x):
    log = []

    def g():
        for i in range(3):
            log.append(i)
            gb()
            yield x + i

    out = []
    for v in g():  # noqa: B007  (v is read after the loop)
        out.append(v)
    return out, log, sum(v.sum() for v in out)


def generator_escapes(x):
    return gen_squares(x, 2, [])


def generator_with_finally(x):
    log = []

    def g():
        try:
            yield x
            yield x + 1
        finally:
            log.append("closed")

    for v in g():  # noqa: B007  (v is read after the loop)
        break
    return v * 1, log


def short_circuit(x):
    log = []

    def g():
        for i in range(5):
            log.append(i)
            yield i
    return any(v == 1 for v in g()), log, x + 1


def test_consumers():
    c = check(consumers, x1)
    assert c.stats()["breaks"] == 0


def test_lazy_interleaving():
    check(lazy_interleaving, x1)


def test_break_inside_generator():
    check(break_inside_generator, x1)  # the loop's generator frame is persisted in the snapshot


def test_generator_escapes():
    import engine

    c = engine.compile(generator_escapes)
    x = t(3)
    out = list(c(x))
    ref = list(generator_escapes(x))
    assert all(torch.equal(a, b) for a, b in zip(out, ref)) and len(out) == len(ref)


def test_generator_with_finally():
    # abandoned while suspended in its try: eager closes it (finally runs) when the loop drops it, a time
    # the VM does not track, so the trace restarts with the generator made eagerly
    check(generator_with_finally, x1, restarts=1)


def generators_with_handlers_run_to_the_end(x):
    log = []

    def guarded(n):
        try:
            for i in range(n):
                try:
                    if i == 1:
                        raise ValueError(i)
                    yield x * i
                except ValueError as e:
                    log.append(("caught", e.args))
                    yield x - i
        finally:
            log.append("finally")

    def under_no_grad():
        with torch.no_grad():
            yield x * 2
        yield torch.is_grad_enabled()

    a = [v + 1 for v in guarded(3)]
    b = list(under_no_grad())
    c = sum(guarded(2))
    return a, b, c, log


def test_generators_with_handlers_traced_when_they_finish():
    """A generator with try/except/finally or with-blocks that runs to its end is traced like any other
    (its handlers run in the trace, as eagerly): one graph, no break, no restart."""
    check(generators_with_handlers_run_to_the_end, lambda: (t(3, requires_grad=True),), graphs=1, breaks=0)


def abandoned_mid_segment(x):
    log = []

    def g():
        try:
            yield x
            yield x + 1
        finally:
            log.append("closed")

    it = g()
    first = next(it)
    del it  # eager: the finally runs here, before the next append
    log.append("after")
    return first * 2, log


def test_generator_abandoned_mid_segment_restarts():
    check(abandoned_mid_segment, x1, graphs=1, restarts=1)


def test_short_circuit():
    check(short_circuit, x1)


import contextlib  # noqa: E402


@contextlib.contextmanager
def tagged(tag, log):
    log.append((tag, "enter"))
    try:
        yield tag.upper()
    finally:
        log.append((tag, "exit"))


@contextlib.contextmanager
@torch._dynamo.disable(recursive=False)
def disabled_cm(log):
    log.append("enter")
    yield
    log.append("exit")


def uses_contextmanagers(x):
    log = []
    with tagged("a", log) as v:
        x = x + 1
    with tagged("b", log):
        gb()  # a break inside the block: the generator's frame is persisted in the snapshot
        x = x * 2
    with disabled_cm(log):
        x = x - 1
    try:
        with tagged("c", log):
            raise KeyError("k")
    except KeyError:
        log.append("caught")
    return x, v, log


def test_contextmanagers():
    # a break inside a block, and an exception thrown into the generator, are traced (no restart)
    check(uses_contextmanagers, x1)


def _leaf_gen(x, log):
    log.append("leaf-start")
    yield x
    yield x + 1
    return "leaf-done"


def _middle_gen(x, log):
    r = yield from _leaf_gen(x, log)
    log.append(r)
    yield from [x * 2, x * 3]
    yield from range(2)
    try:
        r2 = yield from _leaf_gen(x - 1, log)
    finally:
        log.append(("finally", r2))
    return r2


def yield_from_chains(x):
    log = []
    out = [v for v in _middle_gen(x, log)]
    total = sum(_middle_gen(x, log))
    return out, total, log


def test_yield_from_traced_generators_iterables_and_return_values():
    """`yield from` a traced generator (its return value included), a list and a range, nested and inside
    a try/finally: traced, one graph, no break."""
    check(yield_from_chains, x1, graphs=1, breaks=0)


def yield_from_break_inside_delegate(x):
    log = []

    def leaf():
        yield x
        gb()
        yield x + 1

    def outer():
        yield from leaf()

    return [v * 2 for v in outer()], log


def test_break_inside_a_delegate_resumes_in_it():
    # the delegate runs as a frame above the delegating generator's SEND: the break resumes inside it
    check(yield_from_break_inside_delegate, x1, graphs=2)


def _plain_gen(x, log):
    for i in range(3):
        log.append(i)
        yield x + i


def cm_object_kept_by_name(x):
    log = []
    c = tagged("n", log)
    with c as v:
        gb()
        y = x + 1
    return y, v, log, type(c).__name__  # the object itself is read: it must be real


def loop_generator_kept_by_name(x):
    log = []
    g = _plain_gen(x, log)
    out = []
    for v in g:
        gb()
        out.append(v)
    return out, next(g, "end"), log, x * 2, g.gi_frame is None  # read as an object after the loop: real


def loop_generator_with_finally(x):
    log = []

    def gen():
        try:
            yield x
            yield x + 1
        finally:
            log.append("closed")

    out = []
    for v in gen():
        gb()
        out.append(v)
        break  # abandoned: eager closes it here, so it is made real rather than persisted
    log.append("after")
    return out, log, x - 1


def test_generators_other_code_can_reach_are_made_real():
    """Only what the VM's frames alone reach is persisted in a snapshot (a @contextmanager block's exit, a
    for-loop's iterator, locals the code ahead only steps it from): a generator or context manager object
    also held by a local that is read later as an object, or one with try/with blocks a loop may abandon,
    restarts with its creation eager, as before."""
    check(cm_object_kept_by_name, x1, restarts=1)
    check(loop_generator_kept_by_name, x1, restarts=1)
    check(loop_generator_with_finally, x1, restarts=1)


def loop_generator_breaking_on_a_later_step(x):
    def gen():
        yield x + 1
        gb()
        yield x * 2

    out = []
    for v in gen():
        gb()
        out.append(v)
    return out


def test_classic_mode_break_in_a_resumed_generator():
    """nested=False too: a break inside a loop's generator resumed from a snapshot (no call of that trace
    made it, so it cannot become a classic call) is a break in its frame, not a restart without end."""
    check(loop_generator_breaking_on_a_later_step, x1)


def next_steps_a_generator_that_breaks(x):
    log = []

    def gen(v):
        log.append("start")
        gb()
        yield v + 1
        log.append("never")

    def returns():
        log.append("returns")
        gb()
        return
        yield

    try:
        next(returns())
    except StopIteration as e:
        log.append(("stop", e.args))
    return next(gen(x)) * 2, next(returns(), "default"), log


def test_next_runs_the_generator_as_a_frame():
    """next() steps a generator as a frame above the call, as a for-loop does: a break inside it resumes
    there (no restart), its return raises StopIteration at the call or gives next()'s default."""
    check(next_steps_a_generator_that_breaks, x1, restarts=0)


def yield_from_a_finished_generator(x):
    def leaf():
        yield x
        return "ret"

    def outer(g):
        r = yield from g
        yield r

    g = leaf()
    done = list(g)
    return done, list(outer(g)), x + 1


def test_yield_from_a_finished_generator_is_none():
    """`yield from` a traced generator that already returned gives None (its StopIteration carried the value
    once), not the value it returned back then."""
    check(yield_from_a_finished_generator, x1)


def _stepped(x, log):
    log.append("start")
    yield x + 1
    gb()
    log.append("middle")
    yield x * 2


def local_generator_across_breaks(x):
    log = []
    g = _stepped(x, log)
    h = g
    a = next(g)
    gb()
    b = next(h)
    return a + b, next(g, "done"), g is h, log


def test_local_generator_in_both_modes():
    """A generator held by locals that only step it is persisted across breaks (no restart), in classic
    mode too (a break inside it, resumed from a snapshot, is a break in its frame there as well)."""
    check(local_generator_across_breaks, x1, restarts=0)
