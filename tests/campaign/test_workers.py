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
