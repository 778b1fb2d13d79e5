"""When buckets are reduced and what they are called meanwhile: reductions run while the campaign fuzzes, a
reduction cut short is gone on with (by ``reduce --campaign`` and by the next run) from its smallest program, and
a bucket is never called NEW before a finished reduction (or, for a crash, its signature) settled its root cause,
in the summary, the journal, the report and the live view alike, after a SIGKILL too. A scripted runner stands in
for the oracle and fake reducers for ``reduce_program``: these are about the campaign's bookkeeping, and fast."""

from __future__ import annotations

import contextlib
import io
import json
import os
import signal
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

from fuzz.campaign.loop import Campaign
from tests.campaign.test_state import FakeResult, ScriptedRunner, config, generate, run

ROOT = Path(__file__).parent.parent.parent
KNOWN = "torch-grad-ctx-object-entered-after-break.py"  # a corpus bug a mismatch bucket can reduce to
SMALL = "import torch\n\n\ndef entry(x):\n    return x * 2\n"  # a reduced repro no corpus entry has


class _Reducer:
    """Stands in for ``reduce_program``: records what each reduction was given; ``answer(source)`` says how it
    ends."""

    def __init__(self, answer):
        self.answer, self.given = answer, []

    def __call__(self, source, target, **kwargs):
        self.given.append((kwargs["signature"], source, kwargs.get("ir")))
        return self.answer(source)


def _cut_short(source: str) -> FakeResult:  # smaller, not minimal: the budget ran out
    return FakeResult(source.replace("# ngb-fuzz program", "# ngb-fuzz program\n# cut: here", 1), "budget", 5)


def _mismatch(summary: dict) -> dict:
    return next(b for b in summary["buckets"] if b["signature"].startswith("mismatch:"))


def _printed(summary: dict, out: Path) -> str:
    from fuzz.cli._run import _print_summary

    text = io.StringIO()
    with contextlib.redirect_stdout(text):
        _print_summary(summary, out, "done")
    return text.getvalue()


def _live_view(campaign) -> str:
    from rich.console import Console

    from fuzz.cli._run import _Progress

    console = Console(record=True, width=250)
    console.print(_Progress(campaign.config)._table(campaign))
    return console.export_text()


def _report_status(out: Path, repro: str) -> str:
    """The status badge of ``repro``'s row in the campaign's report.html."""
    pytest.importorskip("plotly")
    from fuzz.report import write_report

    page = write_report(out).read_text()
    row = next(r for r in page.split('<tr class="finding"')[1:] if repro in r)
    return row.split('class="badge ')[1].split(">")[1].split("<")[0]


def test_a_cut_short_reduction_is_gone_on_with_by_reduce_campaign_from_its_smallest_program(tmp_path, monkeypatch):
    import fuzz.reduce as reduce_module
    from fuzz.cli import main
    from fuzz.reduce import code_lines

    monkeypatch.setattr(reduce_module, "reduce_program", _Reducer(_cut_short))
    first = run(tmp_path, programs=3, reduce_seconds=600)
    mismatch = _mismatch(first)
    assert mismatch["reduction"] == "cut short" and mismatch["lines"] == 5 and mismatch["status"] == "NEW?"
    assert first["not_reduced"] == 3  # the crash, its twin pointed at it, the mismatch: none finished

    finish = _Reducer(lambda source: FakeResult(SMALL, "fixpoint", 2, 5))
    monkeypatch.setattr(reduce_module, "reduce_program", finish)
    monkeypatch.chdir(tmp_path)  # no ./corpus here: nothing is KNOWN
    assert main(["reduce", "--campaign", str(tmp_path), "--workers", "1", "--budget", "30s"]) == 0
    given = {signature: (source, ir) for signature, source, ir in finish.given}
    source, ir = given[mismatch["signature"]]
    assert "# cut: here" in source and ir is None  # from the smallest program so far, not the generated one
    summary = json.loads((tmp_path / "summary.json").read_text())
    after = _mismatch(summary)
    assert after["reduction"] == "done" and after["lines"] == 2 and after["status"] == "NEW"
    assert summary["not_reduced"] == 0
    orig = (tmp_path / after["repro"].replace(".py", ".orig.py")).read_text()
    assert "# cut: here" not in orig  # the first original stays the original
    assert f"reduced {code_lines(orig)} -> 2 lines" in (tmp_path / after["repro"]).read_text()


def test_a_cut_short_reduction_is_gone_on_with_by_the_next_run(tmp_path, monkeypatch):
    import fuzz.reduce as reduce_module

    monkeypatch.setattr(reduce_module, "reduce_program", _Reducer(_cut_short))
    assert _mismatch(run(tmp_path, programs=3, reduce_seconds=600))["reduction"] == "cut short"
    finish = _Reducer(lambda source: FakeResult(SMALL, "fixpoint", 2, 5))
    monkeypatch.setattr(reduce_module, "reduce_program", finish)
    second = run(tmp_path, programs=3, reduce_seconds=600)  # no program left: the reductions to go on with
    source = next(s for signature, s, _ in finish.given if signature.startswith("mismatch:"))
    assert "# cut: here" in source
    assert _mismatch(second)["reduction"] == "done" and second["not_reduced"] == 0


def test_rerunning_a_time_budget_campaign_that_is_over_goes_on_with_its_cut_short_reductions(tmp_path, monkeypatch):
    import fuzz.reduce as reduce_module

    monkeypatch.setattr(reduce_module, "reduce_program", _Reducer(_cut_short))
    first = run(tmp_path, programs=None, seconds=2.0, reduce_seconds=600)
    assert first["seconds"] >= 2.0 and _mismatch(first)["reduction"] == "cut short"
    finish = _Reducer(lambda source: FakeResult(SMALL, "fixpoint", 2, 5))
    monkeypatch.setattr(reduce_module, "reduce_program", finish)
    second = run(tmp_path, programs=None, seconds=2.0, reduce_seconds=600)  # no time left: only the reductions
    assert second["programs"] == first["programs"]
    assert _mismatch(second)["reduction"] == "done" and second["not_reduced"] == 0


def test_a_mismatch_bucket_is_not_called_new_before_its_reduction_settled_it(tmp_path, monkeypatch):
    import fuzz.reduce as reduce_module

    announced, seen = [], []
    reducer = _Reducer(lambda source: FakeResult(SMALL, "fixpoint", 2))

    def reduce_and_look(source, target, **kwargs):  # what every view says while the reduction runs
        if kwargs["signature"].startswith("mismatch:"):
            summary = campaign.summary()
            seen.append((_mismatch(summary)["status"], _live_view(campaign), _printed(summary, tmp_path)))
        return reducer(source, target, **kwargs)

    monkeypatch.setattr(reduce_module, "reduce_program", reduce_and_look)
    campaign = Campaign(config(tmp_path, programs=3, reduce_seconds=600), ScriptedRunner(), generate=generate,
                        on_new_bucket=lambda bucket, source: announced.append((bucket.signature, bucket.status)))
    summary = campaign.run()
    assert ("mismatch:value:values", "NEW?") in announced
    assert ("crash:KeyError@torch._dynamo.x:step", "NEW") in announced  # a crash's root cause is its signature
    ((status, view, printed),) = seen
    assert status == "NEW?" and "1 NEW?" in view and "NEW?    mismatch:value:values" in printed
    assert _mismatch(summary)["status"] == "NEW" and _mismatch(summary)["reduction"] == "done"


def test_with_reduction_off_a_mismatch_bucket_stays_new_with_a_question_mark_everywhere(tmp_path):
    summary = run(tmp_path, programs=3, reduce_seconds=0)
    mismatch = _mismatch(summary)
    assert mismatch["status"] == "NEW?" and mismatch["reduction"] == "pending"
    assert "NEW?" in _printed(summary, tmp_path)
    assert _report_status(tmp_path, mismatch["repro"]) == "NEW?"


_KILLED_CAMPAIGN = """
import sys, time
sys.path[:0] = [{root!r}]
from pathlib import Path
import fuzz.reduce
from fuzz.campaign.loop import Campaign
from fuzz.triage.known import KnownBugs
from tests.campaign.test_state import config, generate, ScriptedRunner

class Slow(ScriptedRunner):
    def check(self, source, targets):
        time.sleep(0.02)
        return super().check(source, targets)

class Result:
    stopped, reproduced, lines, original_lines, elapsed_s, passes, breaks = "fixpoint", 1, 9, 30, 1.0, (), None
    signature, stages = "", ()

def fake_reduce(source, target, **kwargs):  # the mismatch reduces to a corpus bug; the crash to a small program
    result = Result()
    result.source = Path({known!r}).read_text() if kwargs["signature"].startswith("mismatch:") else {small!r}
    return result

fuzz.reduce.reduce_program = fake_reduce
Campaign(config(Path({out!r}), programs=10**6, reduce_seconds=600), Slow(), generate=generate,
         known=KnownBugs.from_corpus({corpus!r})).run()
"""


def test_a_status_changed_by_a_reduction_is_the_same_everywhere_after_a_sigkill_and_resume(tmp_path):
    out = tmp_path / "killed"
    script = _KILLED_CAMPAIGN.format(root=str(ROOT), known=str(ROOT / "corpus" / KNOWN), small=SMALL, out=str(out),
                                     corpus=str(ROOT / "corpus"))
    proc = subprocess.Popen([sys.executable, "-c", textwrap.dedent(script)])
    journal = out / "journal.jsonl"
    try:
        for _ in range(1200):  # until the mismatch's reduction is journaled and a few programs after it
            text = journal.read_text() if journal.exists() else ""
            if '"status":"KNOWN"' in text and text.split('"status":"KNOWN"')[1].count("\n") >= 5:
                break
            if proc.poll() is not None:
                break
            with contextlib.suppress(subprocess.TimeoutExpired):
                proc.wait(timeout=0.05)
        os.kill(proc.pid, signal.SIGKILL)
    finally:
        proc.wait()
    records = [json.loads(line) for line in journal.read_text().splitlines() if line.strip()]
    reduced = {r["repro"]: r["status"] for r in records if r["k"] == "reduced"}
    resumed = Campaign(config(out, programs=1), ScriptedRunner(), generate=generate)  # budget spent: no program
    try:
        mismatch = _mismatch(resumed.summary())
        assert reduced[mismatch["repro"]] == mismatch["status"] == "KNOWN" and mismatch["known"] == KNOWN
        assert "1 KNOWN" in _live_view(resumed)
    finally:
        resumed.close()
    summary = Campaign(config(out, programs=1), ScriptedRunner(), generate=generate).run()
    for bucket in summary["buckets"]:
        assert reduced.get(bucket["repro"], "NEW") == bucket["status"]  # the crashes are NEW when seen
        assert _report_status(out, bucket["repro"]) == bucket["status"]
    assert f"KNOWN   {_mismatch(summary)['signature']}" in _printed(summary, out)


def test_the_exit_summary_names_a_bucket_whose_reduction_found_an_earlier_buckets_root_cause(tmp_path):
    bucket = {"count": 1, "signature": "mismatch:value:values", "target": "torch", "lines": 3, "reduction": "done",
              "status": "NEW", "root_cause": "mismatch|abc", "same_as": None, "known": None}
    summary = {"programs": 2, "seconds": 1.0, "verdicts": {}, "root_causes": 1,
               "buckets": [{**bucket, "repro": "001.py"},
                           {**bucket, "repro": "002.py", "signature": "mismatch:effects:value"}]}
    printed = _printed(summary, tmp_path)
    assert "same root cause as 001.py (found by its own reduction)" in printed
    assert printed.count("same root cause as") == 1


def test_reduce_campaign_without_workers_uses_half_the_cores_as_run_does(tmp_path, monkeypatch, capsys):
    import fuzz.cli._common as common
    import fuzz.reduce as reduce_module
    from fuzz.cli import main

    monkeypatch.setattr(reduce_module, "reduce_program", _Reducer(_cut_short))
    run(tmp_path, programs=3, reduce_seconds=600)
    monkeypatch.setattr(common, "machine_workers", lambda: (6, 8, None))  # 8 cores, memory for 6
    monkeypatch.setattr(reduce_module, "reduce_program", _Reducer(lambda source: FakeResult(SMALL, "fixpoint", 2, 5)))
    monkeypatch.chdir(tmp_path)
    capsys.readouterr()
    assert main(["reduce", "--campaign", str(tmp_path), "--budget", "30s"]) == 0
    assert "4 worker(s)" in capsys.readouterr().err  # the printed command, pasted as is, reduces as the run did
    monkeypatch.setattr(common, "machine_workers", lambda: (1, 2, 900))  # memory for one
    assert common.default_workers() == 1


def test_the_printed_reduce_command_carries_the_runs_workers_where_the_default_differs(tmp_path, monkeypatch):
    import fuzz.cli._run as run_cli
    import fuzz.reduce as reduce_module

    monkeypatch.setattr(reduce_module, "reduce_program", _Reducer(_cut_short))
    summary = run(tmp_path, programs=3, reduce_seconds=600)
    monkeypatch.setattr(run_cli, "machine_workers", lambda: (2, 2, None))
    monkeypatch.setattr(run_cli, "default_workers", lambda: 1)  # 2 cores: half is one

    def printed(workers: int) -> str:
        text = io.StringIO()
        with contextlib.redirect_stdout(text):
            run_cli._print_summary(summary, tmp_path, "done", workers=workers)
        return text.getvalue()

    assert f"reduce --campaign {tmp_path} --workers 2  (or the next run)" in printed(2)
    assert f"reduce --campaign {tmp_path}  (or the next run)" in printed(1)
    assert "--workers 2  (or" in printed(16)  # a cluster's 16 slots: as many as this machine holds
