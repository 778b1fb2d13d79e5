"""Conformance, everyday Python (2/4): builtins around a tensor program -- `sorted`/`min`/`max` with and
without `key=`, `map`/`filter`, `repr`, `hash`, `max` over a generator, sets made before the segment,
`vars(obj)`/`dir(obj)` with an argument -- each with a graph break in a called helper (depth >= 1), some
inside the builtin's own callback."""

from __future__ import annotations

import pytest
import torch

from .conformance import Scenario, check_scenario, x1
from .helpers import t

gb = torch._dynamo.graph_break


def _brk(log, tag):
    log.append(tag)
    gb()


def _key_breaks(log, v):
    """A key function that breaks (depth 2 under the builtin that calls it)."""
    _brk(log, v)
    return -v


def sorted_plain(log, x):
    order = sorted([3, 1, 2])
    _brk(log, order)
    return x * order[0], sorted("cab", reverse=True)


def sorted_key_lambda(log, x):
    names = ["bbb", "a", "cc"]
    by_len = sorted(names, key=lambda s: len(s))
    _brk(log, by_len)
    return x + len(by_len[-1]), by_len


def sorted_key_breaks(log, x):
    order = sorted([2, 3, 1], key=lambda v: _key_breaks(log, v))
    return x * order[0], order


def sorted_dict_items(log, x):
    d = {"b": x, "a": x + 1}
    _brk(log, sorted(d))
    return [v for _, v in sorted(d.items())]


def min_max_plain(log, x):
    vals = [4, 2, 7]
    lo, hi = min(vals), max(vals)
    _brk(log, (lo, hi))
    return x * lo + hi, max(3, 9, 1), min("zay")


def min_max_key(log, x):
    words = ["pear", "fig", "banana"]
    shortest = min(words, key=len)
    _brk(log, shortest)
    longest = max(words, key=lambda w: (len(w), w))
    return x + len(shortest), longest


def max_key_breaks(log, x):
    best = max([1, 5, 3], key=lambda v: _key_breaks(log, v))
    return x + best, best


def max_over_generator(log, x):
    sizes = {"a": 3, "b": 5, "c": 2}
    top = max(v * 2 for v in sizes.values())
    _brk(log, top)
    return x * top, min((k for k in sizes), default=None)


def max_default_empty(log, x):
    m = max((v for v in [] if v), default=-1)
    _brk(log, m)
    return x + m


def map_lambda(log, x):
    ys = list(map(lambda v: v * 2, [x, x + 1]))
    _brk(log, len(ys))
    return ys, list(map(str, [1, 2]))


def map_two_iterables(log, x):
    sums = list(map(lambda a, b: a + b, [x, x * 2], [1, 2, 3]))
    _brk(log, len(sums))
    return sums


def map_callback_breaks(log, x):
    out = list(map(lambda v: x * _key_breaks(log, v), [1, 2]))
    return out


def map_lazy_across_break(log, x):
    m = map(lambda v: x * v, [1, 2, 3])
    first = next(m)
    _brk(log, "between")
    return first, list(m)


def filter_lambda(log, x):
    kept = list(filter(lambda v: v % 2 == 0, range(7)))
    _brk(log, kept)
    return x * len(kept), list(filter(None, [0, 1, "", "a"]))


def filter_tensors(log, x):
    ts = [x, x * 0, x + 1]
    kept = list(filter(lambda v: v.dim() == 1, ts))
    _brk(log, len(kept))
    return kept


def repr_of_values(log, x):
    s = repr([1, "a", (2.5, None)]) + repr({"k": True})
    _brk(log, s)
    return x + len(s), s, str(3.0), f"{7:03d}|{1 / 3:.2f}"


class Point:
    def __init__(self, a, b):
        self.a, self.b = a, b

    def __repr__(self):
        return f"Point({self.a}, {self.b})"


def repr_user_class(log, x):
    p = Point(1, 2)
    r = repr(p)
    _brk(log, r)
    return x * len(r), r, repr([p])


def hash_of_values(log, x):
    h = hash((1, "a", 2.5)) == hash((1, "a", 2.5))
    _brk(log, h)
    return x + int(h), hash(7), hash(frozenset({1, 2})) == hash(frozenset({2, 1}))


def set_made_before(log, x, s):
    _brk(log, 2 in s)
    s.add(9)
    s.discard(1)
    return x * len(s), sorted(s), 9 in s


_ALLOWED = {"relu", "tanh"}


def global_set_membership(log, x):
    out = x
    for name in ("relu", "gelu", "tanh"):
        if name in _ALLOWED:
            _brk(log, name)
            out = getattr(torch, name)(out)
    return out


def frozenset_input(log, x, fs):
    _brk(log, len(fs))
    return x + len(fs | {10}), sorted(fs & {1, 2, 3})


def set_ops_after_break(log, x):
    a = {1, 2, 3}
    b = {2, 3, 4}
    _brk(log, len(a))
    return x * len(a & b), sorted(a | b), sorted(a - b), sorted(a ^ b), a <= b


def any_all_generators(log, x):
    vals = [1, 0, 3]
    ok = all(v >= 0 for v in vals)
    _brk(log, ok)
    return x + int(ok) + int(any(v > 2 for v in vals))


def sum_enumerate_zip(log, x):
    ts = [x, x * 2, x * 3]
    total = sum((i * v for i, v in enumerate(ts, start=1)), torch.zeros(3))
    _brk(log, "summed")
    return total, [a + b for a, b in zip(ts, reversed(ts))]


def numeric_builtins(log, x):
    q, r = divmod(17, 5)
    _brk(log, (q, r))
    return x * q + r, abs(-3), round(2.567, 2), pow(2, 5), int("12") + float("0.5")


def isinstance_checks(log, x):
    vals = [1, "a", 2.0, x]
    kinds = [isinstance(v, (int, float)) for v in vals]
    _brk(log, kinds)
    return x + sum(kinds), callable(_brk), type(x).__name__


class Bag:
    def __init__(self, x):
        self.x = x
        self.n = 2


def vars_of_object(log, x):
    b = Bag(x)
    d = vars(b)
    _brk(log, sorted(d))
    return d["x"] * d["n"], sorted(vars(b))


def dir_of_object(log, x):
    b = Bag(x)
    names = [n for n in dir(b) if not n.startswith("_")]
    _brk(log, names)
    return x + len(names), names


SCENARIOS = [
    Scenario(sorted_plain, x1, 1),
    Scenario(sorted_key_lambda, x1, 1),
    Scenario(sorted_key_breaks, x1, 1),
    Scenario(sorted_dict_items, x1, 1),
    Scenario(min_max_plain, x1, 1),
    Scenario(min_max_key, x1, 1),
    Scenario(max_key_breaks, x1, 1),
    Scenario(max_over_generator, x1, 1),
    Scenario(max_default_empty, x1, 1),
    Scenario(map_lambda, x1, 1),
    Scenario(map_two_iterables, x1, 1),
    Scenario(map_callback_breaks, x1, 2),
    Scenario(map_lazy_across_break, x1, 2),
    Scenario(filter_lambda, x1, 1),
    Scenario(filter_tensors, x1, 1),
    Scenario(repr_of_values, x1, 1),
    Scenario(repr_user_class, x1, 1),
    Scenario(hash_of_values, x1, 1),
    Scenario(set_made_before, lambda: (t(3), {1, 2, 3}), 1),
    Scenario(global_set_membership, x1, 2),
    Scenario(frozenset_input, lambda: (t(3), frozenset({1, 2, 5})), 1),
    Scenario(set_ops_after_break, x1, 1),
    Scenario(any_all_generators, x1, 1),
    Scenario(sum_enumerate_zip, x1, 2),
    Scenario(numeric_builtins, x1, 1),
    Scenario(isinstance_checks, x1, 1),
    Scenario(vars_of_object, x1, 1),
    Scenario(dir_of_object, x1, 1),
]


@pytest.mark.parametrize("sc", SCENARIOS, ids=lambda sc: sc.name)
def test_py_builtins(sc):
    check_scenario(sc)
