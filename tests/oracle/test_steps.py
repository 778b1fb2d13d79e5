"""Counting the bytecode instructions Dynamo traces in a run, and stopping a run past a count of them."""

from __future__ import annotations

import time
from pathlib import Path

import oracle
from oracle import ProgramFile

# Dynamo never returns from compiling this with nested graph breaks on (a loop in its unpacking of a user
# iterator whose __next__ breaks); with them off it traces about a hundred instructions.
LOOPS = ProgramFile.parse(
    (Path(__file__).parents[2] / "corpus" / "torch-ngb-list-user-iterator-item-break-in-next-hang.py").read_text()).code

PLAIN = """import torch


def entry(x):
    y = x * 2
    for k in range(3):
        y = y + k
    return y.sum()


def make_inputs(device):
    return (torch.arange(4.0, device=device),)
"""


def test_a_run_asked_to_count_reports_what_dynamo_traced_and_one_not_asked_reports_nothing():
    with oracle.Runner(workers=1, timeout=60.0) as runner:
        counted = runner.run(PLAIN, "torch", 1, steps=0)
        again = runner.run(PLAIN, "torch", 2, steps=0)
        plain = runner.run(PLAIN, "torch", 1)
        eager = runner.run(PLAIN, "eager", 1, steps=0)
    assert counted["calls"][0]["exception"] is None and 5 < counted["steps"] < 1000, counted.get("steps")
    assert again["steps"] == counted["steps"]  # a second call hits the cache: nothing more traced
    assert "steps" not in plain and plain["calls"][0]["value"] == counted["calls"][0]["value"]
    assert eager["steps"] == 0  # nothing compiled


def test_a_run_past_its_count_stops_in_seconds_and_its_worker_serves_the_next_run():
    with oracle.Runner(workers=1, timeout=60.0) as runner:
        off = runner.run(LOOPS, "torch:ngb=off", 1, steps=0)
        started = time.monotonic()
        over = runner.run(LOOPS, "torch", 1, timeout=50.0, steps=20_000)
        took = time.monotonic() - started
        after = runner.run(PLAIN, "torch", 1, steps=0)
        started_workers = sum(pool.started for pool in runner._pools.values())
    assert off["calls"][0]["exception"] is None and 0 < off["steps"] < 1000
    assert over.get("steps_over", 0) > 20_000 and "calls" not in over and "hang" not in over, over
    assert took < 40.0  # stopped at its count, not at its timeout
    assert after["calls"][0]["exception"] is None and after["calls"][0]["value"] is not None
    assert over["clean"] and after["steps"] > 0 and started_workers == 1  # one worker, still trusted


def test_a_run_reports_its_cpu_seconds_and_one_past_its_cpu_limit_stops_there_not_at_its_timeout():
    # what a compile costs in CPU seconds does not grow with what else runs on the cores, as its seconds do
    with oracle.Runner(workers=1, timeout=60.0) as runner:
        plain = runner.run(PLAIN, "torch", 1)
        started = time.monotonic()
        over = runner.run(LOOPS, "torch", 1, timeout=50.0, cpu=2.0)
        took = time.monotonic() - started
        after = runner.run(PLAIN, "torch", 1, cpu=30.0)
        started_workers = sum(pool.started for pool in runner._pools.values())
    assert 0 < plain["cpu"] < plain["seconds"] + 0.5, plain
    assert 2.0 < over.get("cpu_over", 0) < 10.0 and "calls" not in over and "hang" not in over, over
    assert took < 40.0  # stopped past its CPU seconds, not at its timeout
    assert after["calls"][0]["exception"] is None and after["cpu"] < 30.0 and "cpu_over" not in after
    assert over["clean"] and started_workers == 1  # stopped where Dynamo steps: the worker is still trusted
