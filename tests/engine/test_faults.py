"""Each fault switch re-creates its bug class on a small program (a difference from eager), and with the
switch off the same program is right."""

from __future__ import annotations

import sys
import types

import pytest
import torch

import engine
from engine._faults import FAULTS

from .helpers import same, t

gb = torch._dynamo.graph_break
LOG: list = []


def observe(fn, args, fault):
    """(result or exception text, LOG after, grad mode after) of one call, eager when fault is False."""
    LOG.clear()
    grad = torch.is_grad_enabled()
    run = fn if fault is False else engine.compile(fn, fault=fault)
    try:
        out = run(*args)
    except Exception as e:  # a crash is a difference too
        out = f"{type(e).__name__}: {e}"
    after = torch.is_grad_enabled()
    torch._C._set_grad_enabled(grad)
    return out, list(LOG), after


def differs(fn, make_args, fault):
    ref = observe(fn, make_args(), False)
    got = observe(fn, make_args(), fault)
    try:
        same(ref[0], got[0])
        same(ref[1], got[1])
        assert ref[2] == got[2]
    except AssertionError:
        return True
    return False


def grad_input():
    return (t(3, requires_grad=True),)


# -- one program per switch -------------------------------------------------------------------------------

def callee_breaks(x):
    gb()
    return x * 2


def upper_no_grad(x):
    with torch.no_grad():
        y = callee_breaks(x)
    return y


@torch.no_grad()
def decorated(x):
    return x * 3


def uses_decorated(x):
    return decorated(x) + 0


def step_parent_stack(x):
    return (x + 1, x * 5, step_callee(x))


def step_callee(x):
    torch._dynamo.step_unsupported()
    return x - 1


def appends(x):
    gb()
    LOG.append(1)
    return x + 1


def cell_write(x):
    n = 0

    def bump():
        nonlocal n
        n += 1

    gb()
    bump()
    gb()
    return x + n


def grad_block_before_return(x):
    gb()
    with torch.no_grad():
        y = x * 2
    return y


_helper = types.ModuleType("fault_helper")
exec("SCALE = 10\n"
     "def make():\n"
     "    def inner(x):\n"
     "        return x * SCALE\n"
     "    return inner\n", _helper.__dict__)
sys.modules.setdefault("fault_helper", _helper)
SCALE = 1


def calls_helper_closure(x):
    f = _helper.make()
    return f(x)


PROGRAMS = {
    "forget-upper-cm": (upper_no_grad, grad_input),
    "closure-root-globals": (calls_helper_closure, lambda: (t(3),)),
    "drop-decorator-cm": (uses_decorated, grad_input),
    "corrupt-parent-slot": (step_parent_stack, lambda: (t(3),)),
    "replay-effect-twice": (appends, lambda: (t(3),)),
    "lose-cell-write": (cell_write, lambda: (t(3),)),
    "leave-grad-changed": (grad_block_before_return, lambda: (t(3),)),
}


def test_every_fault_has_a_program():
    assert set(PROGRAMS) == set(FAULTS)


@pytest.mark.parametrize("name", sorted(PROGRAMS))
def test_fault_on_differs_off_is_right(name):
    fn, make_args = PROGRAMS[name]
    assert not differs(fn, make_args, None), "the engine without the fault must match eager"
    assert differs(fn, make_args, name), f"{name} did not change the program's behaviour"


def test_unknown_fault_is_a_clear_error():
    with pytest.raises(engine.EngineError, match="unknown engine fault"):
        engine.compile(upper_no_grad, fault="nope")


def test_engine_target_takes_a_fault_by_name():
    import oracle
    from oracle._errors import TargetError

    assert oracle.parse_target("engine:fault=lose-cell-write").spec == "engine:fault=lose-cell-write"
    assert oracle.parse_target("engine").spec == "engine"
    with pytest.raises(TargetError, match="valid: none, forget-upper-cm"):
        oracle.parse_target("engine:fault=nope")
