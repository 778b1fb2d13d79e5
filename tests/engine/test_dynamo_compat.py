"""What code written for torch.compile sees of the engine: its no-break errors are torch's
`torch._dynamo.exc.Unsupported` (and still `EngineError`), and `torch._dynamo.utils.counters` holds its
breaks, frames, resumes and graphs (engine/_counters.py)."""

from __future__ import annotations

import pytest
import torch
from torch._dynamo.utils import counters

import engine

from .helpers import t

gb = torch._dynamo.graph_break


def _leaf(x):
    gb()
    return x + 1


def _with_break(x):
    return _leaf(x * 2) - 1


def _in_region(x):
    with torch._dynamo.error_on_graph_break(True):
        return _leaf(x)


@pytest.mark.parametrize("how", ["fullgraph", "region"])
def test_no_break_errors_are_torch_unsupported(how):
    c = engine.compile(_with_break, fullgraph=True) if how == "fullgraph" else engine.compile(_in_region)
    with pytest.raises(torch._dynamo.exc.Unsupported) as info:
        c(t(3))
    assert isinstance(info.value, engine.EngineError)
    assert info.value.gb_id == "graph_break"


def test_engine_only_failures_stay_engine_errors():
    with pytest.raises(engine.EngineError) as info:
        engine.compile(_with_break, backend="no-such-backend")
    assert not isinstance(info.value, torch._dynamo.exc.Unsupported)


def test_counters_filled_as_dynamo_tooling_reads_them():
    counters.clear()
    c = engine.compile(_with_break)
    c(t(3))
    c(t(3))
    assert sum(counters["graph_break"].values()) == c.record.breaks == 1
    assert any("graph_break()" in k for k in counters["graph_break"])
    assert counters["stats"]["unique_graphs"] == c.record.graphs == 2
    assert counters["stats"]["calls_captured"] == 3  # mul; add, sub
    assert counters["frames"]["total"] == counters["frames"]["ok"] == 2  # the entry and the resume
    assert sum(counters["resumes"].values()) == 1
    counters.clear()
