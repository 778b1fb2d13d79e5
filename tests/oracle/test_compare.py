"""The comparer on observed values: exact vs tolerant, NaN-aware, and what class of difference it names."""

import math

import pytest
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


@pytest.mark.parametrize("backend", ["aot_eager", "inductor"])
def test_half_precision_rounding_of_a_decomposed_backward_is_not_a_finding(backend):
    # seen from a correct aot_eager: a bfloat16 gradient of -0.00537 came back as -0.00488 (inductor decomposes
    # the same way); near zero only an absolute tolerance can accept it
    eager = torch.tensor([-0.00537, 0.25], dtype=torch.bfloat16)
    aot = torch.tensor([-0.00488, 0.25], dtype=torch.bfloat16)
    assert first({"value": eager}, {"value": aot}, TOLERANCES[backend]) is None
    assert first({"value": eager}, {"value": aot + 0.05}, TOLERANCES[backend]) == ("value", "values")
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


def test_nan_against_a_number_is_a_difference_on_either_side_under_every_policy():
    nan, num = torch.tensor([1.0, float("nan")]), torch.tensor([1.0, 2.0])
    for tolerance in (None, TOLERANCES["aot_eager"], TOLERANCES["inductor"]):
        assert first({"value": nan}, {"value": num}, tolerance) == ("value", "values")
        assert first({"value": num}, {"value": nan}, tolerance) == ("value", "values")
        assert first({"value": nan}, {"value": nan.clone()}, tolerance) is None
        assert first({"value": math.nan}, {"value": 2.0}, tolerance) == ("value", "values")
        assert first({"value": 2.0}, {"value": math.nan}, tolerance) == ("value", "values")
        assert first({"value": math.nan}, {"value": math.nan}, tolerance) is None
    assert first({"value": torch.tensor([math.inf])}, {"value": torch.tensor([-math.inf])}) == ("value", "values")
    assert first({"value": math.inf}, {"value": -math.inf}, TOLERANCES["inductor"]) == ("value", "values")


def test_negative_zero_equals_zero_under_the_exact_policy_too():
    # Policy (docs/oracle.md): -0.0 == 0.0, as IEEE comparison says. A compiler may legally fold x*0 or a-a to
    # either zero; where the sign matters to the program (1/x, atan2, copysign) it shows as a different value.
    zeros, negative = torch.zeros(3), -torch.zeros(3)
    assert first({"value": zeros}, {"value": negative}) is None
    assert first({"value": 0.0}, {"value": -0.0}) is None
    assert first({"value": 1 / zeros}, {"value": 1 / negative}) == ("value", "values")


def test_complex_and_integer_tensors():
    c = torch.tensor([1 + 2j, complex("nan")])
    assert first({"value": c}, {"value": c.clone()}) is None
    assert first({"value": c}, {"value": c + 1}) == ("value", "values")
    i = torch.tensor([1, 2])
    assert first({"value": i}, {"value": i + 1}, TOLERANCES["inductor"]) == ("value", "values")
    assert first({"value": i.bool()}, {"value": i.bool()}) is None


@pytest.mark.parametrize("backend", sorted(TOLERANCES))
@pytest.mark.parametrize("dtype", [torch.float64, torch.float32, torch.float16, torch.bfloat16])
def test_each_tolerance_holds_inside_and_not_outside(backend, dtype):
    rtol, atol = TOLERANCES[backend][str(dtype)]
    base = torch.tensor([1.0, -4.0], dtype=torch.float64)
    allowed = atol + rtol * base.abs()  # what allclose accepts, per element
    tolerance = TOLERANCES[backend]
    assert first({"value": base.to(dtype)}, {"value": (base + allowed * 0.4).to(dtype)}, tolerance) is None
    assert first({"value": base.to(dtype)}, {"value": (base + allowed * 3).to(dtype)}, tolerance) == \
        ("value", "values")


@pytest.mark.parametrize("backend", sorted(TOLERANCES))
@pytest.mark.parametrize("dtype", [torch.float16, torch.bfloat16])
def test_one_half_precision_rounding_step_is_not_a_finding_on_a_reordering_backend(backend, dtype):
    # Absolute facts, not read back from the table: a backend that reorders half-precision arithmetic may land one
    # rounding step (ulp) away at magnitude 4; ten percent away is a real difference.
    four = torch.tensor([4.0], dtype=dtype)
    one_step = four + (torch.finfo(dtype).eps * 4)
    assert (one_step - four).item() > 0  # really one representable step
    assert first({"value": four}, {"value": one_step}, TOLERANCES[backend]) is None
    assert first({"value": four}, {"value": four * 1.1}, TOLERANCES[backend]) == ("value", "values")
    assert first({"value": four}, {"value": one_step}) == ("value", "values")  # exact backends stay exact


def test_a_dtype_outside_the_table_gets_a_default_tolerance_with_an_absolute_floor():
    # complex64 is in no backend's table: the default (1e-5, 1e-6) applies, so a reordering that leaves a
    # near-zero residue is not a finding, while a visible difference is
    zero = torch.zeros(2, dtype=torch.complex64)
    residue = torch.tensor([5e-7j, 0], dtype=torch.complex64)
    assert first({"value": zero}, {"value": residue}, TOLERANCES["aot_eager"]) is None
    assert first({"value": zero}, {"value": residue * 1000}, TOLERANCES["aot_eager"]) == ("value", "values")
    assert first({"value": zero}, {"value": residue}) == ("value", "values")


def test_a_tensor_whose_data_is_not_kept_differs_from_one_whose_data_is():
    # sparse tensors are observed by their metadata only; against a dense result of the same metadata the
    # comparer must name a difference of values, not pass it
    dense = torch.tensor([[0.0, 1.0], [2.0, 0.0]])
    assert first({"value": dense.to_sparse()}, {"value": dense}) == ("value", "values")
    assert first({"value": dense}, {"value": dense.to_sparse()}) == ("value", "values")
    assert first({"value": dense.to_sparse()}, {"value": dense.to_sparse()}) is None


def test_python_floats_use_float64_tolerance():
    assert first({"value": 1.0}, {"value": 1.0 + 1e-9}) == ("value", "values")
    assert first({"value": 1.0}, {"value": 1.0 + 1e-9}, TOLERANCES["inductor"]) is None
    assert first({"value": 1.0}, {"value": 1.0 + 1e-5}, TOLERANCES["inductor"]) == ("value", "values")


def nested(leaf):
    return {"a": [1, (2, {"b": [leaf]})], "c": 3}


def test_a_difference_deep_inside_is_classified_like_one_at_the_top_and_located_only_in_the_report():
    top = compare_calls([call(torch.ones(2))], [call(torch.zeros(2))], None)
    deep = compare_calls([call(nested(torch.ones(2)))], [call(nested(torch.zeros(2)))], None)
    assert [(d.aspect, d.cls) for d in top] == [(d.aspect, d.cls) for d in deep] == [("value", "values")]
    assert top[0].path == "" and deep[0].path == "['a'][1][1]['b'][0]"
    assert "['a'][1][1]['b'][0]" in deep[0].describe()
    effects = compare_calls([call(1, effects=[("t", nested(1))])], [call(1, effects=[("t", nested(2))])], None)
    assert [(d.aspect, d.cls) for d in effects] == [("effects", "value")]


def test_every_aspect_is_compared_and_all_differences_are_listed_in_order():
    a = call(torch.ones(1), effects=[("a", 1)])
    b = call(torch.zeros(1), effects=[("a", 2)], grad=False)
    a.update(globals=("dict", [(("str", "G"), ("int", 1))]), grads=observe([torch.ones(1)]))
    b.update(globals=("dict", [(("str", "G"), ("int", 2))]), grads=observe([torch.zeros(1)]),
             inputs=observe((torch.ones(1),)))
    found = compare_calls([a], [b], None)
    assert [d.aspect for d in found] == ["value", "effects", "globals", "inputs", "torch_state", "gradients"]
    assert all(d.call == 0 for d in found)


def test_an_exception_difference_stops_the_comparison_of_that_call_and_classifies_type_or_message():
    a = call(None, exception=("ValueError", "x"))
    found = compare_calls([a, a], [call(1), call(None, exception=("ValueError", "y"))], None)
    assert [(d.call, d.aspect, d.cls) for d in found] == [(0, "exception", "type"), (1, "exception", "message")]
    assert first({"value": None, "exception": ("ValueError", "x")}, {"value": None, "exception": None}) == \
        ("exception", "type")


def test_torch_state_names_the_first_key_that_differs():
    a, b = call(1), call(1)
    a["torch_state"] = {"grad_enabled": True, "default_dtype": "torch.float32", "inference_mode": False}
    b["torch_state"] = {"grad_enabled": True, "default_dtype": "torch.float64", "inference_mode": True}
    found = compare_calls([a], [b], None)
    assert [(d.aspect, d.cls) for d in found] == [("torch_state", "default_dtype")]


def test_describe_names_the_call_aspect_class_and_both_sides():
    d = compare_calls([call(1), call(torch.ones(2))], [call(1), call(torch.zeros(2))], None)[0]
    text = d.describe()
    assert text.startswith("second call: value differs (values)")
    assert "eager:  tensor(dtype=torch.float32, shape=[2], requires_grad=False, values=[1.0, 1.0])" in text
    assert "target: tensor(dtype=torch.float32, shape=[2], requires_grad=False, values=[0.0, 0.0])" in text
    many = compare_calls([call(torch.arange(10.0))], [call(torch.zeros(10))], None)[0]
    assert "values=[0.0, 1.0, 2.0, 3.0, 4.0, 5.0, 6.0, 7.0])" in many.expected  # the first 8 values only
    long = compare_calls([call("x" * 500)], [call("y")], None)[0]
    assert len(long.expected) == 300 and long.expected.endswith("...")
