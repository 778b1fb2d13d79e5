"""The Dynamo line tracer behind benchmarks/dynamo_coverage.py: it sees Dynamo's lines and nothing else."""

import sys

import torch

from fuzz.triage.dynamo_lines import DynamoLines


def _f(x):
    torch._dynamo.graph_break()
    return x + 1


def test_compiling_records_dynamo_lines_only_and_restores_the_previous_tracer():
    torch._dynamo.reset()
    compiled = torch.compile(_f, backend="eager")
    before = sys.gettrace()
    with DynamoLines() as lines:
        compiled(torch.ones(2))
    assert sys.gettrace() is before
    names = lines.names()
    assert any(n.startswith("_dynamo/symbolic_convert.py:") for n in names)
    assert all(n.split("/", 1)[0] in ("_dynamo", "_functorch") for n in names)
    with DynamoLines() as again:  # compiled already: the cached code runs, Dynamo translates nothing
        compiled(torch.ones(2))
    assert not any(n.startswith("_dynamo/symbolic_convert.py:") for n in again.names())
    with DynamoLines() as eager:
        _f(torch.ones(2))
    assert len(eager.names()) < 50  # graph_break() run eagerly: a line or two of torch._dynamo
    torch._dynamo.reset()
