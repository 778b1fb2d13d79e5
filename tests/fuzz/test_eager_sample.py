"""Generated programs run under eager: deterministic, no accidental exceptions, numerically tame."""

from __future__ import annotations

import math

from fuzz.program.generate import generate_program
from fuzz.program.selfcheck import run_eager
from tests.fuzz import _exec


def _finite(value) -> bool:
    if isinstance(value, float):
        return math.isfinite(value) and abs(value) < 1e3
    if isinstance(value, list | tuple):
        return all(_finite(v) for v in value)
    return True


def test_sample_runs_deterministically_without_accidents():
    accidents = []
    for i in range(120):
        src = generate_program(11, i).source
        first, second = _exec.run(src), _exec.run(src)
        assert first == second, f"program {i} of seed 11 is flaky under eager"
        problem = run_eager(src).accident()
        if problem:
            accidents.append((i, problem))
        for call in first:
            if call["result"][0] == "returned":
                assert _finite(call["result"][1]), f"program {i}: values not tame"
    assert not accidents, accidents
