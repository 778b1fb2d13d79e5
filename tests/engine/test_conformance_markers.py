"""Conformance: compile-time markers modeled, not run eagerly -- error_on_graph_break and
disable_nested_graph_breaks (context manager and decorator forms), nonstrict_trace.

Each scenario asserts result, effect log and torch state equal to eager and the engine's exact graph count;
`test_graph_counts_match_torch_compile` checks that count against torch.compile (nested_graph_breaks=True,
torch 2.13) on the same scenario, since what these markers mean is how a compiler breaks.
"""

from __future__ import annotations

import re

import pytest
import torch
import torch._dynamo

import engine

from .conformance import Scenario, check_scenario, run_pair, x1, xg
from .helpers import t

gb = torch._dynamo.graph_break
eogb = torch._dynamo.error_on_graph_break
dngb = torch._dynamo.disable_nested_graph_breaks


def _leaf(log, x):
    log.append(("leaf", torch.is_grad_enabled()))
    x = x + 1
    gb()
    return x * 2


def _mid(log, x):
    y = _leaf(log, x + 1)
    log.append("mid")
    return y + 3


@dngb
def _dmid(log, x):
    return _leaf(log, x + 1) + 3


@eogb(False)
def _allowed_leaf(log, x):
    log.append("allowed")
    gb()
    return x * 5


def _leaf_allows_itself(log, x):
    with eogb(False):
        log.append("inner-false")
        gb()
    return x * 2


def error_region_false_inside_true(log, x):
    with eogb(True):
        y = _leaf_allows_itself(log, x + 1) + 1
    return y


def error_region_decorator_false(log, x):
    with eogb(True):
        y = _allowed_leaf(log, x - 1)
    log.append("after")
    return y + x


def error_region_left_before_break(log, x):
    with eogb(True):
        y = x + 1
        log.append("in")
    y = _mid(log, y)
    return y * 2


def error_region_exception_caught_inside(log, x):
    with eogb(True):
        try:
            log.append("raise")
            raise KeyError("k")
        except KeyError as e:
            log.append(("caught", e.args))
    return x + 1


def nested_off_exception_through(log, x):
    # leaving the block by an exception runs its exit callable for real (a break): a no-op, as eager's
    try:
        with dngb():
            _mid(log, x)
            raise KeyError("k")
    except KeyError:
        log.append("caught")
    return x + 1


def nested_off_decorator(log, x):
    return _dmid(log, x * 2) - 1


def nested_off_block(log, x):
    with dngb():
        y = _mid(log, x * 2)
    return y - 1


def nested_off_break_in_own_frame(log, x):
    with dngb():
        y = x + 1
        log.append("before")
        gb()
        z = y * 2
    return z + 1


def nested_off_region_left_before_break(log, x):
    with dngb():
        y = x + 2
    return _mid(log, y) - 1


def nested_off_under_no_grad(log, x):
    with torch.no_grad():
        with dngb():
            y = _mid(log, x * 2)
    return y, y.requires_grad, torch.is_grad_enabled()


def _region_in_callee(log, v):
    with dngb():
        return _mid(log, v + 1)


def nested_off_in_a_callee(log, x):
    return _region_in_callee(log, x) * 2


nst = torch._dynamo.nonstrict_trace


@nst
def _ns_affine(x, k):
    return x * k + 1


@nst
def _ns_breaks(log, x):
    log.append("ns")
    gb()  # a no-op in eager, and under torch.compile where the function is not traced by Dynamo
    return x.sin()


def _below_ns(x):
    gb()
    return x.cos()


@nst
def _ns_calls_breaking(x):
    return _below_ns(x) + 1


@nst
def _ns_pytree(x):
    return x + 1, [x * 2, 3], {"k": x - 1}


def nonstrict_plain(log, x):
    return _ns_affine(x + 1, 3) * 2


def nonstrict_break_inside(log, x):
    y = _ns_breaks(log, x + 1)
    log.append("after")
    return y * 2


def nonstrict_break_below(log, x):
    return _ns_calls_breaking(x * 2) - 1


def nonstrict_pytree_out(log, x):
    a, (b, k), d = _ns_pytree(x)
    return a + b * k + d["k"]


def nonstrict_then_real_break(log, x):
    y = _ns_breaks(log, x)
    return _mid(log, y)


SCENARIOS = [
    Scenario(error_region_false_inside_true, x1, 2),
    Scenario(error_region_decorator_false, x1, 2),
    Scenario(error_region_left_before_break, x1, 2),
    Scenario(error_region_exception_caught_inside, x1, 1),
    Scenario(nested_off_exception_through, x1, 5),
    Scenario(nested_off_decorator, x1, 6),
    Scenario(nested_off_block, x1, 6),
    Scenario(nested_off_break_in_own_frame, x1, 2),
    Scenario(nested_off_region_left_before_break, x1, 2),
    Scenario(nested_off_under_no_grad, xg, 5),
    Scenario(nested_off_in_a_callee, x1, 6),
    Scenario(nonstrict_plain, x1, 1),
    Scenario(nonstrict_break_inside, x1, 1),
    Scenario(nonstrict_break_below, x1, 1),
    Scenario(nonstrict_pytree_out, x1, 1),
    Scenario(nonstrict_then_real_break, x1, 2),
]


@pytest.mark.parametrize("sc", SCENARIOS, ids=lambda sc: sc.name)
def test_markers(sc):
    check_scenario(sc)


def _torch_graphs(fn, make_args):
    torch._dynamo.reset()
    graphs = 0

    def counting(gm, example_inputs):
        nonlocal graphs
        graphs += 1
        return gm.forward

    compiled = torch.compile(fn, backend=counting)
    return compiled, lambda: graphs


@pytest.fixture
def ngb_on():
    old = torch._dynamo.config.nested_graph_breaks
    torch._dynamo.config.nested_graph_breaks = True
    yield
    torch._dynamo.config.nested_graph_breaks = old
    torch._dynamo.reset()


# Where torch's count differs, and why. The engine breaks once more where an exception made while tracing
# leaves a with-block (its traceback does not exist yet, so the exit runs for real): an engine limit that
# has nothing to do with the marker, whose exit callable is what that break runs.
TORCH_GRAPHS = {"nested_off_exception_through": 4}


@pytest.mark.parametrize("sc", SCENARIOS, ids=lambda sc: sc.name)
def test_graph_counts_match_torch_compile(sc, ngb_on):
    """The engine's graphs on each markers scenario, counted live, are torch.compile's."""
    compiled, graphs = _torch_graphs(sc.fn, sc.inputs)
    run_pair(sc, compiled)
    ours = engine.compile(sc.fn)
    run_pair(sc, ours)
    assert ours.record.graphs == sc.graphs
    assert graphs() == TORCH_GRAPHS.get(sc.name, ours.record.graphs)


def _breaks_in_region(x):
    x = x + 1
    with eogb(True):
        x = _leaf([], x)
    return x


@eogb(True)
def _strict_leaf(x):
    gb()
    return x * 2


def _calls_strict_leaf(x):
    return _strict_leaf(x + 1) + 1


@pytest.mark.parametrize("fn", [_breaks_in_region, _calls_strict_leaf])
def test_a_break_inside_error_on_graph_break_true_is_an_error_as_under_torch_compile(fn, ngb_on):
    # torch.compile raises its Unsupported; the engine raises what it raises for fullgraph=True, naming the
    # break's id, file:line, reason and hint.
    with pytest.raises(torch._dynamo.exc.Unsupported):
        torch.compile(fn, backend="eager")(t(3))
    with pytest.raises(engine.EngineError) as info:
        engine.compile(fn)(t(3))
    assert re.match(r"\[graph_break\] graph break at .*test_conformance_markers\.py:\d+ inside "
                    r"error_on_graph_break\(True\): graph_break\(\) called; hint: ", str(info.value)), info.value
    eager = fn(t(3))  # eager ignores the marker
    assert eager.shape == (3,)
