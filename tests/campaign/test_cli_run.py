"""`ngb-fuzz run` as a user runs it: usage errors exit 2 in one line before any program runs; any stop signal
writes the summary and exits 128+signum; no worker outlives the campaign, however it is killed."""

import json
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from fuzz.cli import main
from oracle._runner import worker_pids

NGB = [sys.executable, "-m", "fuzz.cli"]


@pytest.mark.parametrize("args, message", [
    (["--target", "torch:backend=tvm"], "bad value 'tvm' for torch:backend"),
    (["--budget", "ten"], "bad budget 'ten'"),
    (["--budget", "0s"], "budget '0s' must be more than 0"),
    (["--workers", "0"], "--workers must be at least 1"),
    (["--workers", "1000"], "--workers 1000 is more than this machine runs side by side"),
    (["--timeout", "0"], "--timeout 0.0 must be a finite number of seconds > 0"),
    (["--timeout", "-1"], "--timeout -1.0 must be a finite number of seconds > 0"),
    (["--timeout", "nan"], "--timeout nan must be a finite number of seconds > 0"),
    (["--reduce-budget", "0.0m"], "--reduce-budget '0.0m' must be more than 0"),
    (["--recycle-after", "0"], "--recycle-after must be at least 1"),
    (["--out", ""], "--out is empty"),
    (["--out", "{file}"], "is not a directory; --out needs a directory"),
    (["--out", "{file}/sub"], "cannot create"),
])
def test_usage_errors_are_one_line_and_exit_2_before_any_program_runs(args, message, tmp_path, capsys,
                                                                      monkeypatch):
    monkeypatch.chdir(tmp_path)  # an empty --out must not become the current directory
    (tmp_path / "file").write_text("x")
    args = [a.replace("{file}", str(tmp_path / "file")) for a in args]
    assert main(["run", "--budget", "1", *args]) == 2
    err = capsys.readouterr().err
    assert message in err and len(err.strip().splitlines()) == 1, err
    assert sorted(p.name for p in tmp_path.iterdir()) == ["file"]  # nothing written anywhere


def test_an_unwritable_out_directory_is_refused_before_any_program_runs(tmp_path, capsys):
    if os.geteuid() == 0:
        target = "/proc/ngb-fuzz-cannot-be-here"  # root writes anywhere a permission would stop a user
    else:
        (tmp_path / "ro").mkdir(mode=0o500)
        target = str(tmp_path / "ro" / "out")
    assert main(["run", "--budget", "1", "--out", target]) == 2
    assert "cannot create" in capsys.readouterr().err


def test_too_many_workers_pass_with_the_explicit_override(tmp_path, monkeypatch):
    from fuzz.cli import _common

    assert _common.check_workers(1000, oversubscribe=True) == 1000
    monkeypatch.setattr(_common, "machine_workers", lambda: (4, 4, 4000))
    assert _common.check_workers(4) == 4


def _start_hanging_campaign(tmp_path):
    """A campaign whose every target run hangs (fault:hang), with a long timeout: its worker is stuck in the
    program when the campaign is stopped."""
    out = tmp_path / "run"
    log = (tmp_path / "stderr.txt").open("w")  # a file, not a pipe nobody reads while we wait
    proc = subprocess.Popen(NGB + ["run", "--target", "fault:hang", "--budget", "10m", "--workers", "1",
                                   "--timeout", "600", "--reduce-budget", "0", "--out", str(out)],
                            stdout=subprocess.PIPE, stderr=log, text=True)
    workers = []
    for _ in range(600):
        workers = worker_pids(proc.pid)
        if workers or proc.poll() is not None:
            break
        time.sleep(0.5)
    assert workers, "no worker started"
    time.sleep(5)  # eager twice, then the target run, which hangs
    return proc, out, workers


def _alive(pid: int) -> bool:
    try:
        return Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0] != "Z"
    except OSError:
        return False


def _gone(pids: list[int]) -> bool:
    for _ in range(120):  # generous: a loaded machine may take a while to reap
        if not any(_alive(p) for p in pids):
            return True
        time.sleep(0.5)
    return False


@pytest.mark.slow
@pytest.mark.parametrize("signum", [signal.SIGTERM, signal.SIGHUP])
def test_sigterm_and_sighup_stop_like_ctrl_c_and_leave_no_worker(tmp_path, signum):
    proc, out, workers = _start_hanging_campaign(tmp_path)
    proc.send_signal(signum)
    stdout, _ = proc.communicate(timeout=300)
    assert proc.returncode == 128 + signum, (tmp_path / "stderr.txt").read_text()
    assert f"stopped by {signal.Signals(signum).name}:" in stdout
    summary = json.loads((out / "summary.json").read_text())
    assert summary["targets"] == ["fault:hang"] and "memory" in summary
    assert _gone(workers), "a worker outlived the campaign"
    assert "Traceback" not in (tmp_path / "stderr.txt").read_text()


@pytest.mark.slow
def test_sigkill_of_the_campaign_kills_its_worker_stuck_in_a_hanging_program(tmp_path):
    proc, out, workers = _start_hanging_campaign(tmp_path)
    proc.kill()
    proc.wait()
    assert _gone(workers), "a worker was orphaned"


def test_ctrl_c_stops_cleanly_and_writes_the_summary(tmp_path):
    out = tmp_path / "run"
    log = (tmp_path / "stderr.txt").open("w")
    proc = subprocess.Popen(NGB + ["run", "--target", "torch", "--budget", "10m", "--workers", "1",
                                   "--out", str(out)], stdout=subprocess.PIPE, stderr=log, text=True)
    journal = out / "journal.jsonl"
    for _ in range(600):  # until one program is recorded
        if journal.exists() and journal.read_text().count("\n") >= 1 or proc.poll() is not None:
            break
        time.sleep(0.5)
    proc.send_signal(signal.SIGINT)
    stdout, _ = proc.communicate(timeout=300)
    log.close()
    stderr = (tmp_path / "stderr.txt").read_text()
    assert proc.returncode == 130, stderr
    summary = json.loads((out / "summary.json").read_text())
    assert summary["programs"] >= 1
    assert "stopped by SIGINT:" in stdout


def test_a_campaign_avoids_only_the_corpus_bugs_its_targets_can_show(tmp_path):
    """`run` with a corpus asks each entry's ``requires`` of its targets: a bug of another torch is not avoided."""
    from tests.campaign.test_avoid import corpus_with_requires

    corpus, _ = corpus_with_requires(tmp_path, "torch<1.0")  # no torch this test runs on
    out = tmp_path / "run"
    assert main(["run", "--target", "engine", "--budget", "1", "--workers", "1", "--reduce-budget", "0",
                 "--corpus", str(corpus), "--out", str(out)]) == 0
    assert json.loads((out / "summary.json").read_text())["avoid"]["known_bugs"] == 1
