"""The comparer on observed values: exact vs tolerant, NaN-aware, and what class of difference it names."""

import math

import torch

from oracle._compare import TOLERANCES, compare_calls
from oracle._observe import observe


def call(value, effects=(), grad=True, exception=None):
    return {"exception": exception, "value": observe(value), "effects": observe(list(effects)),
            "globals": ("dict", []), "inputs": observe(()), "torch_state": {"grad_enabled": grad}}


def first(a, b, tolerance=None):
    found = compare_calls([call(**a)], [call(**b)], tolerance)
    return (found[0].aspect, found[0].cls) if found else None


def test_identical_values_including_nan_agree():
    x = torch.tensor([1.0, float("nan"), -0.0])
    assert first({"value": x}, {"value": x.clone()}) is None
    assert first({"value": math.nan}, {"value": math.nan}) is None


def test_exact_policy_rejects_one_ulp_and_tolerant_policy_accepts_it():
    x = torch.tensor([1.0, 2.0])
    y = torch.nextafter(x, torch.tensor([3.0, 3.0]))
    assert first({"value": x}, {"value": y}) == ("value", "values")
    assert first({"value": x}, {"value": y}, TOLERANCES["inductor"]) is None
    assert first({"value": x}, {"value": x + 1e-2}, TOLERANCES["inductor"]) == ("value", "values")


def test_half_precision_rounding_of_a_decomposed_backward_is_not_a_finding_on_aot_eager():
    # seen from a correct aot_eager: a bfloat16 gradient of -0.00537 came back as -0.00488
    eager = torch.tensor([-0.00537, 0.25], dtype=torch.bfloat16)
    aot = torch.tensor([-0.00488, 0.25], dtype=torch.bfloat16)
    assert first({"value": eager}, {"value": aot}, TOLERANCES["aot_eager"]) is None
    assert first({"value": eager}, {"value": aot + 0.05}, TOLERANCES["aot_eager"]) == ("value", "values")
    assert first({"value": eager}, {"value": aot}) == ("value", "values")  # exact backends stay exact


def test_metadata_differences_are_classified():
    x = torch.ones(2, 3)
    assert first({"value": x}, {"value": x.double()}) == ("value", "dtype")
    assert first({"value": x}, {"value": x.reshape(3, 2)}) == ("value", "shape")
    assert first({"value": x}, {"value": x.requires_grad_(False).clone().requires_grad_()}) == \
        ("value", "requires_grad")


def test_structures_types_and_lengths():
    assert first({"value": [1, 2]}, {"value": (1, 2)}) == ("value", "type")
    assert first({"value": [1, 2]}, {"value": [1, 2, 3]}) == ("value", "length")
    assert first({"value": {"a": 1}}, {"value": {"b": 1}}) == ("value", "keys")
    assert first({"value": True}, {"value": 1}) == ("value", "type")


def test_effects_grad_mode_and_exceptions():
    assert first({"value": 1, "effects": [("a", 1)]}, {"value": 1, "effects": []}) == ("effects", "length")
    assert first({"value": 1}, {"value": 1, "grad": False}) == ("torch_state", "grad_enabled")
    exc = ("ValueError", "boom")
    assert first({"value": None, "exception": exc}, {"value": None, "exception": ("TypeError", "boom")}) == \
        ("exception", "type")


def test_second_call_differences_are_reported_with_their_call():
    a, b = call(torch.ones(1)), call(torch.zeros(1))
    found = compare_calls([a, a], [a, b], None)
    assert [(d.call, d.aspect) for d in found] == [(1, "value")]


def test_a_value_that_cannot_be_read_is_observed_not_raised():
    class Unreadable:
        @property
        def __dict__(self):
            raise RuntimeError("leaked internal state")

    tag, qualname, error = observe(Unreadable())
    assert (tag, qualname.rsplit(".", 1)[-1], error) == ("unobservable", "Unreadable", "RuntimeError")
    assert first({"value": Unreadable()}, {"value": 1}) == ("value", "type")
