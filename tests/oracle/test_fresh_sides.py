"""The standalone check runs each side on a fresh run of the program, as the oracle does (a new module per run,
torch's defaults put back): what eager's call created or changed is not there for the compiled call.

Before, the short check called eager and then torch.compile on the file's own globals, so a global made by
eager's first call was already there for the compiled one: a real finding then printed "match" and exited 0.
"""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest
import torch

from oracle import set_header, split_source, with_footer

# No bug in torch here: the first call makes TOTAL (a global the module does not define) and later calls read
# it, so a call's result depends on whether an earlier call ran in the same module.
GROWS = """import torch

EFFECTS = []
MADE = []


def entry(x):
    global TOTAL
    if MADE:  # a later call: an earlier one made TOTAL
        TOTAL = TOTAL + x
    else:
        TOTAL = x.clone()
        MADE.append(True)
    torch._dynamo.graph_break()
    EFFECTS.append(("total", TOTAL.clone()))
    return TOTAL


def make_inputs(device):
    return (torch.ones(2).to(device),)
"""
# The same, raising on a later call only: a first call that raises would be a difference (in the old check,
# eager's call made the compiled first call a later one).
RAISES_LATER = GROWS.replace("        TOTAL = TOTAL + x\n", "        raise KeyError(TOTAL.sum().item())\n")
REAL_CASE = Path(__file__).parent / "findings" / "global_made_in_compiled_fn.txt"


def _run(tmp_path: Path, source: str) -> subprocess.CompletedProcess[str]:
    path = tmp_path / "repro.py"
    path.write_text(source)
    return subprocess.run([sys.executable, str(path)], capture_output=True, text=True, timeout=300, cwd=tmp_path)


@pytest.mark.parametrize(("program", "signature", "eager"), [
    (GROWS, "mismatch:value:values", "returned"),
    (GROWS, "mismatch:effects:values", "returned"),
    (RAISES_LATER, "mismatch:exception:type", "returned"),
    (RAISES_LATER, "crash:KeyError@torch._dynamo.symbolic_convert:x", "returned"),
])
def test_a_global_made_by_eagers_call_is_not_there_for_the_compiled_call(tmp_path, program, signature, eager):
    source = with_footer(set_header(program, signature=signature, target="torch:backend=eager", eager=eager))
    assert "def _ngb_check" not in split_source(source)[2]  # the short check, not the generic footer
    result = _run(tmp_path, source)
    assert result.returncode == 0, result.stdout + result.stderr
    assert "match: eager vs torch.compile(backend='eager')" in result.stdout


def test_the_second_call_still_sees_what_the_first_call_made(tmp_path):
    # within one side the module lives on across the two calls, as in the oracle: the second call reads TOTAL
    source = with_footer(set_header(GROWS.replace("TOTAL + x", "TOTAL + x * torch.compiler.is_compiling()"),
                                    signature="mismatch:second_call:value", target="torch:backend=eager",
                                    eager="returned"))
    result = _run(tmp_path, source)
    assert result.returncode == 1, result.stdout + result.stderr
    assert "eager:         tensor([1., 1.])\ntorch.compile: tensor([2., 2.])" in result.stdout


def test_classes_of_each_side_compare_by_name(tmp_path):
    # each fresh run makes its own class and enum: equal values of them must still match
    program = ("import enum\n\nimport torch\n\n\nclass Colour(enum.Enum):\n    RED = 1\n\n\nclass P:\n"
               "    def __init__(self, v):\n        self.v = v\n\n\n"
               "def entry(x):\n    torch._dynamo.graph_break()\n    return {Colour.RED: P(x), 'f': entry}\n\n\n"
               "def make_inputs(device):\n    return (torch.ones(2).to(device),)\n")
    source = with_footer(set_header(program, signature="mismatch:value:values", target="torch:backend=eager",
                                    eager="returned"))
    result = _run(tmp_path, source)
    assert result.returncode == 0, result.stdout + result.stderr


@pytest.mark.skipif(not torch.__version__.startswith("2.13."), reason="the finding was made on torch 2.13")
def test_the_real_finding_shows_when_run_alone(tmp_path):
    # torch 2.13: a global first assigned inside the compiled function and read by a defaultdict factory that
    # Dynamo runs twice; eager gives 2.0, torch.compile 1.0 (the oracle: mismatch:value:values)
    result = _run(tmp_path, with_footer(REAL_CASE.read_text()))
    assert result.returncode == 1, result.stdout + result.stderr
    assert "eager:         2.0\ntorch.compile: 1.0" in result.stdout
    assert "MISMATCH: eager vs torch.compile(backend='eager')" in result.stdout


# The compiled side gives OTHER where eager gives the program's own value class (is_compiling is only true in
# the compiled run): a Parameter's value counts as a Tensor, as the oracle observes it; a subclass not; and a
# subclass on both sides is equal, though each side made its own class.
CLASS_BY_SIDE = """import torch


class Sub(torch.Tensor):
    pass


def entry(x):
    p = MAKE
    torch._dynamo.graph_break()
    return OTHER if torch.compiler.is_compiling() else p


def make_inputs(device):
    return (torch.ones(2).to(device),)
"""


@pytest.mark.parametrize(("make", "other", "same"), [
    ("torch.nn.Parameter(x.clone(), requires_grad=False)", "x.clone()", True),
    ("x.clone().as_subclass(Sub)", "x.clone()", False),
    ("x.clone().as_subclass(Sub)", "p", True),
])
def test_the_short_check_counts_a_parameter_as_a_tensor_as_the_oracle_does(tmp_path, make, other, same):
    program = CLASS_BY_SIDE.replace("MAKE", make).replace("OTHER", other)
    source = with_footer(set_header(program, signature="mismatch:value:subclass",
                                    target="torch:backend=eager", eager="returned"))
    assert "def _ngb_check" not in split_source(source)[2]  # the short check, not the generic footer
    result = _run(tmp_path, source)
    assert result.returncode == (0 if same else 1), result.stdout + result.stderr
    assert ("match: " if same else "MISMATCH: ") in result.stdout
