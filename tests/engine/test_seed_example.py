"""The seed doc's example and depth chains: NGB resumes where the break is, classic re-traces per level."""

from __future__ import annotations

import sys

import pytest
import torch

import engine

from .helpers import same, t


def inner1(x):
    x = x + 1
    torch._dynamo.graph_break()
    return x + 2


def inner2(x):
    x = x + 4
    x = inner1(x)
    x = x + 8
    return x


def f(x):
    x = x + 16
    x = inner2(x)
    x = x + 32
    return x


def test_seed_example_ngb():
    c = engine.compile(f)
    x = t(3)
    same(c(x), f(x))
    assert c.stats() == {"graphs": 2, "breaks": 1, "recompiles": 0, "frames_traced": 3}
    same(c(x), f(x))  # warm: nothing traced again
    assert c.stats() == {"graphs": 2, "breaks": 1, "recompiles": 0, "frames_traced": 3}


def test_seed_example_classic():
    c = engine.compile(f, nested=False)
    x = t(3)
    same(c(x), f(x))
    s = c.stats()
    assert s["graphs"] == 6 and s["breaks"] == 3
    same(c(x), f(x))
    assert c.stats()["graphs"] == 6


def test_explain_seed_example():
    e = engine.explain(f)(t(3))
    assert (e.graph_count, e.break_count, e.frames_traced) == (2, 1, 3)
    (b,) = e.breaks
    assert b.depth == 2 and b.where.endswith(f":{inner1.__code__.co_firstlineno + 2}")
    assert "def __segment" in e.residual
    for gm in e.graphs:
        gm.graph.lint()


def make_chain(n):
    src = ["import torch",
           "def f0(x):\n    x = x + 1\n    torch._dynamo.graph_break()\n    return x * 2"]
    for i in range(1, n):
        src.append(f"def f{i}(x):\n    x = x + 1\n    x = f{i - 1}(x)\n    return x - 1")
    g = {}
    exec(compile("\n".join(src), f"<chain{n}>", "exec"), g)
    return g[f"f{n - 1}"]


@pytest.mark.parametrize("n", [1, 10, 100, 1000])
def test_chain_depth(n):
    fn = make_chain(n)
    x = t(4)
    old = sys.getrecursionlimit()
    sys.setrecursionlimit(max(old, 2 * n + 200))  # eager needs it; the engine runs under the same limit
    try:
        try:
            ref = fn(x)
        except RecursionError as e:
            # Eager cannot run this chain in this process. With torch 2.13: once torch.compile has raised
            # Unsupported for a break inside error_on_graph_break(True) (a test in test_conformance_markers.py
            # does), every later Python call in the process counts against the C recursion limit, whatever
            # sys.setrecursionlimit says: ~750 frames on 3.12 (this skip), ~5000 on 3.13; torch._dynamo.reset()
            # does not undo it (a torch bug). The engine's VM has no host recursion per frame, so it
            # cannot meet that hidden limit where eager does: nothing to compare it with here.
            pytest.skip(f"eager itself fails at depth {n} in this process: {e}")
        c = engine.compile(fn)
        same(c(x), ref)
        same(c(x), ref)
    finally:
        sys.setrecursionlimit(old)
    assert c.stats() == {"graphs": 2, "breaks": 1, "recompiles": 0, "frames_traced": n}


def test_backend_callable_compile_counter():
    from torch._dynamo.testing import CompileCounter

    cnt = CompileCounter()
    c = engine.compile(f, backend=cnt)
    x = t(3)
    same(c(x), f(x))
    assert cnt.frame_count == 2


def test_aot_eager_backend():
    c = engine.compile(f, backend="aot_eager")
    x = t(3)
    torch.testing.assert_close(c(x), f(x))
    assert c.stats()["graphs"] == 2


def test_decorator_forms():
    @engine.compile
    def g(x):
        return inner2(x) * 2

    @engine.compile(nested=False)
    def h(x):
        return inner2(x) * 2

    x = t(3)
    same(g(x), inner2(x) * 2)
    same(h(x), inner2(x) * 2)
    assert g.stats()["graphs"] == 2


def test_reset_retraces():
    c = engine.compile(f)
    x = t(3)
    c(x)
    engine.reset()
    same(c(x), f(x))
    assert c.stats()["frames_traced"] == 6


@pytest.mark.parametrize("n", [1, 5, 10])
def test_classic_chain_is_quadratic(n):
    fn = make_chain(n)
    x = t(4)
    c = engine.compile(fn, nested=False)
    same(c(x), fn(x))
    same(c(x), fn(x))
    s = c.stats()
    assert s["graphs"] == 2 * n and s["breaks"] == n
    assert s["frames_traced"] >= n * (n + 1) // 2
