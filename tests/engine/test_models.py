"""Real models compiled whole (`engine.compile(module)`): forward and backward equal eager, graphs and breaks
as expected; module state (train/eval, requires_grad, parameters, hooks) is guarded, not baked in."""

from __future__ import annotations

import importlib
import sys

import pytest
import torch
import torch.nn as nn

import engine
from engine import _policy

from .models import BY_NAME, MODELS, loss_of


def _grads(m: nn.Module) -> list:
    return [p.grad for p in m.parameters()]


def _assert_same_grads(a: nn.Module, b: nn.Module, tol: float) -> None:
    for (name, p), q in zip(a.named_parameters(), b.parameters()):
        assert (p.grad is None) == (q.grad is None), name
        if p.grad is not None:
            torch.testing.assert_close(p.grad, q.grad, rtol=tol, atol=tol, msg=name)


def _compare(name: str, backend: str, tol: float, capsys=None):
    case = BY_NAME[name]
    ref, args = case.make()
    model, _ = case.make()
    c = engine.compile(model, backend=backend)
    out, expected = c(*args), ref(*args)
    torch.testing.assert_close(out, expected, rtol=tol, atol=tol)
    loss_of(out).backward()
    loss_of(expected).backward()
    _assert_same_grads(model, ref, 10 * tol)
    for (bname, b), rb in zip(model.named_buffers(), ref.buffers()):
        torch.testing.assert_close(b, rb, msg=bname)  # e.g. BatchNorm running stats: updated once each
    for gm in c.record.graph_modules:
        gm.graph.lint()
    return c, args, ref


@pytest.mark.parametrize("name", [m.name for m in MODELS])
def test_model_matches_eager(name, capsys):
    c, args, ref = _compare(name, "eager", 1e-6)
    s = c.stats()
    assert s["graphs"] >= 1 and s["breaks"] == BY_NAME[name].breaks, c.record.break_records
    graphs = s["graphs"]
    torch.testing.assert_close(c(*args), ref(*args), rtol=1e-6, atol=1e-6)  # the warm path
    assert c.stats()["graphs"] == graphs and c.stats()["recompiles"] == 0


@pytest.mark.parametrize("name", ["mlp", "convnet_bn", "mha", "item_helper"])
def test_aot_eager_backward_matches_eager(name, capsys):
    c, _, _ = _compare(name, "aot_eager", 1e-5)
    assert c.stats()["graphs"] >= 1


def test_train_eval_and_requires_grad_recompile():
    case = BY_NAME["convnet_bn"]
    ref, (x,) = case.make()
    model, _ = case.make()
    c = engine.compile(model)
    torch.testing.assert_close(c(x), ref(x))
    model.eval()
    ref.eval()
    torch.testing.assert_close(c(x), ref(x))  # eval: running stats, no update
    assert c.stats()["recompiles"] == 1
    model.train()
    ref.train()
    torch.testing.assert_close(c(x), ref(x))  # the train-mode segment again: nothing new compiled
    assert c.stats()["recompiles"] == 1
    for m in (model, ref):
        m[0].weight.requires_grad_(False)
    out, expected = c(x), ref(x)
    assert c.stats()["recompiles"] == 2
    loss_of(out).backward()
    loss_of(expected).backward()
    assert model[0].weight.grad is None
    _assert_same_grads(model, ref, 1e-5)


def test_parameters_are_inputs_not_constants():
    case = BY_NAME["mlp"]
    ref, (x,) = case.make()
    model, _ = case.make()
    c = engine.compile(model)
    c(x)
    with torch.no_grad():  # updated in place (an optimizer step) ...
        for p, q in zip(model.parameters(), ref.parameters()):
            p.mul_(1.5)
            q.mul_(1.5)
    torch.testing.assert_close(c(x), ref(x))
    new = nn.Parameter(torch.randn_like(model[0].weight))  # ... or replaced by another parameter
    model[0].weight = new
    ref[0].weight = nn.Parameter(new.detach().clone())
    torch.testing.assert_close(c(x), ref(x))
    assert c.stats()["graphs"] == 1 and c.stats()["recompiles"] == 0


class Scaled(nn.Module):
    def __init__(self) -> None:
        super().__init__()
        self.lin = nn.Linear(4, 4)

    def forward(self, x):
        return self.lin(x).relu()


def test_forward_hooks_are_traced_and_guarded():
    torch.manual_seed(0)
    m, ref = Scaled(), Scaled()
    ref.load_state_dict(m.state_dict())
    seen = []
    for mod in (m, ref):
        mod.register_forward_pre_hook(lambda mod, args: (args[0] * 2,))
        mod.register_forward_hook(lambda mod, args, out: seen.append(1) or out + args[0])
    c = engine.compile(m)
    x = torch.randn(3, 4)
    torch.testing.assert_close(c(x), ref(x))
    assert c.stats() == {"graphs": 1, "breaks": 0, "recompiles": 0, "frames_traced": c.stats()["frames_traced"]}
    assert seen == [1, 1]  # the Python hook's side effect happened on the compiled call too
    handle = m.register_forward_hook(lambda mod, args, out: out - 1)
    ref.register_forward_hook(lambda mod, args, out: out - 1)
    torch.testing.assert_close(c(x), ref(x))  # a new hook: guard miss, traced again
    assert c.stats()["recompiles"] == 1
    handle.remove()


def test_backward_hooks_run_the_module_eagerly_and_correctly():
    torch.manual_seed(0)
    m, ref = Scaled(), Scaled()
    ref.load_state_dict(m.state_dict())
    calls = []
    for mod in (m, ref):
        mod.register_full_backward_hook(lambda mod, gin, gout: calls.append(1))
    c = engine.compile(lambda x: m(x) * 2)
    x = torch.randn(3, 4, requires_grad=True)
    loss_of(c(x)).backward()
    loss_of(ref(x) * 2).backward()
    assert calls == [1, 1]
    _assert_same_grads(m, ref, 1e-6)


class Decorated(nn.Module):
    def __init__(self) -> None:
        super().__init__()
        self.lin = nn.Linear(4, 2)

    @engine.compile
    def forward(self, x):
        return torch.tanh(self.lin(x)) * self.training


def test_compile_as_method_decorator():
    torch.manual_seed(0)
    a, b = Decorated(), Decorated()  # two instances share the compiled forward, each with its own weights
    x = torch.randn(3, 4)
    for m in (a, b, a):
        expected = torch.tanh(m.lin(x)) * m.training
        torch.testing.assert_close(m(x), expected)
    a.eval()
    torch.testing.assert_close(a(x), torch.tanh(a.lin(x)) * 0)
    stats = Decorated.forward.stats()
    assert stats["graphs"] == 2 and stats["breaks"] == 0


def test_policy_entries_each_say_why():
    assert all(rule.reason for rule in _policy.CALLABLES.values())
    assert all(reason for _, _, reason in _policy.TORCH_PATH_RULES)
    text = _policy.describe()
    assert "is_scripting" in text and "has_torch_function" in text
    assert _policy.code_rule(nn.functional._canonical_mask.__code__)[0] is _policy.Decision.TRACE
    assert _policy.code_rule(torch.autograd.grad.__code__)[0] is _policy.Decision.EAGER


def test_user_code_in_site_packages_is_traced(tmp_path, monkeypatch):
    site = tmp_path / "site-packages"
    site.mkdir()
    (site / "ngb_userpkg.py").write_text("import torch\n\ndef scale(x):\n    return torch.sin(x) * 2\n")
    monkeypatch.syspath_prepend(str(site))
    mod = importlib.import_module("ngb_userpkg")
    try:
        c = engine.compile(lambda x: mod.scale(x) + 1)
        x = torch.randn(3)
        torch.testing.assert_close(c(x), mod.scale(x) + 1)
        assert c.stats()["graphs"] == 1 and c.stats()["breaks"] == 0
    finally:
        sys.modules.pop("ngb_userpkg", None)


LIN = nn.Linear(3, 3)


def test_library_queries_fold_without_breaks():
    def f(x):
        if torch.jit.is_scripting() or torch.overrides.has_torch_function((x,)):
            return x
        return LIN(x) + getattr(LIN, "missing_attr", 1) + hasattr(LIN, "weight") + getattr(x * 1, "nope", 2)

    c = engine.compile(f)
    x = torch.randn(3)
    torch.testing.assert_close(c(x), f(x))
    assert c.stats()["breaks"] == 0
