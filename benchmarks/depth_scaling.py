"""Depth scaling: engine vs torch.compile (nested_graph_breaks=True, backend "eager") in one run.

A chain f_{N-1} -> ... -> f_0 with one graph_break() at the bottom. For each N: cold first-call time
(tracing + compiling + running), warm call time (median of many calls), their ratios engine/torch, graphs,
and frames traced. torch.compile fails near N=76 with the default recursion limit; that is reported, not
fatal. Run: python benchmarks/depth_scaling.py [N ...]
"""

from __future__ import annotations

import statistics
import sys
import time

import torch
import torch._dynamo

import engine

WARM_CALLS = 200


def make_chain(n, tag):
    src = ["import torch",
           "def f0(x):\n    x = x + 1\n    torch._dynamo.graph_break()\n    return x * 2"]
    for i in range(1, n):
        src.append(f"def f{i}(x):\n    x = x + 1\n    x = f{i - 1}(x)\n    return x - 1")
    g = {}
    exec(compile("\n".join(src), f"<chain{n}-{tag}>", "exec"), g)
    return g[f"f{n - 1}"]


def measure(compiled, x):
    t0 = time.perf_counter()
    out = compiled(x)
    cold = time.perf_counter() - t0
    warm = []
    for _ in range(WARM_CALLS):
        t0 = time.perf_counter()
        compiled(x)
        warm.append(time.perf_counter() - t0)
    return out, cold, statistics.median(warm)


def run_engine(n, x):
    c = engine.compile(make_chain(n, "engine"), backend="eager")
    out, cold, warm = measure(c, x)
    s = c.stats()
    return out, cold, warm, s["graphs"], s["frames_traced"]


def run_torch(n, x):
    from torch._dynamo.utils import counters

    torch._dynamo.reset()
    counters.clear()
    torch._dynamo.config.nested_graph_breaks = True
    c = torch.compile(make_chain(n, "torch"), backend="eager")
    try:
        out, cold, warm = measure(c, x)
    except Exception as e:  # e.g. RecursionError near N=76
        cause = e.__cause__ or e.__context__
        why = type(cause).__name__ if isinstance(cause, RecursionError) else type(e).__name__
        return None, f"fails: {why}"
    graphs = counters["stats"].get("unique_graphs", "?")
    frames = counters["stats"].get("calls_captured", "?")
    return (out, cold, warm, graphs, frames), None


def main(ns):
    x = torch.randn(8)
    header = (f"{'N':>5} | {'engine cold':>11} {'torch cold':>11} {'ratio':>6} | {'engine warm':>11} "
              f"{'torch warm':>11} {'ratio':>6} | {'graphs e/t':>10} | {'frames e':>8} | result")
    print(header)
    print("-" * len(header))
    for n in ns:
        old = sys.getrecursionlimit()
        sys.setrecursionlimit(max(old, 3 * n + 200))
        try:
            ref = make_chain(n, "eager")(x)
        finally:
            sys.setrecursionlimit(old)
        out, e_cold, e_warm, e_graphs, e_frames = run_engine(n, x)
        ok = torch.equal(out, ref)
        tres, terr = run_torch(n, x)
        if terr:
            print(f"{n:>5} | {e_cold * 1e3:>9.1f}ms {terr:>18} | {e_warm * 1e3:>9.3f}ms {'-':>11} {'-':>6} | "
                  f"{e_graphs:>4}/{'-':<5} | {e_frames:>8} | {'equal' if ok else 'DIFFERS'}")
            continue
        t_out, t_cold, t_warm, t_graphs, _ = tres
        ok = ok and torch.equal(t_out, ref)
        print(f"{n:>5} | {e_cold * 1e3:>9.1f}ms {t_cold * 1e3:>9.1f}ms {e_cold / t_cold:>6.2f} | "
              f"{e_warm * 1e3:>9.3f}ms {t_warm * 1e3:>9.3f}ms {e_warm / t_warm:>6.2f} | "
              f"{e_graphs:>4}/{t_graphs:<5} | {e_frames:>8} | {'equal' if ok else 'DIFFERS'}")
    print("goals: cold ratio <= 0.5, warm ratio <= 1.0, frames traced by the engine = N")


if __name__ == "__main__":
    main([int(a) for a in sys.argv[1:]] or [1, 10, 50, 100])
