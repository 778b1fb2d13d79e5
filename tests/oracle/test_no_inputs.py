"""A program whose ``entry`` takes no arguments may define no ``make_inputs``: the oracle, the short checks, the
generic footer and the reducer all call ``entry()``."""

from __future__ import annotations

import subprocess
import sys

from fuzz.reduce._tree import Program
from oracle import set_header, split_source, with_footer
from tests.reduce.helpers import pass_candidates

NO_INPUTS = """import torch


def entry():
    return torch.ones(2) * 2 + COMPILING()


def COMPILING():
    return 0
"""
DIFFERS = NO_INPUTS.replace("return 0", "return int(torch.compiler.is_compiling())")


def _run(tmp_path, source: str) -> subprocess.CompletedProcess:
    path = tmp_path / "prog.py"
    path.write_text(source)
    return subprocess.run([sys.executable, str(path)], capture_output=True, text=True, timeout=300)


def test_the_oracle_calls_entry_with_no_arguments(runner):
    assert runner.check(NO_INPUTS, ["torch"]).verdicts["torch"].signature == "ok"
    assert runner.check(DIFFERS, ["torch"]).verdicts["torch"].signature == "mismatch:value:values"


def test_a_program_without_entry_still_does_not_load(runner):
    assert runner.check("import torch\nx = 1\n", ["torch"]).verdicts["torch"].signature == "skip:invalid-program"


def test_the_short_check_calls_entry_and_still_exits_1_on_the_bug_and_0_without(tmp_path):
    header = {"signature": "mismatch:value:values", "target": "torch:backend=eager", "eager": "returned"}
    bug = with_footer(set_header(DIFFERS, **header))
    check = split_source(bug)[2]
    assert "make_inputs" not in check and "    expected = mod.entry()" in check
    assert _run(tmp_path, bug).returncode == 1
    fixed = _run(tmp_path, with_footer(set_header(NO_INPUTS, **header)))
    assert fixed.returncode == 0, fixed.stdout + fixed.stderr


def test_the_generic_footer_runs_a_program_without_inputs(tmp_path):
    header = {"signature": "mismatch:globals:value", "target": "torch"}  # no short check for globals
    source = with_footer(set_header(DIFFERS, **header))
    assert "ngb-fuzz standalone" in source and "equal(a, b)" not in split_source(source)[2]
    result = _run(tmp_path, source)
    assert result.returncode == 1 and "MISMATCH" in result.stdout, result.stdout + result.stderr


def test_drop_inputs_offers_the_program_without_make_inputs_only_when_entry_takes_nothing():
    maker = "\n\ndef make_inputs(device):\n    return ()\n"
    (candidate,) = pass_candidates("drop-inputs", NO_INPUTS + maker)
    assert "make_inputs" not in candidate and Program.parse(candidate).is_valid()
    with_args = NO_INPUTS.replace("def entry():", "def entry(x):") + maker.replace("()", "(torch.ones(1),)")
    assert pass_candidates("drop-inputs", with_args) == []


def test_a_candidate_that_loses_make_inputs_while_entry_takes_arguments_is_no_program():
    source = NO_INPUTS.replace("def entry():", "def entry(x):") + "\n\ndef make_inputs(device):\n    return (torch.ones(1),)\n"
    prog = Program.parse(source)
    assert prog.is_valid()
    prog.tree.body = [s for s in prog.tree.body if getattr(s, "name", "") != "make_inputs"]
    assert not prog.with_tree(prog.tree).is_valid()
