"""A reduction round that a stop interrupts (the time budget's end, Ctrl-C) keeps the smallest program it reached
beside the repro (``*.partial.py``), and the bucket's next round, in ``reduce --campaign`` or the next run, starts
from there instead of from the repro again. A scripted runner stands in for the oracle and fake reducers for
``reduce_program``."""

from __future__ import annotations

import time

from fuzz.campaign.loop import Campaign
from tests.campaign.test_state import FakeProgram, FakeResult, ScriptedRunner, config
from tests.campaign.test_state import generate as generate_small

SMALL = "import torch\n\n\ndef entry(x):\n    return x + 1\n"


def generate(seed, index):
    """The scripted programs with eight more lines: a round has something to take off."""
    program = generate_small(seed, index)
    more = "".join(f"    y{k} = x\n" for k in range(8))
    return FakeProgram(program.source.replace("    return x\n", more + "    return x\n"), program.features)


def _interrupted_campaign(tmp_path, monkeypatch, ran: list | None = None) -> dict[str, str]:
    """A 2-second campaign whose reductions each reach ``SMALL`` and are then interrupted by its end; the
    sources they were given, by signature (the campaign itself appended to ``ran``)."""
    import fuzz.campaign.loop as loop
    import fuzz.reduce as reduce_module

    monkeypatch.setattr(loop, "END_GRACE_S", 1.0)
    monkeypatch.setattr(loop, "END_GRACE_SHARE", 0.0)
    given: dict[str, str] = {}

    def interrupted(source, target, **kwargs):
        given[kwargs["signature"]] = source
        if not kwargs["runner"].stop_event.wait(60):
            raise AssertionError("not stopped")
        return FakeResult(SMALL, stopped="interrupted", reproduced=0, elapsed_s=1.0)

    monkeypatch.setattr(reduce_module, "reduce_program", interrupted)
    campaign = Campaign(config(tmp_path, programs=None, seconds=2.0, workers=2, reduce_seconds=60), ScriptedRunner(),
                        generate=generate)
    campaign.run()
    if ran is not None:
        ran.append(campaign)
    assert given
    return given


def _resumed(tmp_path):
    return Campaign(config(tmp_path, programs=None, seconds=None, workers=2, reduce_seconds=60), ScriptedRunner(),
                    generate=generate)


def test_reductions_after_fuzzing_stop_a_grace_after_the_time_budget(tmp_path, monkeypatch):
    # a torch 2.10 campaign of 20 minutes ended after 26: a slow compile's reduction after fuzzing waited out
    # its re-checks past the budget. Now what is still in flight a grace after the budget is left for later.
    ran: list = []
    began = time.monotonic()
    assert _interrupted_campaign(tmp_path, monkeypatch, ran)  # each stopped, not run out (``interrupted``)
    assert time.monotonic() - began < 15  # the budget, its grace, and the summary: not a minute
    assert ran[0].summary()["not_reduced"] >= 1  # left as it was: reduce --campaign or the next run goes on with it


def test_an_interrupted_round_is_gone_on_with_from_its_smallest_program(tmp_path, monkeypatch, capsys):
    import fuzz.reduce as reduce_module
    from fuzz.cli._run import _print_summary
    from fuzz.reduce import code_lines

    interrupted = _interrupted_campaign(tmp_path, monkeypatch)
    campaign = _resumed(tmp_path)
    buckets = {b.signature: b for b in campaign.buckets.values()}
    for signature in interrupted:
        bucket = buckets[signature]
        assert bucket.reduction in ("pending", "cut short")  # not re-checked in a fresh process: not its repro
        assert (tmp_path / bucket.repro).read_text() == interrupted[signature]
        assert (tmp_path / bucket.repro.replace(".py", ".partial.py")).read_text() == SMALL
    # the summary says how far each got, and where the next round starts (it said only "not reduced")
    before = campaign.summary()
    _print_summary(before, tmp_path, "stopped")
    out = capsys.readouterr().out
    for record in (b for b in before["buckets"] if b["signature"] in interrupted):
        assert record["partial_lines"] == code_lines(SMALL) == 3
        partial = record["repro"].replace(".py", ".partial.py")
        assert f"a round the stop cut off got to 3 lines ({partial}, not re-checked)" in out
    assert out.count("goes on from there") == len(interrupted)
    given: dict[str, str] = {}

    def finishes(source, target, **kwargs):
        given[kwargs["signature"]] = source
        return FakeResult(source, original_lines=2)

    monkeypatch.setattr(reduce_module, "reduce_program", finishes)
    summary = campaign.reduce_pending()
    for signature in interrupted:
        assert given[signature] == SMALL  # from where the interrupted round stood
        record = next(b for b in summary["buckets"] if b["signature"] == signature)
        assert (record["reduction"], record["lines"], record["partial_lines"]) == ("done", 2, None)
        assert "return x + 1" in (tmp_path / record["repro"]).read_text()
        assert not (tmp_path / record["repro"].replace(".py", ".partial.py")).exists()
    assert not list(tmp_path.glob("*.partial.py"))


def test_a_partial_program_that_no_longer_shows_the_bug_gives_way_to_the_repro(tmp_path, monkeypatch):
    import fuzz.reduce as reduce_module
    from fuzz.reduce import ReduceError

    interrupted = _interrupted_campaign(tmp_path, monkeypatch)
    calls: list[str] = []

    def picky(source, target, **kwargs):
        calls.append(source)
        if source == SMALL:
            raise ReduceError("the original does not show the signature")
        return FakeResult(source.replace("def entry", "# cut\ndef entry"), lines=3)

    monkeypatch.setattr(reduce_module, "reduce_program", picky)
    campaign = _resumed(tmp_path)
    started = time.monotonic()
    summary = campaign.reduce_pending()
    assert time.monotonic() - started < 30
    for signature, repro_source in interrupted.items():
        assert calls.count(SMALL) >= 1 and repro_source in calls  # tried, then the repro itself
        record = next(b for b in summary["buckets"] if b["signature"] == signature)
        assert record["reduction"] == "done"
        assert not (tmp_path / record["repro"].replace(".py", ".partial.py")).exists()


def test_a_partial_program_is_no_repro_of_its_own(tmp_path, monkeypatch):
    interrupted = _interrupted_campaign(tmp_path, monkeypatch)
    campaign = _resumed(tmp_path)
    notices: list[str] = []
    campaign.dir.notice = notices.append  # type: ignore[method-assign]
    from fuzz.campaign.files import check_files

    assert interrupted and list(tmp_path.glob("*.partial.py"))
    lost, untracked = check_files(campaign)
    assert not lost and not untracked and not notices


def test_a_partial_program_that_cannot_be_written_does_not_stop_the_campaign(tmp_path, monkeypatch):
    # written on a stop, maybe on a full disk: the campaign ends as it would have, the next round from the repro
    from fuzz.campaign.directory import CampaignDir, StorageError

    write_text = CampaignDir.write_text

    def full_for_partials(self, name, text):
        if name.endswith(".partial.py"):
            raise StorageError(f"cannot write {name}: no space left on device")
        return write_text(self, name, text)

    monkeypatch.setattr(CampaignDir, "write_text", full_for_partials)
    ran: list = []
    assert _interrupted_campaign(tmp_path, monkeypatch, ran)
    assert not list(tmp_path.glob("*.partial.py")) and (tmp_path / "summary.json").exists()
    assert not ran[0]._errors and ran[0].storage_error is None  # nothing raised in a reducing thread


def test_each_kept_program_is_on_disk_while_its_round_runs(tmp_path, monkeypatch):
    # the smallest program was written only when the round returned: a round stopped in the middle of a check (a
    # slow compile's takes half a minute, past the stop's wait) or a killed campaign lost all it had kept
    import fuzz.reduce as reduce_module

    seen: list[list[str]] = []

    def killed(source, target, **kwargs):
        before = set(tmp_path.glob("*.partial.py"))
        kwargs["kept"](SMALL)  # a candidate kept: on disk at once
        written = set(tmp_path.glob("*.partial.py")) - before
        kwargs["kept"](source)  # no smaller than where the round started: the smaller one stays
        seen.append([p.read_text() for p in written])
        raise OSError("gone without a result, as a killed process is")

    monkeypatch.setattr(reduce_module, "reduce_program", killed)
    summary = Campaign(config(tmp_path, programs=20, workers=2, reduce_seconds=60), ScriptedRunner(),
                       generate=generate).run()
    assert seen and seen == [[SMALL]] * len(seen)
    unreduced = [b for b in summary["buckets"] if b["reduction"] == "pending" and not b["same_as"]]
    assert len(unreduced) == len(seen)  # each left as it was, its kept program beside it for the next round
    for bucket in unreduced:
        assert (tmp_path / bucket["repro"].replace(".py", ".partial.py")).read_text() == SMALL


def test_a_round_that_ended_before_the_stop_is_kept_though_its_naming_is_cut_off(tmp_path, monkeypatch):
    """The stop (here the time budget's end) comes while a finished, re-checked round's bucket is being named
    (``like``: checks of minutes each for a slow compile): the reduction is kept, ``like`` left for the next run to
    ask. Before, a 2.13 campaign's slow compile reached a 21-line fixpoint and ended 'not reduced'."""
    import fuzz.campaign.loop as loop
    import fuzz.reduce as reduce_module
    from fuzz.campaign.naming import Naming

    monkeypatch.setattr(loop, "END_GRACE_S", 1.0)
    monkeypatch.setattr(loop, "END_GRACE_SHARE", 0.0)
    monkeypatch.setattr(reduce_module, "reduce_program",
                        lambda source, target, **kwargs: FakeResult(SMALL, original_lines=10))
    named: list[str] = []

    def like(self, bucket, source, breaks=None):
        named.append(bucket.repro)
        if not self._campaign._stop.wait(60):  # the checks run until the stop cuts them off
            raise AssertionError("not stopped")
        return {}  # as the rule answers a stop: asked again by the next run

    monkeypatch.setattr(Naming, "like", like)
    campaign = Campaign(config(tmp_path, programs=None, seconds=2.0, workers=2, reduce_seconds=60), ScriptedRunner(),
                        generate=generate)
    summary = campaign.run()
    assert named
    for repro in named:
        record = next(b for b in summary["buckets"] if b["repro"] == repro)
        assert (record["reduction"], record["lines"]) == ("done", 2) and record["like"] is None
        assert (tmp_path / repro).read_text().endswith(SMALL)  # the reduced program, under its header
    resumed = {b.repro: b for b in _resumed(tmp_path).buckets.values()}  # the journal says the same
    assert all(resumed[repro].reduction == "done" and resumed[repro].like is None for repro in named)
