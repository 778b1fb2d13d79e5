"""One small function per opcode family, each run eagerly and under both engine modes and compared."""

from __future__ import annotations

import operator

import pytest
import torch

from .helpers import check, run_both, t

gb = torch._dynamo.graph_break
SCALE = 3


def x1():
    return (t(3, 4),)


def x2():
    return (t(3, 4), t(4, seed=1))


# -- arithmetic and comparisons ---------------------------------------------------------------------------
def arith(x, y):
    a = x + y - 2 * x / 3
    b = a ** 2 // 1.5 % 4
    c = -a + (+b) @ torch.ones(4, 4)
    d = x.abs() > 0.5
    e = (x >= 0) & (x < 1) | (x == 0) ^ (x != 0)
    n = 7
    n += 3
    n -= 1
    n *= 2
    n //= 3
    n <<= 2
    n >>= 1
    n |= 8
    n &= 0xFF
    n ^= 5
    return a, b, c, d, e, n, ~n, 7 % 3, 2 ** 10, 5 / 2, not n, abs(-3.5)


def inplace_tensor(x, y):
    z = x.clone()
    z += y
    z *= 2
    z -= 1
    z /= 4
    return z


def comparisons(x, y):
    a = 3 < 4 <= 4 != 5
    b = x.shape[0] == 3 and x.dim() > 1
    c = x is None
    d = y is not None
    e = "a" in "abc" and 3 not in (1, 2)
    return a, b, c, d, e, (x > y).sum()


# -- locals / globals / cells / free vars -----------------------------------------------------------------
def locals_globals(x):
    a = x * SCALE
    b = a
    del a
    return b + SCALE


def closures(x):
    k = 2

    def add(y):
        return y + k

    def mul(y):
        nonlocal k
        k = k + 1
        return y * k

    r = mul(add(x))
    gb()
    return add(r), k


def counter_closure(x):
    count = 0

    def bump(v):
        nonlocal count
        count += 1
        gb()
        return v + count

    for _ in range(3):
        x = bump(x)
    return x, count


# -- attributes and subscripts ----------------------------------------------------------------------------
class Box:
    def __init__(self, v):
        self.v = v

    def get(self):
        return self.v * 2

    @staticmethod
    def stat(z):
        return z + 1


def attrs_subscr(x):
    b = Box(x)
    b.w = b.get()
    s = x[0] + x[1:, ::2].sum() + x[..., -1].mean()
    y = x.clone()
    y[0] = 5.0
    lst = [1, 2, 3]
    lst[1] = 10
    d = {"a": 1}
    d["b"] = 2
    return b.w + Box.stat(s), y, lst, d, x.shape, x.dtype, x.T.sum(), x.ndim


# -- calls ------------------------------------------------------------------------------------------------
def kw(a, b=2, *args, c, d=4, **kwargs):
    return a + b + sum(args) + c * d + sum(kwargs.values())


def call_forms(x):
    r1 = kw(x, c=1)
    r2 = kw(x, 1, 2, 3, c=2, e=5)
    args = (x, 3)
    kwargs = {"c": 1, "z": 2}
    r3 = kw(*args, **kwargs)
    r4 = kw(*[x], **{"c": x})
    m = x.add(1, alpha=2)
    return r1, r2, r3, r4, m, torch.cat([x, x], dim=0), torch.nn.functional.relu(x)


def make_fns(x):
    f1 = lambda v, k=3: v * k  # noqa: E731

    def f2(v, *, k=5):
        return v - k

    def outer(n):
        def inner(v):
            return v + n

        return inner

    return f1(x), f1(x, 2), f2(x), f2(x, k=1), outer(4)(x), [f(x) for f in (f1, f2)]


# -- building and unpacking -------------------------------------------------------------------------------
def building(x):
    t_ = (x, 1, "a")
    lst = [x, *t_, 2]
    d = {"x": x, **{"y": 2}}
    s = {1, 2, 3}
    a, b, *rest = [1, 2, 3, 4]
    (p, q), r = (x, 2), 3
    first, *_ = t_
    comp = [v * 2 for v in range(4) if v % 2]
    dcomp = {k: k * 2 for k in range(3)}
    return lst, d, len(s), a, b, rest, p + q + r, first, comp, dcomp, tuple(lst[:2]), list(d)


def fstrings(x):
    n = 3
    s = f"n={n:>4} {n!r} {'q'} {3.5:.2f}"
    gb()
    return s, f"{x.shape}", x + len(s)


# -- jumps, loops, iteration ------------------------------------------------------------------------------
def loops(x):
    acc = x
    for i in range(4):
        if i % 2 == 0:
            acc = acc + i
        elif i == 3:
            continue
        else:
            acc = acc * 2
    k = 0
    while k < 3:
        k += 1
        if k == 2:
            break
    for i, (a, b) in enumerate(zip([1, 2], [3, 4])):
        acc = acc + i * a * b
    for v in x:
        acc = acc + v
    for _key, val in {"a": 1, "b": 2}.items():
        acc = acc + val
    n = 0 or 5
    m = 3 and 0
    return acc, k, n, m, min(3, 4), max([1, 7, 2]), sum([1, 2, 3]), list(reversed([1, 2]))


def data_dependent_if(x):
    if x.sum() > 0:
        return x + 1
    return x - 1


def item_break(x):
    v = x.sum().item()
    return x * v, v


def loop_with_break_inside(x):
    out = []
    for i in range(3):
        x = x + i
        gb()
        out.append(x)
    return torch.stack(out), len(out)


# -- exceptions and with ----------------------------------------------------------------------------------
def try_except(x):
    try:
        y = x + 1
        raise ValueError("boom")
    except ValueError as e:
        y = y * 2
        msg = str(e)
    finally:
        y = y - 1
    return y, msg


def raise_after_break(x):
    x = x + 1
    gb()
    if x.shape[0] == 3:
        raise KeyError("k")
    return x


def exc_across_break(x):
    try:
        x = x + 1
        gb()
        {}["missing"]
    except KeyError:
        x = x * 3
    return x


def grad_modes(x):
    with torch.no_grad():
        a = x * 2
        gb()
        b = a + 1
    with torch.enable_grad():
        c = x * 3
    with torch.set_grad_enabled(False):
        d = x + 4
    return a, b, c, d, torch.is_grad_enabled()


def requires_grad_inputs():
    return (t(3, requires_grad=False).requires_grad_(),)


class Ctx:
    def __init__(self, log):
        self.log = log

    def __enter__(self):
        self.log.append("enter")
        return self

    def __exit__(self, *exc):
        self.log.append("exit")
        return False


def user_ctx(x):
    log = []
    with Ctx(log):
        x = x + 1
        gb()
    return x, log


CASES = [
    (arith, x2), (inplace_tensor, x2), (comparisons, x2), (locals_globals, x1), (closures, x1),
    (counter_closure, x1), (attrs_subscr, x1), (call_forms, x1), (make_fns, x1), (building, x1),
    (fstrings, x1), (loops, x1), (data_dependent_if, x1), (item_break, x1), (loop_with_break_inside, x1),
    (try_except, x1), (raise_after_break, x1), (exc_across_break, x1), (grad_modes, requires_grad_inputs),
    (user_ctx, x1),
]


@pytest.mark.parametrize("fn,make_args", CASES, ids=[c[0].__name__ for c in CASES])
def test_matches_eager(fn, make_args):
    check(fn, make_args)


def test_no_break_single_graph():
    c = check(arith, x2)
    assert c.stats()["breaks"] == 0 and c.stats()["graphs"] == 1


def test_operator_module_functions():
    def g(x):
        return operator.add(x, 1), operator.getitem([1, 2], 0)

    check(g, x1)


def method_values_across_break(x):
    m = x.max(0)
    up = "abc".upper
    bits = (7).bit_length
    add = x.add
    gb()
    return m.values, m.indices, up(), bits(), add(1)


def test_method_values_across_break():
    c = check(method_values_across_break, lambda: (t(3, 2),))
    assert c.stats()["breaks"] == 1


def breaker(x):
    gb()
    return x + 1


class Pair(tuple):
    def __new__(cls, a, b):
        return super().__new__(cls, (a, b))


def displays_with_breaks(x):
    a = torch.add(**{"input": x * 0.5, "other": breaker(x)})
    b = [*[x, 1], breaker(x), *(2, 3)]
    c = {**{"k": 1}, "b": breaker(x), **{"z": x}}
    p = Pair(x, breaker(x))
    return a, b, c, p[0] + p[1], f"{len(b)}"


def test_displays_with_breaks():
    c = check(displays_with_breaks, x1)
    assert c.stats()["breaks"] <= 6


def test_fstring_of_a_shape_is_traced():
    """A static shape formats to known text: the f-string joins the graph instead of breaking it."""

    def g(x):
        y = x + 1
        return f"{y.shape}|{y.shape!r}|{y.shape!s}|{tuple(y.shape)}", y * 2

    run_both(g, x1, graphs=1, breaks=0)


def test_fstring_of_a_shape_with_a_bad_spec_raises_as_eager():
    def g(x):
        return f"{(x + 1).shape:>30}"

    run_both(g, x1, graphs=None)


class ReadsTraceback:
    def __init__(self, log):
        self.log = log

    def __enter__(self):
        return self

    def __exit__(self, exc_type, exc, tb):
        self.log.append((tb is None, tb.tb_lineno, tb.tb_next))  # the entry raising added
        return True


def exit_reads_traceback(x):
    log = []
    with ReadsTraceback(log):
        y = x + 1
        raise KeyError("k")
    return y * 2, log


def test_user_exit_reads_the_traceback_raising_gave():
    """An exception raised by traced code has the traceback entries raising gives it (modeled, see
    engine/_vm/_exceptions.py): a traced `__exit__` reads its line with no restart."""
    run_both(exit_reads_traceback, x1, graphs=1, breaks=0)
