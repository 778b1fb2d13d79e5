"""The ``slow`` verdict: a target with nested graph breaks on that takes ten times as long as with them off."""

from __future__ import annotations

import re
import subprocess
import sys

import pytest

import oracle
from oracle import with_footer
from oracle._slow import SLOW_FLOOR_S, SLOW_RATIO, slow_limit, twin, waits_out

# Spends CPU seconds only where nested graph breaks are on: a stand-in for a compile that is slow only with
# them on (the runner patches the flag around the compile and every call, so a run reads it as its target has
# it). ``time.sleep`` instead: a run that only waits, as one does on cores that other processes hold.
SLOW = """# ngb-fuzz program
# target: torch
import time

import torch


@torch._dynamo.disable
def burn(seconds):
    end = time.process_time() + seconds
    while time.process_time() < end:
        pass


def inner(x):
    if torch._dynamo.config.nested_graph_breaks:
        burn(SECONDS)
    torch._dynamo.graph_break()
    return x + 1


def entry(x):
    return inner(x * 2) - 3


def make_inputs(device):
    return (torch.arange(4.0, device=device),)
"""


def _slow(seconds: float, always: bool = False, sleeps: bool = False) -> str:
    source = SLOW.replace("burn(SECONDS)", "time.sleep(SECONDS)" if sleeps else "burn(SECONDS)")
    source = source.replace("SECONDS", str(seconds))
    return source.replace("if torch._dynamo.config.nested_graph_breaks:", "if True:") if always else source


def test_the_twin_is_the_same_target_with_nested_graph_breaks_off():
    assert twin(oracle.parse_target("torch")).spec == "torch:ngb=off"
    assert twin(oracle.parse_target("torch:backend=inductor,dynamic=true")).spec == \
        "torch:backend=inductor,dynamic=true,ngb=off"
    assert twin(oracle.parse_target("fault:slow-ngb")).spec == "fault:slow-ngb,ngb=off"
    for spec in ("torch:ngb=off", "eager", "engine"):
        assert twin(oracle.parse_target(spec)) is None


def test_the_limit_is_ten_times_the_twin_and_the_floor_at_least():
    assert slow_limit(0.2) == SLOW_FLOOR_S
    assert slow_limit(4.0) == SLOW_RATIO * 4.0
    assert slow_limit(0.5, floor_s=2.0, ratio=10.0) == 5.0
    assert waits_out("hang") and waits_out("slow:compile")
    assert not waits_out("crash:died:SIGKILL") and not waits_out("mismatch:value:values")


def test_a_run_slow_only_with_nested_graph_breaks_on_is_slow_and_says_by_how_much():
    # twice the twin here, not ten times: on a loaded machine the twin's compile alone takes up to a second
    with oracle.Runner(workers=1, timeout=30.0, slow_floor_s=1.0, slow_ratio=2.0) as runner:
        report = runner.check(_slow(4), ["torch", "torch:ngb=off"], calls=1)
    slow, off = report.verdicts["torch"], report.verdicts["torch:ngb=off"]
    assert slow.signature == "slow:compile" and slow.is_finding, slow.detail
    assert "with them off (torch:ngb=off) it took" in slow.detail and "times as long" in slow.detail
    assert off.signature == "ok"  # no twin: never timed


def test_a_run_that_only_waits_with_nested_graph_breaks_on_is_no_slow_compile():
    # its seconds on the clock are many times its twin's, as a run's are in a busy moment on shared cores; its
    # CPU seconds, what its compile cost, are not
    with oracle.Runner(workers=1, timeout=30.0, slow_floor_s=1.0, slow_ratio=2.0) as runner:
        verdict = runner.check(_slow(4, sleeps=True), ["torch"], calls=1).verdicts["torch"]
    assert verdict.signature == "ok", verdict.detail


def test_a_run_as_slow_with_nested_graph_breaks_off_is_no_finding():
    with oracle.Runner(workers=1, timeout=30.0, slow_floor_s=1.0) as runner:
        report = runner.check(_slow(1.5, always=True), ["torch"], calls=1)
    assert report.verdicts["torch"].signature == "ok", report.verdicts["torch"].detail


def test_a_run_under_the_floor_is_not_timed_against_its_twin():
    # the default floor (15 s) is far above this run's: no twin run, whatever the ratio
    with oracle.Runner(workers=1, timeout=30.0) as runner:
        calls = []
        run = runner.run
        runner.run = lambda source, target, *a, **k: calls.append(str(target)) or run(source, target, *a, **k)
        report = runner.check(_slow(1.0), ["torch"], calls=1)
    assert report.verdicts["torch"].signature == "ok"
    assert "torch:ngb=off" not in calls


def test_a_run_usual_for_the_runner_now_is_not_timed_against_its_twin():
    # on a loaded machine every compile passes the floor: only a run three times the recent median costs a twin
    from oracle._slow import USUAL_MIN

    with oracle.Runner(workers=1, timeout=30.0, slow_floor_s=1.0, slow_ratio=2.0) as runner:
        assert runner._usual.median("torch", 2.0) is None
        for _ in range(USUAL_MIN):
            runner._usual.median("torch", 2.5)
        assert runner._usual.median("torch:ngb=off", None) is None and runner._usual.median("torch", None) == 2.5
        usual = runner.check(_slow(3), ["torch"], calls=1).verdicts["torch"]  # 3 s: under 3 x 2.5 s
        unusual = runner.check(_slow(9), ["torch"], calls=1).verdicts["torch"]
    assert usual.signature == "ok" and unusual.signature == "slow:compile", (usual, unusual)


def _record_timeouts(runner) -> list[tuple[str, float | None]]:
    """(target, timeout) of each of ``runner``'s runs from now on, in order."""
    timeouts: list[tuple[str, float | None]] = []
    run = runner.run
    runner.run = lambda source, target, calls=3, timeout=None, **k: (
        timeouts.append((str(target), timeout)) or run(source, target, calls, timeout, **k))
    return timeouts


SPINS = "import torch\n\n\ndef entry():\n    while torch.compiler.is_compiling():\n        pass\n    return 1\n"


def test_a_hang_whose_twin_also_hangs_is_too_slow_to_tell_and_costs_no_recheck():
    # Dynamo reads is_compiling() as True while it traces, so it unrolls this loop for ever, nested graph breaks
    # on or off; eager skips it. Nothing says nested graph breaks made it: no finding, and no run given three
    # times as long (what made a huge program's campaign check cost minutes)
    with oracle.Runner(workers=1, timeout=4.0, hang_recheck=3.0, slow_floor_s=2.0) as runner:
        timeouts = _record_timeouts(runner)
        verdict = runner.check(SPINS, ["torch"], calls=1).verdicts["torch"]
    assert verdict.signature == "skip:too-slow" and not verdict.is_finding, verdict.detail
    assert "with nested graph breaks off (torch:ngb=off) either" in verdict.detail
    targets = [t for t, _ in timeouts]
    assert targets.count("torch") == 1 and targets.count("torch:ngb=off") == 1, timeouts
    assert all(timeout is None for target, timeout in timeouts if target != "eager"), timeouts


def test_a_hang_on_a_target_without_a_twin_stays_a_hang():
    with oracle.Runner(workers=1, timeout=4.0, hang_recheck=1.5) as runner:
        verdict = runner.check(SPINS, ["torch:ngb=off"], calls=1).verdicts["torch:ngb=off"]
    assert verdict.signature == "hang" and verdict.is_finding, verdict.detail


def test_a_hang_only_with_nested_graph_breaks_on_is_slow_after_one_repeat():
    with oracle.Runner(workers=1, timeout=3.0, hang_recheck=1.5, slow_floor_s=1.0) as runner:
        timeouts = _record_timeouts(runner)
        verdict = runner.check(_slow(60, sleeps=True), ["torch"], calls=1).verdicts["torch"]
    assert verdict.signature == "slow:compile", verdict.detail
    assert [t for t, _ in timeouts if t != "eager"] == ["torch", "torch:ngb=off", "torch"], timeouts
    repeat = timeouts[-1][1]  # the hang rule's 1.5 x 3 s, or the slow limit where that is longer
    twin_s = float(re.search(r"it took ([\d.]+) (?:CPU seconds|s)", verdict.detail).group(1))
    assert repeat >= max(4.5, 10 * twin_s - 1), (repeat, verdict.detail)  # twin_s is printed rounded
    assert f"gave no result in {repeat:.0f} s" in verdict.detail, verdict.detail


def test_a_compile_that_ends_in_a_crash_within_the_repeat_is_that_crash_not_slow():
    # the first run gives no result in its 2 s; the repeat has the hang rule's 4 s of CPU, not only the slow
    # limit (1 s here), and the compile ends in an error eager never raised: the finding is the crash
    crashes = _slow(3).replace("        burn(3)\n", "        burn(3)\n        raise RuntimeError('late')\n")
    with oracle.Runner(workers=1, timeout=2.0, hang_recheck=2.0, slow_floor_s=1.0, slow_ratio=2.0) as runner:
        verdict = runner.check(crashes, ["torch"], calls=1).verdicts["torch"]
    assert verdict.kind == "crash" and "RuntimeError" in verdict.signature, (verdict.signature, verdict.detail)


def _run_file(tmp_path, source: str) -> subprocess.CompletedProcess:
    path = tmp_path / "finding.py"
    path.write_text(with_footer(source))
    return subprocess.run([sys.executable, str(path)], capture_output=True, text=True, timeout=300)


def test_a_slow_compile_gets_a_short_check_that_times_both_and_exits_1_while_slow(tmp_path, monkeypatch):
    import oracle._checks

    monkeypatch.setattr(oracle._checks, "SLOW_FLOOR_S", 2.0)
    finding = _slow(60).replace("# target: torch\n", "# signature: slow:compile\n# target: torch\n# eager: returned\n")
    assert "limit = max(2.0, 10.0 * off)" in with_footer(finding)
    found = _run_file(tmp_path, finding)
    assert found.returncode == 1, found.stdout + found.stderr
    assert re.search(r"nested graph breaks off: [\d.]+ CPU seconds\nnested graph breaks on:  no result within \d+ "
                     r"CPU seconds\nMISMATCH", found.stdout), found.stdout
    fixed = _run_file(tmp_path, finding.replace("burn(60)", "pass"))
    assert fixed.returncode == 0 and "\nmatch" in fixed.stdout, fixed.stdout + fixed.stderr


@pytest.mark.parametrize("bad", [{"slow_floor_s": 0}, {"slow_ratio": 1.0}])
def test_a_runner_refuses_slow_rules_that_would_call_every_run_slow(bad):
    with pytest.raises(oracle.OracleError, match="slow_floor_s"):
        oracle.Runner(**bad)


def test_a_runner_at_another_horizon_judges_slow_on_the_same_workers_and_leaves_the_runner_as_it_was():
    # the trigger rule's checks of a slow compile: at the runner's horizon the first run waits 30 s and the hang
    # rule's repeat 90; at a shorter one (``with_horizon``) the verdict is the same, its waits are the view's
    with oracle.Runner(workers=1, timeout=30.0, hang_recheck=3.0, slow_floor_s=1.0) as runner:
        view = runner.with_horizon(2.0, 1.0)
        timeouts = _record_timeouts(view)
        verdict = view.check(_slow(60, sleeps=True), ["torch"], calls=1).verdicts["torch"]
        assert (runner.timeout, runner.hang_recheck) == (30.0, 3.0) and view._pools is runner._pools
        assert runner.with_horizon(5.0).hang_recheck == 3.0
        for bad in ((0.0, None), (float("inf"), None), (5.0, 0.5)):
            with pytest.raises(oracle.OracleError):
                runner.with_horizon(*bad)
    assert verdict.signature == "slow:compile", verdict.detail
    repeat = timeouts[-1][1]
    twin_s = float(re.search(r"it took ([\d.]+) (?:CPU seconds|s)", verdict.detail).group(1))
    assert [t for t, _ in timeouts if t != "eager"] == ["torch", "torch:ngb=off", "torch"], timeouts
    assert repeat < 30.0 and repeat >= max(2.0, 10 * twin_s - 1), (repeat, verdict.detail)
