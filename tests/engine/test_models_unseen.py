"""Programs written like user code nobody wrote for the engine (the sweep of engine/README.md's "real code"):
each is compiled whole, called several times, and compared with eager -- outputs, parameter gradients,
buffers, plain attributes stored on the module, the global torch state -- and its graphs and breaks are
asserted, since each one exposed a divergence or a fallback that is now fixed."""

from __future__ import annotations

from collections.abc import Callable

import pytest
import torch
import torch.nn as nn

import engine

from .helpers import same, torch_state


def _attrs(m: nn.Module) -> dict:
    """What a forward can change on a module tree besides parameters: buffers and plain attributes."""
    out = {}
    for name, sub in m.named_modules():
        for k, v in vars(sub).items():
            if not k.startswith("_") and k != "training":
                out[f"{name}.{k}"] = v
        out[f"{name}._buffers"] = dict(sub._buffers)
        out[f"{name}._non_persistent"] = sorted(sub._non_persistent_buffers_set)
    return out


def _loss(out: object) -> torch.Tensor | None:
    ts = [t for t in (out if isinstance(out, (tuple, list)) else [out])
          if isinstance(t, torch.Tensor) and t.requires_grad]
    return sum(t.sum() for t in ts) if ts else None


def compare(make: Callable[[], nn.Module], args: Callable[[int], tuple], calls: int = 3,
            backend: str = "eager", modes: tuple[bool, ...] = (True,)) -> engine._segments.Compiled:
    """Build the module twice (seeded), run eager and compiled `calls` times per train/eval mode, and assert
    equal outputs, gradients, buffers, attributes and torch state after each call."""
    __tracebackhide__ = True
    torch.manual_seed(0)
    ref = make()
    torch.manual_seed(0)
    mod = make()
    c = engine.compile(mod, backend=backend)
    k = 0
    for mode in modes:
        ref.train(mode)
        mod.train(mode)
        for _ in range(calls):
            torch.manual_seed(k)
            expected = ref(*args(k))
            state = torch_state()
            torch.manual_seed(k)
            out = c(*args(k))
            assert torch_state() == state
            same(expected, out)
            for o in (expected, out):
                loss = _loss(o)
                if loss is not None:
                    loss.backward()
            for (name, p), q in zip(ref.named_parameters(), mod.parameters()):
                same(p.grad, q.grad) if p.grad is not None else None
                assert (p.grad is None) == (q.grad is None), name
            same(_attrs(ref), _attrs(mod))
            k += 1
    for gm in c.record.graph_modules:
        gm.graph.lint()
    return c


def _x(k: int) -> tuple:
    return (torch.randn(3, 4, generator=torch.Generator().manual_seed(k)),)


# -- Module.__setattr__ in forward ---------------------------------------------------------------------------

class StoresOthers(nn.Module):
    """Stores the model leaves to Module.__setattr__ itself: a parameter, a submodule, a property setter."""

    def __init__(self) -> None:
        super().__init__()
        self.w = nn.Parameter(torch.ones(4))
        self._scale = 1.0

    @property
    def scale(self) -> float:
        return self._scale

    @scale.setter
    def scale(self, v: float) -> None:
        self._scale = v * 2

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        self.scale = 1.5
        if not hasattr(self, "extra"):
            self.extra = nn.Identity()
        self.w = nn.Parameter(self.w.detach() + 1)
        return self.extra(x) * self.w * self.scale


def test_stores_not_modeled_are_traced_and_correct():
    compare(StoresOthers, _x)
