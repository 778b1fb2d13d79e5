"""Guard misses: the first call runs under one value of a property, the second under another. The second call
must trace anew (a recompile) and give eager's answer, with the eager and the aot_eager backends."""

from __future__ import annotations

import contextlib

import pytest
import torch

import engine

from .helpers import same, t, torch_state

gb = torch._dynamo.graph_break


def probe(x):
    y = torch.mm(x, x) + 1  # dtype under autocast, shape, requires_grad under grad mode
    gb()
    z = y * 2
    return (z, z.dtype, z.requires_grad, z.is_inference(), x.stride(), tuple(x.shape), x.device.type,
            torch.is_grad_enabled(), torch.is_autocast_enabled("cpu"))


def _none():
    return contextlib.nullcontext()


def _cuda():
    if not torch.cuda.is_available():
        pytest.skip("no CUDA device here")
    return t(3, 3).cuda()


# axis -> (context of call 1, input of call 1, context of call 2, input of call 2)
AXES = {
    "grad_mode": (_none, lambda: t(3, 3, requires_grad=True), torch.no_grad,
                  lambda: t(3, 3, requires_grad=True)),
    "autocast": (_none, lambda: t(3, 3), lambda: torch.autocast("cpu", dtype=torch.bfloat16), lambda: t(3, 3)),
    "inference_mode": (_none, lambda: t(3, 3), torch.inference_mode, lambda: t(3, 3)),
    "dtype": (_none, lambda: t(3, 3), _none, lambda: t(3, 3).double()),
    "shape": (_none, lambda: t(3, 3), _none, lambda: t(4, 4)),
    "stride": (_none, lambda: t(3, 3), _none, lambda: t(3, 3).t()),
    "requires_grad": (_none, lambda: t(3, 3), _none, lambda: t(3, 3, requires_grad=True)),
    "device": (_none, lambda: t(3, 3), _none, _cuda),
}


@pytest.mark.parametrize("backend", ["eager", "aot_eager"])
@pytest.mark.parametrize("axis", list(AXES))
def test_second_call_under_another_value(axis, backend):
    ctx1, in1, ctx2, in2 = AXES[axis]
    c = engine.compile(probe, backend=backend)
    graphs = []
    for ctx, make in ((ctx1, in1), (ctx2, in2)):
        x = make()
        with ctx():
            ref = probe(x)
            ref_state = torch_state()
        with ctx():
            out = c(x)
            state = torch_state()
        same(ref, out)
        assert state == ref_state
        graphs.append(c.record.graphs)
    assert c.record.eager_calls == 0, "the second call ran eagerly instead of tracing"
    assert c.record.recompiles >= 1, f"{axis}: the first call's trace was reused"
    assert graphs[1] > graphs[0], f"{axis}: no new graph for the second call"
