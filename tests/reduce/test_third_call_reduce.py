"""A finding seen only on the third call (inputs of other sizes) reduces keeping that call: the reduced program
still gives inputs of other sizes, and its standalone check makes the three calls."""

from __future__ import annotations

import oracle
from fuzz.reduce import reduce_program
from tests.conftest import PROGRAMS

PADDED = (PROGRAMS / "truth" / "resizable_chain.py").read_text().replace(
    "def entry(x):\n", "def entry(x):\n    unused = [1, 2, 3]\n    unused.append(4)\n")


def test_a_third_call_finding_reduces_and_keeps_its_other_sizes():
    target, signature = "fault:perturb-dynamic", "mismatch:third_call:value"
    result = reduce_program(PADDED, target, budget_s=300, rechecks=1, timeout=60)
    assert result.signature == signature and result.reproduced == 1, result
    assert "unused" not in result.source  # it did reduce
    assert "size" in result.source.split("def make_inputs", 1)[1]  # and kept what the third call needs
    assert "for size in (0, 0, 1)" in oracle.split_source(oracle.with_footer(result.source))[2]
