"""Ordinary Python (no tensors, or tensors only at the edges): the VM must agree with CPython exactly."""

from __future__ import annotations

import pytest
import torch

from .helpers import check

gb = torch._dynamo.graph_break


def fib(n):
    return n if n < 2 else fib(n - 1) + fib(n - 2)


def algorithms(n):
    primes = [p for p in range(2, n) if all(p % d for d in range(2, p))]
    words = "the quick brown fox jumps over the lazy dog".split()
    counts = {}
    for w in words:
        counts[w] = counts.get(w, 0) + 1
    longest = max(words, key=len)
    ordered = sorted(counts.items(), key=lambda kv: (-kv[1], kv[0]))
    s = ", ".join(f"{k}={v}" for k, v in ordered[:3])
    gb()
    table = [[i * j for j in range(4)] for i in range(3)]
    flat = [x for row in table for x in row if x % 2 == 0]
    return primes, longest, s, fib(10), flat, sum(flat), {**counts, "n": n}


class Node:
    def __init__(self, value, children=()):
        self.value = value
        self.children = list(children)

    def total(self):
        t = self.value
        for c in self.children:
            t += c.total()
        return t

    @property
    def size(self):
        return 1 + sum(c.size for c in self.children)


def objects(x):
    tree = Node(1, [Node(2), Node(3, [Node(4)])])
    a = tree.total()
    gb()
    tree.children.append(Node(5))
    b = tree.total()
    return a, b, tree.size, x * tree.size, isinstance(tree, Node), type(tree).__name__


def exceptions(n):
    out = []
    for i in range(n):
        try:
            if i % 3 == 0:
                raise ValueError(i)
            elif i % 3 == 1:
                out.append(10 // (i - 1))
            else:
                out.append(i)
        except ValueError as e:
            out.append(("v", e.args))
        except ZeroDivisionError:
            out.append("z")
        finally:
            out.append("f")
    return out


def while_loops(x):
    i, acc = 0, x
    while True:
        i += 1
        if i > 5:
            break
        if i % 2:
            continue
        acc = acc + i
        gb()
    else:
        acc = acc * 100
    return acc, i


def unpacking(x):
    a, (b, c), *d = 1, (2, 3), 4, 5
    first, *middle, last = range(6)
    def kw(*args, **kwargs):
        return args, sorted(kwargs.items())
    return a, b, c, d, first, middle, last, kw(*d, x=1, **{"y": 2}), x + a


def slicing(x):
    s = "abcdefgh"
    lst = list(range(10))
    lst[2:4] = [0]
    del lst[0]
    return s[::2], s[-3:], lst, x[1:], x[::-1] if False else x.flip(0)


@pytest.mark.parametrize("fn,args,graphs,restarts", [
    (algorithms, lambda: (20,), 0, 1),  # ", ".join(genexpr): the generator is made eagerly
    (objects, lambda: (torch.ones(2),), None, 0),
    (exceptions, lambda: (7,), 0, 0),
    (while_loops, lambda: (torch.ones(2),), None, 0),
    (unpacking, lambda: (torch.ones(2),), None, 0),
    (slicing, lambda: (torch.arange(4.0),), None, 0),
], ids=lambda v: getattr(v, "__name__", ""))
def test_plain_python(fn, args, graphs, restarts):
    check(fn, args, graphs=graphs, restarts=restarts)  # graphs=0: integer-only programs, traced but with no tensor op


class Tracked:
    def __init__(self, tag, log):
        object.__setattr__(self, "tag", tag)
        object.__setattr__(self, "log", log)

    def __setattr__(self, name, value):
        self.log.append((self.tag, name))
        object.__setattr__(self, name, value * 1.0)


class Bag:
    def __init__(self):
        self.items = {}

    def __setitem__(self, key, value):
        self.items[key] = value

    def __getitem__(self, key):
        return self.items[key]

    def __len__(self):
        return len(self.items)


def dunders(x):
    log = []
    tr = Tracked("t", log)
    tr.v = x
    bag = Bag()
    bag["a"] = x + 1
    gb()
    tr.w = bag["a"] * 2
    bag["b"] = tr.v
    return tr.v, tr.w, len(bag), bag["b"], log


def test_user_dunders():
    c = check(dunders, lambda: (torch.ones(2),))
    assert c.stats()["breaks"] == 1


class MyError(ValueError):
    pass


def thrower(x, kind):
    if kind == 0:
        raise MyError("mine", 3)
    if kind == 1:
        raise KeyError
    return x


def traced_exceptions(x):
    out = []
    for kind in range(3):
        try:
            x = thrower(x, kind) + 1
        except MyError as e:
            out.append((str(e), e.args, repr(e), isinstance(e, ValueError)))
        except (KeyError, TypeError) as e:
            out.append(("key", type(e).__name__))
        else:
            out.append("else")
    try:
        try:
            raise RuntimeError("inner")
        finally:
            out.append("finally")
    except RuntimeError as e:
        out.append(str(e))
    return x, out


def escaping_exception(x):
    x = x + 1
    raise MyError("escapes", x.shape[0])


def test_traced_exceptions():
    c = check(traced_exceptions, lambda: (torch.ones(2),))
    assert c.stats()["breaks"] == 0
    check(escaping_exception, lambda: (torch.ones(2),))


class Base:
    def __init__(self, v):
        self.v = v

    def get(self):
        return self.v * 2


class Child(Base):
    def __init__(self, v):
        super().__init__(v + 1)
        self.w = 3

    def get(self):
        base = super().get()
        gb()
        return base + super().get() + self.w


class Plain:
    def __init__(self):
        super().__init__()
        self.n = 1


def uses_super(x):
    c = Child(x)
    return c.get(), c.v, Plain().n


def test_zero_argument_super():
    c = check(uses_super, lambda: (torch.ones(2),))
    assert c.stats()["breaks"] == 1


def introspects(x):
    y = x + 1
    names = sorted(locals())
    return eval("y * 2"), names, "introspects" in globals()


def calls_introspecting(x):
    x = x * 3
    gb()
    return introspects(x)


def test_frame_introspection_runs_eagerly():
    check(introspects, lambda: (torch.ones(2),), graphs=0, eager=2)  # both calls run it eagerly, as a whole
    check(calls_introspecting, lambda: (torch.ones(2),))
