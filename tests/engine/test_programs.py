"""Programs in the shape of docs/program-format.md: effect log, helper modules, globals, two calls."""

from __future__ import annotations

import types

import pytest
import torch

import engine

from .helpers import same

PROGRAM_A = '''
import torch
import types

EFFECTS = []


def _effect(tag, value):
    if isinstance(value, torch.Tensor):
        value = value.detach().clone()
    EFFECTS.append((tag, value))


COUNTER = 0

_helper_a = types.ModuleType("ngb_helper_a")
exec(compile("""
import torch
SCALE = 3.0
HELPER_CONSTANT = torch.tensor([100.0, 200.0, 300.0, 400.0])
CALLS = []
def scaled(x):
    CALLS.append(1)
    return x * SCALE
def closure_with_graph_break(x):
    captured = x + 1
    def inner():
        torch._dynamo.graph_break()
        return captured + HELPER_CONSTANT
    return inner()
""", "ngb_helper_a", "exec"), _helper_a.__dict__)


def f3(x):
    _effect("f3.in", x)
    x = x + 1
    torch._dynamo.graph_break()
    _effect("f3.out", x)
    return x * 2


def f2(x, y):
    global COUNTER
    COUNTER += 1
    total = 0
    def bump(v):
        nonlocal total
        total += 1
        return v + total
    with torch.no_grad():
        a = (x, f3(x), bump(y))
    b = [y, f3(y) + 1]
    c = {"k": f3(x), "n": total}
    d = x + f3(y)
    e = torch.cat([f3(x), x])
    g = x.add(f3(y))
    _effect("f2", (a[1].sum(), torch.is_grad_enabled(), total))
    return a, b, c, d, e, g


def f1(x, y):
    x = _helper_a.scaled(x)
    r = f2(x, y)
    s = _helper_a.closure_with_graph_break(y)
    print("printed", COUNTER)
    return r, s, f"{COUNTER}"


def entry(x, y):
    _effect("entry", COUNTER)
    return f1(x, y)


def make_inputs(device):
    g = torch.Generator().manual_seed(0)
    return (torch.randn(4, generator=g).to(device), torch.randn(4, generator=g).to(device))
'''

PROGRAM_B = '''
import torch

EFFECTS = []
STATE = {"n": 0}
LOG = []


def _effect(tag, value):
    if isinstance(value, torch.Tensor):
        value = value.detach().clone()
    EFFECTS.append((tag, value))


class Acc:
    def __init__(self):
        self.total = 0

    def add(self, v):
        self.total = self.total + 1
        return v * 2


ACC = Acc()


def leaf(x):
    if x.sum() > 0:
        _effect("pos", x)
        x = x - 1
    else:
        _effect("neg", x)
    v = x.mean().item()
    LOG.append(round(v, 3))
    return x + v


def mid(x, depth):
    if depth == 0:
        return leaf(x)
    with torch.enable_grad():
        y = ACC.add(mid(x + depth, depth - 1))
    STATE["n"] += 1
    return y


def entry(x):
    torch.set_grad_enabled(False)
    out = mid(x, 3)
    _effect("grad", torch.is_grad_enabled())
    torch.set_grad_enabled(True)
    return out, ACC.total, torch.is_grad_enabled()


def make_inputs(device):
    g = torch.Generator().manual_seed(1)
    return (torch.randn(3, generator=g).to(device),)
'''


def load(source, name="ngb_program"):
    mod = types.ModuleType(name)
    exec(compile(source, f"<{name}>", "exec", dont_inherit=True), mod.__dict__)
    return mod


def observe(mod):
    """Program globals that hold data, plus helper modules' globals (the oracle's view)."""
    out = {}
    for k, v in mod.__dict__.items():
        if k.startswith("_") and not isinstance(v, types.ModuleType):
            continue
        if isinstance(v, types.ModuleType) and v.__name__.startswith("ngb_"):
            out[k] = observe(v)
        elif isinstance(v, (type(None), bool, int, float, str, torch.Tensor, list, tuple, dict, set)):
            out[k] = v
    return out


@pytest.mark.parametrize("source", [PROGRAM_A, PROGRAM_B], ids=["A", "B"])
@pytest.mark.parametrize("nested", [True, False], ids=["ngb", "classic"])
def test_program_matches_eager(source, nested, capsys):
    ref_mod = load(source)
    refs = []
    for _ in range(2):
        refs.append(ref_mod.entry(*ref_mod.make_inputs("cpu")))
        refs.append(torch.is_grad_enabled())
    ref_out = capsys.readouterr().out
    mod = load(source)
    c = engine.compile(mod.entry, nested=nested)
    outs = []
    for _ in range(2):
        outs.append(c(*mod.make_inputs("cpu")))
        outs.append(torch.is_grad_enabled())
    assert capsys.readouterr().out == ref_out
    same(outs, refs)
    same(observe(mod), observe(ref_mod))
    s = c.stats()
    assert s["graphs"] >= 1 and s["breaks"] >= 1
    for gm in c.record.graph_modules:
        gm.graph.lint()


def test_program_a_second_call_interprets_nothing():
    mod = load(PROGRAM_A)
    c = engine.compile(mod.entry)
    c(*mod.make_inputs("cpu"))
    first = c.stats()
    c(*mod.make_inputs("cpu"))
    second = c.stats()
    # COUNTER changed between calls, so the segments that read it are traced again (guards work);
    # the number of breaks met per trace stays bounded.
    assert second["recompiles"] >= 1
    assert second["frames_traced"] <= 2 * first["frames_traced"]
