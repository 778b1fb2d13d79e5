"""Campaign state on disk, with findings: what survives a resume, a SIGKILL, a corrupt file, a full disk, a second
run on the same directory. A scripted runner stands in for the oracle (no worker processes): these are about the
campaign's bookkeeping, and fast."""

import dataclasses
import os
import signal
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

from fuzz.campaign.loop import Bucket, Campaign, CampaignConfig, CampaignError
from oracle._verdict import ProgramReport, Verdict

ROOT = Path(__file__).parent.parent.parent


@dataclasses.dataclass(frozen=True)
class FakeResult:
    """What ``reduce_program`` returns, as far as a campaign reads it: fake reducers return one."""

    source: str = "import torch\n\ndef entry(x):\n    return x\n"
    stopped: str = "fixpoint"
    lines: int = 2
    original_lines: int = 9
    reproduced: int = 1
    elapsed_s: float = 0.1
    passes: tuple = ()
    breaks: int | None = None
    signature: str = ""  # the finding it kept; "" (or the bucket's): the bucket's own
    stages: tuple = ()  # "no ending": a slow compile let finish, ending in no finding


@dataclasses.dataclass(frozen=True)
class FakeProgram:
    source: str
    features: frozenset


def generate(seed, index):
    return FakeProgram(f"# program {index}\ndef entry(x):\n    return x\n", frozenset({f"call.f{index % 3}"}))


class ScriptedRunner:
    """Program i: on 'torch', a crash for i % 5 == 1, a value mismatch for i % 7 == 2; ok otherwise. On
    'torch:ngb=off' the same crash on its second call (one root cause with the first). A program that is not
    one of these (no ``# program i`` line) is ok."""

    def check(self, source, targets):
        if "# program " not in source:  # a corpus repro, or a reduced one with a call isolated (KNOWN? asks)
            return ProgramReport({t: Verdict("ok", "", "ok") for t in targets}, False, {t: {} for t in targets})
        index = int(source.split("# program ")[1].split("\n")[0])
        verdicts = {}
        for target in targets:
            if index % 5 == 1:
                call = "second_call:" if target != "torch" else ""
                verdicts[target] = Verdict("crash", "", f"crash:{call}KeyError@torch._dynamo.x:step")
            elif index % 7 == 2 and target == "torch":
                verdicts[target] = Verdict("mismatch", "value", "mismatch:value:values")
            else:
                verdicts[target] = Verdict("ok", "", "ok")
        return ProgramReport(verdicts, False, {t: {"graphs": 1, "break_reasons": [f"r{index % 2}"]}
                                               for t in targets})


TARGETS = ("torch", "torch:ngb=off")


def config(out, **kw):
    return CampaignConfig(TARGETS, out, **{"programs": 20, "seed": 1, **kw})


def run(out, **kw) -> dict:
    return Campaign(config(out, **kw), ScriptedRunner(), generate=generate).run()


def bucket_view(summary):
    return sorted((b["target"], b["signature"], b["count"], b["first_program"], b["repro"], b["root_cause"])
                  for b in summary["buckets"])


def repro_files(out: Path) -> dict:
    return {p.name: p.read_text() for p in sorted(out.glob("0*.py"))}


def test_findings_survive_a_resume_in_steps_exactly_as_one_run(tmp_path):
    whole = run(tmp_path / "whole", programs=20)
    for budget in (3, 9, 14, 20):  # four runs into one directory
        stepped = run(tmp_path / "steps", programs=budget)
    assert stepped["programs"] == 20 and stepped["verdicts"] == whole["verdicts"]
    assert bucket_view(stepped) == bucket_view(whole) and len(whole["buckets"]) == 3
    assert stepped["root_causes"] == whole["root_causes"] == 2  # the crash on both targets is one root cause
    assert stepped["features"] == whole["features"] and stepped["break_reasons"] == whole["break_reasons"]
    assert repro_files(tmp_path / "steps") == repro_files(tmp_path / "whole")


def test_state_cost_per_program_does_not_grow_with_the_campaign(tmp_path):
    # The state is a snapshot plus a journal: recording program 1,000 costs what program 10 did.
    run(tmp_path, programs=1000)
    snapshot = (tmp_path / "state.json").read_text()
    assert len(snapshot) < 8000, "the snapshot must not list every completed program"
    campaign = Campaign(config(tmp_path, programs=1010), ScriptedRunner(), generate=generate)
    sizes = []
    journal = tmp_path / "journal.jsonl"

    def progress(c):
        sizes.append(journal.stat().st_size if journal.exists() else 0)

    campaign.on_progress = progress
    campaign.run()
    assert campaign.programs == 1010
    grown = [b - a for a, b in zip(sizes, sizes[1:]) if b > a]
    assert grown and max(grown) < 600, grown  # one short line per program
    assert (tmp_path / "state.json").stat().st_size < 8000


def test_a_sigkilled_campaign_resumes_with_every_finding_and_no_program_counted_twice(tmp_path):
    out = tmp_path / "killed"
    script = textwrap.dedent(f"""
        import sys, time
        sys.path[:0] = [{str(ROOT)!r}]
        from tests.campaign.test_state import config, generate, ScriptedRunner
        from fuzz.campaign.loop import Campaign

        class Slow(ScriptedRunner):
            def check(self, source, targets):
                time.sleep(0.02)
                return super().check(source, targets)

        Campaign(config(__import__("pathlib").Path({str(out)!r}), programs=10**6), Slow(), generate=generate).run()
    """)
    proc = subprocess.Popen([sys.executable, "-c", script])
    try:
        journal = out / "journal.jsonl"
        for _ in range(600):  # until a few dozen programs are journaled (or the process is gone)
            if journal.exists() and journal.read_text().count("\n") >= 40 or proc.poll() is not None:
                break
            try:
                proc.wait(timeout=0.05)
            except subprocess.TimeoutExpired:
                pass
        os.kill(proc.pid, signal.SIGKILL)
    finally:
        proc.wait()
    journaled = journal.read_text().count("\n")  # complete lines: one per program recorded
    # a budget well past where the kill lands, however late a loaded machine lets it land
    resumed = Campaign(config(out, programs=150), ScriptedRunner(), generate=generate)
    assert 40 <= resumed.programs == journaled < 150
    summary = resumed.run()
    whole = run(tmp_path / "whole", programs=150)
    assert summary["programs"] == 150 and summary["verdicts"] == whole["verdicts"]
    assert bucket_view(summary) == bucket_view(whole)
    assert repro_files(out) == repro_files(tmp_path / "whole")


@pytest.mark.parametrize("content, says", [
    ('{"version": 2, "identity": {"tar', "unreadable"),
    ("[]", "not a campaign state"),
    ('{"version": 2, "identity": {"targets": ["torch", "torch:ngb=off"], "seed": 1}}', "not a complete campaign"),
    ('{"version": 99}', "state version 99"),
])
def test_a_corrupt_state_is_one_line_that_says_what_to_do(tmp_path, content, says):
    run(tmp_path, programs=3)
    (tmp_path / "state.json").write_text(content)
    with pytest.raises(CampaignError, match=says) as info:
        Campaign(config(tmp_path), ScriptedRunner(), generate=generate)
    message = str(info.value)
    assert "\n" not in message and "move state.json and journal.jsonl away" in message


def test_a_corrupt_journal_line_is_refused_but_a_torn_last_line_is_dropped(tmp_path):
    out = tmp_path / "c"
    campaign = Campaign(config(out, programs=6), ScriptedRunner(), generate=generate)
    campaign.dir.write_snapshot = lambda snapshot: None  # as if killed before the final snapshot
    campaign.run()
    journal = out / "journal.jsonl"
    lines = journal.read_text().splitlines(keepends=True)
    journal.write_text("".join(lines) + lines[-1][: len(lines[-1]) // 2])  # killed mid-write
    resumed = Campaign(config(out), ScriptedRunner(), generate=generate)
    assert resumed.programs == 6
    resumed.close()
    journal.write_text(lines[0] + "garbage\n" + "".join(lines[1:]))
    with pytest.raises(CampaignError, match="corrupt at line 2"):
        Campaign(config(out), ScriptedRunner(), generate=generate)


def test_a_fresh_start_in_a_directory_with_findings_never_overwrites_them(tmp_path):
    first = run(tmp_path, programs=10)
    before = repro_files(tmp_path)
    for name in ("state.json", "journal.jsonl"):
        (tmp_path / name).unlink(missing_ok=True)
    second = run(tmp_path, programs=10)
    after = repro_files(tmp_path)
    assert all(after[name] == text for name, text in before.items())  # nothing overwritten
    # ... nor written again under new numbers: each bucket takes its old file back (fuzz.campaign.files)
    assert len(after) == len(before)
    assert {b["repro"] for b in first["buckets"]} == {b["repro"] for b in second["buckets"]}


def test_a_second_campaign_on_a_locked_directory_is_refused_naming_the_holder(tmp_path):
    holder = Campaign(config(tmp_path), ScriptedRunner(), generate=generate)
    with pytest.raises(CampaignError, match=rf"in use by another ngb-fuzz run \(PID {os.getpid()}\)"):
        Campaign(config(tmp_path, seed=2), ScriptedRunner(), generate=generate)
    holder.run()  # releases it
    assert run(tmp_path)["programs"] == 20


def test_the_lock_of_a_dead_process_is_taken_over_and_said(tmp_path):
    dead = subprocess.run([sys.executable, "-c", "import os; print(os.getpid())"], capture_output=True, text=True)
    pid = int(dead.stdout)
    (tmp_path / "lock").write_text(f"{pid}\n")
    notices = []
    Campaign(config(tmp_path, programs=2), ScriptedRunner(), generate=generate, on_notice=notices.append).run()
    assert notices == [f"taking over the lock of {tmp_path} from PID {pid}, which is no longer running"]


def test_a_time_budget_counts_the_time_already_spent(tmp_path):
    import time

    class Slow(ScriptedRunner):
        def check(self, source, targets):
            time.sleep(0.01)
            return super().check(source, targets)

    first = Campaign(config(tmp_path, programs=None, seconds=1.0), Slow(), generate=generate).run()
    assert first["seconds"] >= 1.0
    again = Campaign(config(tmp_path, programs=None, seconds=1.0), Slow(), generate=generate).run()
    assert again["programs"] == first["programs"]  # the budget was spent: nothing more runs


def test_a_full_disk_stops_the_campaign_with_one_line_and_it_resumes_intact(tmp_path, monkeypatch):
    import errno

    from fuzz.campaign import directory as campaign_dir

    real_open = open
    budget = {"writes": 25}

    class Filling:
        """A file on a disk that fills up: the 26th write of the campaign fails."""

        def __init__(self, f):
            self.f = f

        def write(self, text):
            budget["writes"] -= 1
            if budget["writes"] < 0:
                raise OSError(errno.ENOSPC, os.strerror(errno.ENOSPC))
            return self.f.write(text)

        def __getattr__(self, name):
            return getattr(self.f, name)

        def __enter__(self):
            return self

        def __exit__(self, *exc):
            self.f.close()

    def filling_open(path, mode="r", *args, **kwargs):
        f = real_open(path, mode, *args, **kwargs)
        return Filling(f) if any(m in mode for m in "wa") else f

    monkeypatch.setattr(campaign_dir, "open", filling_open, raising=False)
    with pytest.raises(campaign_dir.StorageError, match="No space left on device") as info:
        Campaign(config(tmp_path, programs=40), ScriptedRunner(), generate=generate).run()
    assert "\n" not in str(info.value) and "run the same command again to resume" in str(info.value)
    monkeypatch.undo()
    found = repro_files(tmp_path)
    summary = run(tmp_path, programs=40)
    whole = run(tmp_path / "whole", programs=40)
    assert summary["programs"] == 40 and summary["verdicts"] == whole["verdicts"]
    assert [b[:4] for b in bucket_view(summary)] == [b[:4] for b in bucket_view(whole)]
    after = repro_files(tmp_path)
    assert all(after[name] == text for name, text in found.items())  # findings kept, none overwritten


def test_an_interrupted_reduction_is_done_by_the_next_run_and_said_until_then(tmp_path, monkeypatch):
    import fuzz.reduce as reduce_module

    calls = []

    def fake_reduce(source, target, **kwargs):
        calls.append(target)
        stopped = "interrupted" if len(calls) == 1 else "fixpoint"
        return FakeResult(stopped=stopped, lines=3, elapsed_s=1.0)

    monkeypatch.setattr(reduce_module, "reduce_program", fake_reduce)
    first = run(tmp_path, programs=2, reduce_seconds=600)  # program 1: the crash bucket, reduction interrupted
    crash = next(b for b in first["buckets"] if b["target"] == "torch")
    assert crash["reduction"] == "pending" and first["not_reduced"] == 2  # and the ngb=off crash waiting for it
    assert "not reduced: ngb-fuzz reduce --campaign" in _printed_summary(first, tmp_path)
    view = _live_view(tmp_path)
    assert "not reduced" in view and "worker MB" in view
    assert not (tmp_path / crash["repro"].replace(".py", ".orig.py")).exists()
    second = run(tmp_path, programs=2, reduce_seconds=600)  # no program left: only the reduction
    crash = next(b for b in second["buckets"] if b["target"] == "torch")
    assert crash["reduction"] == "done" and crash["lines"] == 3 and second["not_reduced"] == 0
    assert (tmp_path / crash["repro"].replace(".py", ".orig.py")).exists()
    assert calls == ["torch", "torch"]  # the ngb=off crash shares its root cause: never reduced


def _printed_summary(summary, out) -> str:
    import contextlib
    import io

    from fuzz.cli._run import _print_summary

    text = io.StringIO()
    with contextlib.redirect_stdout(text):
        _print_summary(summary, out, "done")
    return text.getvalue()


def _live_view(out) -> str:
    from rich.console import Console

    from fuzz.cli._run import _Progress

    campaign = Campaign(config(out, programs=2), ScriptedRunner(), generate=generate)
    console = Console(record=True, width=200)
    console.print(_Progress(campaign.config)._table(campaign))
    campaign.close()
    return console.export_text()


def test_reduce_pending_finishes_what_a_stopped_campaign_left(tmp_path, monkeypatch):
    import fuzz.reduce as reduce_module

    results = iter(["interrupted", "fixpoint", "fixpoint"])

    def fake_reduce(source, target, **kwargs):
        return FakeResult(stopped=next(results), elapsed_s=1.0)

    monkeypatch.setattr(reduce_module, "reduce_program", fake_reduce)
    assert run(tmp_path, programs=3, reduce_seconds=600)["not_reduced"] == 2  # the crash (interrupted), its twin
    campaign = Campaign(config(tmp_path, programs=3, reduce_seconds=600), ScriptedRunner(), generate=generate)
    summary = campaign.reduce_pending()
    assert summary["not_reduced"] == 0 and summary["programs"] == 3
    assert {b["reduction"] for b in summary["buckets"]} == {"done"}  # the ngb=off crash got the reduced repro
    pointed = next(b for b in summary["buckets"] if b["same_as"])
    assert f"# same-root-cause-as: {pointed['same_as']}" in (tmp_path / pointed["repro"]).read_text()


def test_the_reduction_reserve_grows_with_the_buckets_that_need_their_own_reduction(tmp_path):
    campaign = Campaign(config(tmp_path, programs=None, seconds=300.0, reduce_seconds=10.0), ScriptedRunner(),
                        generate=generate)
    try:
        assert campaign.reductions.reserve == 0.0  # nothing waits: buckets found later are reduced as they open

        def add(n: int, **kw) -> None:
            for _ in range(n):
                i = len(campaign.buckets)
                campaign.buckets["torch", f"sig{i}"] = Bucket("torch", f"sig{i}", 1, f"{i:03d}.py", i, **kw)

        add(5)
        assert campaign.reductions.reserve == 50.0
        add(3, same_as="000.py")  # shares an earlier bucket's root cause: gets its reduced repro, no reduction
        add(2, reduction="done", lines=4)
        add(2, reduction=None, known="corpus.py")  # KNOWN: not reduced again
        assert campaign.reductions.reserve == 50.0
        add(20)
        assert campaign.reductions.reserve == 200.0  # never more than two thirds of the budget
    finally:
        campaign.close()
