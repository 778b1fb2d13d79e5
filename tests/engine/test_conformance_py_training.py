"""Conformance, everyday Python (4/4): training and model code -- `optimizer.zero_grad()`, `SGD.step`,
`Adam.step`, LR schedulers, `Tensor.grad`, `nn.init.*_`, dict comprehensions, generator pipelines,
`nn.Transformer` under `no_grad`, and a loop `for conv, f in zip(self.convs, feats)` calling a helper that
breaks -- each with a graph break in a called helper (depth >= 1). The model and optimizers are module
state: `setup` puts them back before each run, `observe` compares parameters, gradients and learning rates
after every call."""

from __future__ import annotations

import pytest
import torch
from torch import nn

from .conformance import Scenario, check_scenario, x1
from .helpers import t

gb = torch._dynamo.graph_break


def _brk(log, tag):
    log.append(tag)
    gb()


def _log_loss(log, loss):
    """A logging helper as people write them: it reads a Python float (a break in both compilers)."""
    log.append(round(float(loss), 4))


def _make_net() -> nn.Module:
    torch.manual_seed(0)
    return nn.Sequential(nn.Linear(3, 4), nn.Tanh(), nn.Linear(4, 2))


_NET = _make_net()
_INIT = {k: v.clone() for k, v in _NET.state_dict().items()}
_T: dict = {}


def _setup() -> None:
    with torch.no_grad():
        for k, v in _NET.state_dict().items():
            v.copy_(_INIT[k])
    for p in _NET.parameters():
        p.grad = None
    _NET.train()
    _T["sgd"] = torch.optim.SGD(_NET.parameters(), lr=0.1, momentum=0.9)
    _T["adam"] = torch.optim.Adam(_NET.parameters(), lr=0.01)
    _T["sched"] = torch.optim.lr_scheduler.StepLR(_T["sgd"], step_size=1, gamma=0.5)


def _observe():
    return ([p.detach().clone() for p in _NET.parameters()],
            [None if p.grad is None else p.grad.clone() for p in _NET.parameters()],
            [g["lr"] for g in _T["sgd"].param_groups])


def x53():
    return (t(5, 3),)


def x53b():
    return (t(5, 3, seed=1),)


def sgd_step(log, x):
    opt = _T["sgd"]
    opt.zero_grad()
    loss = _NET(x).pow(2).mean()
    loss.backward()
    _log_loss(log, loss)
    opt.step()
    return loss.detach()


def adam_step(log, x):
    opt = _T["adam"]
    opt.zero_grad(set_to_none=True)
    loss = _NET(x).abs().sum()
    loss.backward()
    _brk(log, "backward done")
    opt.step()
    return loss.detach(), len(opt.state)


def zero_grad_keeps_tensors(log, x):
    _NET(x).sum().backward()
    _brk(log, "grads")
    _T["sgd"].zero_grad(set_to_none=False)
    return [p.grad.abs().sum() for p in _NET.parameters()]


def lr_scheduler_steps(log, x):
    opt, sched = _T["sgd"], _T["sched"]
    lrs = []
    for _ in range(2):
        opt.zero_grad()
        loss = _NET(x).sum()
        loss.backward()
        opt.step()
        sched.step()
        _brk(log, sched.get_last_lr())
        lrs.append(opt.param_groups[0]["lr"])
    return lrs


def manual_sgd_update(log, x):
    loss = _NET(x).square().sum()
    loss.backward()
    _brk(log, "grads ready")
    with torch.no_grad():
        for p in _NET.parameters():
            p -= 0.05 * p.grad
            p.grad = None
    return loss.detach()


def tensor_grad_read(log, x):
    x.requires_grad_(True)
    y = (x * x).sum()
    y.backward()
    _brk(log, x.grad is None)
    return x.grad * 2, x.grad.shape


def grad_clip_norm(log, x):
    _NET(x).pow(3).sum().backward()
    _brk(log, "clip")
    total = nn.utils.clip_grad_norm_(_NET.parameters(), max_norm=0.5)
    return total, [p.grad.norm() for p in _NET.parameters()]


def train_eval_toggle(log, x):
    _NET.eval()
    _brk(log, _NET.training)
    with torch.no_grad():
        y = _NET(x)
    _NET.train()
    return y, _NET.training, _NET[0].training


def nn_init_inplace(log, w, b):
    nn.init.ones_(w)
    _brk(log, "ones")
    nn.init.constant_(b, 0.25)
    nn.init.zeros_(w[0])
    return w.sum() + b.sum()


def nn_init_eye_dirac(log, x):
    w = torch.empty(3, 3)
    nn.init.eye_(w)
    _brk(log, "eye")
    k = torch.empty(2, 2, 3)
    nn.init.dirac_(k)
    return w @ x, k.sum()


def dict_comprehension_params(log, x):
    norms = {name: p.detach().norm() for name, p in _NET.named_parameters()}
    _brk(log, sorted(norms))
    scaled = {k: v * x.sum() for k, v in norms.items() if "weight" in k}
    return scaled


def dict_comprehension_input(log, d):
    out = {k: v + 1 for k, v in d.items()}
    _brk(log, list(out))
    d["extra"] = out["a"] * 2
    return {k: v.sum() for k, v in sorted(out.items())}


def generator_pipeline(log, x):
    rows = (x[i] for i in range(x.shape[0]))
    scaled = (r * 2 for r in rows)
    kept = (r for r in scaled if r.dim() == 1)
    out = []
    for k, r in enumerate(kept):
        if k == 1:
            _brk(log, k)
        out.append(r.sum())
    return torch.stack(out)


def generator_pipeline_sum(log, x):
    feats = [x, x + 1, x * 2]
    total = sum(f.mean() for f in (g * 2 for g in feats))
    _brk(log, "total")
    return total


def _encoder():
    torch.manual_seed(0)
    model = nn.Transformer(d_model=8, nhead=2, num_encoder_layers=1, num_decoder_layers=1,
                           dim_feedforward=16, dropout=0.0, batch_first=True)
    return model.eval()


_TRANSFORMER = _encoder()


def transformer_no_grad(log, src, tgt):
    with torch.no_grad():
        out = _TRANSFORMER(src, tgt)
    _brk(log, tuple(out.shape))
    return out * 2


def transformer_encoder_no_grad(log, src):
    with torch.no_grad():
        memory = _TRANSFORMER.encoder(src)
    _brk(log, "encoded")
    return memory.sum(-1)


class Pyramid(nn.Module):
    def __init__(self):
        super().__init__()
        torch.manual_seed(0)
        self.convs = nn.ModuleList(nn.Conv1d(2, 2, 3, padding=1) for _ in range(3))
        self.log: list = []

    def forward(self, feats):
        outs = []
        for conv, f in zip(self.convs, feats):
            y = conv(f)
            _log_loss(self.log, y.mean())
            outs.append(y.relu())
        return outs


_PYRAMID = Pyramid()


def zip_modulelist_loop(log, x):
    _PYRAMID.log = log
    feats = [x, x * 2, x + 1]
    return _PYRAMID(feats)


def x_feats():
    return (t(1, 2, 5),)


def transformer_inputs():
    return t(2, 4, 8), t(2, 3, 8, seed=1)


SCENARIOS = [
    Scenario(sgd_step, x53, 3, inputs2=x53b, setup=_setup, observe=_observe),
    Scenario(adam_step, x53, 2, inputs2=x53b, setup=_setup, observe=_observe),
    Scenario(zero_grad_keeps_tensors, x53, 2, setup=_setup, observe=_observe),
    Scenario(lr_scheduler_steps, x53, 3, inputs2=x53b, setup=_setup, observe=_observe),
    Scenario(manual_sgd_update, x53, 2, setup=_setup, observe=_observe),
    Scenario(tensor_grad_read, x1, 2),
    Scenario(grad_clip_norm, x53, 2, setup=_setup, observe=_observe),
    Scenario(train_eval_toggle, x53, 1, setup=_setup, observe=_observe),
    Scenario(nn_init_inplace, lambda: (t(2, 3), t(3)), 2),
    Scenario(nn_init_eye_dirac, x1, 2),
    Scenario(dict_comprehension_params, x1, 2, setup=_setup),
    Scenario(dict_comprehension_input, lambda: ({"a": t(3), "b": t(2)},), 3),
    Scenario(generator_pipeline, lambda: (t(3, 2),), 2),
    Scenario(generator_pipeline_sum, x1, 1),
    Scenario(transformer_no_grad, transformer_inputs, 2),
    Scenario(transformer_encoder_no_grad, lambda: (t(2, 4, 8),), 2),
    Scenario(zip_modulelist_loop, x_feats, 4),
]


@pytest.mark.parametrize("sc", SCENARIOS, ids=lambda sc: sc.name)
def test_py_training(sc):
    check_scenario(sc)
