"""A campaign's bucket reduced to a fixpoint that needs a corpus bug's trigger is KNOWN? (fuzz/triage/trigger.py),
and every place that shows its status says so: summary, journal, report, exit summary, after a resume too. A
scripted runner stands in for the oracle: reduced programs show their mismatch unless their ``format`` call runs
outside the compiler."""

from __future__ import annotations

import json

from fuzz.campaign.loop import Campaign
from fuzz.corpus.manifest import Corpus, Entry
from fuzz.triage.known import KnownBugs
from fuzz.triage.trigger import EAGER
from oracle import ProgramReport, Verdict
from tests.campaign.test_state import FakeResult, ScriptedRunner, config, generate

BUG = "import torch\n\n\ndef entry(x):\n    return format(12, '08b')\n"
FORM = "import torch\n\n\ndef entry(x):\n    y = torch.sin(x)\n    return [format(3, 'b'), y]\n"


class _Runner(ScriptedRunner):
    """Generated programs as ``ScriptedRunner``; any other (a reduced repro, a corpus repro, an isolated call)
    shows ``mismatch:value:values`` on torch unless its ``format`` runs outside the compiler."""

    def __init__(self):
        self.isolated = 0

    def check(self, source, targets):
        if "# program " in source and "format" not in source:
            return super().check(source, targets)
        self.isolated += EAGER in source
        found = f"{EAGER}(format" not in source
        verdicts = {t: Verdict("mismatch", "value", "mismatch:value:values") if found and t == "torch"
                    else Verdict("ok", "", "ok") for t in targets}
        return ProgramReport(verdicts, False, {t: {} for t in targets})


def _reduce_to(text):
    def fake_reduce(source, target, **kwargs):
        return FakeResult(text, lines=3, original_lines=30, elapsed_s=1.0)
    return fake_reduce


def _corpus(root, variant: bool = False):
    root.mkdir(exist_ok=True)
    (root / "fmt.py").write_text(BUG)
    store = Corpus(root)
    store.entries["fmt.py"] = Entry("fmt.py", "mismatch:value:values", "torch", "2.13.0", "2026-11-29", "NEW")
    if variant:  # a person confirmed the form and added it
        (root / "fmt--form.py").write_text(FORM)
        store.entries["fmt--form.py"] = Entry("fmt--form.py", "mismatch:value:values", "torch", "2.13.0",
                                              "2026-11-29", "NEW", same_as="fmt.py")
    store.save()
    return KnownBugs.from_corpus(root)


def test_a_reduced_form_of_a_corpus_bug_is_known_probably_everywhere_it_shows(tmp_path, monkeypatch, capsys):
    import fuzz.reduce as reduce_module
    from fuzz.cli._run import _print_summary
    from fuzz.report._data import load

    monkeypatch.setattr(reduce_module, "reduce_program", _reduce_to(FORM))
    camp, runner = tmp_path / "camp", _Runner()
    known = _corpus(tmp_path / "corpus")
    summary = Campaign(config(camp, programs=20, reduce_seconds=60), runner, generate=generate, known=known).run()
    bucket = next(b for b in summary["buckets"] if b["signature"].startswith("mismatch:"))
    assert (bucket["status"], bucket["like"], bucket["trigger"]) == ("KNOWN?", ["fmt.py"], ["format"])
    assert not bucket["known"]
    asked = runner.isolated
    assert asked >= 2  # the form's call sites and the corpus repro's
    state = json.loads((camp / "state.json").read_text())  # the journal folded into the state on disk
    assert next(b for b in state["buckets"] if b["repro"] == bucket["repro"])["like"] == ["fmt.py"]
    finding = next(f for f in load(camp).findings if f.repro == bucket["repro"])
    assert (finding.status, finding.like, finding.trigger) == ("KNOWN?", ("fmt.py",), ("format",))
    _print_summary(summary, camp, "done")
    out = capsys.readouterr().out
    assert "KNOWN?" in out and "needs the compiler to trace format, as corpus/fmt.py does" in out
    assert "--same-as fmt.py" in out

    # resumed (after a SIGKILL too: the journal holds it): the same, and not asked again
    again = Campaign(config(camp, programs=20, reduce_seconds=60), runner, generate=generate, known=known).run()
    assert next(b for b in again["buckets"] if b["repro"] == bucket["repro"])["status"] == "KNOWN?"
    assert runner.isolated == asked

    # once the form is a variant, KNOWN; without the bug in the corpus, NEW
    variant = _corpus(tmp_path / "corpus", variant=True)
    then = Campaign(config(camp, programs=20, reduce_seconds=60), runner, generate=generate, known=variant).run()
    assert next(b for b in then["buckets"] if b["repro"] == bucket["repro"])["status"] == "KNOWN"
    empty = tmp_path / "empty"
    empty.mkdir()
    Corpus(empty).save()
    last = Campaign(config(camp, programs=20, reduce_seconds=60), runner, generate=generate,
                    known=KnownBugs.from_corpus(empty)).run()
    assert next(b for b in last["buckets"] if b["repro"] == bucket["repro"])["status"] == "NEW"


def test_a_form_that_needs_nothing_the_bug_needs_stays_new(tmp_path, monkeypatch):
    import fuzz.reduce as reduce_module

    unlike = "import torch\n\n\ndef entry(x):\n    return [torch.sin(x)]\n"
    monkeypatch.setattr(reduce_module, "reduce_program", _reduce_to(unlike))
    summary = Campaign(config(tmp_path / "camp", programs=20, reduce_seconds=60), _Runner(), generate=generate,
                       known=_corpus(tmp_path / "corpus")).run()
    bucket = next(b for b in summary["buckets"] if b["signature"].startswith("mismatch:"))
    assert (bucket["status"], bucket["like"]) == ("NEW", [])


def test_a_bucket_reduced_before_the_rule_is_asked_by_the_next_run(tmp_path, monkeypatch):
    import fuzz.reduce as reduce_module

    monkeypatch.setattr(reduce_module, "reduce_program", _reduce_to(FORM))
    camp = tmp_path / "camp"
    first = Campaign(config(camp, programs=20, reduce_seconds=60), _Runner(), generate=generate).run()
    bucket = next(b for b in first["buckets"] if b["signature"].startswith("mismatch:"))
    assert (bucket["status"], bucket["like"]) == ("NEW", None)  # no corpus: not asked
    again = Campaign(config(camp, programs=20, reduce_seconds=60), _Runner(), generate=generate,
                     known=_corpus(tmp_path / "corpus")).run()
    assert next(b for b in again["buckets"] if b["repro"] == bucket["repro"])["status"] == "KNOWN?"


def test_a_bucket_an_older_rule_found_like_nothing_is_asked_again(tmp_path, monkeypatch):
    import fuzz.reduce as reduce_module
    from fuzz.campaign.naming import Naming

    monkeypatch.setattr(reduce_module, "reduce_program", _reduce_to(FORM))
    camp, known = tmp_path / "camp", _corpus(tmp_path / "corpus")
    with monkeypatch.context() as old:  # the rule before versions: its answer has no like_rule
        old.setattr(Naming, "like", lambda self, bucket, source, breaks=None: {"like": [], "trigger": []})
        first = Campaign(config(camp, programs=20, reduce_seconds=60), _Runner(), generate=generate,
                         known=known).run()
    bucket = next(b for b in first["buckets"] if b["signature"].startswith("mismatch:"))
    assert (bucket["status"], bucket["like"]) == ("NEW", [])
    runner = _Runner()
    again = Campaign(config(camp, programs=20, reduce_seconds=60), runner, generate=generate, known=known).run()
    assert next(b for b in again["buckets"] if b["repro"] == bucket["repro"])["status"] == "KNOWN?"
    # a NEW that today's rule gave is not asked again
    monkeypatch.setattr(reduce_module, "reduce_program", _reduce_to("import torch\n\n\ndef entry(x):\n"
                                                                   "    return [torch.sin(x)]\n"))
    other, runner = tmp_path / "other", _Runner()
    assert "NEW" in [b["status"] for b in Campaign(config(other, programs=20, reduce_seconds=60), runner,
                                                   generate=generate, known=known).run()["buckets"]]
    asked = runner.isolated
    Campaign(config(other, programs=20, reduce_seconds=60), runner, generate=generate, known=known).run()
    assert runner.isolated == asked


def test_the_rule_takes_the_finding_s_breaks_from_its_reduction_s_rechecks(tmp_path, monkeypatch):
    # the re-checks that kept the reduced repro counted its graph breaks: the rule does not run it again for them
    import fuzz.reduce as reduce_module

    class Counting(_Runner):
        def __init__(self):
            super().__init__()
            self.whole: list[list[str]] = []

        def check(self, source, targets):
            if source == FORM:
                self.whole.append(list(targets))
            return super().check(source, targets)

    for breaks, runs_it in ((None, True), (1, False)):
        monkeypatch.setattr(reduce_module, "reduce_program", lambda source, target, breaks=breaks, **kwargs:
                            FakeResult(FORM, lines=3, original_lines=30, elapsed_s=1.0, breaks=breaks))
        runner = Counting()
        summary = Campaign(config(tmp_path / f"camp{breaks}", programs=20, reduce_seconds=60), runner,
                           generate=generate, known=_corpus(tmp_path / "corpus")).run()
        bucket = next(b for b in summary["buckets"] if b["signature"].startswith("mismatch:"))
        assert bucket["status"] == "KNOWN?"
        assert (["torch"] in runner.whole) is runs_it, runner.whole
