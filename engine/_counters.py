"""Dynamo-compatible accounting: the engine fills `torch._dynamo.utils.counters` as Dynamo's tooling reads
them, so code that inspects those counters after a run under torch.compile sees the engine's run too.

| counter | the engine adds |
|---|---|
| `counters["graph_break"][reason]` | 1 per break met while tracing (the reason is the engine's explanation) |
| `counters["frames"]["total"]` / `["ok"]` | 1 per trace of a segment started / finished with a segment |
| `counters["resumes"][name]` | 1 per segment traced from a break point (Dynamo's resume functions) |
| `counters["stats"]["unique_graphs"]` | 1 per graph compiled |
| `counters["stats"]["calls_captured"]` | the op nodes of each graph compiled |

`torch._dynamo.utils.counters.clear()` (what `torch._dynamo.reset()` tooling does) clears them for both.
"""

from __future__ import annotations

import torch.fx
from torch._dynamo.utils import counters


def graph_break(reason: str) -> None:
    counters["graph_break"][reason] += 1


def frame(ok: bool) -> None:
    """A trace started (`ok` False) or one that ended in a segment (`frame_ok`)."""
    counters["frames"]["total"] += 1
    if ok:
        frame_ok()


def frame_ok() -> None:
    counters["frames"]["ok"] += 1


def resume(name: str) -> None:
    counters["resumes"][name] += 1


def graph(gm: torch.fx.GraphModule) -> None:
    counters["stats"]["unique_graphs"] += 1
    counters["stats"]["calls_captured"] += sum(
        n.op in ("call_function", "call_method", "call_module") for n in gm.graph.nodes)
