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


def test_a_slow_compile_s_trigger_is_asked_at_the_slow_horizon_not_the_hang_horizon(tmp_path, monkeypatch):
    # a slow compile's checks wait out the runner's timeout, then a repeat three times as long, in most of the rule's
    # checks (each isolates one call: the program is still slow but for one): minutes each. They run at the horizon
    # its reduction's re-checks run at (``recheck_horizon``); every other finding's keep the runner's.
    import fuzz.reduce as reduce_module
    from fuzz.reduce._oracle import SLOW_RECHECK_S

    class Horizons(_Runner):
        """Shows ``slow:compile`` where ``_Runner`` shows its mismatch, for program 2 and its reduced forms, and
        a mismatch for program 9; records the horizon of each check of an isolated call, by finding."""

        def __init__(self, asked=None, timeout=60.0, hang_recheck=3.0):
            super().__init__()
            self.timeout, self.hang_recheck = timeout, hang_recheck
            self.asked = {} if asked is None else asked

        def with_horizon(self, timeout, hang_recheck=None):
            return Horizons(self.asked, timeout, self.hang_recheck if hang_recheck is None else hang_recheck)

        def check(self, source, targets):
            if "# program " in source and "format" not in source:
                index = int(source.split("# program ")[1].split("\n")[0])
                kind = {2: "slow", 9: "mismatch"}.get(index)
                source = (SLOW_FORM if kind == "slow" else FORM) if kind else source
            report = super().check(source, targets)
            if "x * 2" in source and "torch" in targets:
                slow = report.verdicts["torch"].kind != "ok"
                report.verdicts["torch"] = Verdict("slow", "", "slow:compile") if slow else Verdict("ok", "", "ok")
            if EAGER in source:
                kind = "slow" if "x * 2" in source else "mismatch"
                self.asked.setdefault(kind, set()).add((self.timeout, self.hang_recheck))
            return report

    SLOW_FORM = FORM.replace("torch.sin(x)", "torch.sin(x * 2)")

    def reduce_to(source, target, signature, **kwargs):
        return FakeResult(SLOW_FORM if signature.startswith("slow:") else FORM, lines=3, original_lines=30,
                          elapsed_s=1.0)

    monkeypatch.setattr(reduce_module, "reduce_program", reduce_to)
    root = tmp_path / "corpus"
    _corpus(root)
    (root / "hangs.py").write_text(BUG.replace("format(12, '08b')", "[format(12, '08b'), x * 2]"))
    store = Corpus(root)
    store.entries["hangs.py"] = Entry("hangs.py", "hang", "torch", "2.13.0", "2026-11-29", "NEW")
    store.save()
    known = KnownBugs.from_corpus(root)
    runner = Horizons()
    summary = Campaign(config(tmp_path / "camp", programs=12, reduce_seconds=60), runner, generate=generate,
                       known=known).run()
    status = {b["signature"]: (b["status"], b["like"]) for b in summary["buckets"] if b["first_program"] in (2, 9)}
    assert status == {"slow:compile": ("KNOWN?", ["hangs.py"]), "mismatch:value:values": ("KNOWN?", ["fmt.py"])}
    assert runner.asked == {"slow": {(SLOW_RECHECK_S, 1.0)}, "mismatch": {(60.0, 3.0)}}, runner.asked
