"""Sets of constants: traced (build, mutate, query, iterate in eager's order) where the trace can know the
order, replayed as calls on sets that existed before the segment, and run eagerly otherwise."""

from __future__ import annotations

import math

import torch

from .helpers import check, t

gb = torch._dynamo.graph_break


def x1():
    return (t(3),)


def built_and_mutated(x):
    s = {"a", "b", 3, (1, "t")}
    s.add("c")
    s.discard("b")
    s.remove(3)
    s.update(["d", "e"], ("f",))
    comp = {k * 2 for k in range(5)}
    other = set("hello")
    popped = other.pop()
    order = list(s)  # iteration order: the history is eager's, so the order is too
    return x + len(s), order, sorted(comp), "a" in s, "b" not in s, not set(), popped, tuple(other), s


def test_sets_made_by_traced_code_are_traced():
    check(built_and_mutated, x1, graphs=1, breaks=0)


def set_across_break(x):
    s = {"x", "y", "z"}
    s.discard("y")
    s.add("w")
    gb()
    s.add("v")  # a real set now (rebuilt by the same calls): its mutations are replayed
    n = len(s)
    return x * n, sorted(s), "w" in s, list(s)  # list(s): order unknown after the break: an eager op


def test_set_across_a_break_is_rebuilt_by_its_history():
    c = check(set_across_break, x1, graphs=1, breaks=2)
    assert [b.gb_id for b in c.record.break_records] == ["graph_break", "set"]


def argument_set(x, s, log):
    log.append(len(s))
    s.add(10)
    s.discard(1)
    y = x + sum([1 for k in (1, 2, 10) if k in s])
    log.append(sorted(s))
    return y, s


def test_set_argument_read_with_guards_and_mutated_by_replayed_calls():
    c = check(argument_set, lambda: (t(3), {1, 2, 3}, []), graphs=1, breaks=0)
    out = c(t(3), {2, 5}, [])  # other contents: a guard miss, a new segment
    assert out[1] == {2, 5, 10} and c.record.graphs == 2


def set_of_tensors(x):
    s = {x, x + 1}  # hashed by identity: the order could differ from eager's, so it is built eagerly
    return len(s), x * 2


def test_set_of_tensors_runs_eagerly():
    c = check(set_of_tensors, x1, graphs=2, breaks=1)  # len() of the real set is modeled (guarded)
    assert [b.gb_id for b in c.record.break_records] == ["set"]


def real_set_iteration_order_unknown(x, s):
    return [k for k in s], x - 1


def test_iterating_a_set_argument_is_eager():
    # small ints: a copy of the set iterates in the same order, whatever the hash seed (the helper runs the engine
    # on a deepcopy of eager's arguments, and a copied set of strings may iterate in another order)
    c = check(real_set_iteration_order_unknown, lambda: (t(3), {5, 1, 3}), graphs=1, breaks=5)
    assert [b.gb_id for b in c.record.break_records][0] == "set"


def loops_over_sets(x):
    s = {"alpha", "beta", "gamma", "delta"}
    s.discard("beta")
    out = []
    for k in s:  # eager's order: the set's history is eager's
        out.append(k)
    pairs = [(a, b) for a in {1, 2} for b in {"u", "v"}]
    return x + len(out), out, pairs


def test_for_loops_over_traced_sets_are_traced():
    check(loops_over_sets, x1, graphs=1, breaks=0)


def loop_with_break_inside(x):
    out = []
    for k in {"p", "q", "r"}:
        out.append(k)
        gb()
    return x * len(out), out


def test_break_inside_a_loop_over_a_set_makes_a_positioned_real_iterator():
    check(loop_with_break_inside, x1, graphs=1, breaks=3)


def mutated_while_iterated(x):
    s = {"a", "b", "c"}
    seen = []
    try:
        for k in s:
            seen.append(k)
            s.add(k + "!")  # eager: RuntimeError at the next step (the size changed)
    except RuntimeError as e:
        seen.append(str(e))
    t2 = {"m", "n", "o"}
    for k in t2:
        seen.append(k)
        t2.discard(k)  # same size change each step: eager's table positions decide
        t2.add(k)
    return x - 1, seen, sorted(s), sorted(t2)


def test_mutating_a_set_while_iterating_runs_as_eager():
    c = check(mutated_while_iterated, x1, graphs=1, breaks=7)
    assert [b.gb_id for b in c.record.break_records][:2] == ["set", "for-iter"]  # the add, then real next()


def sorted_argument(x, s):
    return sorted(s), x + 1


def test_a_set_argument_holding_a_float_zero_stays_opaque():
    """0.0 == -0.0: a guard on the elements cannot tell the sign, so such a set is not modeled."""
    import engine

    c = engine.compile(sorted_argument)
    for s in ({-0.0, 2.5}, {0.0, 2.5}):
        out = c(t(3), set(s))[0]
        assert [math.copysign(1, v) for v in out] == [math.copysign(1, v) for v in sorted(s)]
