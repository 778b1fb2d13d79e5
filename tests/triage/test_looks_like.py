"""``looks like``: the corpus bugs a NEW finding resembles, shown as a hint (never a status) in the campaign's
summary, report and ``triage``."""

import shutil
from pathlib import Path

from fuzz.corpus.manifest import Corpus
from fuzz.triage.known import KnownBugs
from fuzz.triage.nearest import Profiles

ROOT = Path(__file__).resolve().parents[2]
PARENT = "torch-ngb-sorted-key-break-returns-key-value.py"
VARIANT = "torch-ngb-sorted-key-break-returns-key-value--callee-key.py"
# a form of the deque bug no corpus entry has: maxlen lost across a break in a callee, seen through len()
DEQUE_FORM = """import collections
import torch


def f(d, x):
    torch._dynamo.graph_break()
    d.append(x)
    return len(d)


def entry(x):
    d = collections.deque([x, x], maxlen=2)
    return x * f(d, x)
"""
PLAIN = "import torch\n\n\ndef f(x):\n    torch._dynamo.graph_break()\n    return x + 1\n\n\ndef entry(x):\n    return f(x) * 2\n"


def _read(name: str) -> str:
    return (ROOT / "corpus" / name).read_text(encoding="utf-8-sig")


def test_a_variant_left_out_looks_like_its_parent_first():
    entries = [e for e in Corpus(ROOT / "corpus").select() if e.signature != "ok" and not e.target.startswith("fault")]
    profiles = Profiles({e.file: _read(e.file) for e in entries if e.file != VARIANT})
    bug = {e.file: e.same_as or e.file for e in entries}
    assert bug[profiles.looks_like(_read(VARIANT))[0][0]] == PARENT  # the parent, or another form of its bug


def test_many_variants_of_one_bug_do_not_make_its_constructs_common():
    entries = [e for e in Corpus(ROOT / "corpus").select() if e.signature != "ok" and not e.target.startswith("fault")]
    sources = {e.file: _read(e.file) for e in entries}
    bug = {e.file: e.same_as or e.file for e in entries}
    for k in range(8):  # eight more forms of the deque maxlen=0 bug: deque is now in most repros
        name = f"torch-deque-maxlen-zero-keeps-items--form{k}.py"
        sources[name], bug[name] = _read("torch-deque-maxlen-zero-keeps-items.py"), "torch-deque-maxlen-zero-keeps-items.py"
    alike = Profiles(sources, bug_of=bug.__getitem__).looks_like(DEQUE_FORM)
    assert alike and "deque" in alike[0][0]


def test_known_bugs_name_a_variant_by_its_parent_and_a_plain_program_by_nothing():
    known = KnownBugs.from_corpus(ROOT / "corpus")
    alike = known.looks_like(DEQUE_FORM)
    assert alike and alike[0][0].startswith("torch-deque-maxlen") and 0.3 <= alike[0][1] <= 1.0
    assert len({file for file, _ in alike}) == len(alike) and not any("--" in file for file, _ in alike)
    assert known.looks_like(PLAIN) == []  # arithmetic, a call and a break: what every repro has
    assert KnownBugs().looks_like(DEQUE_FORM) == []  # no corpus


def test_a_new_bucket_shows_what_it_looks_like_in_summary_report_and_exit_lines(tmp_path, monkeypatch, capsys):
    import fuzz.reduce as reduce_module
    from fuzz.campaign.loop import Campaign
    from fuzz.cli._run import _print_summary
    from fuzz.report import write_report
    from tests.campaign.test_state import FakeResult, ScriptedRunner, config, generate

    def reducer(source, target, **kwargs):  # every bucket reduces to a new form of the deque bug
        return FakeResult(DEQUE_FORM, lines=9, original_lines=30, elapsed_s=1.0)

    monkeypatch.setattr(reduce_module, "reduce_program", reducer)
    root = tmp_path / "corpus"
    shutil.copytree(ROOT / "corpus", root)
    camp = tmp_path / "camp"
    summary = Campaign(config(camp, programs=20, reduce_seconds=60), ScriptedRunner(), generate=generate,
                       known=KnownBugs.from_corpus(root)).run()
    new = [b for b in summary["buckets"] if b["status"] == "NEW" and not b["same_as"]]
    assert new and all(b["looks_like"][0][0].startswith("torch-deque-maxlen") for b in new)
    assert all(b["looks_like"] == [] for b in summary["buckets"] if b["status"] == "KNOWN" or b["same_as"])
    _print_summary(summary, camp, "done")
    out = capsys.readouterr().out
    assert "looks like: corpus/torch-deque-maxlen" in out and "a hint, not a verdict" in out
    assert f"--same-as {new[0]['looks_like'][0][0]}" in out
    html = write_report(camp).read_text()
    assert "looks like: corpus/torch-deque-maxlen" in html


def test_triage_names_what_a_failing_program_looks_like(tmp_path, capsys):
    from fuzz.cli._triage import print_looks_like

    print_looks_like(DEQUE_FORM, str(ROOT / "corpus"))
    out = capsys.readouterr().out
    assert out.startswith(f"looks like: {ROOT / 'corpus' / 'torch-deque-maxlen'}") and "not a verdict" in out
    print_looks_like(DEQUE_FORM, "none")
    print_looks_like(DEQUE_FORM, str(tmp_path))  # no manifest there
    assert capsys.readouterr().out == ""
