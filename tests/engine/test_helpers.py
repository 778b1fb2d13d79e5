"""The shared check itself: it must see what it claims to see (NaN, the sign of zero, torch state)."""

from __future__ import annotations

import pytest
import torch

from .helpers import same, set_torch_state, torch_state


def test_nan_only_matches_nan():
    nan = torch.tensor([1.0, float("nan")])
    same(nan, nan.clone())
    with pytest.raises(AssertionError):
        same(nan, torch.tensor([1.0, 0.0]))
    with pytest.raises(AssertionError):
        same(torch.tensor([1.0, 0.0]), nan)
    same(float("nan"), float("nan"))
    with pytest.raises(AssertionError):
        same(float("nan"), 0.0)


def test_sign_of_zero_and_complex():
    with pytest.raises(AssertionError):
        same(torch.tensor([-0.0]), torch.tensor([0.0]))
    with pytest.raises(AssertionError):
        same(-0.0, 0.0)
    z = torch.tensor([complex(1, float("nan"))])
    same(z, z.clone())
    with pytest.raises(AssertionError):
        same(z, torch.tensor([complex(1, 0)]))


def test_user_objects_compare_attributes():
    class Box:
        def __init__(self, v):
            self.v = v

    same(Box(1), Box(1))
    with pytest.raises(AssertionError):
        same(Box(1), Box(2))


def test_torch_state_sees_autocast_and_default_dtype():
    before = torch_state()
    try:
        torch.set_autocast_enabled("cpu", True)
        torch.set_default_dtype(torch.float64)
        changed = torch_state()
    finally:
        set_torch_state(before)
    assert changed["autocast_cpu"] and changed["default_dtype"] is torch.float64
    assert torch_state() == before
    with torch.inference_mode():
        assert torch_state() != before
