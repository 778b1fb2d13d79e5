"""Assertions shared by the engine tests: every result is compared with eager, never with a closed form."""

from __future__ import annotations

import copy

import torch

import engine


def same(a, b):
    """Bitwise equality of nested results (tensors: dtype, shape, values incl. NaN, requires_grad)."""
    __tracebackhide__ = True
    if isinstance(a, torch.Tensor):
        assert isinstance(b, torch.Tensor), f"{type(b)} is not a tensor"
        assert a.dtype == b.dtype and a.shape == b.shape, f"{a.dtype}{tuple(a.shape)} != {b.dtype}{tuple(b.shape)}"
        assert a.requires_grad == b.requires_grad
        assert torch.equal(a.detach(), b.detach()) or (
            torch.isnan(a).any() and torch.equal(torch.nan_to_num(a.detach()), torch.nan_to_num(b.detach())))
        return
    assert type(a) is type(b), f"{type(a).__name__} != {type(b).__name__}"
    if isinstance(a, (tuple, list)):
        assert len(a) == len(b)
        for x, y in zip(a, b):
            same(x, y)
    elif isinstance(a, dict):
        assert list(a) == list(b)
        for k in a:
            same(a[k], b[k])
    else:
        assert a == b, f"{a!r} != {b!r}"


def run_both(fn, make_args, nested=True, backend="eager", calls=2):
    """Run fn eagerly and compiled (`calls` times each, fresh args each time); compare results/exceptions."""
    __tracebackhide__ = True
    c = engine.compile(fn, backend=backend, nested=nested)
    for _ in range(calls):
        grad = torch.is_grad_enabled()
        eager_args = make_args()
        comp_args = copy.deepcopy(eager_args)
        try:
            ref, ref_exc = fn(*eager_args), None
        except Exception as e:
            ref, ref_exc = None, e
        eager_grad = torch.is_grad_enabled()
        torch._C._set_grad_enabled(grad)
        try:
            out, exc = c(*comp_args), None
        except Exception as e:
            out, exc = None, e
        assert torch.is_grad_enabled() == eager_grad, "grad mode after the call differs"
        torch._C._set_grad_enabled(grad)
        if ref_exc is not None or exc is not None:
            assert type(exc) is type(ref_exc), f"eager raised {ref_exc!r}, engine {exc!r}"
            assert str(exc) == str(ref_exc)
        else:
            same(ref, out)
        same(list(eager_args), list(comp_args))
    for gm in c.record.graph_modules:
        gm.graph.lint()
    return c


def check(fn, make_args, **kw):
    """Both modes agree with eager; returns the NGB compiled function (for stats)."""
    __tracebackhide__ = True
    c = run_both(fn, make_args, nested=True, **kw)
    run_both(fn, make_args, nested=False, **kw)
    return c


def t(*shape, seed=0, requires_grad=False):
    g = torch.Generator().manual_seed(seed)
    return torch.randn(*shape, generator=g).requires_grad_(requires_grad)
