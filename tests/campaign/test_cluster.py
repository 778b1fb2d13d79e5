"""Campaigns on a Dask cluster (a LocalCluster on 127.0.0.1): the same buckets as a local campaign, nothing lost
or counted twice when a Dask worker dies, a clean stop (and a resume) when the scheduler goes away."""

import os
import signal
import subprocess
import sys
import threading

import pytest

from fuzz.campaign.loop import Campaign, CampaignConfig

pytest.importorskip("distributed")

from fuzz.campaign.cluster import ClusterLost, connect  # noqa: E402

# a campaign and a Dask cluster in module fixtures: every test of it on one xdist worker (``--dist loadgroup``)
pytestmark = pytest.mark.xdist_group("cluster")

TARGETS = ("fault:perturb",)
PROGRAMS = 6
SEED = 1
TIMEOUT = 300.0  # generous: a 'hang' from a loaded machine would change the buckets


def config(out, programs=PROGRAMS, workers=2):
    return CampaignConfig(TARGETS, out, programs=programs, workers=workers, seed=SEED, timeout=TIMEOUT)


def buckets(summary):
    # not the first program: with 2 workers, which of two programs with one signature is recorded first is timing
    return sorted((b["target"], b["signature"], b["count"]) for b in summary["buckets"])


@pytest.fixture(scope="module")
def runner():
    """This module's own (conftest's has a 30 s timeout): a resumed campaign checks here, and a slow, loaded
    machine must not turn a program into a 'hang' that the reference run did not have."""
    import oracle

    with oracle.Runner(workers=2, timeout=TIMEOUT) as r:
        yield r


@pytest.fixture(scope="module")
def local(tmp_path_factory, runner):
    summary = Campaign(config(tmp_path_factory.mktemp("local")), runner).run()
    assert summary["programs"] == PROGRAMS and summary["buckets"]  # fault:perturb must give findings to compare
    return summary


@pytest.fixture(scope="module")
def cluster():
    dispatcher = connect("local:2", timeout=TIMEOUT)
    assert dispatcher.slots == 2
    yield dispatcher
    dispatcher.close()


def consistent(summary, out):
    """Every program recorded once (all of 0..N-1 once the budget is spent), one verdict per program and target."""
    import json

    from fuzz.campaign.directory import IndexSet

    completed = list(IndexSet.from_json(json.loads((out / "state.json").read_text())["completed"]))
    assert len(completed) == len(set(completed)) == summary["programs"]
    assert set(completed) <= set(range(PROGRAMS))
    assert sum(summary["verdicts"].values()) == summary["programs"] * len(TARGETS)


def test_cluster_campaign_gives_the_same_buckets_as_a_local_one(local, cluster, runner, tmp_path):
    summary = Campaign(config(tmp_path, workers=cluster.slots), runner, check=cluster.check,
                       memory=cluster.memory).run()
    assert summary["verdicts"] == local["verdicts"]
    assert buckets(summary) == buckets(local)
    consistent(summary, tmp_path)
    # memory per worker comes from the Dask workers' own ngb-fuzz worker processes, one named line each
    workers = summary["memory"]["workers"]
    assert len(workers) == 2 and all(name.startswith("127.0.0.1:") for name in workers), workers
    assert all(mb > 50 for mb in workers.values()) and summary["memory"]["peak_rss_mb"] >= max(workers.values())


def test_a_killed_dask_worker_loses_no_program_and_counts_none_twice(local, cluster, runner, tmp_path):
    before = cluster.client.run(os.getpid)  # {worker address: pid}
    victim = sorted(before.values())[0]
    killed = threading.Event()

    def kill_once(campaign):  # mid-campaign: some programs recorded, both workers busy with the next ones
        if campaign.programs >= 2 and not killed.is_set():
            killed.set()
            os.kill(victim, signal.SIGKILL)

    summary = Campaign(config(tmp_path, workers=cluster.slots), runner, check=cluster.check,
                       on_progress=kill_once).run()
    assert killed.is_set()
    cluster.client.wait_for_workers(2, timeout=120)
    assert victim not in cluster.client.run(os.getpid).values()  # the nanny started a new worker process
    assert summary["programs"] == PROGRAMS
    assert summary["verdicts"] == local["verdicts"]
    assert buckets(summary) == buckets(local)  # every finding kept, none counted twice
    consistent(summary, tmp_path)


def test_a_lost_scheduler_stops_the_campaign_with_its_state_written_and_it_resumes(local, cluster, runner,
                                                                                    tmp_path):
    def shut_down(campaign):
        if campaign.programs >= 2 and cluster.client.status == "running":
            cluster.client.shutdown()  # scheduler and workers go away

    campaign = Campaign(config(tmp_path, workers=cluster.slots), runner, check=cluster.check,
                        on_progress=shut_down)
    with pytest.raises(ClusterLost):
        campaign.run()
    stopped = campaign.summary()
    assert 2 <= stopped["programs"] < PROGRAMS
    consistent(stopped, tmp_path)
    assert (tmp_path / "summary.json").exists()
    # Resumed here, without the cluster: the programs in flight when it went away are run again, once.
    resumed = Campaign(config(tmp_path), runner).run()
    assert resumed["verdicts"] == local["verdicts"]
    assert buckets(resumed) == buckets(local)
    consistent(resumed, tmp_path)


@pytest.mark.parametrize("address, message", [
    ("tcp://127.0.0.1:9", "cannot reach the Dask scheduler at tcp://127.0.0.1:9"),
    ("local:zero", "bad cluster 'local:zero'"),
    ("127.0.0.1:8786", "bad cluster '127.0.0.1:8786'"),
])
def test_a_bad_or_unreachable_cluster_is_one_line_and_exit_2(address, message, tmp_path):
    proc = subprocess.run([sys.executable, "-m", "fuzz.cli", "run", "--target", "fault:perturb", "--cluster",
                           address, "--out", str(tmp_path / "run")], capture_output=True, text=True, timeout=120)
    assert proc.returncode == 2, proc.stderr
    assert message in proc.stderr and len(proc.stderr.strip().splitlines()) == 1, proc.stderr


def test_current_slots_follows_the_worker_threads_of_the_cluster():
    from fuzz.campaign.cluster import Dispatcher

    class Client:
        threads = {"tcp://a": 1}

        def nthreads(self):
            return dict(self.threads)

    dispatcher = Dispatcher(None, None, slots=1, client=Client())
    assert dispatcher.current_slots() == 1
    Client.threads = {"tcp://a": 1, "tcp://b": 2}
    assert dispatcher.current_slots() == 1  # asked of the scheduler at most every 10 s
    dispatcher._slots_asked = 0.0
    assert dispatcher.current_slots() == 3
    assert Dispatcher(None, None, slots=2).current_slots() == 2  # locally: fixed
