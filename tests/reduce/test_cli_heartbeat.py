"""``ngb-fuzz reduce`` says it is still at work when no candidate has been kept for a while."""

import time

from fuzz.cli._reduce import _Heartbeat


def test_a_reduction_that_keeps_nothing_for_a_while_says_so(capsys):
    start = time.monotonic()
    lines: list[str] = []
    with _Heartbeat(start, 413, quiet=False, every=0.2):
        while len(lines) < 2 and time.monotonic() - start < 30:  # a loaded machine may run the thread late
            time.sleep(0.05)
            lines += capsys.readouterr().err.splitlines()
    assert len(lines) >= 2 and time.monotonic() - start >= 0.4  # one a period, not more often
    assert all("still checking candidates: 413 lines so far, none kept" in line for line in lines)


def test_a_kept_candidate_resets_it_and_quiet_silences_it(capsys):
    start = time.monotonic()
    with _Heartbeat(start, 413, quiet=False, every=5.0) as beat:
        for lines in (300, 200, 100, 50):
            time.sleep(0.05)
            beat.kept(lines)  # a progress line was printed: no heartbeat needed
    assert capsys.readouterr().err == ""
    with _Heartbeat(start, 413, quiet=True, every=0.05):
        time.sleep(0.3)
    assert capsys.readouterr().err == ""
