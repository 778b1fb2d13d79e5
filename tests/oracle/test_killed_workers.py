"""A worker killed from outside (the OOM killer, a user's kill -9) is no finding and loses no program: the run it
was in is re-run once in a fresh worker, a dead idle worker is never handed out, and one killed while it starts is
started again. A program that kills its worker again on the re-run is a crash of the target,
``crash:died:<SIGNAL>`` (docs/oracle.md)."""

import os
import signal
import stat
import sys

import oracle
from oracle._runner import worker_pids
from tests.conftest import program_source

GOOD = program_source("seed_chain.py")


def _dies_on_run(counter, runs: tuple[int, ...]) -> str:
    """GOOD, whose worker is SIGKILLed while it loads the program for the given runs (1-based, counted in a file):
    as a kill from outside would, in the middle of a run."""
    snippet = (f"import os as _os\nwith open({str(counter)!r}, 'a') as _f:\n    _f.write('x')\n"
               f"if _os.path.getsize({str(counter)!r}) in {runs!r}:\n    _os.kill(_os.getpid(), 9)\n")
    return GOOD.replace("import types\n", "import types\n" + snippet, 1)


def test_a_target_run_whose_worker_is_killed_once_is_run_again_and_is_no_finding(tmp_path):
    # runs 1 and 2 are eager (the reference and its repeat), 3 the target: killed once, then run again
    with oracle.Runner(workers=1, timeout=60) as runner:
        report = runner.check(_dies_on_run(tmp_path / "n", (3,)), ["torch"])
    assert {t: v.signature for t, v in report.verdicts.items()} == {"torch": "ok"}
    assert (tmp_path / "n").stat().st_size == 4


def test_an_eager_run_whose_worker_is_killed_once_is_run_again(tmp_path):
    with oracle.Runner(workers=1, timeout=60) as runner:
        report = runner.check(_dies_on_run(tmp_path / "n", (1,)), ["torch"])
    assert {t: v.signature for t, v in report.verdicts.items()} == {"torch": "ok"}


def test_a_target_that_kills_its_worker_again_is_a_crash_with_a_stable_signature(tmp_path):
    with oracle.Runner(workers=1, timeout=60) as runner:
        report = runner.check(_dies_on_run(tmp_path / "n", (3, 4)), ["torch"])
    assert {t: v.signature for t, v in report.verdicts.items()} == {"torch": "crash:died:SIGKILL"}


def test_a_worker_killed_while_idle_is_never_handed_out():
    with oracle.Runner(workers=1, timeout=60) as runner:
        runner.warm_up()
        for pid in worker_pids(os.getpid()):
            os.kill(pid, signal.SIGKILL)
        report = runner.check(GOOD, ["torch"])
    assert {t: v.signature for t, v in report.verdicts.items()} == {"torch": "ok"}


def test_a_worker_killed_while_it_starts_is_started_again(tmp_path):
    marker = tmp_path / "killed-once"
    python = tmp_path / "python"
    python.write_text(f"#!/bin/sh\nif [ ! -e {marker} ]; then touch {marker}; kill -9 $$; fi\n"
                      f"exec {sys.executable} \"$@\"\n")
    python.chmod(python.stat().st_mode | stat.S_IEXEC)
    spec = oracle.parse_target(f"torch:python={python}").spec
    with oracle.Runner(workers=1, timeout=60) as runner:
        report = runner.check(GOOD, [spec])
    assert marker.exists() and {t: v.signature for t, v in report.verdicts.items()} == {spec: "ok"}
