"""State that lives across a break: containers, cells, iterators, exceptions and with-blocks of upper frames."""

from __future__ import annotations

import collections

import torch

import engine

from .helpers import check, same, t

gb = torch._dynamo.graph_break


def x1():
    return (t(3),)


def containers_across_break(x):
    lst = [x, 1]
    d = {"a": x, "n": 2}
    gb()
    lst.append(x * 2)
    d["b"] = lst[-1] + d["n"]
    lst[0] = lst[0] - 1
    gb()
    total = sum(v for v in lst[:1]) + d["b"]
    return lst, d, total, len(lst), d.get("zz", 7)


def iterator_across_break(x):
    acc = x
    it = iter([1, 2, 3, 4])
    first = next(it)
    for v in it:
        gb()
        acc = acc * v
    for i, v in enumerate([x, x + 1]):
        gb()
        acc = acc + v * i
    return acc, first


def cells_across_break(x):
    state = {"calls": 0}
    total = x

    def step(v):
        nonlocal total
        state["calls"] += 1
        gb()
        total = total + v
        return total

    step(x)
    step(x * 2)
    return total, state


def raiser(x):
    x = x + 1
    gb()
    raise ValueError("bad")


def exception_through_frames(x):
    try:
        with torch.no_grad():
            y = raiser(x)
    except ValueError as e:
        y = x * 10
        msg = e.args[0]
    return y, msg, torch.is_grad_enabled()


def exception_escapes_with(x):
    with torch.no_grad():
        raiser(x)


def loop_in_with(x):
    out = []
    with torch.no_grad():
        for i in range(3):
            gb()
            out.append(x * i)
    return out, [o.requires_grad for o in out]


def mutate_input_list(lst, x):
    lst.append(x + 1)
    gb()
    lst[0] = lst[0] * 2
    lst.pop()
    return len(lst)


def inplace_input(x):
    x.add_(1)
    gb()
    x.mul_(2)
    return x.sum()


def early_return(x, flag):
    if flag:
        gb()
        return x + 1
    for i in range(5):
        if i == 2:
            gb()
            return x * i
    return x


def test_containers_across_break():
    check(containers_across_break, x1)


def test_iterator_across_break():
    check(iterator_across_break, x1)


def test_cells_across_break():
    check(cells_across_break, x1)


def test_exception_through_frames():
    check(exception_through_frames, lambda: (t(3, requires_grad=True),))


def test_exception_escapes_with():
    check(exception_escapes_with, lambda: (t(3, requires_grad=True),))


def test_loop_in_with():
    check(loop_in_with, lambda: (t(3, requires_grad=True),))


def test_mutate_input_list():
    check(mutate_input_list, lambda: ([t(2), 5], t(2)))


def test_inplace_input():
    check(inplace_input, x1)


def test_early_return():
    check(early_return, lambda: (t(3), True))
    check(early_return, lambda: (t(3), False))


GLOBAL_LOG = []
GLOBAL_TABLE = {}


def global_containers(x):
    GLOBAL_LOG.append(x.sum())
    GLOBAL_TABLE["k"] = len(GLOBAL_LOG)
    n = len(GLOBAL_LOG) + GLOBAL_TABLE["k"]
    GLOBAL_LOG.insert(0, n)
    gb()
    GLOBAL_LOG.extend([1, 2])
    return x * n, list(GLOBAL_LOG[:2])


def test_global_containers_read_after_append():
    results = []
    c = engine.compile(global_containers)
    for fn in (global_containers, c):
        GLOBAL_LOG.clear()
        GLOBAL_TABLE.clear()
        outs = [fn(*x1()), fn(*x1())]
        results.append((outs, list(GLOBAL_LOG), dict(GLOBAL_TABLE)))
    same(results[0], results[1])
    assert c.record.graphs >= 1


def autocast_inner(x, w):
    y = x @ w
    gb()
    z = y @ w
    return z, y.dtype, torch.is_autocast_enabled("cpu")


def autocast_upper_frame(x, w):
    with torch.autocast("cpu"):
        a, dt, on = autocast_inner(x, w)
    return a, dt, on, (x @ w).dtype, torch.get_default_dtype()


def test_autocast_upper_frame():
    check(autocast_upper_frame, lambda: (t(2, 2), t(2, 2, seed=1)))


def runtime_failure(x, idx):
    log = []
    log.append(x.sum())
    y = x * 2
    log.append("before")
    z = y[idx]  # fake tensors cannot see that idx is out of range
    log.append("after")
    return z, log


def test_graph_failing_at_run_time_keeps_effect_order():
    ref_log, log = [], []

    def fn(x, idx, sink):
        sink.append("start")
        return runtime_failure(x, idx), sink.append("end")

    def args():
        return t(3), torch.tensor([7])

    c = engine.compile(fn)
    for sink, f in ((ref_log, fn), (log, c)):
        for _ in range(2):
            try:
                f(*args(), sink)
            except IndexError as e:
                sink.append(type(e).__name__)
    assert log == ref_log
    assert c.record.graphs >= 1  # the graph was compiled; it failed at run time and re-ran op by op


def iterator_not_consumed_on_break(x):
    it = iter([1, 2, 3])
    a, b = it, None  # noqa: F841
    try:
        p, q = it  # three items: eager unpack raises, the iterator must still be fresh
    except ValueError as e:
        p, q = str(e), None
    return p, q, list(it), x + 1


def test_iterator_restored_when_instruction_runs_eagerly():
    check(iterator_not_consumed_on_break, x1)


def zip_enumerate_live(x):
    lst = [1, 2, 3]
    out = []
    for i, v in enumerate(lst):
        if i == 0:
            lst.append(4)
        out.append((i, v))
    pairs = []
    for a, b in zip(lst, "ab"):
        gb()
        pairs.append((a, b))
    it = iter([1, 2, 3, 4])
    try:
        z = list(zip(it, [10]))
    except Exception as e:
        z = str(e)
    return out, pairs, z, list(it), x + 1


def test_zip_enumerate_live():
    check(zip_enumerate_live, x1)


def random_ops(x):
    a = torch.randn(3)
    gb()
    b = torch.rand(2) + x.sum()
    return a, b, torch.nn.functional.dropout(x, 0.5)


def test_random_number_stream_matches_eager():
    outs = []
    c = engine.compile(random_ops)
    for fn in (random_ops, c):
        torch.manual_seed(0)
        outs.append([fn(torch.ones(4)), fn(torch.ones(4))])
    same(outs[0], outs[1])
    assert c.record.graphs >= 1  # the random ops ran in graphs, in eager's order


Pair = collections.namedtuple("Pair", "a b")


def tuple_kinds_across_break(x):
    p = Pair(x + 1, x * 2)  # a namedtuple is rebuilt with _make, a structseq from one sequence
    m = torch.max(x.reshape(2, 2), 0)
    gb()
    return p.a - p.b, p, type(p).__name__, m.values + 1, m, type(m).__name__


def test_namedtuple_and_structseq_live_across_break():
    check(tuple_kinds_across_break, lambda: (t(4),))


def del_after_break(x):
    y = [x + 1]
    gb()
    del y  # reads whether y is bound: y must be live across the break though nothing loads it
    return x * 2


def test_local_deleted_after_break_is_kept_across_it():
    check(del_after_break, x1, graphs=2, breaks=1)
