"""local-inputs: an input the bug does not need from outside becomes ``torch.ones(shape)`` made in ``entry``,
and ``make_inputs`` goes with the last one; the shape of the repro (its root cause) does not change with it."""

from __future__ import annotations

import pytest

import oracle
from fuzz.reduce import PASSES, reduce_program, reduce_source
from fuzz.triage.rootcause import behaviour_shape
from tests.reduce.helpers import pass_candidates

TWO = '''import torch


def entry(x, w):
    return x @ w


def make_inputs(device):
    g = torch.Generator().manual_seed(3)
    w = torch.randn(4, 2, generator=g, dtype=torch.float64)
    return (torch.rand((3, 4), generator=g, dtype=torch.float64).to(device), w.to(device))
'''


def _code(source: str) -> str:
    return source.split("# ----")[0].split("import torch\n")[1].strip()


def test_every_input_at_once_then_each_from_the_last_and_make_inputs_goes_with_the_last():
    both, last, first = pass_candidates("local-inputs", TWO)
    assert _code(both) == ("def entry():\n    x = torch.ones(3, 4, dtype=torch.float64)\n"
                           "    w = torch.ones(4, 2, dtype=torch.float64)\n    return x @ w")
    assert "make_inputs" not in both
    assert "def entry(x):\n    w = torch.ones(4, 2, dtype=torch.float64)\n" in last
    assert "return (torch.rand((3, 4), generator=g, dtype=torch.float64).to(device),)" in last
    assert "def entry(w):\n    x = torch.ones(3, 4, dtype=torch.float64)\n" in first
    assert "return (w.to(device),)" in first


@pytest.mark.parametrize("maker", [
    "    n = 3\n    return (torch.randn(n).to(device),)",  # sizes not literal
    "    return (torch.randn(3).abs().to(device),)",  # more than a factory
    "    return (torch.randn(3).to(torch.float64),)",  # a dtype, not the device
    "    return (torch.randint(0, 5, (3,)),)",  # an integer tensor
    "    return (make_weight(device),)",  # not a torch factory
])
def test_an_input_whose_construction_cannot_be_read_stays(maker):
    source = f"import torch\n\n\ndef entry(x):\n    return x + 1\n\n\ndef make_inputs(device):\n{maker}\n"
    assert pass_candidates("local-inputs", source) == []


def test_an_input_that_requires_grad_keeps_requiring_it():
    source = ("import torch\n\n\ndef entry(x):\n    return x * 2\n\n\ndef make_inputs(device):\n"
              "    return (torch.randn(2, generator=torch.Generator().manual_seed(1)).to(device).requires_grad_(),)\n")
    (moved,) = pass_candidates("local-inputs", source)
    assert "def entry():\n    x = torch.ones(2, requires_grad=True)\n    return x * 2" in moved


def test_nothing_moves_when_make_inputs_is_used_elsewhere_or_entry_takes_star_args():
    called = TWO.replace("return x @ w", "return x @ w + make_inputs('cpu')[1].sum()")
    assert pass_candidates("local-inputs", called) == []
    star = TWO.replace("def entry(x, w):\n    return x @ w", "def entry(*a):\n    return a[0] @ a[1]")
    assert pass_candidates("local-inputs", star) == []


def test_an_input_made_in_entry_has_the_shape_of_one_passed_in():
    moved = pass_candidates("local-inputs", TWO)[0]
    assert behaviour_shape(moved) == behaviour_shape(TWO)
    inlined = moved.replace("    x = torch.ones(3, 4, dtype=torch.float64)\n", "").replace(
        "return x @ w", "return torch.ones(3, 4, dtype=torch.float64) @ w")
    assert behaviour_shape(inlined) == behaviour_shape(TWO)
    assert behaviour_shape(TWO.replace("x @ w", "x @ w.t()")) != behaviour_shape(TWO)


LEAK = '''import torch


def f1(x):
    torch._dynamo.graph_break()
    return x * 2


def entry(x):
    with torch.no_grad():
        y = f1(x)
    return y + 1


def make_inputs(device):
    return (torch.randn(2, 3, generator=torch.Generator().manual_seed(0)).to(device),)
'''


def test_a_bug_that_does_not_need_its_input_is_reduced_without_make_inputs():
    # flip-grad leaves grad mode changed after every compiled call, whatever the inputs
    result = reduce_program(LEAK, "fault:flip-grad", budget_s=120, rechecks=1)
    assert result.reproduced == 1
    with oracle.Runner(workers=1, timeout=60) as runner:  # the re-check counted the breaks a check sees
        assert result.breaks == runner.check(result.source, ["fault:flip-grad"]).stats["fault:flip-grad"]["breaks"]
    assert "make_inputs" not in result.source.split("# ----")[0], result.source
    assert "def entry():" in result.source


def _raises(source: str) -> bool:
    """The bug as an in-process predicate: entry raises ValueError."""
    namespace: dict = {}
    exec(compile(source, "candidate", "exec"), namespace)
    inputs = namespace["make_inputs"]("cpu") if "make_inputs" in namespace else ()
    try:
        namespace["entry"](*inputs)
    except ValueError:
        return True
    return False


def test_a_bug_that_needs_its_input_values_keeps_them():
    source = LEAK.replace("    return y + 1", "    if y.sum() < 0:\n        raise ValueError('negative')\n"
                                             "    return y + 1").replace("torch._dynamo.graph_break()", "pass")
    passes = [p for p in PASSES if p.name == "local-inputs"]
    assert len(pass_candidates("local-inputs", source)) == 1 and _raises(source)  # seed 0's sum is negative
    assert reduce_source(source, _raises, passes=passes).source.count("def make_inputs") == 1
    positive = source.replace("< 0", "> 0").replace("manual_seed(0)", "manual_seed(4)")  # ones fail it too
    assert "make_inputs" not in reduce_source(positive, _raises, passes=passes).source.split("# ----")[0]
