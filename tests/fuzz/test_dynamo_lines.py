"""The Dynamo line tracer behind benchmarks/dynamo_coverage.py: it sees Dynamo's lines and nothing else, on
whichever Python runs the tests (sys.monitoring on 3.12+, settrace on 3.11)."""

import sys

import torch

from fuzz.triage import dynamo_lines
from fuzz.triage.dynamo_lines import DynamoLines


def _f(x):
    torch._dynamo.graph_break()
    return x + 1


def _translated(names):
    return {n for n in names if n.startswith("_dynamo/symbolic_convert.py:")}


def _compile_and_call():
    torch._dynamo.reset()
    compiled = torch.compile(_f, backend="eager")
    compiled(torch.ones(2))
    return compiled


def test_compiling_records_dynamo_lines_only_and_restores_the_previous_tracer():
    torch._dynamo.reset()
    compiled = torch.compile(_f, backend="eager")
    before = sys.gettrace()
    with DynamoLines() as lines:
        compiled(torch.ones(2))
    assert sys.gettrace() is before
    names = lines.names()
    assert _translated(names)
    assert all(n.split("/", 1)[0] in ("_dynamo", "_functorch") for n in names)
    assert not any(file == __file__ for file, _ in lines.hits)  # _f's own lines ran eagerly too: not recorded
    with DynamoLines() as again:  # compiled already: the cached code runs, Dynamo translates nothing
        compiled(torch.ones(2))
    assert not _translated(again.names())
    with DynamoLines() as eager:
        _f(torch.ones(2))
    assert len(eager.names()) < 50  # graph_break() run eagerly: a line or two of torch._dynamo
    torch._dynamo.reset()


def test_every_block_records_its_own_lines_even_lines_an_earlier_block_saw():
    # sys.monitoring's DISABLE outlives a block: without restart_events() the second block would see no line
    # the first one saw.
    with DynamoLines() as first:
        _compile_and_call()
    with DynamoLines() as second:
        _compile_and_call()
    assert _translated(first.names())
    common = _translated(first.names()) & _translated(second.names())
    assert len(common) > 0.9 * len(_translated(first.names()))
    torch._dynamo.reset()


def test_code_outside_a_block_is_not_recorded_and_hits_accumulate_per_instance():
    lines = DynamoLines()
    _compile_and_call()  # outside any block
    assert not lines.hits
    with lines:
        pass
    assert not _translated(lines.names())
    with lines:
        _compile_and_call()
    assert _translated(lines.names())
    torch._dynamo.reset()


def test_the_monitoring_tool_id_is_given_back():
    if not dynamo_lines.MONITORING:
        assert not hasattr(sys, "monitoring")  # 3.11: settrace is the only way
        return
    held = [sys.monitoring.get_tool(t) for t in range(6)]
    with DynamoLines():
        assert [sys.monitoring.get_tool(t) for t in range(6)] != held
    assert [sys.monitoring.get_tool(t) for t in range(6)] == held
