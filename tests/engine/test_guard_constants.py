"""Guards on what a trace specialised on besides tensors: Python constants (floats down to the sign of zero,
dtypes), empty closure cells, and modules (hooks and per-instance forwards added after the first call). A
guard too loose gives a stale answer; one that never passes recompiles every call, so both are checked."""

from __future__ import annotations

import contextlib
import types

import pytest
import torch

import engine
from engine._guards import Namespace

from .helpers import same, t

gb = torch._dynamo.graph_break


def test_a_name_is_given_once_per_object():
    ns, obj, other = Namespace(), object(), object()
    first = ns.const(obj, "k")
    assert ns.const(obj, "k") == first and ns.const(other, "k") != first
    assert list(ns.values.values()) == [obj, other]


def scaled(x, s):
    y = x * s
    gb()
    return y + 1 / s  # 1 / -0.0 is -inf: the sign of a zero is a different value


@pytest.mark.parametrize(("first", "second"), [(1.5, 2.5), (0.0, -0.0), (2.0, float("nan")), (3.0, 3)])
def test_a_float_argument_is_guarded_by_its_exact_value(first, second):
    c = engine.compile(scaled)
    with torch.no_grad():
        x = t(3)
        for s in (first, second, first):
            if s == 0:
                with pytest.raises(ZeroDivisionError):
                    scaled(x, s)
                with pytest.raises(ZeroDivisionError):
                    c(x, s)
                continue
            same(c(x, s), scaled(x, s))
    assert c.record.eager_calls == 0 and c.record.graphs >= 1


def same_float_twice(x, s):
    y = x * s
    gb()
    return y - s


def test_the_same_float_is_a_cache_hit():
    c = engine.compile(same_float_twice)
    x = t(3)
    for _ in range(3):
        same(c(x, 0.25), same_float_twice(x, 0.25))
    assert c.record.recompiles == 0 and c.record.eager_calls == 0 and c.record.graphs >= 1


def cast(x, dtype):
    y = x.to(dtype) * 2
    gb()
    return y + 1, y.dtype


def test_a_dtype_argument_is_guarded_by_identity():
    c = engine.compile(cast)
    x = t(3)
    for dtype in (torch.float64, torch.float16, torch.float64):
        out, ref = c(x, dtype), cast(x, dtype)
        same(out, ref)
        assert out[0].dtype is dtype
    assert c.record.recompiles == 1


def make_reader():
    late = 0
    del late  # a cell of make_reader, empty until set_late runs

    def read(x):
        try:
            return x + late
        except NameError:
            return x - 1

    def set_late(v):
        nonlocal late
        late = v

    return read, set_late


def test_an_empty_cell_is_guarded_as_empty():
    read, set_late = make_reader()
    c = engine.compile(read)
    x = t(3)
    same(c(x), x - 1)
    same(c(x), x - 1)
    assert c.record.recompiles == 0, "an empty cell guard that never passes recompiles every call"
    set_late(5)
    same(c(x), x + 5)
    assert c.record.eager_calls == 0 and c.record.graphs >= 1


class Double(torch.nn.Module):
    def __init__(self):
        super().__init__()
        self.lin = torch.nn.Linear(3, 3)

    def forward(self, x):
        y = self.lin(x)
        gb()
        return y * 2


def calls_module(m, x):
    return m(x) + 1


def _net():
    torch.manual_seed(0)
    return Double()


def test_a_plain_module_is_a_cache_hit():
    m, c = _net(), engine.compile(calls_module)
    with torch.no_grad():
        x = t(2, 3)
        for _ in range(3):
            same(c(m, x), calls_module(m, x))
    assert c.record.recompiles == 0 and c.record.eager_calls == 0 and c.record.graphs >= 1


def test_a_hooked_module_is_a_cache_hit_and_runs_its_hooks():
    m, c, seen = _net(), engine.compile(calls_module), []
    m.register_forward_pre_hook(lambda mod, args: seen.append("pre"))
    m.register_forward_hook(lambda mod, args, out: out - 3)
    with torch.no_grad():
        x = t(2, 3)
        ref = calls_module(m, x)
        seen.clear()
        for _ in range(3):
            same(c(m, x), ref)
    assert seen == ["pre"] * 3
    assert c.record.recompiles == 0 and c.record.eager_calls == 0 and c.record.graphs >= 1


@pytest.mark.parametrize("change", ["forward hook", "pre-hook", "instance forward", "global forward hook"])
def test_a_module_changed_after_the_first_call_is_seen(change):
    m, c = _net(), engine.compile(calls_module)
    with torch.no_grad(), contextlib.ExitStack() as stack:
        x = t(2, 3)
        before = calls_module(m, x)
        same(c(m, x), before)
        if change == "global forward hook":  # one guard per segment checks the hooks of all modules
            h = torch.nn.modules.module.register_module_forward_hook(lambda mod, args, out: out * 10)
            stack.callback(h.remove)
        elif change == "forward hook":
            m.register_forward_hook(lambda mod, args, out: out * 10)
        elif change == "pre-hook":
            m.register_forward_pre_hook(lambda mod, args: (args[0] + 100,))
        else:
            m.forward = types.MethodType(lambda self, inp: self.lin(inp) - 7, m)
        ref = calls_module(m, x)
        same(c(m, x), ref)
        assert not torch.equal(ref, before), "the change must change the answer"
    assert c.record.graphs >= 2, "the first call compiled, and the change was seen by a guard, not by luck"
