"""For each feature family: render an example and run it under eager, torch.compile and our engine.

The examples avoid two torch 2.13 bugs the generator found (see ``corpus/``): a grad-mode leak when
a context-manager object created by a caller is entered by a callee after a nested break (``ctx.as_value``), and
the crash inlining functions of modules missing from ``sys.modules`` (worked around by registering the helper
modules while compiling, see ``_exec.load``).
"""

from __future__ import annotations

import pytest

from fuzz.program.features import GenerationConfig, families
from fuzz.program.generate import generate_program
from tests.conftest import requires_engine
from tests.fuzz import _exec

_FAMILIES = [f for f in families() if f != "filler"]
_AVOID = {"ctx.as_value": 0.0, "module.helper": 0.0}


def _example(family: str):
    weights = dict(_AVOID)
    if family == "module":
        weights.pop("module.helper")
    weights[family] = weights.get(family, 1.0) * 4.0 if family != "module" else 4.0
    config = GenerationConfig(weights=weights, max_depth=3)
    for i in range(200):
        program = generate_program(0, i, config)
        if any(t.startswith(family + ".") for t in program.features):
            return program
    raise AssertionError(f"no example of family {family!r} in 200 programs")


# Families whose examples hit torch bugs on purpose: they were written to find them (corpus/ holds what they found:
# sorted/reversed/unpacking with breaking callbacks, format(), TorchFunctionMode, func.grad, lru_cache ...). Which
# of their examples torch gets right depends on torch's version, so the torch comparison is for the other families;
# the engine test below holds for every family.
_TORCH_FINDS_BUGS = {"iter", "stdlib", "strings", "data", "control", "torchapi"}


@pytest.mark.parametrize("family", [f for f in _FAMILIES if f not in _TORCH_FINDS_BUGS])
def test_family_example_matches_under_torch_compile(family):
    program = _example(family)
    eager = _exec.run(program.source)
    assert eager == _exec.run(program.source), "eager is not deterministic"
    compiled = _exec.run(program.source, compiled=True)
    assert compiled == eager, f"torch.compile differs on program {program.index}:\n{program.source}"


@requires_engine
@pytest.mark.parametrize("family", _FAMILIES)
def test_family_example_runs_under_engine(family):
    import engine

    program = _example(family)
    eager = _exec.run(program.source)
    got = _exec.run(program.source, compiler=lambda fn: engine.compile(fn, backend="eager"))
    assert got == eager, f"engine differs from eager on program {program.index}:\n{program.source}"
