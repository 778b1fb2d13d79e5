"""Public entry points: compile, explain, reset."""

from __future__ import annotations

import types
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

import torch
import torch._dynamo

from ._errors import EngineError
from ._faults import check_fault
from ._segments import Compiled
from ._vm._modules import module_entry

_ALL_COMPILED: list[Compiled] = []


def _resolve_backend(backend: str | Callable[..., Any]) -> Callable[..., Any]:
    if callable(backend):
        return backend
    if isinstance(backend, str):
        try:
            return torch._dynamo.lookup_backend(backend)
        except Exception as e:
            raise EngineError(f"unknown backend {backend!r}: {e}") from None
    raise EngineError(f"backend must be a name or a callable, not {type(backend).__name__}")


def compile(
    fn: Callable[..., Any] | None = None,
    *,
    backend: str | Callable[..., Any] = "eager",  # noqa: A001
    nested: bool = True,
    fullgraph: bool = False,
    fault: str | None = None,
) -> Any:
    """Compile `fn` with nested graph breaks (or classic top-level-only resume with nested=False).

    Usable as `engine.compile(fn)`, `@engine.compile` (on functions and on methods such as `forward`) and
    `@engine.compile(nested=False)`. An `nn.Module` compiles its call: `Module.__call__` with its hooks,
    then `forward`; parameters and buffers are graph inputs, re-read at each call and guarded on their
    metadata, so `train()`/`eval()` or a `requires_grad` change recompiles. The result is callable and has
    `.stats()`: graphs, breaks, recompiles, frames_traced (cumulative since compile).
    `fault` turns on one of the deliberate bugs of `engine._faults.FAULTS` (for measuring the fuzzer).
    """
    if fn is None:
        return lambda f: compile(f, backend=backend, nested=nested, fullgraph=fullgraph, fault=fault)
    if not callable(fn):
        raise EngineError(f"engine.compile needs a callable, got {type(fn).__name__}")
    c = _make(fn, backend, nested, fullgraph)
    c.fault = check_fault(fault)
    _ALL_COMPILED.append(c)
    return c


def _make(
    fn: Callable[..., Any], backend: str | Callable[..., Any], nested: bool, fullgraph: bool
) -> Compiled:
    if isinstance(fn, torch.nn.Module):  # its call, not just forward: Module.__call__ runs the hooks
        c = Compiled(types.MethodType(module_entry, fn), _resolve_backend(backend), nested=nested,
                     fullgraph=fullgraph)
        c.module = fn
        return c
    return Compiled(fn, _resolve_backend(backend), nested=nested, fullgraph=fullgraph)


@dataclass
class BreakInfo:
    """One graph break as explain() reports it."""

    reason: str
    where: str
    depth: int
    gb_id: str
    hint: str = ""


@dataclass
class ExplainOutput:
    """What explain() returns: counts, breaks, the graphs, the residual code and the call's result."""

    graph_count: int
    break_count: int
    breaks: list[BreakInfo]
    frames_traced: int
    graphs: list[torch.fx.GraphModule]
    residual: str
    result: object = None
    stats: dict[str, Any] = field(default_factory=dict)

    def __str__(self) -> str:
        lines = [
            f"graphs: {self.graph_count}, breaks: {self.break_count}, frames traced: {self.frames_traced}"
        ]
        lines += [f"  break at {b.where} (depth {b.depth}) [{b.gb_id}] {b.reason}" for b in self.breaks]
        return "\n".join(lines) + "\n" + self.residual


def explain(fn: Callable[..., Any], *, backend: str | Callable[..., Any] = "eager",
            nested: bool = True) -> Callable[..., ExplainOutput]:
    """`engine.explain(fn)(*args)`: compile fn afresh, run it once, report graphs, breaks and residual
    code."""

    def run(*args: Any, **kwargs: Any) -> ExplainOutput:
        c = _make(fn, backend, nested, False)
        result = c(*args, **kwargs)
        rec = c.record
        breaks = [BreakInfo(b.reason, b.where, b.depth, b.gb_id, b.hint) for b in rec.break_records]
        return ExplainOutput(rec.graphs, rec.breaks, breaks, rec.frames_traced, list(rec.graph_modules),
                             "\n".join(rec.sources), result, rec.stats())

    return run


def reset() -> None:
    """Forget every compiled artifact (segments, graphs, continuation trees) of every compiled function."""
    for c in _ALL_COMPILED:
        c.roots.clear()
        c.classic_cache.clear()
        c.eager_keys.clear()
    _ALL_COMPILED.clear()
