"""Real models: engine vs torch.compile (nested_graph_breaks=True), in one run.

The models are tests/engine/models.py's (the tests compile the same ones). For each model and compiler:
forward correct vs eager, backward correct (every parameter's .grad after a weighted-sum loss), graphs,
breaks, ops per graph, cold first-call time (tracing + compiling + running) and warm call time (median;
the engine's and torch.compile's warm calls alternate, so that both see the same machine load), and the
ratios engine/torch. Both compilers get the same backend, wrapped to count graphs and their ops.

Run: python benchmarks/models.py [--backend eager|aot_eager|inductor] [--scale N] [--warm N] [MODEL ...]
Goals (backend eager): correct on all; engine graphs <= torch.compile's on every model; cold ratio <= 0.5;
warm ratio <= 1.1. Timings on a shared 2-core machine are noisy: read the ratios, not the milliseconds.
"""

from __future__ import annotations

import argparse
import contextlib
import io
import math
import statistics
import sys
import time
from pathlib import Path

import torch
import torch._dynamo
from torch._dynamo.utils import counters

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

import engine  # noqa: E402
from tests.engine.models import MODELS, ModelCase, loss_of  # noqa: E402


class Counting:
    """A backend that records each graph's op count and hands the graph to the real backend."""

    def __init__(self, backend: str) -> None:
        self.inner = torch._dynamo.lookup_backend(backend)
        self.ops: list[int] = []

    def __call__(self, gm: torch.fx.GraphModule, example_inputs: list) -> object:
        self.ops.append(sum(n.op in ("call_function", "call_method", "call_module") for n in gm.graph.nodes))
        return self.inner(gm, example_inputs)


def _close(a: torch.Tensor | None, b: torch.Tensor | None, tol: float) -> bool:
    if a is None or b is None:
        return a is None and b is None
    return a.shape == b.shape and torch.allclose(a, b, rtol=tol, atol=tol)


def run_one(case: ModelCase, which: str, backend: str, scale: int) -> dict:
    ref, args = case.make(scale)
    model, _ = case.make(scale)
    counting = Counting(backend)
    if which == "engine":
        compiled = engine.compile(model, backend=counting)
    else:
        torch._dynamo.reset()
        counters.clear()
        torch._dynamo.config.nested_graph_breaks = True
        compiled = torch.compile(model, backend=counting)
    tol = 1e-5 if backend == "eager" else 1e-4
    with contextlib.redirect_stdout(io.StringIO()):
        t0 = time.perf_counter()
        out = compiled(*args)
        cold = time.perf_counter() - t0
        expected = ref(*args)
        loss_of(out).backward()
        loss_of(expected).backward()
        if which == "engine":  # what the first call compiled (warm calls must add nothing)
            graphs, breaks = compiled.stats()["graphs"], compiled.stats()["breaks"]
        else:
            graphs, breaks = len(counting.ops), sum(counters["graph_break"].values())
        ops = list(counting.ops)
        for _ in range(3):  # warm calls must compile nothing new
            compiled(*args)
    fwd_ok = _close(out.detach(), expected.detach(), tol)
    grad_ok = all(_close(p.grad, q.grad, tol * 10) for p, q in zip(model.parameters(), ref.parameters()))
    return {"fwd": fwd_ok, "grad": grad_ok, "graphs": graphs, "breaks": breaks, "ops": ops,
            "recompiled": len(counting.ops) > len(ops), "cold": cold, "call": lambda: compiled(*args)}


def time_warm(results: list[dict], warm_calls: int) -> None:
    """Each result's median warm call time ("warm"), the compilers' calls interleaved (engine, torch,
    engine, ...) so that both see the same load of a shared machine."""
    times = [[] for _ in results]
    with contextlib.redirect_stdout(io.StringIO()):
        for _ in range(warm_calls):
            for r, ts in zip(results, times):
                t0 = time.perf_counter()
                r["call"]()
                ts.append(time.perf_counter() - t0)
    for r, ts in zip(results, times):
        r["warm"] = statistics.median(ts)


def _ops(ops: list[int]) -> str:
    return "/".join(map(str, ops[:4])) + ("/..." if len(ops) > 4 else "") if ops else "-"


def main(argv: list[str]) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("models", nargs="*", help="model names (default: all)")
    ap.add_argument("--backend", default="eager", choices=("eager", "aot_eager", "inductor"))
    ap.add_argument("--scale", type=int, default=1, help="width multiplier of the models")
    ap.add_argument("--warm", type=int, default=200, help="warm calls timed per model and compiler")
    ns = ap.parse_args(argv)
    torch.set_num_threads(1)  # on a shared machine, intra-op thread hand-offs dominate tiny models' timings
    cases = [m for m in MODELS if not ns.models or m.name in ns.models]
    unknown = set(ns.models) - {m.name for m in MODELS}
    if unknown:
        print(f"unknown model(s): {', '.join(sorted(unknown))}; known: {', '.join(m.name for m in MODELS)}")
        return 2
    head = (f"{'model':14} | {'correct e/t':11} | {'graphs e/t':10} | {'breaks e/t':10} | {'ops/graph e':12} "
            f"{'ops/graph t':12} | {'cold e':>8} {'cold t':>8} {'ratio':>5} | {'warm e':>8} {'warm t':>8} "
            f"{'ratio':>5}")
    print(f"backend {ns.backend}, scale {ns.scale}, torch {torch.__version__}, nested_graph_breaks on")
    print(head)
    print("-" * len(head))
    rows = []
    for case in cases:
        e = run_one(case, "engine", ns.backend, ns.scale)
        t = run_one(case, "torch", ns.backend, ns.scale)
        time_warm([e, t], ns.warm)
        rows.append((case, e, t))

        def ok(r: dict) -> str:
            return "ok" if r["fwd"] and r["grad"] else ("FWD" if not r["fwd"] else "GRAD")

        print(f"{case.name:14} | {ok(e):>5}/{ok(t):<5} | {e['graphs']:>4}/{t['graphs']:<5} | "
              f"{e['breaks']:>4}/{t['breaks']:<5} | {_ops(e['ops']):12} {_ops(t['ops']):12} | "
              f"{e['cold'] * 1e3:>6.0f}ms {t['cold'] * 1e3:>6.0f}ms {e['cold'] / t['cold']:>5.2f} | "
              f"{e['warm'] * 1e3:>6.3f}ms {t['warm'] * 1e3:>6.3f}ms {e['warm'] / t['warm']:>5.2f}", flush=True)
    correct = sum(e["fwd"] and e["grad"] for _, e, _ in rows)
    fewer = sum(e["graphs"] <= t["graphs"] for _, e, t in rows)
    cold = [e["cold"] / t["cold"] for _, e, t in rows]
    warm = [e["warm"] / t["warm"] for _, e, t in rows]
    gm = lambda xs: math.exp(statistics.fmean(math.log(x) for x in xs))  # noqa: E731
    print(f"engine correct: {correct}/{len(rows)}; graphs <= torch.compile's: {fewer}/{len(rows)}")
    print(f"cold ratio: geomean {gm(cold):.2f}, max {max(cold):.2f}, <= 0.5 on {sum(c <= 0.5 for c in cold)}"
          f"/{len(rows)}; warm ratio: geomean {gm(warm):.2f}, max {max(warm):.2f}, <= 1.1 on "
          f"{sum(w <= 1.1 for w in warm)}/{len(rows)}")
    return 0 if correct == len(rows) else 1


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
