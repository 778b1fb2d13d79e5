"""For each feature family: render an example and run it under eager, torch.compile and our engine.

The examples avoid two torch 2.13 bugs the generator found (see ``corpus/``): a grad-mode leak when
a context-manager object created by a caller is entered by a callee after a nested break (``ctx.as_value``), and
the crash inlining functions of modules missing from ``sys.modules`` (worked around by registering the helper
modules while compiling, see ``_exec.load``).
"""

from __future__ import annotations

import pytest

from fuzz.features import GenerationConfig, families
from fuzz.generate import generate_program
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


# Families whose first example hits a torch bug already in corpus/: the example checks the family, not torch.
_TORCH_BUGS = {"iter": "corpus/torch-ngb-sorted-key-break-returns-key-value.py (torch 2.10-2.13)"}


@pytest.mark.parametrize(
    "family",
    [pytest.param(f, marks=pytest.mark.xfail(reason=_TORCH_BUGS[f], strict=False)) if f in _TORCH_BUGS else f
     for f in _FAMILIES],
)
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
