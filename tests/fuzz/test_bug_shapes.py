"""Each bug shape of the seeds' May-2026 update is generated within the first 1,000 programs of 3 seeds."""

from __future__ import annotations

import pytest

from fuzz.program.generate import generate_program

SHAPES = {
    # 1. a break in a callee under an upper frame's with-block
    "upper_ctx": {"shape.upper_ctx_break"},
    # 2. a closure from a helper module reading its globals across a break
    "helper_closure_globals": {"module.helper", "closure.nonlocal", "shape.helper_closure_globals"},
    # 3. a decorator-form context manager with a break inside
    "decorator_ctx": {"ctx.decorator", "shape.decorator_ctx_break"},
    # 4. a step break under a parent with a non-empty operand stack
    "step_stack": {"break.step_unsupported", "shape.step_break_stack"},
    # 5. a contextmanager wrapped by disable, entered in compiled code
    "cm_disable": {"ctx.contextmanager_disabled", "shape.cm_disable_init"},
}


@pytest.mark.parametrize("seed", [0, 1, 2])
def test_every_bug_shape_within_1000_programs(seed):
    first_hit: dict[str, int] = {}
    for i in range(1000):
        tags = generate_program(seed, i).features
        for name, needed in SHAPES.items():
            if name not in first_hit and needed <= tags:
                first_hit[name] = i
        if len(first_hit) == len(SHAPES):
            break
    assert set(first_hit) == set(SHAPES), f"seed {seed}: missing {set(SHAPES) - set(first_hit)}"
