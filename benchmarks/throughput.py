"""Campaign throughput: `ngb-fuzz run` against a bare loop calling torch.compile on the same programs.

The bare loop does the least work that can still give a verdict, in one process: for each program, run it
eagerly twice (two fresh modules, two calls each) and compiled once (torch._dynamo.reset(), two calls), each
module loaded as every program must be (its helper modules in ``sys.modules``, as the program's own footer does:
without that torch.compile crashes early on a third of the programs and the loop does far less work). The
campaign does the same plus everything that makes it a tool: worker processes, observation, comparison,
buckets, state on disk. Prints programs/s for the bare loop, the campaign with 1 and 2 workers, the harness
overhead (share of the 1-worker campaign's wall time not spent in the bare loop's work) and the 2-worker speedup.

With ``--cluster`` it also starts a Dask scheduler and 2 ``dask worker`` processes (separate processes on
127.0.0.1, as on other machines) and runs the campaign through them with 1 and 2 programs in flight.

    python benchmarks/throughput.py [--programs 60] [--target torch] [--cluster]
"""

from __future__ import annotations

import argparse
import contextlib
import os
import socket
import subprocess
import sys
import tempfile
import time
from collections.abc import Iterator
from pathlib import Path

import torch

import oracle
from fuzz.campaign.loop import Campaign, CampaignConfig
from fuzz.program.generate import generate_program
from oracle._worker import load_program, registered


def bare_loop(sources: list[str], backend: str) -> float:
    torch._dynamo.config.nested_graph_breaks = True
    started = time.perf_counter()
    for source in sources:
        for compiled in (False, False, True):
            module = load_program(source)
            with registered(module):
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


def campaign(programs: int, workers: int, target: str, seed: int, check=None) -> float:
    with oracle.Runner(workers=workers, timeout=120) as runner:
        if check is None:  # start-up (torch import) is paid once per campaign, not per program
            runner.warm_up(count=workers)
        with tempfile.TemporaryDirectory() as out:
            config = CampaignConfig((target,), Path(out), programs=programs, workers=workers, seed=seed)
            started = time.perf_counter()
            Campaign(config, runner, check=check).run()
            return time.perf_counter() - started


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


@contextlib.contextmanager
def dask_cluster(workers: int):
    """A `dask scheduler` and ``workers`` single-threaded `dask worker` processes on 127.0.0.1, started as a user
    starts them on other machines (docs/cluster.md); yields the scheduler's address."""
    dask = [sys.executable, "-m", "distributed.cli.dask_scheduler"]
    address = f"tcp://127.0.0.1:{_free_port()}"
    port = address.rsplit(":", 1)[1]
    procs = [subprocess.Popen(dask + ["--host", "127.0.0.1", "--port", port, "--no-dashboard"],
                              stderr=subprocess.DEVNULL)]
    try:
        for _ in range(workers):
            procs.append(subprocess.Popen(
                [sys.executable, "-m", "distributed.cli.dask_worker", address, "--nthreads", "1",
                 "--no-dashboard", "--memory-limit", "0"], stderr=subprocess.DEVNULL))
        yield address
    finally:
        for proc in reversed(procs):
            proc.terminate()
        for proc in procs:
            try:
                proc.wait(timeout=30)
            except subprocess.TimeoutExpired:
                proc.kill()


def cluster_rows(programs: int, target: str, seed: int) -> Iterator[tuple[str, float]]:
    from fuzz.campaign.cluster import connect, warm_up

    with dask_cluster(2) as address:
        time.sleep(3)  # the scheduler listens before the driver connects
        dispatcher = connect(address, timeout=120, connect_timeout=60)
        try:
            dispatcher.client.wait_for_workers(2, timeout=120)
            dispatcher.client.run(warm_up, 120.0)  # torch imported in each worker's runner before timing
            for n in (1, 2):
                yield f"dask: scheduler + 2 workers, {n} in flight", campaign(programs, n, target, seed,
                                                                              check=dispatcher.check)
        finally:
            dispatcher.close()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--programs", type=int, default=60)
    parser.add_argument("--target", default="torch")
    parser.add_argument("--seed", type=int, default=11)
    parser.add_argument("--cluster", action="store_true",
                        help="also run through a Dask scheduler and 2 `dask worker` processes on 127.0.0.1")
    args = parser.parse_args()
    backend = dict(oracle.parse_target(args.target).options).get("backend", "eager")
    sources = [generate_program(args.seed, i).source for i in range(args.programs)]
    n = args.programs
    print(f"programs: {n}  target: {args.target}  cores: {os.cpu_count()}  torch {torch.__version__}", flush=True)
    print(f"{'run':40} {'seconds':>8} {'programs/s':>11}", flush=True)

    def row(name: str, seconds: float) -> float:  # printed as it comes: a long run shows what it has so far
        print(f"{name:40} {seconds:8.2f} {n / seconds:11.2f}", flush=True)
        return seconds

    bare = row("bare torch.compile loop", bare_loop(sources, backend))
    one = row("ngb-fuzz run, 1 worker", campaign(n, 1, args.target, args.seed))
    two = row("ngb-fuzz run, 2 workers", campaign(n, 2, args.target, args.seed))
    print(f"harness overhead (1 worker): {max(0.0, 1 - bare / one):.1%} of wall time (goal <= 10%)")
    print(f"2 workers vs 1: {one / two:.2f}x (goal >= 1.7x)", flush=True)
    if args.cluster:
        c1, c2 = (row(name, seconds) for name, seconds in cluster_rows(n, args.target, args.seed))
        print(f"dask, 1 in flight vs the 1-worker campaign: {max(0.0, 1 - one / c1):.1%} slower")
        print(f"dask, 2 in flight vs 1: {c1 / c2:.2f}x (goal >= 1.7x)")


if __name__ == "__main__":
    main()
