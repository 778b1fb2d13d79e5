"""`ngb-fuzz run` as a user runs it: usage errors exit 2 in one line; Ctrl-C still writes the summary."""

import json
import signal
import subprocess
import sys
import time

import pytest

NGB = [sys.executable, "-m", "fuzz.cli"]


@pytest.mark.parametrize("args, message", [
    (["--target", "torch:backend=tvm"], "bad value 'tvm' for torch:backend"),
    (["--budget", "ten"], "bad budget 'ten'"),
    (["--workers", "0"], "--workers must be at least 1"),
])
def test_usage_errors_are_one_line_and_exit_2(args, message):
    proc = subprocess.run(NGB + ["run", *args], capture_output=True, text=True, timeout=120)
    assert proc.returncode == 2
    assert message in proc.stderr and len(proc.stderr.strip().splitlines()) == 1


def test_ctrl_c_stops_cleanly_and_writes_the_summary(tmp_path):
    out = tmp_path / "run"
    log = (tmp_path / "stderr.txt").open("w")  # a file, not a pipe nobody reads while we wait: it cannot fill up
    proc = subprocess.Popen(NGB + ["run", "--target", "torch", "--budget", "10m", "--workers", "1",
                                   "--out", str(out)], stdout=subprocess.PIPE, stderr=log, text=True)
    deadline = time.monotonic() + 240
    while time.monotonic() < deadline:
        state = out / "state.json"
        if state.exists() and json.loads(state.read_text())["completed"]:
            break
        time.sleep(0.5)
    proc.send_signal(signal.SIGINT)
    stdout, _ = proc.communicate(timeout=120)
    log.close()
    stderr = (tmp_path / "stderr.txt").read_text()
    assert proc.returncode == 130, stderr
    summary = json.loads((out / "summary.json").read_text())
    assert summary["programs"] >= 1
    assert "interrupted:" in stdout
