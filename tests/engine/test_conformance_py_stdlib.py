"""Conformance, everyday Python (1/4): standard-library containers and tools around a tensor program --
`deque`, `OrderedDict`, `defaultdict`, `Counter`, `itertools` (`chain`, `product`, `accumulate`, `islice`,
`groupby`), `functools.partial` attributes, `singledispatch`, `operator.itemgetter` -- each alive across a
graph break in a called helper (depth >= 1), made in the segment or passed in and mutated."""

from __future__ import annotations

import functools
import itertools
import operator
from collections import Counter, OrderedDict, defaultdict, deque

import pytest
import torch

from .conformance import Scenario, check_scenario, x1
from .helpers import t

gb = torch._dynamo.graph_break


def _brk(log, tag):
    """The break every scenario meets one frame down: a logging helper that cannot be traced."""
    log.append(tag)
    gb()


# --- deque -------------------------------------------------------------------------------------------------

def deque_window(log, x):
    d = deque(maxlen=3)
    for i in range(5):
        d.append(x * i)
    _brk(log, len(d))
    d.appendleft(x)
    return d.popleft() + d.pop(), len(d)


def deque_rotate_extend(log, x):
    d = deque([1, 2, 3])
    d.extend([4, 5])
    d.rotate(2)
    _brk(log, list(d))
    d.extendleft([0])
    return x * d[0] + d[-1], list(d), d.count(4)


def deque_input_mutated(log, x, d):
    d.append(x.sum())
    _brk(log, len(d))
    d.popleft()
    return x + len(d)


def deque_as_queue(log, x):
    q = deque([x, x + 1])
    out = []
    while q:
        v = q.popleft()
        if len(out) == 1:
            _brk(log, "mid")
        out.append(v * 2)
    return out


# --- OrderedDict ---------------------------------------------------------------------------------------------

def ordereddict_move_to_end(log, x):
    od = OrderedDict(a=x, b=x + 1, c=x + 2)
    od.move_to_end("a")
    _brk(log, list(od))
    first = od.popitem(last=False)
    return first, list(od.items())


def ordereddict_input_mutated(log, x, od):
    od["new"] = x * 2
    _brk(log, list(od))
    od.move_to_end("new", last=False)
    return sum(v for v in od.values() if isinstance(v, int)) + x


def ordereddict_equality(log, x):
    a = OrderedDict([("p", 1), ("q", 2)])
    b = OrderedDict([("q", 2), ("p", 1)])
    _brk(log, a == b)
    return x + int(a == dict(b)), a == b


# --- defaultdict ---------------------------------------------------------------------------------------------

def defaultdict_groups(log, x):
    dd = defaultdict(list)
    for i in range(4):
        dd[i % 2].append(x * i)
    _brk(log, sorted(dd))
    return {k: torch.stack(v) for k, v in dd.items()}


def defaultdict_counts(log, x):
    dd = defaultdict(int)
    for w in "the cat the hat".split():
        dd[w] += 1
    _brk(log, dict(dd))
    return x * dd["the"], dd["missing"], len(dd)


def defaultdict_input_mutated(log, x, dd):
    dd["k"].append(1)
    _brk(log, len(dd))
    dd["z"].append(2)
    return x + len(dd["k"])


# --- Counter -------------------------------------------------------------------------------------------------

def counter_most_common(log, x):
    c = Counter("abracadabra")
    _brk(log, c["a"])
    c.update("aa")
    return c.most_common(2), x * c["a"]


def counter_arithmetic(log, x):
    a = Counter(a=3, b=1)
    b = Counter(a=1, c=2)
    s = a + b
    _brk(log, sorted(s.items()))
    d = a - b
    return x * s["a"] + d["a"], sorted(d.elements()), (a | b)["c"], (a & b)["a"]


def counter_input_mutated(log, x, c):
    c["seen"] += 1
    _brk(log, c["seen"])
    c.subtract({"seen": 3})
    return x * c.total()


# --- itertools -----------------------------------------------------------------------------------------------

def chain_over_lists(log, x):
    acc = x
    for i, v in enumerate(itertools.chain([1, 2], (3,), range(4, 6))):
        if i == 2:
            _brk(log, v)
        acc = acc + v
    return acc


def chain_from_iterable(log, x):
    parts = [[x, x + 1], [x * 2]]
    flat = list(itertools.chain.from_iterable(parts))
    _brk(log, len(flat))
    return torch.stack(flat).sum(0)


def product_grid(log, x):
    acc = x
    for i, j in itertools.product(range(2), "ab"):
        acc = acc + i * (1 if j == "a" else -1)
        if (i, j) == (1, "a"):
            _brk(log, (i, j))
    return acc


def accumulate_running(log, x):
    sums = list(itertools.accumulate([x, x * 2, x * 3]))
    _brk(log, len(sums))
    prods = list(itertools.accumulate([1, 2, 3, 4], operator.mul))
    return sums[-1], prods


def accumulate_initial(log, x):
    it = itertools.accumulate(range(4), initial=10)
    first = next(it)
    _brk(log, first)
    return x + sum(it), first


def islice_of_generator(log, x):
    gen = (x * i for i in itertools.count(1))
    head = list(itertools.islice(gen, 3))
    _brk(log, len(head))
    return head, list(itertools.islice(range(10), 2, 8, 3))


def groupby_lengths(log, x):
    words = sorted(["aa", "b", "cc", "d", "eee"], key=len)
    out = {}
    for n, grp in itertools.groupby(words, key=len):
        out[n] = list(grp)
    _brk(log, out)
    return x * len(out[2]), out


def pairwise_and_zip_longest(log, x):
    gaps = [b - a for a, b in itertools.pairwise([1, 4, 9, 16])]
    _brk(log, gaps)
    z = list(itertools.zip_longest([1, 2, 3], "ab", fillvalue="-"))
    return x + sum(gaps), z


# --- functools / operator ------------------------------------------------------------------------------------

def _scaled(a, x, scale=1):
    return x * a * scale


def partial_attributes(log, x):
    p = functools.partial(_scaled, 2, scale=3)
    _brk(log, (p.func.__name__, p.args, dict(p.keywords)))
    return p(x), p.args, sorted(p.keywords)


def partial_nested(log, x):
    p = functools.partial(functools.partial(_scaled, 2), scale=5)
    _brk(log, p.args)
    return p(x), p.func is _scaled, p.keywords["scale"]


@functools.singledispatch
def describe(v, log):
    return ("other", v)


@describe.register
def _(v: int, log):
    return ("int", v * 2)


@describe.register
def _(v: torch.Tensor, log):
    _brk(log, "tensor")
    return ("tensor", v + 1)


def singledispatch_dispatch(log, x):
    a = describe(3, log)
    b = describe(x, log)
    c = describe("s", log)
    return a, b, c


def itemgetter_sorting(log, x):
    pairs = [("b", 2), ("a", 3), ("c", 1)]
    by_val = sorted(pairs, key=operator.itemgetter(1))
    _brk(log, by_val)
    get = operator.itemgetter(1, 0)
    return x * by_val[0][1], [get(p) for p in pairs]


def itemgetter_on_tensors(log, x):
    first, last = operator.itemgetter(0, -1)(x)
    _brk(log, "got")
    return first + last, operator.attrgetter("shape")(x)


def lru_cache_helper(log, x):
    hits = [_fib(n) for n in range(8)]
    _brk(log, hits[-1])
    return x * _fib(10), hits


@functools.lru_cache(maxsize=64)
def _fib(n):
    return n if n < 2 else _fib(n - 1) + _fib(n - 2)


def reduce_with_lambda(log, x):
    total = functools.reduce(lambda a, b: a + b, [x, x * 2, x * 3])
    _brk(log, "reduced")
    return total, functools.reduce(operator.mul, range(1, 5), 1)


SCENARIOS = [
    Scenario(deque_window, x1, 2),
    Scenario(deque_rotate_extend, x1, 1),
    Scenario(deque_input_mutated, lambda: (t(3), deque([1, 2])), 2),
    Scenario(deque_as_queue, x1, 2),
    Scenario(ordereddict_move_to_end, x1, 1),
    Scenario(ordereddict_input_mutated, lambda: (t(3), OrderedDict(a=1, b=2)), 2, restarts=1),
    Scenario(ordereddict_equality, x1, 1),
    Scenario(defaultdict_groups, x1, 4),
    Scenario(defaultdict_counts, x1, 1),
    Scenario(defaultdict_input_mutated, lambda: (t(3), defaultdict(list, {"k": [0]})), 1),
    Scenario(counter_most_common, x1, 1),
    Scenario(counter_arithmetic, x1, 1),
    Scenario(counter_input_mutated, lambda: (t(3), Counter(a=2, seen=1)), 1),
    Scenario(chain_over_lists, x1, 2),
    Scenario(chain_from_iterable, x1, 2),
    Scenario(product_grid, x1, 2),
    Scenario(accumulate_running, x1, 1),
    Scenario(accumulate_initial, x1, 1, restarts=1),
    Scenario(islice_of_generator, x1, 1),
    Scenario(groupby_lengths, x1, 1),
    Scenario(pairwise_and_zip_longest, x1, 1),
    Scenario(partial_attributes, x1, 1),
    Scenario(partial_nested, x1, 1),
    Scenario(singledispatch_dispatch, x1, 1),
    Scenario(itemgetter_sorting, x1, 1),
    Scenario(itemgetter_on_tensors, x1, 1),
    Scenario(lru_cache_helper, x1, 1),
    Scenario(reduce_with_lambda, x1, 1),
]


@pytest.mark.parametrize("sc", SCENARIOS, ids=lambda sc: sc.name)
def test_py_stdlib(sc):
    check_scenario(sc)
