"""``# compare: tensors,containers,objects``: a value or effects check's ``equal`` helper has only the branches
that eager's value needs, and still tells the bug from the fix where the oracle does."""

from __future__ import annotations

import collections
import subprocess
import sys

import pytest
import torch

from oracle import compare_kinds, set_header, split_source, with_footer
from oracle._observe import observe


class Point:
    def __init__(self, x):
        self.x = x


@pytest.mark.parametrize(("value", "kinds"), [
    (torch.ones(2), "tensors"),
    ([torch.ones(2), 1], "tensors,containers"),
    ({"a": torch.ones(1)}, "tensors,containers"),
    ([Point(1)], "containers,objects"),
    (Point(torch.ones(1)), "tensors,containers,objects"),
    (torch.nn.Linear(1, 1), "tensors,containers,objects"),
    (1.5, "scalars"),
    ([1.5, -0.0], "containers"),
    (torch.Size([2, 3]), "containers"),
    ([torch.float32], "containers"),
    ([print], "containers,objects"),  # anything else: as the full helper compares it
    (collections.deque([torch.ones(1)], maxlen=2), "tensors,containers,deques"),
    ([{torch.ones(1).sum().item()}], "containers,sets"),
])
def test_the_kinds_are_those_eager_value_holds(value, kinds):
    assert compare_kinds("mismatch:value:values", {"exception": None, "value": observe(value)}) == kinds
    assert compare_kinds("mismatch:effects:value", {"effects": observe(value)}) == kinds


HEADER = {"signature": "mismatch:value:values", "target": "torch:backend=eager", "eager": "returned"}
RETURNS = """import torch


def entry(x):
    torch._dynamo.graph_break()
    return RESULT


def make_inputs(device):
    return (torch.ones(2).to(device),)
"""


def _check(tmp_path, program: str, **fields) -> tuple[str, subprocess.CompletedProcess]:
    source = with_footer(set_header(program, **{**HEADER, **fields}))
    path = tmp_path / "prog.py"
    path.write_text(source)
    return split_source(source)[2], subprocess.run([sys.executable, str(path)], capture_output=True, text=True,
                                                   timeout=300)


def test_a_tensor_check_has_only_the_tensor_branch_and_exits_1_on_the_bug_and_0_without(tmp_path):
    bug = RETURNS.replace("RESULT", "x * (2 if torch.compiler.is_compiling() else 1)")
    check, found = _check(tmp_path, bug, compare="tensors")
    assert "torch.Tensor" in check and "isinstance(a, (list" not in check and "__dict__" not in check
    assert len(check.splitlines()) <= len(split_source(with_footer(set_header(bug, **HEADER)))[2].splitlines()) - 4
    assert found.returncode == 1 and "MISMATCH" in found.stdout, found.stdout + found.stderr
    _, fixed = _check(tmp_path, RETURNS.replace("RESULT", "x * 2"), compare="tensors")
    assert fixed.returncode == 0 and "match" in fixed.stdout, fixed.stdout + fixed.stderr


def test_a_value_of_a_kind_eager_did_not_have_is_a_mismatch_not_a_crash_of_the_check(tmp_path):
    # eager returns a tensor, the compiled code a list holding it: no container branch, yet not equal
    bug = RETURNS.replace("RESULT", "[x] if torch.compiler.is_compiling() else x")
    _, found = _check(tmp_path, bug, signature="mismatch:value:type", compare="tensors")
    assert found.returncode == 1 and "MISMATCH" in found.stdout and "Traceback" not in found.stderr, found.stderr


def test_objects_are_compared_by_fields(tmp_path):
    program = RETURNS.replace("RESULT", "[P(x.sum().item())]") + "\n\nclass P:\n    def __init__(self, v):\n" \
        "        self.v = v\n"
    check, same = _check(tmp_path, program, compare="containers,objects")
    assert "__dict__" in check and "torch.Tensor" not in check
    assert same.returncode == 0, same.stdout + same.stderr  # two instances, equal fields
    _, found = _check(tmp_path, program.replace("x.sum().item()", "x.sum().item() + torch.compiler.is_compiling()"),
                      compare="containers,objects")
    assert found.returncode == 1, found.stdout + found.stderr


def test_a_compare_field_it_never_writes_gets_the_full_helper():
    program = RETURNS.replace("RESULT", "x")
    full = split_source(with_footer(set_header(program, **HEADER)))[2]
    assert split_source(with_footer(set_header(program, **HEADER, compare="tensors,bogus")))[2] == full
    assert "torch.Tensor" in full and "__dict__" in full and "isinstance(a, (list" in full


@pytest.mark.parametrize(("result", "compare", "bug"), [
    # a deque of tensors: compared item by item, as a list's, and by its maxlen (its ``==`` would ask a tensor
    # for its truth value: the check raised instead of telling the bug from the fix)
    ("collections.deque([x, x * 2], maxlen=MAX)", "tensors,containers,deques", "MAX"),
    # a set: by its members' repr, as the oracle orders them
    ("[{x.sum().item(), -1.5}, {'b', 'a'}]", "containers,sets", "-1.5"),
])
def test_deques_and_sets_are_compared_as_the_oracle_does(tmp_path, result, compare, bug):
    program = "import collections\n" + RETURNS.replace("RESULT", result.replace(bug, {"MAX": "3"}.get(bug, bug)))
    check, same = _check(tmp_path, program, compare=compare)
    assert same.returncode == 0 and "\nmatch" in same.stdout, same.stdout + same.stderr
    changed = f"({bug} if not torch.compiler.is_compiling() else 7)" if bug != "MAX" else \
        "(3 if not torch.compiler.is_compiling() else 4)"
    _, found = _check(tmp_path, "import collections\n" + RETURNS.replace("RESULT", result.replace(bug, changed)),
                      compare=compare)
    assert found.returncode == 1 and "MISMATCH" in found.stdout and "Traceback" not in found.stderr, \
        found.stdout + found.stderr
