"""The control family's constructs leave an exception of the hole's own alone: it propagates out of entry as it
would without the construct (no handler of the construct catches it and leaves a result unbound)."""

import pytest

from fuzz.program import families, ir
from fuzz.program.render import render
from fuzz.program.selfcheck import run_eager

_HOSTING = [c.name for c in families.CONSTRUCTS.values() if c.family == "control" and c.hosts and c.available()]


@pytest.mark.parametrize("name", _HOSTING)
def test_an_exception_raised_in_the_hole_propagates(name):
    body = (ir.Construct(name, (ir.Arith("tanh"), ir.Raise("hole"))), ir.Arith("tanh"))
    program = ir.Program((ir.Function(0, "", "plain", (), body),), (), ir.Inputs(seed=3, rows=3, cols=4))
    run = run_eager(render(program))
    outcome = run.results[0]
    assert outcome[0] == "raised" and "ValueError" in repr(outcome[1]), f"{name}: {outcome}"
