"""Conformance: autocast and inference mode are graph state, as grad mode is: a block traced whole is one
graph with the mode's enter and exit nodes (the graph count says no break was taken), its ops have eager's
dtypes and inference-ness, a break inside runs the eager op under the mode and resumes in it, and the global
state after the call (an exception leaving the block included) is eager's."""

from __future__ import annotations

import pytest
import torch

from .conformance import Scenario, check_scenario
from .helpers import t

gb = torch._dynamo.graph_break


def m33():
    return (t(3, 3),)


def m33g():
    return (t(3, 3, requires_grad=True),)


@torch._dynamo.disable
def seen(log, tag):
    """What an eager op inside the block sees of the global state."""
    log.append((tag, torch.is_autocast_enabled("cpu"), torch.get_autocast_dtype("cpu"),
                torch.is_inference_mode_enabled(), torch.is_grad_enabled()))


def autocast_block_traced(log, x):
    a = torch.mm(x, x)
    with torch.autocast("cpu", dtype=torch.bfloat16):
        b = torch.mm(x, x)
        log.append((torch.is_autocast_enabled("cpu"), torch.get_autocast_dtype("cpu")))
        c = b + a  # float32 + bfloat16 under autocast: eager's promotion
    d = torch.mm(x, x)
    return a, b, c, d, torch.is_autocast_enabled("cpu")


def autocast_nested_and_disabled(log, x):
    with torch.autocast("cpu"):
        a = torch.mm(x, x)
        with torch.autocast("cpu", enabled=False):
            b = torch.mm(x, x)
            log.append(torch.is_autocast_enabled("cpu"))
        with torch.autocast("cpu", dtype=torch.float16, cache_enabled=False):
            c = torch.mm(x, x)
            log.append(torch.is_autocast_cache_enabled())
        d = torch.mm(x, x)
    return a, b, c, d


def _leaf(log, x):
    y = torch.mm(x, x)
    gb()
    seen(log, "leaf")
    return torch.mm(y, x)


def autocast_break_inside_at_depth(log, x):
    with torch.autocast("cpu", dtype=torch.bfloat16):
        a = torch.mm(x, x)
        b = _leaf(log, x)  # the break is two frames down: the eager op runs under autocast
        c = torch.mm(b, a)
        seen(log, "after")
    return a, b, c, torch.mm(x, x)


@torch.autocast("cpu", dtype=torch.bfloat16)
def _decorated(x, log):
    log.append(torch.is_autocast_enabled("cpu"))
    return torch.mm(x, x) + 1


def autocast_decorator(log, x):
    a = _decorated(x, log)
    b = _decorated(a.float(), log)  # the program's own autocast object, entered twice
    return a, b, torch.mm(x, x)


def autocast_object_as_value(log, x):
    ac = torch.autocast("cpu", dtype=torch.bfloat16)
    with ac as entered:
        y = torch.mm(x, x)
    seen(log, "out")
    return y, entered is ac, ac.prev, ac.prev_fastdtype, ac.fast_dtype, ac.device


def autocast_exception_through_block(log, x):
    try:
        with torch.autocast("cpu", dtype=torch.bfloat16):
            y = torch.mm(x, x)
            if y.dtype == torch.bfloat16:
                raise KeyError("k")
    except KeyError:
        log.append(torch.is_autocast_enabled("cpu"))
    return torch.mm(x, x)


def autocast_exception_leaves_function(log, x):
    with torch.autocast("cpu", dtype=torch.bfloat16):
        log.append(torch.mm(x, x).dtype)
        raise ValueError("out")


def _eager_raises(x):
    raise KeyError(float(x.sum()))


def autocast_eager_op_raises_inside(log, x):
    try:
        with torch.autocast("cpu", dtype=torch.bfloat16):
            y = torch.mm(x, x)
            _eager_raises(y)  # an eager op (float() of a tensor) raising inside the block
    except KeyError:
        seen(log, "handler")
    return torch.mm(x, x)


def inference_block_traced(log, x):
    with torch.inference_mode():
        y = x * 2
        log.append((torch.is_inference_mode_enabled(), torch.is_grad_enabled()))
        z = torch.ones(2)
    w = x + 1
    return y, z, w, y.is_inference(), z.is_inference(), w.is_inference(), y.requires_grad, w.requires_grad


def inference_break_inside(log, x):
    with torch.inference_mode():
        y = x * 2
        gb()
        seen(log, "inside")
        with torch.enable_grad():
            z = y + 1
            log.append(torch.is_grad_enabled())
        with torch.inference_mode(False):
            log.append((torch.is_inference_mode_enabled(), torch.is_grad_enabled()))
    return y, z, y.is_inference(), z.is_inference(), torch.is_grad_enabled()


@torch.inference_mode()
def _inference_decorated(x, log):
    log.append(torch.is_inference_mode_enabled())
    return x * 2


def inference_decorator(log, x):
    y = _inference_decorated(x, log)
    with torch.no_grad():
        z = _inference_decorated(x + 1, log)
    return y, z, y.is_inference(), torch.is_grad_enabled(), x * 3


SCENARIOS = [
    Scenario(autocast_block_traced, m33, 1),
    Scenario(autocast_nested_and_disabled, m33, 1),
    # graphs: up to the break, then the leaf's rest up to seen(); the caller's rest up to seen()
    # (the exit of a block entered before a break is an eager op), and the tail
    Scenario(autocast_break_inside_at_depth, m33, 3),
    Scenario(autocast_decorator, m33, 1),
    Scenario(autocast_object_as_value, m33, 1),
    Scenario(autocast_exception_through_block, m33, 1),
    Scenario(autocast_exception_leaves_function, m33, 1, raises=True),
    Scenario(autocast_eager_op_raises_inside, m33, 2),
    Scenario(inference_block_traced, m33g, 1),
    Scenario(inference_break_inside, m33g, 2),
    Scenario(inference_decorator, m33g, 2),
]


@pytest.mark.parametrize("sc", SCENARIOS, ids=lambda sc: sc.name)
def test_modes_as_graph_state(sc):
    check_scenario(sc)


@pytest.mark.parametrize("sc", SCENARIOS, ids=lambda sc: sc.name)
def test_modes_are_entered_in_the_graph(sc):
    """No block is entered by an eager op (a `with` break): every enter is a graph node."""
    import engine

    c = engine.compile(sc.fn)
    for k in range(2):
        try:
            c([], *sc.args(k))
        except Exception:
            assert sc.raises
    assert not [b for b in c.record.break_records if b.gb_id == "with"]
