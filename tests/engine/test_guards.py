"""Guards, recompiles, the recompile limit, and the ways the engine falls back to eager."""

from __future__ import annotations

import warnings

import pytest
import torch

import engine

from .helpers import check, same, t

gb = torch._dynamo.graph_break
OFFSET = 1


def helper(x):
    return x + 1


def uses_globals(x):
    x = helper(x) * OFFSET
    gb()
    return x + OFFSET


def test_tensor_guards_recompile():
    c = engine.compile(uses_globals)
    for x in (t(3), t(3, seed=1), t(4), t(3).double(), t(2, 2), t(3, requires_grad=True)):
        same(c(x), uses_globals(x))
    s = c.stats()
    # same metadata reuses the trace; each new shape/dtype/requires_grad misses at the entry (a recompile)
    # and grows a new branch of the trace tree (both segments traced and compiled again)
    assert s["recompiles"] == 4
    assert s["graphs"] == 2 * 5


def test_global_value_and_identity_guards():
    global OFFSET, helper
    c = engine.compile(uses_globals)
    x = t(3)
    same(c(x), uses_globals(x))
    old_offset, old_helper = OFFSET, helper
    try:
        OFFSET = 5
        same(c(x), uses_globals(x))

        def helper(x):  # noqa: F811  (rebinding a global function must be seen)
            return x - 100

        same(c(x), uses_globals(x))
    finally:
        OFFSET, helper = old_offset, old_helper
    assert c.stats()["recompiles"] >= 2


def test_recompile_limit_falls_back_to_eager():
    def fn(x, n):
        return x + n

    c = engine.compile(fn)
    with warnings.catch_warnings(record=True) as w:
        warnings.simplefilter("always")
        for n in range(12):
            same(c(t(3), n), fn(t(3), n))
    assert any("recompile limit" in str(m.message) for m in w)
    assert c.stats()["recompiles"] == 7


def test_generator_function_runs_eagerly():
    def gen(x):
        yield x + 1

    c = engine.compile(gen)
    same(list(c(t(3))), list(gen(t(3))))
    assert c.record.eager_calls == 1


def test_generator_called_inside_is_a_break():
    def gen(x):
        for i in range(3):
            yield x * i

    def fn(x):
        acc = x
        for v in gen(x):
            acc = acc + v
        return acc

    check(fn, lambda: (t(3),))


def test_fullgraph():
    c = engine.compile(lambda x: x * 2 + 1, fullgraph=True)
    same(c(t(3)), t(3) * 2 + 1)
    c = engine.compile(uses_globals, fullgraph=True)
    with pytest.raises(engine.EngineError):
        c(t(3))


SENTINEL = 5


def _store_and_read(x, k):
    global SENTINEL
    SENTINEL = k
    return x * SENTINEL + len("ab")


def test_registered_eager_forms_cover_engine_errors(monkeypatch):
    """An engine error in a handler runs the instruction by its registered eager form: a global read after
    the segment's own store (replayed first), a builtin pushed with its NULL, a jump on `is None`."""
    from engine._vm import _ops_jumps, _ops_locals

    def broken(*args):
        raise ZeroDivisionError("simulated engine bug")

    real_is_same, calls = _ops_jumps.is_same, []

    def broken_once(*args):  # a retried jump that failed every time would break forever
        calls.append(1)
        if len(calls) == 1:
            raise ZeroDivisionError("simulated engine bug")
        return real_is_same(*args)

    monkeypatch.setattr(_ops_locals, "load_global", broken)
    monkeypatch.setattr(_ops_jumps, "is_same", broken_once)
    c = engine.compile(_store_and_read)
    for k in (2, 3, 3):
        same(c(t(3), k), t(3) * k + 2)
        assert SENTINEL == k
    c2 = engine.compile(lambda x, k: x + 1 if k is None else x - 1)
    for k in (None, 2, None):
        same(c2(t(3), k), t(3) + 1 if k is None else t(3) - 1)
    for comp in (c, c2):
        assert any(b.gb_id == "internal" for b in comp.record.break_records)
        assert comp.record.eager_calls == 0


def test_break_records_are_structured():
    def fn(x):
        print(end="")
        return x.sum().item()

    e = engine.explain(fn)(t(3))
    ids = [b.gb_id for b in e.breaks]
    assert ids == ["print", "tensor-method"]
    assert all(b.where.startswith(__file__) and b.depth == 0 and b.reason for b in e.breaks)


def test_exceptions_match_eager():
    def fn(x, k):
        d = {"a": x}
        x = x + 1
        gb()
        return d[k] + x

    check(fn, lambda: (t(3), "a"))
    check(fn, lambda: (t(3), "b"))


def test_user_objects_and_side_effects():
    class Counter:
        def __init__(self):
            self.n = 0

        def bump(self, v):
            self.n = self.n + 1
            return v * self.n

    counter = Counter()
    log = []

    def fn(x):
        y = counter.bump(x)
        log.append(counter.n)
        gb()
        z = counter.bump(y)
        log.append(counter.n)
        return z, counter.n

    c = engine.compile(fn)
    x = t(3)
    out1, out2 = c(x), c(x)
    counter.n = 0
    log_c = list(log)
    log.clear()
    ref1, ref2 = fn(x), fn(x)
    same((out1, out2), (ref1, ref2))
    assert log_c == log
    assert c.record.graphs >= 2 and c.record.eager_calls == 0


def test_keyword_arguments_and_bound_methods():
    def fn(x, scale=2, *, shift=1):
        gb()
        return x * scale + shift

    c = engine.compile(fn)
    x = t(3)
    same(c(x), fn(x))
    same(c(x, 3), fn(x, 3))
    same(c(x, shift=5), fn(x, shift=5))
    same(c(x, scale=4, shift=5), fn(x, scale=4, shift=5))
    assert c.record.graphs >= 4 and c.record.eager_calls == 0  # one trace per argument layout
    with pytest.raises(TypeError):
        c(x, bad=1)

    class Model:
        def __init__(self):
            self.w = t(3, seed=2)

        def forward(self, x):
            y = x * self.w
            gb()
            return y + self.w

    m = Model()
    cm = engine.compile(m.forward)
    same(cm(x), m.forward(x))
    m.w = t(3, seed=3)
    same(cm(x), m.forward(x))


def test_module_runs_eagerly():
    lin = torch.nn.Linear(3, 2)
    c = engine.compile(lin)
    x = t(3)
    same(c(x), lin(x))


class LoggingTensor(torch.Tensor):
    LOG = []

    @classmethod
    def __torch_function__(cls, func, types, args=(), kwargs=None):
        cls.LOG.append(getattr(func, "__name__", "?"))
        return super().__torch_function__(func, types, args, kwargs or {})


def test_tensor_subclasses_and_sparse_run_eagerly():
    def fn(x, log):
        log.append("a")
        y = x * 2
        log.append("b")
        return y * 3

    for make in (lambda: t(3).as_subclass(LoggingTensor), lambda: t(3, 3).to_sparse()):
        logs = []
        for f in (fn, engine.compile(fn)):
            LoggingTensor.LOG.clear()
            log = []
            out = f(make(), log)
            logs.append((log, list(LoggingTensor.LOG), type(out), out.to_dense() if out.is_sparse else out))
        assert logs[0][:3] == logs[1][:3]
        same(logs[0][3].as_subclass(torch.Tensor), logs[1][3].as_subclass(torch.Tensor))


def test_engine_errors_in_handlers_fall_back_to_eager(monkeypatch):
    from engine._vm import _ops_ops

    def broken(*args):
        raise ZeroDivisionError("simulated engine bug")

    monkeypatch.setattr(_ops_ops, "binary", broken)
    monkeypatch.setattr(_ops_ops, "load_attr", broken)

    def fn(x):
        y = x + 1
        gb()
        return (y * 2).sum(), y.shape

    c = engine.compile(fn)
    x = t(3)
    same(c(x), fn(x))
    same(c(x), fn(x))
    assert all(b.gb_id in ("internal", "graph_break") for b in c.record.break_records)
    assert any(b.gb_id == "internal" for b in c.record.break_records)


def _matmul_dtype(x):
    y = x @ x
    return y, y.dtype


def test_autocast_dtype_is_part_of_the_torch_state_guard():
    # Traced under bfloat16 autocast, then called under float16 autocast: the dtype the trace saw must not
    # be reused (it once was: only whether autocast is on was guarded).
    c = engine.compile(_matmul_dtype)
    x = torch.randn(3, 3)
    for dt in (torch.bfloat16, torch.float16):
        with torch.autocast("cpu", dtype=dt):
            ref, out = _matmul_dtype(x), c(x)
        assert out[1] == ref[1] == dt and out[0].dtype == dt
    assert c.record.graphs == 2
