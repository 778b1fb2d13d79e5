"""Recursion past the recursion limit: the engine raises RecursionError where eager does.

The VM runs frames on an explicit stack (no host recursion per call), so nothing stops a traced recursion
by itself: the VM counts its frames plus the real Python frames below the compiled call against
`sys.getrecursionlimit()` (see engine/README.md, "Recursion limit"). Each scenario runs under eager and
the engine as every conformance scenario does (`run_pair`); a RecursionError's text is not compared (on
3.11 eager's may name the C call inside the deepest frame, "... while calling a Python object"), only its
type and that it is CPython's recursion message. Deep-but-finite recursion must complete with eager's
value, as `test_chain_depth` (test_seed_example.py) checks for a break at the bottom of a deep chain.
"""

from __future__ import annotations

import sys

import pytest
import torch

import engine

from .conformance import Scenario, difference, run_pair, x1
from .helpers import same


def gb():
    torch._dynamo.graph_break()


# -- unbounded recursion ---------------------------------------------------------------------------------

def _forever(x, n):
    return _forever(x + 1, n + 1)


def unbounded_escapes(log, x):
    log.append("start")
    return _forever(x, 0)


def unbounded_caught(log, x):
    try:
        return _forever(x, 0)
    except RecursionError:
        log.append("fell back")
        return x * 2


def unbounded_caught_in_callee(log, x):
    def attempt(v):
        try:
            return _forever(v, 0)
        except RecursionError as e:
            log.append(type(e).__name__)
            return v - 1

    return attempt(x) * 3


def _plain_forever(n):
    return _plain_forever(n + 1)


def unbounded_no_tensor(log, x):
    try:
        _plain_forever(0)
    except RecursionError:
        log.append("deep")
    return x + 1


def _ping(x, n):
    return _pong(x * 1, n + 1)


def _pong(x, n):
    return _ping(x + 0, n + 1)


def mutual_caught(log, x):
    try:
        return _ping(x, 0)
    except RecursionError:
        return x - 5


def mutual_escapes(log, x):
    return _pong(x, 0)


class _Walker:
    def __init__(self, k):
        self.k = k

    def down(self, x):
        return self.down(x + self.k)


def method_caught(log, x):
    w = _Walker(2)
    try:
        return w.down(x)
    except RecursionError:
        return x * w.k


def _tree(x, n):
    yield x + n
    yield from _tree(x, n + 1)


def generator_escapes(log, x):
    return list(_tree(x, 0))


def _tree_for(x, n):
    yield x + n
    for v in _tree_for(x, n + 1):  # noqa: UP028 (FOR_ITER over a generator, not SEND)
        yield v


def generator_caught(log, x):
    try:
        return sum(1 for _ in _tree_for(x, 0))
    except RecursionError:
        return x + 7


def _count(n):
    yield n
    yield sum(_count(n + 1))  # sum() steps the generator (the VM's `drive`): one VM run per level


def generator_driven_caught(log, x):
    try:
        return x * sum(_count(0))
    except RecursionError:
        return x + 1


def _forever_break_once(x, n):
    if n == 5:
        gb()  # a resume at depth 6: the restored frames count as the traced ones did
    return _forever_break_once(x + 1, n + 1)


def break_then_unbounded(log, x):
    try:
        return _forever_break_once(x, 0)
    except RecursionError:
        log.append("caught")
        return x * 4


UNBOUNDED = [
    Scenario(unbounded_escapes, x1, 0, raises=True),
    Scenario(unbounded_caught, x1, 0),
    Scenario(unbounded_caught_in_callee, x1, 0),
    Scenario(unbounded_no_tensor, x1, 0),
    Scenario(mutual_caught, x1, 0),
    Scenario(mutual_escapes, x1, 0, raises=True),
    Scenario(method_caught, x1, 0),
    Scenario(generator_escapes, x1, 0, raises=True),
    Scenario(generator_caught, x1, 0),
    Scenario(generator_driven_caught, x1, 0),
    Scenario(break_then_unbounded, x1, 0),
]


def _same_but_recursion_text(ref, got) -> str | None:
    """`difference`, except that two RecursionErrors with CPython's recursion message are equal."""
    if type(ref.exc) is RecursionError and type(got.exc) is RecursionError:
        for e in (ref.exc, got.exc):
            assert str(e).startswith("maximum recursion depth exceeded"), str(e)
        ref.exc = got.exc = None
    return difference(ref, got)


@pytest.mark.parametrize("sc", UNBOUNDED, ids=lambda sc: sc.name)
def test_unbounded(sc):
    c = engine.compile(sc.fn)
    for k, (ref, got) in enumerate(run_pair(sc, c)):
        assert (ref.exc is not None) == sc.raises, f"call {k + 1}: eager raised {ref.exc!r}"
        diff = _same_but_recursion_text(ref, got)
        assert diff is None, f"call {k + 1}: {diff}"


# -- deep but finite -------------------------------------------------------------------------------------

def _down(x, n):
    if n == 0:
        return x
    return _down(x + 1, n - 1) * 1


def _gen_down(x, n):
    yield x
    if n:
        yield from _gen_down(x + 1, n - 1)


def _finite(n):
    def deep(log, x):
        log.append(n)
        return _down(x, n)

    deep.__name__ = f"deep_{n}"
    return deep


def _finite_gen(n):
    def deep_gen(log, x):
        return len(list(_gen_down(x, n)))

    deep_gen.__name__ = f"deep_gen_{n}"
    return deep_gen


def _real_depth() -> int:
    f, n = sys._getframe(), 0
    while f is not None:
        f, n = f.f_back, n + 1
    return n


@pytest.mark.parametrize("make,n", [(_finite, 200), (_finite, 900), (_finite_gen, 200), (_finite_gen, 600)])
def test_deep_finite(make, n):
    # Eager completes at the default limit (1000) from this test's depth; the engine must too. Where eager
    # itself cannot (a deep runner stack), there is nothing to compare, as in test_chain_depth.
    if _real_depth() + n + 10 > sys.getrecursionlimit():
        pytest.skip(f"eager cannot recurse {n} deep from depth {_real_depth()} under this limit")
    sc = Scenario(make(n), x1, 1)
    c = engine.compile(sc.fn)
    for k, (ref, got) in enumerate(run_pair(sc, c)):
        assert ref.exc is None, f"call {k + 1}: eager raised {ref.exc!r}"
        diff = difference(ref, got)
        assert diff is None, f"call {k + 1}: {diff}"
    assert c.record.eager_calls == 0 and c.record.graphs >= 1


# -- the room left depends on where the compiled function is called ----------------------------------------

def _at_depth(k, fn, *args):
    """fn(*args) called k Python frames deeper than here."""
    if k == 0:
        return fn(*args)
    return _at_depth(k - 1, fn, *args)


def _outcome(fn, *args):
    try:
        return fn(*args), None
    except RecursionError as e:
        return None, e


def test_warm_call_from_a_deeper_site():
    # Traced from here, 600 frames fit; called again 600 frames deeper they do not, under eager as under
    # the engine: the segment is guarded on the room left, so the warm call does not reuse it blindly.
    n = 600
    if _real_depth() + n + 10 > sys.getrecursionlimit():
        pytest.skip("this test's own depth leaves no room for the first call")
    c = engine.compile(_down)
    x = torch.ones(3)
    same(c(x, n), _down(x, n))
    ref, ref_exc = _outcome(_at_depth, 600, _down, x, n)
    got, got_exc = _outcome(_at_depth, 600, c, x, n)
    assert ref_exc is not None
    assert type(got_exc) is RecursionError, f"engine gave {got!r}, eager raised {ref_exc!r}"
    same(c(x, n), _down(x, n))  # back at the shallow site: completes again


def test_lower_limit_between_calls():
    c = engine.compile(_down)
    x = torch.ones(3)
    n = 150
    same(c(x, n), _down(x, n))
    old = sys.getrecursionlimit()
    sys.setrecursionlimit(_real_depth() + 100)
    try:
        _, ref_exc = _outcome(_down, x, n)
        _, got_exc = _outcome(c, x, n)
    finally:
        sys.setrecursionlimit(old)
    assert type(ref_exc) is RecursionError and type(got_exc) is RecursionError
