"""`@torch.autocast(...)` / `@torch.inference_mode()` as decorators: their wrappers are traced as the
with-blocks they are (entering and leaving the mode are graph nodes, see engine/_vm/_modes.py), not run
eagerly as a whole."""

from __future__ import annotations

import torch

from .helpers import check, t

gb = torch._dynamo.graph_break


@torch.autocast("cpu", dtype=torch.bfloat16)
def _mm(x):
    return torch.mm(x, x) + 1


@torch.autocast("cpu", enabled=False)
def _off(x):
    return torch.mm(x, x), torch.is_autocast_enabled("cpu")


@torch.autocast("cpu", dtype=torch.bfloat16)
def _raises(x, log):
    log.append(torch.is_autocast_enabled("cpu"))
    raise KeyError("k")


def decorated_calls(x):
    log = []
    a = _mm(x)  # no break inside: enter, one graph for the body, exit
    with torch.autocast("cpu", dtype=torch.bfloat16):
        b, on = _off(x)  # a decorator turning autocast off inside an autocast block
    try:
        _raises(x, log)
    except KeyError:
        log.append(torch.is_autocast_enabled("cpu"))
    return a, a.dtype, b, b.dtype, on, log, torch.is_autocast_enabled("cpu"), torch.mm(x, x).dtype


def test_autocast_decorator_is_traced_as_its_with_block():
    # one graph: the decorators' and the with-block's autocast are enter/exit nodes in it
    c = check(decorated_calls, lambda: (t(3, 3),), graphs=1, breaks=0)
    targets = [n.target for gm in c.record.graph_modules for n in gm.graph.nodes]
    assert targets.count(torch.amp.autocast_mode._enter_autocast) == 4


@torch.inference_mode()
def _inference(x, log):
    log.append(torch.is_inference_mode_enabled())
    y = x * 2
    gb()
    return y + 1


def inference_decorated(x):
    log = []
    y = _inference(x, log)
    return y, y.is_inference(), log, torch.is_inference_mode_enabled(), x + 1


def test_inference_mode_decorator_is_traced_as_its_with_block():
    """`@torch.inference_mode()`'s wrapper (torch's generic decorate_context) is traced the same way."""
    c = check(inference_decorated, lambda: (t(3),), graphs=3, breaks=3)
    # the graph_break, leaving the mode entered before it (an eager op), then y.is_inference()
    assert [b.gb_id for b in c.record.break_records] == ["graph_break", "library-call", "non-tensor-result"]
