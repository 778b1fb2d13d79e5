"""Conformance: data-dependent values in Python control flow; a second call that goes the other way must
trace a new continuation (the graph count after both calls says so)."""

from __future__ import annotations

import pytest
import torch

from .conformance import Scenario, check_scenario
from .helpers import t

gb = torch._dynamo.graph_break


def pos():
    return (t(3).abs() + 1,)


def neg():
    return (-(t(3).abs() + 1),)


def if_tensor(log, x):
    if x.sum() > 0:
        log.append("pos")
        return x * 2
    log.append("neg")
    return x - 2


def if_tensor_in_callee(log, x):
    def sign(v):
        return "pos" if (v.mean() > 0) else "neg"

    s = sign(x + 1)
    log.append(s)
    return x * (2 if s == "pos" else -2)


def item_in_loop_bound(log, x):
    n = int((x.abs().sum() > 3).item()) + 1
    for i in range(n):
        x = x + i
    return x, n


def tolist_in_control_flow(log, x):
    vals = x.tolist()
    out = x
    for v in vals:
        if v > 0:
            out = out + 1
        else:
            out = out - 1
    return out, vals


def item_as_python_number(log, x):
    s = x.sum().item()
    log.append(round(s, 3))
    return x * (s > 0)


def while_on_tensor(log, x):
    steps = 0
    while (x.abs().max() > 0.5) and steps < 10:
        x = x / 2
        steps += 1
    return x, steps


def bool_of_tensor_and_or(log, x):
    ok = bool(x[0] > 0) and bool(x[1] > 0) or bool(x[2] > 0)
    return x + ok


def data_dependent_exception(log, x):
    try:
        if x.min() < 0:
            raise ValueError("negative")
        return x.sqrt()
    except ValueError as e:
        log.append(str(e))
        return x.abs().sqrt()


SCENARIOS = [
    Scenario(if_tensor, pos, 3, inputs2=neg),
    Scenario(if_tensor_in_callee, pos, 3, inputs2=neg),
    Scenario(item_in_loop_bound, pos, 3, inputs2=lambda: (t(3) * 0.01,)),
    Scenario(tolist_in_control_flow, pos, 2, inputs2=neg),
    Scenario(item_as_python_number, pos, 3, inputs2=neg),
    Scenario(while_on_tensor, pos, 4, inputs2=lambda: (t(3) * 0.01,)),
    Scenario(bool_of_tensor_and_or, pos, 5, inputs2=neg),
    Scenario(data_dependent_exception, pos, 3, inputs2=neg),
]


@pytest.mark.parametrize("sc", SCENARIOS, ids=lambda sc: sc.name)
def test_data_dependent(sc):
    check_scenario(sc)
