"""The models added for issue #29's gaps, each with a scenario that fails without it (the construct then
runs eagerly, breaks the graph, or recompiles on the second call: the graph counts below are exact):
lazy iterators as traced generators (`_vm/_models_itertools.py`), sorted/min/max calling back
(`_vm/_models_callbacks.py`), deques made by traced code and reads of
real stdlib containers (`_vm/_models_collections.py`), `__slots__` of objects traced code makes and of real
ones, a Python `__getattr__` on a real object,
`optimizer.zero_grad()` (`_vm/_models_optim.py`), and callees guarded by what
decides the call rather than identity (a partial, a C method of an object an eager op made)."""

from __future__ import annotations

import functools
import itertools
from collections import Counter, deque

import pytest
import torch

from .conformance import Scenario, check_scenario, x1

gb = torch._dynamo.graph_break


def _brk(log, tag):
    log.append(tag)
    gb()


def _tap(log, v):
    _brk(log, v)
    return v


def islice_callback_breaks(log, x):
    # a break inside the generator islice pulls from, mid-way: resumed, not restarted
    gen = (x * _tap(log, i) for i in itertools.count(2))
    return list(itertools.islice(gen, 1, 3))


def filter_callback_breaks(log, x):
    kept = list(filter(lambda v: _tap(log, v) % 2, [1, 2, 3]))
    return x * sum(kept)


def map_stop_iteration(log, x):
    # a callback raising StopIteration ends eager's list() quietly; a generator would turn it into an error
    def f(v):
        if v == 2:
            raise StopIteration
        return x * v
    return list(map(f, [1, 2, 3]))


def _stops_at_2(log, v):
    """A callback that breaks at 0 (so the object is restored from the break) and raises StopIteration at 2."""
    if v == 0:
        _brk(log, "cb")
    if v == 2:
        raise StopIteration("two")
    return v * 10


def map_stop_after_break_loop(log, x):
    # eager's loop over the C map ends quietly at the StopIteration; the map goes on afterwards
    m = map(lambda v: _stops_at_2(log, v), [0, 1, 2, 3])
    out = [v for v in m]
    return x + sum(out), out, list(m)


def map_stop_after_break_next(log, x):
    m = map(lambda v: _stops_at_2(log, v), [0, 1, 2, 3, 2])
    a, b = next(m), next(m)
    try:
        next(m)
        got = None
    except StopIteration as e:
        got = e.args
    return x + a + b, got, next(m), next(m, "default")


def filter_accumulate_stop_after_break(log, x):
    f = filter(lambda v: _stops_at_2(log, v) > 0, [0, 1, 2, 3])
    a = itertools.accumulate([5, 0, 1, 2, 3], lambda t, v: t + _stops_at_2(log, v))
    return x + 1, list(f), list(f), tuple(a), list(a)


def islice_over_map_stop_after_break(log, x):
    s = itertools.islice(map(lambda v: _stops_at_2(log, v), [0, 1, 2, 3, 4]), 0, 4)
    out = []
    for v in s:
        out.append(v)
    return x + len(out), out, list(s)


def map_is_map(log, x):
    m = map(lambda v: v + 1, [1, 2])
    _brk(log, "m")
    return x * next(m), isinstance(map(abs, [1]), map), type(itertools.islice([1], 1)) is itertools.islice


def chain_accumulate(log, x):
    total = x
    for v in itertools.accumulate(itertools.chain([1, 2], (3,))):
        total = total + v
    return total


def sorted_key_breaking(log, x):
    # the key is traced; its break (depth 3 below the call) resumes in the middle of the sort's keys
    rows = [("b", 2), ("a", 3), ("c", 1)]
    order = sorted(rows, key=lambda r: _tap(log, r[1]), reverse=True)
    return x * order[0][1], order


def sorted_mixed_keys(log, x):
    try:  # keys that do not compare: the sort runs eagerly and raises eager's TypeError
        sorted([1, "a", 2], key=lambda v: v)
    except TypeError as e:
        log.append(str(e))
    return x + 1


def min_max_key_default(log, x):
    lo = min([3, 1, 2], key=lambda v: _tap(log, -v))
    hi = max((v for v in [4, 9, 9, 1]), key=lambda v: v % 5)
    none = max([], key=abs, default=None)
    try:
        max((v for v in []), key=abs)
    except ValueError as e:
        log.append(str(e))
    return x * lo + hi, none


def deque_reads(log, x):
    d = deque([1, 2, 3])
    d.rotate(1)
    return x * d[0] + d[-1]


def deque_traced(log, x):
    # made by traced code: every operation joins the trace; a break makes it the real deque (maxlen kept)
    d = deque([x], maxlen=3)
    for i in range(4):
        d.append(x * i)
    d.appendleft(x - 1)
    d.rotate(-1)
    d.extendleft([x + 5])
    _brk(log, len(d))
    return list(d), type(d).__name__, d.maxlen


def deque_as_stack(log, x):
    d = deque()
    d.extend([x, x * 2, x * 3])
    total = x
    while d:
        total = total * d.pop() + d[0] if len(d) > 1 else total + d.popleft()
    return total, tuple(d)


def enumerate_zip_of_generators(log, x):
    gen = (x * i for i in range(3))
    acc = [i + v for i, v in enumerate(gen, start=1)]
    return [a * b for a, b in zip(acc, reversed(acc))], list(itertools.product([1, 2], repeat=2))


def counter_missing(log, x, c):
    return x * c["a"] + c["zz"]


class Settings:
    def __init__(self):
        self.table = {"scale": 2}

    def __getattr__(self, name):
        if name.startswith("_"):  # (copy.deepcopy asks for __deepcopy__ before `table` exists)
            raise AttributeError(name)
        return self.table[name]


def getattr_on_real_object(log, x, s):
    return x * 2 + s.scale


class Point:
    __slots__ = ("x", "y")

    def __init__(self, x):
        self.x = x

    def __eq__(self, other):  # (the harness compares arguments after each call)
        return type(other) is type(self) and all(
            getattr(self, n, None) is getattr(other, n, None) or
            torch.equal(getattr(self, n, None), getattr(other, n, None)) for n in ("x", "y"))


class Point3(Point):
    __slots__ = ("z",)


def slots_traced(log, x):
    p = Point3(x)
    unset = hasattr(p, "y")
    p.y = p.x * 2
    p.z = p.y + 1
    _brk(log, unset)
    p.x = p.z * p.y
    return p.x, p.y, p.z, hasattr(p, "y")


def slots_no_dict(log, x):
    p = Point(x)
    try:
        p.w = 1  # no slot and no __dict__: eager's AttributeError
    except AttributeError as e:
        log.append(str(e))
    return p.x * 2


def slots_real_object(log, x, p):
    p.y = p.x + x  # a slot of a real object: a replayed store, read back by the trace
    return x * 2 + p.y


_LIN = torch.nn.Linear(3, 2)
_OPT: dict = {}


def _opt_setup() -> None:
    for p in _LIN.parameters():
        p.grad = torch.ones_like(p)
    _OPT["sgd"] = torch.optim.SGD(_LIN.parameters(), lr=0.1)


def _opt_observe():
    return [None if p.grad is None else p.grad.clone() for p in _LIN.parameters()]


def zero_grad_between_ops(log, x):
    y = _LIN(x).sum()
    _OPT["sgd"].zero_grad()  # the stores are replayed: one graph around them
    return y * 2, [p.grad is None for p in _LIN.parameters()]


def partial_made_each_call(log, x):
    p = functools.partial(torch.add, alpha=2)
    _brk(log, "p")
    return p(x, x)


SCENARIOS = [
    Scenario(islice_callback_breaks, x1, 3),
    Scenario(filter_callback_breaks, x1, 1),
    Scenario(map_stop_iteration, x1, 0, restarts=1),
    Scenario(map_stop_after_break_loop, x1, 1),
    Scenario(map_stop_after_break_next, x1, 1),
    Scenario(filter_accumulate_stop_after_break, x1, 1),
    Scenario(islice_over_map_stop_after_break, x1, 1),
    Scenario(map_is_map, x1, 1),
    Scenario(chain_accumulate, x1, 1),
    Scenario(deque_reads, x1, 1),
    Scenario(sorted_key_breaking, x1, 1),
    Scenario(sorted_mixed_keys, x1, 1),
    Scenario(min_max_key_default, x1, 1),
    Scenario(deque_traced, x1, 1),
    Scenario(deque_as_stack, x1, 1),
    Scenario(enumerate_zip_of_generators, x1, 1),
    Scenario(counter_missing, lambda: (torch.ones(3), Counter(a=3)), 1),
    Scenario(getattr_on_real_object, lambda: (torch.ones(3), Settings()), 1),
    Scenario(slots_traced, x1, 2),
    Scenario(slots_no_dict, x1, 1),
    Scenario(slots_real_object, lambda: (torch.ones(3), Point(2)), 1),
    Scenario(zero_grad_between_ops, x1, 1, setup=_opt_setup, observe=_opt_observe),
    Scenario(partial_made_each_call, x1, 1),
]


@pytest.mark.parametrize("sc", SCENARIOS, ids=lambda sc: sc.name)
def test_models_gaps(sc):
    check_scenario(sc)
