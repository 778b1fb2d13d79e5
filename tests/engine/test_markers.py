"""Markers mean what they mean under torch.compile, and grad-mode changes that cancel out leave no nodes."""

from __future__ import annotations

import torch

import engine

from .helpers import check, same, t

gb = torch._dynamo.graph_break


def branches_on_compiling(x):
    a = x + 1 if torch.compiler.is_compiling() else x - 1
    gb()
    b = a * 2 if torch._dynamo.is_compiling() else a * 3
    return a, b


def test_is_compiling_is_true_while_traced_as_under_torch_compile():
    # "Equal to eager" for a program that asks whether it is compiled means equal to torch.compile's
    # result: eager takes the other branch on purpose.
    x = t(3)
    torch._dynamo.reset()
    ref = torch.compile(branches_on_compiling, backend="eager")(x.clone())
    out = engine.compile(branches_on_compiling)(x.clone())
    same(ref, out)
    eager = branches_on_compiling(x.clone())
    assert not torch.equal(eager[0], out[0])


def callee_asks(x):
    gb()
    return torch.compiler.is_compiling(), x * 2


def caller_asks(x):
    return callee_asks(x + 1)


def test_is_compiling_in_a_resumed_callee():
    out = engine.compile(caller_asks)(t(3))
    assert out[0] is True


def empty_no_grad(x):
    y = x * 2
    with torch.no_grad():
        pass
    with torch.enable_grad():
        pass
    with torch.no_grad():
        with torch.enable_grad():
            pass
    return y + 1


def test_empty_grad_blocks_leave_no_nodes():
    c = check(empty_no_grad, lambda: (t(3, requires_grad=True),))
    for gm in c.record.graph_modules:
        targets = [n.target for n in gm.graph.nodes if n.op == "call_function"]
        assert torch._C._set_grad_enabled not in targets, gm.graph


def grad_block_with_op(x):
    with torch.no_grad():
        y = x * 2
    return y + x


def test_grad_block_with_an_op_keeps_its_nodes():
    c = check(grad_block_with_op, lambda: (t(3, requires_grad=True),))
    targets = [n.target for gm in c.record.graph_modules for n in gm.graph.nodes]
    assert targets.count(torch._C._set_grad_enabled) == 2


def breaks_in_callee(x):
    return callee_asks(x)


def test_fullgraph_error_names_the_user_line_the_reason_an_id_and_a_hint():
    import re

    try:
        engine.compile(breaks_in_callee, fullgraph=True)(t(3))
    except engine.EngineError as e:
        msg = str(e)
    else:
        raise AssertionError("fullgraph=True let a graph break through")
    line = callee_asks.__code__.co_firstlineno + 1
    assert re.search(rf"^\[graph_break\] graph break at .*test_markers\.py:{line} ", msg), msg
    assert "graph_break() called" in msg and "hint: " in msg, msg


def exception_through_regions(x):
    log = []
    for region in (torch._dynamo.disable_nested_graph_breaks(), torch._dynamo.error_on_graph_break(False)):
        try:
            with region:
                y = x + 1
                raise KeyError("k")
        except KeyError as e:
            log.append(e.args)
    return y * 2, log


def test_exception_leaving_a_region_block_is_traced():
    """A region's exit is a no-op that ignores the exception: an exception made while tracing (no traceback
    yet) leaves the block without a break."""
    check(exception_through_regions, lambda: (t(3),), graphs=1, breaks=0)
