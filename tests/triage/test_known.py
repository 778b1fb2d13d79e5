"""Known bugs: findings with a corpus entry's root cause are KNOWN, not reduced, not news for --bias."""

import dataclasses
import shutil
from pathlib import Path

from fuzz.campaign.loop import Campaign, CampaignConfig
from fuzz.corpus.manifest import Corpus
from fuzz.triage.known import KnownBugs
from fuzz.triage.rootcause import behaviour_shape, root_cause
from oracle._verdict import ProgramReport, Verdict

ROOT = Path(__file__).resolve().parents[2]
CRASH = "crash:InternalTorchDynamoError@torch._dynamo.symbolic_convert:_import_module"  # the import-module entry's
LEAK = "mismatch:effects:value"  # the grad-ctx-object entry's


def corpus(tmp_path) -> Path:
    """A corpus of two real entries (a crash and a mismatch) and one regression case."""
    root = tmp_path / "corpus"
    store = Corpus(ROOT / "corpus")
    keep = ("torch-import-module-crash.py", "torch-grad-ctx-object-entered-after-break.py",
            "seed-ngb-doc-chain.py")
    copy = Corpus(root)
    root.mkdir()
    for name in keep:
        shutil.copy(ROOT / "corpus" / name, root)
        copy.entries[name] = store.entries[name]
    copy.save()
    return root


def test_crashes_match_at_once_mismatches_once_reduced(tmp_path):
    known = KnownBugs.from_corpus(corpus(tmp_path))
    assert len(known) == 2  # the regression case is no bug
    assert known.match(CRASH).file == "torch-import-module-crash.py"
    assert known.match(CRASH.replace("crash:", "crash:second_call:")).file == "torch-import-module-crash.py"
    assert known.match("crash:KeyError@torch._dynamo.symbolic_convert:step") is None
    assert known.match(LEAK) is None  # a mismatch has no root cause before reduction
    source = (ROOT / "corpus" / "torch-grad-ctx-object-entered-after-break.py").read_text()
    shape = behaviour_shape(source)
    assert known.match(LEAK, shape).file == "torch-grad-ctx-object-entered-after-break.py"
    # the same behaviour seen through another symptom is the same known bug
    assert known.match("mismatch:torch_state:grad_enabled", shape).file == "torch-grad-ctx-object-entered-after-break.py"
    # an enable_grad() object kept un-entered across the break is the same bug (fuzz.triage.rootcause's state-object
    # family); another mode's object, or the object entered where it is made, is not
    assert known.match(LEAK, behaviour_shape(source.replace("torch.no_grad()", "torch.enable_grad()"))).file == \
        "torch-grad-ctx-object-entered-after-break.py"
    assert known.match(LEAK, behaviour_shape(source.replace("torch.no_grad()", "torch.inference_mode()"))) is None
    entered_at_once = source.replace("    cm = torch.no_grad()\n", "").replace("with cm:", "with torch.no_grad():")
    assert entered_at_once != source and known.match(LEAK, behaviour_shape(entered_at_once)) is None


def test_behaviour_shape_ignores_names_constants_and_observations_but_not_what_the_program_does():
    a = "import torch\nEFFECTS = []\ndef f(x):\n    _effect('f.1', x)\n    return x * 2.0\n"
    b = "import torch\nEFFECTS = []\ndef g(y):\n    return y * 3.0\n"
    c = "import torch\nEFFECTS = []\ndef g(y):\n    torch._dynamo.graph_break()\n    return y * 3.0\n"
    assert behaviour_shape(a) == behaviour_shape(b) != behaviour_shape(c)
    helper = 'import types\nm = types.ModuleType("ngb_m")\nexec(compile({!r}, "ngb_m", "exec"), m.__dict__)\n'
    assert behaviour_shape(helper.format(b)) != behaviour_shape(helper.format(c))  # helper code counts


@dataclasses.dataclass(frozen=True)
class FakeProgram:
    source: str
    features: frozenset


def generate(seed, index, weights=None):
    source = (ROOT / "corpus" / "torch-import-module-crash.py").read_text()
    return FakeProgram(source, frozenset({"call.chain", "break.graph_break"}))


class CrashingRunner:
    """Every program crashes on torch with the known bug and on aot_eager with an unknown one."""

    def check(self, source, targets):
        signatures = {"torch": CRASH, "torch:backend=aot_eager": "crash:KeyError@torch._dynamo.symbolic_convert:step"}
        return ProgramReport({t: Verdict("crash", "", signatures[t]) for t in targets}, False, {})


def test_a_known_finding_is_reported_known_not_reduced_and_not_news_for_bias(tmp_path):
    known = KnownBugs.from_corpus(corpus(tmp_path))
    config = CampaignConfig(("torch", "torch:backend=aot_eager"), tmp_path / "run", programs=2, seed=1,
                            reduce_seconds=5, bias=True)
    campaign = Campaign(config, CrashingRunner(), generate=generate, known=known)
    reduced = []
    campaign.reductions.reduce_bucket = lambda bucket, ir=None, budget=None, workers=None: reduced.append(bucket.target)
    summary = campaign.run()
    by_target = {b["target"]: b for b in summary["buckets"]}
    assert by_target["torch"]["status"] == "KNOWN"
    assert by_target["torch"]["known"] == "torch-import-module-crash.py"
    assert by_target["torch:backend=aot_eager"]["status"] == "NEW"
    assert reduced == ["torch:backend=aot_eager"]  # the known one is not reduced
    assert summary["bias"]["events"].get("new_bucket") == 1  # only the unknown bucket was news
    # what the user reads instead of the unreduced finding: the known repro, and how long it is
    from fuzz.reduce import code_lines

    entry = (ROOT / "corpus" / "torch-import-module-crash.py").read_text()
    assert by_target["torch"]["known_lines"] == code_lines(entry) <= 20
    assert by_target["torch:backend=aot_eager"]["known_lines"] is None


def test_the_summary_points_an_unreduced_known_bucket_at_its_known_repro(tmp_path, capsys):
    from fuzz.cli._run import _print_summary

    bucket = {"count": 2, "status": "KNOWN", "signature": CRASH, "target": "torch", "repro": "001-x.py",
              "reduction": None, "lines": None, "known": "torch-import-module-crash.py",
              "known_lines": 18}
    _print_summary({"verdicts": {}, "programs": 2, "seconds": 1.0, "buckets": [bucket], "root_causes": 1},
                   tmp_path, "done")
    out = capsys.readouterr().out
    assert "corpus/torch-import-module-crash.py  (18 lines: its repro, python corpus/" in out
    _print_summary({"verdicts": {}, "programs": 2, "seconds": 1.0, "root_causes": 1,
                    "buckets": [{**bucket, "reduction": "done", "lines": 5}]}, tmp_path, "done")
    assert "lines: its repro" not in capsys.readouterr().out  # a reduced bucket has its own short repro


def test_without_the_corpus_the_same_finding_is_new(tmp_path):
    config = CampaignConfig(("torch",), tmp_path / "run", programs=1, seed=1, bias=True)
    campaign = Campaign(config, CrashingRunner(), generate=generate)
    campaign.reductions.reduce_bucket = lambda *a: None
    summary = campaign.run()
    assert summary["buckets"][0]["status"] == "NEW" and summary["bias"]["events"].get("new_bucket") == 1
    assert root_cause(CRASH) == summary["buckets"][0]["root_cause"]


def _fixed(root: Path, name: str) -> None:
    store = Corpus(root)
    store.entries[name] = dataclasses.replace(store.entries[name], status="FIXED")
    store.save()


def test_a_fixed_bug_seen_again_is_a_regression_reduced_and_news(tmp_path):
    root = corpus(tmp_path)
    _fixed(root, "torch-import-module-crash.py")
    known = KnownBugs.from_corpus(root)
    assert known.match(CRASH).fixed
    config = CampaignConfig(("torch",), tmp_path / "run", programs=2, seed=1, reduce_seconds=5, bias=True)
    campaign = Campaign(config, CrashingRunner(), generate=generate, known=known)
    reduced = []
    campaign.reductions.reduce_bucket = lambda bucket, ir=None, budget=None, workers=None: reduced.append(bucket.target)
    summary = campaign.run()
    (bucket,) = summary["buckets"]
    assert (bucket["status"], bucket["known"], bucket["regression"]) == \
        ("REGRESSION", "torch-import-module-crash.py", True)
    assert reduced == ["torch"]  # the bug came back: its repro is reduced like a new one
    assert summary["bias"]["events"].get("new_bucket") == 1
    # the status survives a resume from the journal
    resumed = Campaign(dataclasses.replace(config, programs=3), CrashingRunner(), generate=generate, known=known)
    resumed.reductions.reduce_bucket = lambda *a, **k: None
    assert resumed.run()["buckets"][0]["status"] == "REGRESSION"


def test_an_open_entry_wins_over_a_fixed_one_with_the_same_root_cause(tmp_path):
    root = corpus(tmp_path)
    name = "torch-import-module-crash.py"
    shutil.copy(root / name, root / "again.py")
    store = Corpus(root)
    store.entries["again.py"] = dataclasses.replace(store.entries[name], file="again.py")
    store.save()
    _fixed(root, name)
    match = KnownBugs.from_corpus(root).match(CRASH)
    assert (match.file, match.fixed) == ("again.py", False)


# A variant of the corpus's filter-callback bug that reduces to another shape (a campaign found it on 2.13 and a
# person triaged it as that bug): the callback's truth test is of y.mean(), not of y.
FILTER = "torch-ngb-filter-callback-break-returns-bool.py"
FILTER_CRASH = "crash:TypeError@torch._dynamo.eval_frame:compile_wrapper"
VARIANT = """# ngb-fuzz program
# signature: crash:TypeError@torch._dynamo.eval_frame:compile_wrapper
# target: torch
# eager: returned
import torch


def entry(x):
    sum(list(filter(lambda y: y.mean(), x)), x)


def make_inputs(device):
    return (torch.randn(2, 2, generator=torch.Generator().manual_seed(7)).to(device),)
"""


def variant_corpus(tmp_path) -> Path:
    root = corpus(tmp_path)
    store = Corpus(root)
    shutil.copy(ROOT / "corpus" / FILTER, root)
    store.entries[FILTER] = Corpus(ROOT / "corpus").entries[FILTER]
    store.save()
    return root


def test_a_variant_entry_makes_its_root_cause_known_as_its_parent(tmp_path):
    import pytest

    from fuzz.corpus.manifest import CorpusError, ManifestError

    root = variant_corpus(tmp_path)
    parent = FILTER
    shape = behaviour_shape(VARIANT)
    assert KnownBugs.from_corpus(root).match(FILTER_CRASH, shape) is None  # another shape: not known before triage
    store = Corpus(root)
    with pytest.raises(CorpusError, match="no other entry"):
        store.add(VARIANT, "torch", FILTER_CRASH, name="variant.py", same_as="nothing-here.py")
    entry, added = store.add(VARIANT, "torch", FILTER_CRASH, name="variant.py", same_as=parent)
    assert added and entry.same_as == parent
    store.save()
    known = KnownBugs.from_corpus(root)
    bug = known.match(FILTER_CRASH, shape)
    assert bug is not None and bug.file == parent  # named as the bug it is a form of, with the parent's repro
    assert bug.lines == known.lines_of(parent)
    assert known.match(FILTER_CRASH, behaviour_shape((root / parent).read_text())).file == parent  # the parent still matches
    # a variant of a variant, or of an entry that is not there, is a manifest error
    text = (root / "manifest.json").read_text()
    (root / "manifest.json").write_text(text.replace(f'"same_as": "{parent}"', '"same_as": "variant.py"'))
    with pytest.raises(ManifestError, match="no other entry"):
        Corpus(root)


def test_corpus_add_same_as_from_the_command_line(tmp_path, capsys):
    from fuzz.cli import main

    root = variant_corpus(tmp_path)
    (tmp_path / "v.py").write_text(VARIANT)
    assert main(["corpus", "add", str(tmp_path / "v.py"), "--dir", str(root), "--target", "torch",
                 "--same-as", "no-such-entry.py"]) == 2
    assert "no such entry" in capsys.readouterr().err
    assert main(["corpus", "add", str(tmp_path / "v.py"), "--dir", str(root), "--target", "torch",
                 "--same-as", FILTER]) == 0
    assert f"a variant of {FILTER}" in capsys.readouterr().out
    assert Corpus(root).entries["v.py"].same_as == FILTER


def test_a_variant_of_a_fixed_bug_found_where_it_shows_is_known_not_a_regression(tmp_path):
    # a torch 2.10 campaign found the seed bug fixed by 2.13 (no_grad as a decorator, a break in the callee);
    # its variant names the versions it shows on, and found there it is that bug, not one that came back
    root = variant_corpus(tmp_path)
    _fixed(root, FILTER)
    store = Corpus(root)
    store.add(VARIANT, "torch", FILTER_CRASH, name="old-torch.py", same_as=FILTER)
    store.entries["old-torch.py"] = dataclasses.replace(store.entries["old-torch.py"], status="KNOWN",
                                                        requires="torch<2.11")
    store.save()
    known = KnownBugs.from_corpus(root)
    shape = behaviour_shape(VARIANT)
    old = known.match(FILTER_CRASH, shape, target="old", versions=lambda spec: ("2.10.0", "3.11.9"))
    assert old is not None and (old.file, old.status, old.fixed) == (FILTER, "KNOWN", False)
    assert known.match(FILTER_CRASH, shape, target="new", versions=lambda spec: ("2.13.0", "3.11.9")) is None
    # without versions named, a variant of a fixed bug is that bug come back
    store.entries["old-torch.py"] = dataclasses.replace(store.entries["old-torch.py"], requires="")
    store.save()
    assert KnownBugs.from_corpus(root).match(FILTER_CRASH, shape).fixed


def test_a_fixed_bugs_repros_are_asked_by_the_trigger_rule(tmp_path):
    # an older torch's form of a bug fixed since is that bug where the fix is not: the trigger rule runs each repro
    # on the finding's own target, so a fixed one gives no trigger where its bug does not show
    root = corpus(tmp_path)
    _fixed(root, "torch-grad-ctx-object-entered-after-break.py")
    known = KnownBugs.from_corpus(root)
    assert {form.file for form in known.forms} == {"torch-import-module-crash.py",
                                                   "torch-grad-ctx-object-entered-after-break.py"}
    assert known.match(LEAK, behaviour_shape((root / "torch-grad-ctx-object-entered-after-break.py").read_text())
                       ).fixed  # and its exact root cause is still a regression
