"""A campaign reduces its buckets several at once, one check in flight each: while fuzzing on one worker thread in
two, after it on every worker, so that a bug-rich campaign, or one with many workers (a GPU machine's), reduces
every bucket instead of leaving a queue "not reduced". A scripted runner stands in for the oracle and a fake
reducer records what each reduction was given."""

from __future__ import annotations

import collections
import threading
import time

import pytest

from fuzz.campaign.loop import Bucket, Campaign
from tests.campaign.test_state import FakeResult, ScriptedRunner, config, generate


class _RecordingReducer:
    """Stands in for ``reduce_program``: takes 0.3 s and records its arguments and how many ran at once."""

    def __init__(self):
        self.lock, self.running, self.peak, self.calls = threading.Lock(), 0, 0, []

    def __call__(self, source, target, **kwargs):
        with self.lock:
            self.running += 1
            self.peak = max(self.peak, self.running)
            self.calls.append((target, kwargs["workers"], kwargs["budget_s"]))
        time.sleep(0.3)
        with self.lock:
            self.running -= 1
        return FakeResult(elapsed_s=0.3)


def _run(tmp_path, monkeypatch, workers: int, programs: int = 20):
    import fuzz.reduce as reduce_module

    reducer = _RecordingReducer()
    monkeypatch.setattr(reduce_module, "reduce_program", reducer)
    summary = Campaign(config(tmp_path, programs=programs, workers=workers, reduce_seconds=600), ScriptedRunner(),
                       generate=generate).run()
    return summary, reducer


def _reduce_afterwards(tmp_path, monkeypatch, workers: int, keep: int | None = None):
    """A campaign that reduced nothing (``--reduce-budget 0``), then ``reduce --campaign`` with ``workers``;
    ``keep``: only that many of its buckets still wait (the others reduced before)."""
    import fuzz.reduce as reduce_module

    Campaign(config(tmp_path, programs=20, workers=workers, reduce_seconds=0), ScriptedRunner(),
             generate=generate).run()
    reducer = _RecordingReducer()
    monkeypatch.setattr(reduce_module, "reduce_program", reducer)
    campaign = Campaign(config(tmp_path, programs=20, workers=workers, reduce_seconds=600), ScriptedRunner(),
                        generate=generate)
    if keep is not None:
        waiting = [b for b in campaign.buckets.values() if b.unfinished and b.same_as is None]
        for bucket in waiting[keep:]:
            bucket.reduction, bucket.lines = "done", 3
    return campaign.reduce_pending(), reducer


def test_while_fuzzing_one_thread_in_two_reduces_with_one_check_in_flight(tmp_path, monkeypatch):
    summary, reducer = _run(tmp_path, monkeypatch, workers=4)
    # the crash on torch and the value mismatch have a reduction of their own; the ngb=off crash shares the first's
    assert sorted(c[0] for c in reducer.calls) == ["torch", "torch"]
    assert reducer.peak == 2 and {c[1] for c in reducer.calls} == {1}  # the other two threads fuzz meanwhile
    assert summary["not_reduced"] == 0 and {b["reduction"] for b in summary["buckets"]} == {"done"}
    pointed = next(b for b in summary["buckets"] if b["same_as"])  # pointed at its root cause's reduced repro
    assert f"# same-root-cause-as: {pointed['same_as']}" in (tmp_path / pointed["repro"]).read_text()


def test_with_two_workers_one_bucket_is_reduced_while_the_other_thread_fuzzes(tmp_path, monkeypatch):
    summary, reducer = _run(tmp_path, monkeypatch, workers=2)
    assert reducer.peak == 1 and [c[1] for c in reducer.calls] == [1, 1]
    assert summary["not_reduced"] == 0


def test_buckets_left_after_fuzzing_are_reduced_on_every_worker_at_once(tmp_path, monkeypatch):
    summary, reducer = _reduce_afterwards(tmp_path, monkeypatch, workers=2)
    assert reducer.peak == 2 and [c[1] for c in reducer.calls] == [1, 1]  # two buckets: one worker each
    assert summary["not_reduced"] == 0


def test_a_lone_bucket_left_after_fuzzing_gets_every_worker(tmp_path, monkeypatch):
    summary, reducer = _reduce_afterwards(tmp_path, monkeypatch, workers=2, keep=1)
    assert [c[1] for c in reducer.calls] == [2]
    assert summary["not_reduced"] == 0


def test_the_reserve_counts_rounds_of_concurrent_reductions(tmp_path):
    campaign = Campaign(config(tmp_path, programs=None, seconds=600.0, reduce_seconds=10.0, workers=6),
                        ScriptedRunner(), generate=generate)
    try:
        assert campaign.reductions.slots == 6 and campaign.reductions.fuzzing_slots == 3
        assert campaign.reductions.reserve == 0.0  # nothing waits for a reduction
        for i in range(7):
            campaign.buckets["torch", f"sig{i}"] = Bucket("torch", f"sig{i}", 1, f"{i:03d}.py", i)
        assert campaign.reductions.reserve == 20.0  # seven buckets: two rounds of six
    finally:
        campaign.close()


def test_the_reserve_follows_what_this_runs_reductions_took(tmp_path):
    # on a loaded machine reductions take several times their budget: the reserve sized by the budget left a queue
    campaign = Campaign(config(tmp_path, programs=None, seconds=1200.0, reduce_seconds=60.0, workers=2),
                        ScriptedRunner(), generate=generate)
    try:
        for i in range(5):
            campaign.buckets["torch", f"sig{i}"] = Bucket("torch", f"sig{i}", 1, f"{i:03d}.py", i)
        assert campaign.reductions.reserve == 180.0  # three rounds of two, at the budget until one has run
        campaign.reductions._taken.extend([40.0, 150.0, 110.0])
        assert campaign.reductions.cost == 110.0  # the median
        assert campaign.reductions.reserve == 330.0
        campaign.reductions._taken.extend([400.0, 500.0, 600.0, 700.0])
        assert campaign.reductions.reserve == 800.0  # never more than two thirds of the budget
    finally:
        campaign.close()


def test_a_reduction_that_ran_to_its_end_is_timed(tmp_path, monkeypatch):
    import fuzz.reduce as reduce_module

    monkeypatch.setattr(reduce_module, "reduce_program", _RecordingReducer())  # 0.3 s each
    campaign = Campaign(config(tmp_path, programs=20, workers=2, reduce_seconds=600), ScriptedRunner(),
                        generate=generate)
    campaign.run()
    assert len(campaign.reductions._taken) == 2 and min(campaign.reductions._taken) >= 0.3


def test_a_runner_with_fewer_processes_than_campaign_workers_bounds_the_slots(tmp_path):
    runner = ScriptedRunner()
    runner.workers = 1  # a cluster campaign: many tasks in flight, one local process for reductions
    campaign = Campaign(config(tmp_path, programs=4, workers=8), runner, generate=generate)
    try:
        assert campaign.reductions.slots == 1 and campaign.reductions.fuzzing_slots == 1
    finally:
        campaign.close()


def test_reduce_campaign_names_a_bucket_whose_reduction_is_a_corpus_bug_known(tmp_path, monkeypatch, capsys):
    import json
    import shutil
    from pathlib import Path

    import fuzz.reduce as reduce_module
    from fuzz.cli import main

    root = Path(__file__).parent.parent.parent
    known = "torch-grad-ctx-object-entered-after-break.py"
    shutil.copytree(root / "corpus", tmp_path / "corpus")
    camp = tmp_path / "camp"
    Campaign(config(camp, programs=20, reduce_seconds=0), ScriptedRunner(), generate=generate).run()

    def fake_reduce(source, target, **kwargs):  # every bucket reduces to the corpus's grad-object bug
        text = (root / "corpus" / known).read_text()
        return FakeResult(text, lines=9, original_lines=30, elapsed_s=1.0)

    monkeypatch.setattr(reduce_module, "reduce_program", fake_reduce)
    monkeypatch.chdir(tmp_path)
    assert main(["reduce", "--campaign", str(camp), "--workers", "1", "--budget", "30s"]) == 0
    buckets = json.loads((camp / "summary.json").read_text())["buckets"]
    mismatch = next(b for b in buckets if b["signature"].startswith("mismatch:"))
    assert mismatch["status"] == "KNOWN" and mismatch["known"] == known
    # progress while it works: what is coming, then one line per bucket as its reduction ends
    err = capsys.readouterr().err
    assert "reducing " in err and f"reduced {mismatch['repro']}: done, 9 lines, KNOWN" in err


class _HangThenCrash:
    """Programs ``hangs`` hang on torch (or are a slow compile: ``waits``), programs ``crashes`` crash; the rest
    are ok. By default programs 0 and 3 hang (the hang is seen most) and program 1 crashes."""

    def __init__(self, waits: str = "hang", hangs: tuple[int, ...] = (0, 3), crashes: tuple[int, ...] = (1,)):
        self.waits, self.hangs, self.crashes = waits, hangs, crashes

    def check(self, source, targets):
        from oracle._verdict import ProgramReport, Verdict

        index = int(source.split("# program ")[1].split("\n")[0])
        if index in self.hangs:
            kind, signature = self.waits.partition(":")[0], self.waits
        elif index in self.crashes:
            kind, signature = "crash", "crash:KeyError@torch._dynamo.x:step"
        else:
            kind, signature = "ok", "ok"
        return ProgramReport({t: Verdict(kind, "", signature) for t in targets}, False, {t: {} for t in targets})


@pytest.mark.parametrize("waits, what", [("hang", "a hang"), ("slow:compile", "a slow compile")])
def test_a_hang_is_reduced_last_within_a_budget_of_waiting(tmp_path, monkeypatch, capsys, waits, what):
    import fuzz.reduce as reduce_module
    from fuzz.campaign.reductions import GO_ON_ROUNDS, HANG_WAIT_S, SLOW_WAIT_S
    from fuzz.cli._run import _print_summary

    given, ceilings = [], []
    wait_s = HANG_WAIT_S if waits == "hang" else SLOW_WAIT_S

    def reducer(source, target, **kwargs):
        given.append((kwargs["signature"], kwargs["hang_wait_s"]))
        ceilings.append(kwargs["ceiling_s"])
        cut = kwargs["signature"] == waits
        return FakeResult(stopped="timeouts" if cut else "fixpoint", lines=5)

    monkeypatch.setattr(reduce_module, "reduce_program", reducer)
    from fuzz.campaign.loop import CampaignConfig

    summary = Campaign(CampaignConfig(("torch",), tmp_path, programs=4, seed=1, workers=1, reduce_seconds=60),
                       _HangThenCrash(waits), generate=generate).run()
    # the hang was seen first and most, yet waits for the end, behind the crash, with a budget of timeouts; each
    # of its rounds took 4 of 9 lines off, so it is gone on with to the last round
    assert given == [("crash:KeyError@torch._dynamo.x:step", None)] + [(waits, wait_s)] * GO_ON_ROUNDS
    # a round's wall-clock ceiling is four budgets, or its waiting where that is more (a slow compile's 480 s: its
    # kept candidates stop at their count in seconds, so the clock, not the waiting, used to cut it short)
    assert ceilings == [240.0] + [max(240.0, wait_s)] * GO_ON_ROUNDS
    hang = next(b for b in summary["buckets"] if b["signature"] == waits)
    assert (hang["reduction"], hang["status"]) == ("cut short", "NEW?")  # a hang is decided by its reduced shape
    _print_summary(summary, tmp_path, "done")
    out = capsys.readouterr().out
    assert "reduction cut short at 5 lines" in out
    assert f"{what}: each check that keeps it waits out" in out and f"stops after {wait_s:.0f}s of such waiting" in out


@pytest.mark.parametrize("waits", ["hang", "slow:compile"])
def test_with_two_workers_a_hang_is_reduced_while_fuzzing_and_keeps_no_bucket_waiting(tmp_path, monkeypatch, waits):
    # left for the end, a 2.10 campaign's slow compile was still unreduced when its budget ran out
    import fuzz.reduce as reduce_module
    from fuzz.campaign.loop import CampaignConfig

    crash_started = threading.Event()
    seen = []  # (signature, reductions in flight, of which a hang or slow compile) as each reduction starts

    def reducer(source, target, **kwargs):
        reductions = campaign.reductions
        seen.append((kwargs["signature"], reductions._reducing, reductions._reducing_waits))
        if kwargs["signature"] == waits:
            crash_started.wait(timeout=20)  # the crash, found while this one runs, is reduced beside it
        else:
            crash_started.set()
        return FakeResult(lines=3)

    def slow_generate(seed, index):
        time.sleep(0.01)
        return generate(seed, index)

    monkeypatch.setattr(reduce_module, "reduce_program", reducer)
    campaign = Campaign(CampaignConfig(("torch",), tmp_path, programs=400, seed=1, workers=2, reduce_seconds=60),
                        _HangThenCrash(waits, hangs=(0,), crashes=(40,)), generate=slow_generate)
    summary = campaign.run()
    # the hang's round started while the other thread fuzzed; the crash's beside it, while fuzzing too
    assert seen == [(waits, 1, 1), ("crash:KeyError@torch._dynamo.x:step", 2, 1)]
    assert crash_started.is_set() and summary["programs"] == 400
    assert {b["reduction"] for b in summary["buckets"]} == {"done"}


def test_with_one_worker_a_hang_still_waits_for_the_end(tmp_path):
    campaign = Campaign(config(tmp_path, programs=None, seconds=600.0, reduce_seconds=60.0, workers=1),
                        ScriptedRunner(), generate=generate)
    try:
        campaign.buckets["torch", "hang"] = Bucket("torch", "hang", 3, "000-hang.py", 0)
        assert campaign.reductions.reduce_one_now() is False  # fuzzing would stop for minutes of timeouts
        assert not campaign.reductions._tried
    finally:
        campaign.close()


def test_the_reserve_counts_a_hangs_reduction_by_its_waiting(tmp_path):
    from fuzz.campaign.reductions import HANG_WAIT_S, SLOW_WAIT_S

    campaign = Campaign(config(tmp_path, programs=None, seconds=1200.0, reduce_seconds=60.0, workers=2),
                        ScriptedRunner(), generate=generate)
    try:
        reductions = campaign.reductions
        campaign.buckets["torch", "hang"] = Bucket("torch", "hang", 1, "000-hang.py", 0)
        assert reductions.reserve == HANG_WAIT_S  # four of the default budgets, not one
        campaign.buckets["torch", "slow:compile"] = Bucket("torch", "slow:compile", 1, "001-slow.py", 1)
        assert reductions.reserve == SLOW_WAIT_S  # beside the hang, on the other worker
        reductions._taken.extend([100.0, 100.0, 100.0])
        assert reductions.reserve == 500.0  # five reductions of this run's cost hold its 480 s of waiting
        reductions._tried.update({"000-hang.py", "001-slow.py"})
        assert reductions.reserve == 0.0  # both started
    finally:
        campaign.close()


def test_a_bucket_waiting_five_minutes_for_its_first_round_goes_before_fresher_ones(tmp_path, monkeypatch):
    # most seen, then freshest first: a 2.10 campaign's buckets opened in minute 5 waited for the end behind
    # five fresher ones, and ended it unreduced
    import fuzz.reduce as reduce_module
    from fuzz.campaign.reductions import FIRST_ROUND_WAIT_S

    clock = [0.0]
    monkeypatch.setattr(Campaign, "seconds", property(lambda self: clock[0]))
    reduced: list[str] = []

    def reducer(source, target, **kwargs):
        reduced.append(kwargs["signature"])
        return FakeResult()

    monkeypatch.setattr(reduce_module, "reduce_program", reducer)
    campaign = Campaign(config(tmp_path, programs=None, seconds=1200.0, reduce_seconds=60.0, workers=2),
                        ScriptedRunner(), generate=generate)
    try:
        def opens(signature: str, count: int, index: int) -> None:
            repro = f"{index:03d}-{signature}.py"
            (tmp_path / repro).write_text(f"# program {index}\ndef entry(x):\n    return x\n")
            campaign.buckets["torch", signature] = Bucket("torch", signature, count, repro, index)

        reductions = campaign.reductions
        opens("old", 1, 40)
        opens("busy", 3, 45)
        assert reductions.reduce_one_now() and reduced == ["busy"]  # the most seen first
        clock[0] = 100.0
        opens("fresh", 1, 90)
        assert reductions.reduce_one_now() and reduced[-1] == "fresh"  # then the freshest
        clock[0] = FIRST_ROUND_WAIT_S - 1
        opens("fresher", 1, 120)
        assert reductions.reduce_one_now() and reduced[-1] == "fresher"
        clock[0] = FIRST_ROUND_WAIT_S
        opens("freshest", 2, 150)
        assert reductions.reduce_one_now() and reduced[-1] == "old"  # it waited five minutes: it goes first
        assert reductions.reduce_one_now() and reduced[-1] == "freshest"
    finally:
        campaign.close()


class _ScheduledReducer:
    """Stands in for ``reduce_program``: every reduction is cut short, a round of a bucket taking its program from
    ``schedule[k]`` to ``schedule[k + 1]`` lines (the last round's figure repeated); records the rounds."""

    def __init__(self, schedule: list[int]):
        self.schedule, self.rounds = schedule, collections.Counter()
        self.memories: dict[str, set[int]] = collections.defaultdict(set)  # signature -> ids of memories given

    def __call__(self, source, target, **kwargs):
        k = self.rounds[kwargs["signature"]]
        self.rounds[kwargs["signature"]] += 1
        self.memories[kwargs["signature"]].add(id(kwargs["memory"]))
        before, after = self.schedule[min(k, len(self.schedule) - 2):][:2]
        return FakeResult(stopped="budget", lines=after, original_lines=before, elapsed_s=1.0)


def _rounds(tmp_path, monkeypatch, schedule: list[int]):
    import fuzz.reduce as reduce_module

    reducer = _ScheduledReducer(schedule)
    monkeypatch.setattr(reduce_module, "reduce_program", reducer)
    summary = Campaign(config(tmp_path, programs=20, workers=2, reduce_seconds=600), ScriptedRunner(),
                       generate=generate).run()
    # a bucket's rounds share one memory of what they found not interesting; two buckets, two memories
    assert all(len(ids) == 1 for ids in reducer.memories.values())
    assert len(set().union(*reducer.memories.values())) == len(reducer.memories)
    return summary, reducer.rounds


def test_a_cut_short_reduction_is_gone_on_with_while_a_round_takes_something_off(tmp_path, monkeypatch):
    from fuzz.campaign.reductions import GO_ON_SHARE

    # 300 -> 180 (40% off) -> 140 (22%) -> 137 (2%: below the share, so no fourth round)
    assert 1 - 137 / 140 < GO_ON_SHARE <= 1 - 85 / 100  # a round of 15% (seen: the next took 85 -> 18) goes on
    summary, rounds = _rounds(tmp_path, monkeypatch, [300, 180, 140, 137])
    assert dict(rounds) == {"crash:KeyError@torch._dynamo.x:step": 3, "mismatch:value:values": 3}
    assert {b["reduction"] for b in summary["buckets"]} == {"cut short"}


def test_a_round_that_took_a_little_off_is_gone_on_with(tmp_path, monkeypatch):
    # seen on 2.10: a round took 100 -> 85, and the next one 85 -> 18
    _, rounds = _rounds(tmp_path, monkeypatch, [100, 85, 84])
    assert set(rounds.values()) == {2}


def test_rounds_that_keep_paying_stop_at_the_last_round(tmp_path, monkeypatch):
    from fuzz.campaign.reductions import GO_ON_ROUNDS

    _, rounds = _rounds(tmp_path, monkeypatch, [800, 400, 200, 100, 50, 25, 12])
    assert set(rounds.values()) == {GO_ON_ROUNDS}


def test_a_round_that_takes_little_off_is_not_gone_on_with(tmp_path, monkeypatch):
    _, rounds = _rounds(tmp_path, monkeypatch, [100, 97])
    assert set(rounds.values()) == {1}


def test_a_resumed_campaign_names_a_bucket_known_once_the_corpus_has_its_root_cause(tmp_path, monkeypatch):
    import json
    import shutil
    from pathlib import Path

    import fuzz.reduce as reduce_module
    from fuzz.corpus.manifest import Corpus
    from fuzz.triage.known import KnownBugs

    root = Path(__file__).parent.parent.parent
    known = "torch-grad-ctx-object-entered-after-break.py"
    text = (root / "corpus" / known).read_text()

    def fake_reduce(source, target, **kwargs):  # the mismatch reduces to the corpus's grad-object bug
        return FakeResult(text, lines=9, original_lines=30, elapsed_s=1.0)

    monkeypatch.setattr(reduce_module, "reduce_program", fake_reduce)
    camp = tmp_path / "camp"
    first = Campaign(config(camp, programs=20, reduce_seconds=60), ScriptedRunner(), generate=generate).run()
    mismatch = next(b for b in first["buckets"] if b["signature"].startswith("mismatch:"))
    assert mismatch["status"] == "NEW"  # no corpus: nothing to know it by
    corpus = tmp_path / "corpus"  # then the bug goes into a corpus (as a person adds a variant)
    corpus.mkdir()
    shutil.copy(root / "corpus" / known, corpus)
    store = Corpus(corpus)
    store.entries[known] = Corpus(root / "corpus").entries[known]
    store.save()
    again = Campaign(config(camp, programs=20, reduce_seconds=60), ScriptedRunner(), generate=generate,
                     known=KnownBugs.from_corpus(corpus)).run()
    now = next(b for b in again["buckets"] if b["repro"] == mismatch["repro"])
    assert (now["status"], now["known"]) == ("KNOWN", known)
    state = json.loads((camp / "state.json").read_text())  # the state on disk says so (journal folded into it)
    assert next(b for b in state["buckets"] if b["repro"] == mismatch["repro"])["known"] == known
    # and back to NEW against a corpus without it
    empty = Corpus(corpus)
    empty.entries.clear()
    empty.save()
    last = Campaign(config(camp, programs=20, reduce_seconds=60), ScriptedRunner(), generate=generate,
                    known=KnownBugs.from_corpus(corpus)).run()
    assert next(b for b in last["buckets"] if b["repro"] == mismatch["repro"])["status"] == "NEW"


def test_a_bucket_pointed_at_another_is_named_with_it_on_resume(tmp_path):
    from fuzz.corpus.manifest import Corpus, Entry
    from fuzz.triage.known import KnownBugs

    camp = tmp_path / "camp"
    first = Campaign(config(camp, programs=20, reduce_seconds=0), ScriptedRunner(), generate=generate).run()
    crash = "crash:KeyError@torch._dynamo.x:step"
    pointed = next(b for b in first["buckets"] if b["same_as"])  # ngb=off's crash: the torch crash's root cause
    assert pointed["status"] == "NEW"
    corpus = tmp_path / "corpus"  # the crash goes into a corpus
    corpus.mkdir()
    (corpus / "keyerror.py").write_text("import torch\n\n\ndef entry():\n    return torch.ones(1)\n")
    store = Corpus(corpus)
    store.entries["keyerror.py"] = Entry("keyerror.py", crash, "torch", "2.13.0", "2026-11-28", "KNOWN")
    store.save()
    again = Campaign(config(camp, programs=20, reduce_seconds=0), ScriptedRunner(), generate=generate,
                     known=KnownBugs.from_corpus(corpus)).run()
    statuses = {b["repro"]: (b["status"], b["known"]) for b in again["buckets"] if "KeyError" in b["signature"]}
    assert set(statuses.values()) == {("KNOWN", "keyerror.py")} and pointed["repro"] in statuses


def test_the_live_view_counts_hangs_and_slow_compiles_among_the_buckets_not_reduced():
    from types import SimpleNamespace

    from fuzz.cli._run import _not_reduced

    def campaign(*signatures, ends_in=None):
        buckets = {k: Bucket("torch", s, 1, f"{k:03d}.py", k, reduction="cut short", ends_in=ends_in if k == 0 else None)
                   for k, s in enumerate(signatures)}
        return SimpleNamespace(buckets=buckets, not_reduced=len(signatures))

    assert _not_reduced(campaign("mismatch:value:values")) == "1"
    assert _not_reduced(campaign("hang", "slow:compile", "slow:compile")) == "3 (1 hang, 2 slow compiles)"
    assert _not_reduced(campaign("hang", "hang", "crash:died:SIGKILL")) == "3 (2 hangs)"
    # a slow compile whose run, let finish, ended in a wrong value is reduced as that: no waiting out limits
    assert _not_reduced(campaign("slow:compile", "slow:compile", ends_in="mismatch:value:subclass")) == \
        "2 (1 slow compile)"


def test_a_round_that_paid_is_gone_on_with_while_fuzzing_once_no_bucket_waits(tmp_path, monkeypatch):
    # a 2.15 campaign's bucket cut short at 106 of 421 lines in minute 9 waited, with the reducing thread idle,
    # for an end the fuzzing used up: it ended cut short
    import fuzz.reduce as reduce_module
    from fuzz.campaign.reductions import GO_ON_ROUNDS

    reducer = _ScheduledReducer([800, 400, 200, 100, 50, 25])
    fuzzing: list[bool] = []

    def reduce(source, target, **kwargs):
        fuzzing.append(campaign.reductions._reducing > 0)  # counted by the reductions made while fuzzing
        time.sleep(0.05)
        return reducer(source, target, **kwargs)

    def slow_generate(seed, index):
        time.sleep(0.005)
        return generate(seed, index)

    monkeypatch.setattr(reduce_module, "reduce_program", reduce)
    campaign = Campaign(config(tmp_path, programs=600, workers=2, reduce_seconds=600), ScriptedRunner(),
                        generate=slow_generate)
    campaign.run()
    assert set(reducer.rounds.values()) == {GO_ON_ROUNDS}
    assert fuzzing == [True] * len(fuzzing)  # every round while the other thread fuzzed


def test_the_reserve_keeps_time_for_a_round_that_paid(tmp_path):
    from fuzz.campaign.reductions import GO_ON_ROUNDS

    campaign = Campaign(config(tmp_path, programs=None, seconds=1200.0, reduce_seconds=60.0, workers=2),
                        ScriptedRunner(), generate=generate)
    try:
        bucket = Bucket("torch", "sig", 1, "000.py", 0)
        campaign.buckets["torch", "sig"] = bucket
        bucket.reduction, bucket.lines = "cut short", 106
        reductions = campaign.reductions
        reductions._tried.add(bucket.repro)
        reductions._rounds[bucket.repro] = 1
        assert reductions.reserve == 0.0  # its round took nothing off worth going on with
        reductions._paid[bucket.repro] = (421, 106)
        assert reductions.reserve == 120.0  # two further rounds: 106 -> 27 -> 7 at its last round's take
        reductions._paid[bucket.repro] = (106, 18)
        assert reductions.reserve == 60.0  # at 18 lines: one round, for its fixpoint
        reductions._paid[bucket.repro] = (277, 191)
        assert reductions.reserve == 180.0  # a round taking a third off: every round it has left, one by one
        other = Bucket("torch", "sig2", 1, "001.py", 3)
        campaign.buckets["torch", "sig2"] = other
        assert reductions.reserve == 180.0  # reduced beside it, on the other worker
        reductions._rounds[bucket.repro] = GO_ON_ROUNDS
        assert reductions.reserve == 60.0  # no round left this run: the other bucket's first round alone
        del campaign.buckets["torch", "sig2"]
        assert reductions.reserve == 0.0
    finally:
        campaign.close()


def test_a_fixpoint_on_the_same_program_keeps_what_its_rechecks_saw(tmp_path, monkeypatch):
    # a repro already minimal whose break the code does not name: the re-checks' '# graph-breaks:' goes into the
    # file (the state-object rule reads it there, now and on every resume), though no line went
    import fuzz.reduce as reduce_module
    from fuzz.reduce import code_lines
    from oracle import ProgramFile, set_header
    from tests.fuzz.test_rootcause import HOOKED

    Campaign(config(tmp_path, programs=20, workers=2, reduce_seconds=0), ScriptedRunner(), generate=generate).run()
    campaign = Campaign(config(tmp_path, programs=20, workers=2, reduce_seconds=600), ScriptedRunner(),
                        generate=generate)
    bucket = next(b for b in campaign.buckets.values() if b.signature.startswith("mismatch"))
    for other in campaign.buckets.values():
        if other is not bucket:
            other.reduction, other.lines = "done", 3
    path = tmp_path / bucket.repro
    path.write_text(set_header(HOOKED, signature=bucket.signature, target=bucket.target))

    def reducer(source, target, **kwargs):
        return FakeResult(set_header(source, graph_breaks="2"), lines=code_lines(source),
                          original_lines=code_lines(source))

    monkeypatch.setattr(reduce_module, "reduce_program", reducer)
    summary = campaign.reduce_pending()
    assert ProgramFile.parse(path.read_text()).get("graph-breaks") == "2"
    record = next(b for b in summary["buckets"] if b["repro"] == bucket.repro)
    assert (record["reduction"], record["root_cause"]) == ("done", "mismatch|state-object:grad")
    resumed = Campaign(config(tmp_path, programs=20, workers=2, reduce_seconds=600), ScriptedRunner(),
                       generate=generate)
    assert resumed.naming._cause(resumed.buckets[bucket.target, bucket.signature]) == "mismatch|state-object:grad"


def test_a_graph_breaks_field_lasts_no_longer_than_the_program_it_was_seen_on():
    from fuzz.campaign.reductions import _observed
    from oracle import ProgramFile, set_header
    from tests.fuzz.test_rootcause import HOOKED

    plain = set_header(HOOKED, signature="mismatch:effects:value")
    seen = set_header(plain, graph_breaks="3")
    assert ProgramFile.parse(_observed(plain, seen)).get("graph-breaks") == "3"
    assert ProgramFile.parse(_observed(seen, plain)).get("graph-breaks") is None  # re-checked: no longer seen
    assert _observed(seen, set_header(plain, graph_breaks="3")) is seen  # unchanged: the repro is not rewritten



def test_a_reducer_that_raises_costs_its_round_and_is_told_never_the_campaign(tmp_path, monkeypatch):
    import fuzz.reduce as reduce_module
    from fuzz.reduce import PassStats

    calls = []

    def reducer(source, target, **kwargs):  # the first reduction raises; the next has a pass that raised
        calls.append(target)
        if len(calls) == 1:
            raise AttributeError("'float' object has no attribute 'mix'")
        return FakeResult(passes=(PassStats("fold-constants", 4, 0, "AttributeError: boom"),))

    monkeypatch.setattr(reduce_module, "reduce_program", reducer)
    notices: list[str] = []
    summary = Campaign(config(tmp_path, programs=20, workers=2, reduce_seconds=600), ScriptedRunner(),
                       generate=generate, on_notice=notices.append).run()
    assert len(calls) >= 2  # the campaign and its other reductions went on
    assert summary["programs"] == 20
    # the first round raised: its bucket is left as it was, for the next run (not "failed", which no run takes up)
    assert [b["reduction"] for b in summary["buckets"]] == ["pending", "done", "done"]
    assert any("raised AttributeError: 'float' object has no attribute 'mix'" in n and "bug in ngb-fuzz" in n
               and "the next run reduces it again" in n for n in notices)
    assert any("pass fold-constants raised AttributeError: boom" in n for n in notices)
    again = Campaign(config(tmp_path, programs=20, workers=2, reduce_seconds=600), ScriptedRunner(),
                     generate=generate).reduce_pending()  # ngb-fuzz reduce --campaign, the reducer mended
    assert [b["reduction"] for b in again["buckets"]] == ["done", "done", "done"]
