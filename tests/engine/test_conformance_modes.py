"""Conformance: autocast and inference mode are graph state, as grad mode is: a block traced whole is one
graph with the mode's enter and exit nodes (the graph count says no break was taken), its ops have eager's
dtypes and inference-ness, a break inside runs the eager op under the mode and resumes in it, and the global
state after the call (an exception leaving the block included) is eager's.

Autocast's cast cache: eager keeps the casts of leaf tensors that require grad for the whole outermost block,
so a weight changed in place inside the block is still used as its stale cast. A graph closing a block at a
break would drop the cache; such a block (one whose cache is on and in which a leaf requiring grad met an
op) is entered by an eager op instead, the trace restarting with it made eager (`CACHE_SCENARIOS`)."""

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


def xw():
    """An input and a weight: a leaf requiring grad, whose bfloat16 cast autocast caches."""
    return (t(3, 3), t(3, 3, seed=1, requires_grad=True))


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


def autocast_cache_break(log, x, w):
    with torch.autocast("cpu"):
        a = torch.mm(x, w)  # w's bfloat16 cast is cached until the block ends
        gb()
        with torch.no_grad():
            w.mul_(2)
        b = torch.mm(x, w)  # eager: the stale cast (b equals a)
        log.append(torch.is_autocast_cache_enabled())
    return a, b, torch.mm(x, w)


def _cast_then_break(log, x, w):
    y = torch.mm(x, w)
    gb()
    seen(log, "callee")
    return y


def autocast_cache_break_in_callee(log, x, w):
    with torch.autocast("cpu"):
        a = _cast_then_break(log, x, w)  # the break is a frame down
        with torch.no_grad():
            w.add_(1)
        b = torch.mm(x, w)
    return a, b


@torch.autocast("cpu")
def _cached_decorated(log, x, w):
    y = torch.mm(x, w)
    gb()
    with torch.no_grad():
        w.add_(1)
    return y, torch.mm(x, w)


def autocast_cache_decorator_break(log, x, w):
    a, b = _cached_decorated(log, x, w)  # the program's own autocast object, its block in a callee
    return a, b, torch.mm(x, w)


def autocast_cache_inner_block_break_outside(log, x, w):
    with torch.autocast("cpu", cache_enabled=False):
        with torch.autocast("cpu", cache_enabled=True):  # (the default would be the outer block's)
            a = torch.mm(x, w)  # cached by the inner block, kept while the outer one is open
        gb()
        with torch.no_grad():
            w.add_(1)
        with torch.autocast("cpu", cache_enabled=True):
            b = torch.mm(x, w)
    return a, b


def autocast_cache_disabled_break(log, x, w):
    with torch.autocast("cpu", cache_enabled=False):
        a = torch.mm(x, w)
        gb()
        with torch.no_grad():
            w.mul_(2)
        b = torch.mm(x, w)  # no cache: cast again, in eager as in the engine
        log.append(torch.is_autocast_cache_enabled())
    return a, b


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
    # a break in a block with no cache: traced (graphs: up to the break; the rest up to the eager exit)
    Scenario(autocast_cache_disabled_break, xw, 2),
]

# A break inside a block with a cached cast: entered by an eager op after one restart. Graphs: up to the
# eager enter (none has an op), up to the break, the rest up to the eager exit, the tail (if it has an op).
CACHE_SCENARIOS = [
    Scenario(autocast_cache_break, xw, 3, restarts=1),
    Scenario(autocast_cache_break_in_callee, xw, 2, restarts=1),  # (seen() right after the break: no op)
    Scenario(autocast_cache_decorator_break, xw, 3, restarts=1),
    Scenario(autocast_cache_inner_block_break_outside, xw, 2, restarts=1),  # (the outer block is made eager)
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


@pytest.mark.parametrize("sc", CACHE_SCENARIOS, ids=lambda sc: sc.name)
def test_autocast_cache_kept_across_a_break(sc):
    """Eager keeps the block's cast cache across the break (the stale cast is used after the in-place
    change): the block is entered by an eager op, not closed by a graph at the break."""
    check_scenario(sc)
