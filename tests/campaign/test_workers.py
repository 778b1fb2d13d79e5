"""Workers over a long campaign: recycled after a number of runs or past a memory bound, memory reported."""

import oracle
from tests.conftest import program_source

SEED_CHAIN = program_source("seed_chain.py")


def test_workers_are_recycled_after_n_runs_and_past_a_memory_bound():
    with oracle.Runner(workers=1, timeout=120, recycle_after=4) as runner:
        runner.check(SEED_CHAIN, ["eager"])  # eager twice + the target: 3 runs
        first = runner.memory()
        assert first["recycled"] == 0 and len(first["rss_mb"]) == 1 and first["rss_mb"][0] > 50
        [pid] = [w.proc.pid for w in runner._pools[None].all]
        runner.check(SEED_CHAIN, ["eager"])  # its 4th run retires it; the 5th and 6th go to a fresh one
        after = runner.memory()
        assert after["recycled"] == 1 and after["peak_rss_mb"] >= first["rss_mb"][0]
        assert [w.proc.pid for w in runner._pools[None].all] != [pid]
        # the replacement is reported under the name of the worker it replaced: one line per slot in the report
        assert list(first["workers"]) == list(after["workers"]) == ["worker 1"]
    with oracle.Runner(workers=1, timeout=120, recycle_after=None, max_rss_mb=1.0) as runner:
        runner.check(SEED_CHAIN, ["eager"])
        assert runner.memory()["recycled"] == 3  # every worker is past 1 MB: each run gets a fresh one


HOLDS_MEMORY = '''
import time

import torch


def entry():
    block = bytearray(400 * 2**20)  # freed (unmapped) when entry returns
    for i in range(0, len(block), 4096):
        block[i] = 1
    time.sleep(4)
    return torch.ones(1)
'''


def test_the_peak_counts_a_live_worker_whose_memory_fell_back():
    """A compile's memory is given back when it ends, and the worker lives on: the peak a summary reports is the
    most it held (a 2.10 campaign's live view showed 2.8 GB a worker; its summary said 'peak 1213 MB')."""
    import threading
    import time

    with oracle.Runner(workers=1, timeout=120) as runner:
        runner.run(HOLDS_MEMORY, "eager", 1)  # start the worker and import torch first
        seen: list[float] = []
        run = threading.Thread(target=runner.run, args=(HOLDS_MEMORY, "eager", 1))
        run.start()
        while run.is_alive():
            seen += runner.memory()["rss_mb"]
            time.sleep(0.5)
        run.join()
        now = runner.memory()
        assert max(seen) > now["rss_mb"][0] + 200  # it held the block, then gave it back, and still lives
        assert now["peak_rss_mb"] >= max(seen)
