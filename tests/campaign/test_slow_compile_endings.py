"""A campaign's slow compile whose reduction found it ends in a wrong value (``fuzz.reduce._ends``): named by that
finding, the same in the journal, summary, report and live view, after a resume too; its next rounds reduce that
finding, not a slow compile."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

from fuzz.campaign.loop import Campaign, CampaignConfig
from tests.campaign.test_reductions import _HangThenCrash
from tests.campaign.test_state import FakeResult, generate

ROOT = Path(__file__).parent.parent.parent
VARIANT = "torch-ngb-as-subclass-back-to-tensor-keeps-subclass--returned-as-subclass.py"
BUG = "torch-ngb-as-subclass-back-to-tensor-keeps-subclass.py"
ENDING = "mismatch:value:subclass"


def _campaign(out: Path, runner, corpus: Path | None = None, reduce_seconds: float = 60) -> Campaign:
    from fuzz.triage.known import KnownBugs

    known = KnownBugs.from_corpus(corpus) if corpus is not None else None
    return Campaign(CampaignConfig(("torch",), out, programs=4, seed=1, workers=1, reduce_seconds=reduce_seconds),
                    runner, generate=generate, known=known)


def _reducer(calls: list, rounds: list):
    """A fake ``reduce_program``: a slow compile ends in the corpus's wrong value, each round as ``rounds`` says
    (stopped, lines); the crash reduces to a fixpoint."""
    text = (ROOT / "corpus" / VARIANT).read_text()

    def reduce(source, target, **kwargs):
        calls.append((kwargs["signature"], kwargs["hang_wait_s"]))
        if kwargs["signature"].startswith("crash:"):
            return FakeResult(lines=3)
        stopped, lines = rounds.pop(0)
        return FakeResult(text, stopped=stopped, lines=lines, original_lines=60, signature=ENDING)

    return reduce


def test_a_slow_compile_that_ends_in_a_known_wrong_value_is_known_as_that_everywhere(tmp_path, monkeypatch, capsys):
    import fuzz.reduce as reduce_module
    from fuzz.campaign.reductions import SLOW_WAIT_S
    from fuzz.cli._run import _print_summary
    from fuzz.report._data import load

    shutil.copytree(ROOT / "corpus", tmp_path / "corpus")
    calls: list = []
    monkeypatch.setattr(reduce_module, "reduce_program", _reducer(calls, [("fixpoint", 9)]))
    camp = tmp_path / "camp"
    summary = _campaign(camp, _HangThenCrash("slow:compile"), tmp_path / "corpus").run()
    assert ("slow:compile", SLOW_WAIT_S) in calls  # reduced as a slow compile, which found what it ends in
    slow = next(b for b in summary["buckets"] if b["signature"] == "slow:compile")
    assert (slow["ends_in"], slow["status"], slow["known"], slow["lines"]) == (ENDING, "KNOWN", BUG, 9)
    assert slow["root_cause"].startswith("mismatch|")  # the wrong value's root cause, not a slow compile's
    state = json.loads((camp / "state.json").read_text())  # the journal, folded into the state on disk
    record = next(b for b in state["buckets"] if b["repro"] == slow["repro"])
    assert (record["ends_in"], record["known"]) == (ENDING, BUG)
    _print_summary(summary, camp, "done")
    out = capsys.readouterr().out
    assert f"let finish, it ends in {ENDING}" in out and f"corpus/{BUG}" in out
    assert "each check that keeps it waits out" not in out  # not a slow compile's reduction any more
    # the report, and a resumed run (a fresh process reading the directory) say the same
    finding = next(f for f in load(camp).findings if f.repro == slow["repro"])
    assert (finding.ends_in, finding.status, finding.known) == (ENDING, "KNOWN", BUG)
    calls.clear()
    again = _campaign(camp, _HangThenCrash("slow:compile"), tmp_path / "corpus").run()
    resumed = next(b for b in again["buckets"] if b["repro"] == slow["repro"])
    assert (resumed["ends_in"], resumed["status"], resumed["known"]) == (ENDING, "KNOWN", BUG) and calls == []


def test_the_next_round_of_a_cut_short_slow_compile_reduces_what_it_ends_in(tmp_path, monkeypatch):
    import fuzz.reduce as reduce_module
    from fuzz.campaign.reductions import SLOW_WAIT_S

    calls: list = []
    monkeypatch.setattr(reduce_module, "reduce_program", _reducer(calls, [("budget", 30), ("fixpoint", 9)]))
    camp = tmp_path / "camp"
    summary = _campaign(camp, _HangThenCrash("slow:compile"), reduce_seconds=0).run()  # found, not reduced
    assert next(b for b in summary["buckets"] if b["signature"] == "slow:compile")["status"] == "NEW?"
    after = _campaign(camp, _HangThenCrash("slow:compile")).reduce_pending()
    slow = [c for c in calls if not c[0].startswith("crash:")]
    # the first round waits out the slow compile's limits and finds its ending; the next goes on with that
    # wrong value, whose checks wait out nothing
    assert slow == [("slow:compile", SLOW_WAIT_S), (ENDING, None)]
    bucket = next(b for b in after["buckets"] if b["signature"] == "slow:compile")
    assert (bucket["ends_in"], bucket["reduction"], bucket["lines"], bucket["status"]) == (ENDING, "done", 9, "NEW")


def test_a_slow_compile_that_ran_on_is_not_let_finish_again_by_a_later_round_or_run(tmp_path, monkeypatch):
    # a compile that never ends costs a round the whole let-finish allowance: asked once, kept in the bucket
    import fuzz.reduce as reduce_module

    asked = []

    def reduce(source, target, **kwargs):
        if kwargs["signature"].startswith("crash:"):
            return FakeResult(lines=3)
        asked.append(kwargs["let_finish"])
        return FakeResult(stopped="timeouts", lines=30 - 10 * len(asked), original_lines=60,
                          stages=("no ending",) if kwargs["let_finish"] else ())

    monkeypatch.setattr(reduce_module, "reduce_program", reduce)
    camp = tmp_path / "camp"
    _campaign(camp, _HangThenCrash("slow:compile"), reduce_seconds=0).run()
    _campaign(camp, _HangThenCrash("slow:compile")).reduce_pending()
    assert asked[0] is True and set(asked[1:]) == {False} and len(asked) > 1  # the rounds after the first
    state = json.loads((camp / "state.json").read_text())
    slow = next(b for b in state["buckets"] if b["signature"] == "slow:compile")
    assert slow["ends_in"] == "" and slow["reduction"] == "cut short"
    asked.clear()
    summary = _campaign(camp, _HangThenCrash("slow:compile")).reduce_pending()  # another process: still kept
    assert asked and set(asked) == {False}
    assert next(b for b in summary["buckets"] if b["signature"] == "slow:compile")["status"] == "NEW?"
