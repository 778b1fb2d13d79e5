"""Campaign throughput: `ngb-fuzz run` against a bare loop calling torch.compile on the same programs.

The bare loop does the least work that can still give a verdict, in one process: for each program, run it
eagerly twice (two fresh modules, two calls each) and compiled once (torch._dynamo.reset(), two calls). The
campaign does the same plus everything that makes it a tool: worker processes, observation, comparison,
buckets, state on disk. Prints programs/s for the bare loop, the campaign with 1 and 2 workers, the harness
overhead (share of the 1-worker campaign's wall time not spent in the bare loop's work) and the 2-worker speedup.

    python benchmarks/throughput.py [--programs 60] [--target torch]
"""

from __future__ import annotations

import argparse
import os
import tempfile
import time
import types
from pathlib import Path

import torch

import oracle
from fuzz.campaign import Campaign, CampaignConfig
from fuzz.generate import generate_program


def bare_loop(sources: list[str], backend: str) -> float:
    torch._dynamo.config.nested_graph_breaks = True
    started = time.perf_counter()
    for source in sources:
        code = compile(source, "ngb_program.py", "exec")
        for compiled in (False, False, True):
            module = types.ModuleType("ngb_program")
            exec(code, module.__dict__)
            fn = module.entry
            if compiled:
                torch._dynamo.reset()
                fn = torch.compile(fn, backend=backend)
            for _ in range(2):
                try:
                    fn(*module.make_inputs("cpu"))
                except Exception:  # noqa: BLE001 - a raising program costs what it costs
                    pass
    return time.perf_counter() - started


def campaign(programs: int, workers: int, target: str, seed: int) -> float:
    with oracle.Runner(workers=workers, timeout=120) as runner:
        for _ in range(workers):  # start-up (torch import) is paid once per campaign, not per program
            runner.warm_up()
        with tempfile.TemporaryDirectory() as out:
            config = CampaignConfig((target,), Path(out), programs=programs, workers=workers, seed=seed)
            started = time.perf_counter()
            Campaign(config, runner).run()
            return time.perf_counter() - started


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--programs", type=int, default=60)
    parser.add_argument("--target", default="torch")
    parser.add_argument("--seed", type=int, default=11)
    args = parser.parse_args()
    backend = dict(oracle.parse_target(args.target).options).get("backend", "eager")
    sources = [generate_program(args.seed, i).source for i in range(args.programs)]
    bare = bare_loop(sources, backend)
    one = campaign(args.programs, 1, args.target, args.seed)
    two = campaign(args.programs, 2, args.target, args.seed)
    n = args.programs
    print(f"programs: {n}  target: {args.target}  cores: {os.cpu_count()}  torch {torch.__version__}")
    print(f"{'run':28} {'seconds':>8} {'programs/s':>11}")
    for name, seconds in (("bare torch.compile loop", bare), ("ngb-fuzz run, 1 worker", one),
                          ("ngb-fuzz run, 2 workers", two)):
        print(f"{name:28} {seconds:8.2f} {n / seconds:11.2f}")
    print(f"harness overhead (1 worker): {max(0.0, 1 - bare / one):.1%} of wall time (goal <= 10%)")
    print(f"2 workers vs 1: {one / two:.2f}x (goal >= 1.6x)")


if __name__ == "__main__":
    main()
