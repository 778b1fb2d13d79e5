"""``# compare: plain``: a value or effects check whose values are plain data compares them as printed, with no
``equal`` helper, and still tells the bug from the fix exactly where the oracle does."""

from __future__ import annotations

import subprocess
import sys

import pytest

from oracle import compare_kinds, set_header, split_source, with_footer
from oracle._observe import observe

# Logs grad mode after a break; DIFFERS logs whether it was compiled, so it differs under torch.compile.
LOGS = """import torch

EFFECTS = []


def entry():
    torch._dynamo.graph_break()
    EFFECTS.append((LOGGED(), "after"))


def LOGGED():
    return True
"""
DIFFERS = LOGS.replace("return True", "return torch.compiler.is_compiling() is False")
# eager logs True; compiled logs 1, an int equal to True: only a comparison that sees types tells them apart
INT_NOT_BOOL = LOGS.replace("return True", "return True if not torch.compiler.is_compiling() else 1")
HEADER = {"signature": "mismatch:effects:value", "target": "torch:backend=eager", "eager": "returned"}


def _run(tmp_path, source: str) -> subprocess.CompletedProcess:
    path = tmp_path / "prog.py"
    path.write_text(source)
    return subprocess.run([sys.executable, str(path)], capture_output=True, text=True, timeout=300)


@pytest.mark.parametrize(("value", "plain"), [
    ([(True,)], True), ([("a", 1, None, b"x")], True), ([], True), ((1, [2, (3,)]), True),
    ([(1.0,)], False),  # -0.0 and 0.0 print apart but are equal
    ([{"a": 1}], False), ([object()], False), ([(True,), None], True),
])
def test_plain_means_only_plain_leaves_in_lists_and_tuples(value, plain):
    import torch

    assert (compare_kinds("mismatch:effects:value", {"effects": observe(value)}) == "plain") is plain
    assert (compare_kinds("mismatch:value:values", {"exception": None, "value": observe(value)}) == "plain") is plain
    assert compare_kinds("mismatch:effects:value", {"effects": observe([(torch.ones(1),)])}) == "tensors,containers"
    assert compare_kinds("crash:TypeError@x:y", {"effects": observe(value)}) is None  # no values compared
    assert compare_kinds("mismatch:value:values", {"exception": ("E", ""), "value": observe(value)}) is None


def test_the_plain_check_has_no_helper_and_exits_1_on_the_bug_and_0_without(tmp_path):
    plain = {**HEADER, "compare": "plain"}
    bug = with_footer(set_header(DIFFERS, **plain))
    check = split_source(bug)[2]
    assert "def equal" not in check and "    same = repr(actual) == repr(expected)" in check
    assert len(check.splitlines()) < len(split_source(with_footer(set_header(DIFFERS, **HEADER)))[2].splitlines()) - 8
    result = _run(tmp_path, bug)
    assert result.returncode == 1 and "MISMATCH" in result.stdout, result.stdout + result.stderr
    fixed = _run(tmp_path, with_footer(set_header(LOGS, **plain)))
    assert fixed.returncode == 0 and "match" in fixed.stdout, fixed.stdout + fixed.stderr


def test_the_plain_check_tells_an_int_from_a_bool_as_the_oracle_does(tmp_path, runner):
    assert runner.check(INT_NOT_BOOL, ["torch"]).verdicts["torch"].signature == "mismatch:effects:type"
    header = {**HEADER, "signature": "mismatch:effects:type", "compare": "plain"}
    result = _run(tmp_path, with_footer(set_header(INT_NOT_BOOL, **header)))
    assert result.returncode == 1, result.stdout + result.stderr


def test_the_reducer_marks_a_plain_log_and_not_a_tensor_one(runner):
    from fuzz.reduce import reduce_program

    result = reduce_program(DIFFERS, "torch", budget_s=30, runner=runner, rechecks=0)
    assert "# compare: plain" in result.source and "def equal" not in split_source(result.source)[2]
    # a dtype that differs: no reduction of the log to plain data keeps that signature
    dtype = LOGS.replace('(LOGGED(), "after")',
                         "torch.ones(1, dtype=torch.float64 if torch.compiler.is_compiling() else torch.float32)")
    # a reduced plain repro reduced again, now with a log of tensors, says so: its helper compares tensors
    result = reduce_program(set_header(dtype, compare="plain"), "torch", budget_s=30, runner=runner, rechecks=0)
    assert result.signature == "mismatch:effects:dtype"
    assert "# compare: tensors,containers\n" in result.source
    check = split_source(result.source)[2]
    assert "def equal" in check and "torch.Tensor" in check and "__dict__" not in check
