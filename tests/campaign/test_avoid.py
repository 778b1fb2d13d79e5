"""Known-bug avoidance: programs shaped like an open corpus bug are drawn less; KNOWN shares are reported."""

from pathlib import Path

import pytest

from fuzz.campaign.avoid import (
    FLOOR,
    Avoidance,
    KnownShape,
    covers,
    estimate_features,
    known_shares,
    repro_features,
)
from fuzz.campaign.bias import weights_header
from fuzz.campaign.loop import Campaign, CampaignConfig
from fuzz.corpus.manifest import Corpus
from fuzz.program.features import CATALOG, GenerationConfig
from fuzz.program.generate import generate_program
from fuzz.triage.known import KnownBug, KnownBugs
from oracle import header_fields
from oracle._verdict import ProgramReport, Verdict

CORPUS = Path(__file__).resolve().parents[2] / "corpus"
N = 300


def test_features_are_read_off_a_reduced_repro():
    source = (
        "import torch\n"
        "def f(cm):\n"
        "    torch._dynamo.graph_break()\n"
        "    with cm:\n"
        "        pass\n"
        "def g():\n"
        "    yield 1\n"
        "@torch.enable_grad()\n"
        "def h(x):\n"
        "    return x\n"
        "def entry():\n"
        "    f(torch.no_grad())\n"
        "def make_inputs(device):\n"
        "    for _ in range(2):\n"  # make_inputs is not the program
        "        pass\n"
        "    return ()\n"
    )
    assert estimate_features(source) == {"break.graph_break", "ctx.as_value", "ctx.no_grad", "flow.generator",
                                         "ctx.decorator", "ctx.enable_grad"}
    # a @contextmanager over a disabled function is one construct: no generator, no disable-break
    cm = "import contextlib, torch\n@contextlib.contextmanager\n@torch._disable_dynamo(recursive=False)\n" \
         "def c():\n    yield\n"
    assert estimate_features(cm) == {"ctx.contextmanager", "ctx.contextmanager_disabled"}
    # a campaign repro's features: header wins over the estimate
    assert repro_features("# ngb-fuzz program\n# features: flow.loop depth.1 shape.upper_ctx_break\n"
                          "import torch\n") == {"flow.loop", "depth.1"}


def test_the_corpus_open_bugs_give_capped_cuts_and_no_feature_goes_to_zero():
    avoid = Avoidance.from_corpus(CORPUS)
    files = {s.file for s in avoid.shapes}
    assert "torch-grad-ctx-object-entered-after-break.py" in files
    # FIXED regression cases are news, not avoided; a variant of one that names the older torch it shows on is
    # avoided there only (a torch 2.10 form of a seed bug fixed by 2.13)
    entries = Corpus(CORPUS).entries.values()
    fixed = {e.file for e in entries if e.status == "FIXED"}
    old_forms = {e.same_as for e in entries if e.same_as in fixed and e.requires}
    assert not (files & fixed) - old_forms
    here = {s.file for s in Avoidance.from_corpus(CORPUS, ["torch"]).shapes}
    assert not here & fixed and "torch-grad-ctx-object-entered-after-break.py" in here
    # the entry's own shape, beside its variants' (each named with the entry's file)
    grads = {s.features for s in avoid.shapes if s.file == "torch-grad-ctx-object-entered-after-break.py"}
    assert {"ctx.as_value", "ctx.no_grad"} in grads
    cuts = avoid.multipliers()
    assert cuts and all(FLOOR <= m < 1 for m in cuts.values())
    assert "break.graph_break" not in cuts and "call.chain" not in cuts  # generic: characterise nothing
    config = avoid.config()
    for f in CATALOG:
        assert config.weight(f.name) >= f.weight * FLOOR
        assert (config.weight(f.name) > 0) == (f.weight > 0)


def test_programs_with_known_bug_features_are_measurably_rarer():
    avoid = Avoidance.from_corpus(CORPUS, ["torch"])  # as a campaign on this torch avoids them
    config = avoid.config()
    base = [generate_program(0, i) for i in range(N)]
    avoided = [generate_program(0, i, config) for i in range(N)]
    # a program is counted once per known shape it covers: the corpus holds shapes of one common tag (a bug seen
    # only with a try/except), which the floor keeps drawn, so "covers any shape" says little once there are many
    base_hits = sum(len(avoid.matching(p.features)) for p in base)
    avoided_hits = sum(len(avoid.matching(p.features)) for p in avoided)
    assert sum(bool(avoid.matching(p.features)) for p in base) > N // 4  # common without avoidance ...
    assert avoided_hits < 0.75 * base_hits, (base_hits, avoided_hits)  # ... and clearly rarer with it
    grad = min((s for s in avoid.shapes if s.file == "torch-grad-ctx-object-entered-after-break.py"),
               key=lambda s: len(s.features))
    assert sum(covers(p.features, grad) for p in avoided) < sum(covers(p.features, grad) for p in base)


def test_an_avoiding_program_regenerates_from_seed_index_and_its_weights_header():
    config = Avoidance.from_corpus(CORPUS).config()
    program = generate_program(3, 11, config)
    assert generate_program(3, 11, config).source == program.source
    header = weights_header(program.config)
    weights = {k: float(v) for k, v in (kv.split("=") for kv in header.split())}
    assert generate_program(3, 11, GenerationConfig(weights)).source == program.source


def test_known_shares_count_findings_and_buckets():
    buckets = [{"status": "KNOWN", "count": 30}, {"status": "KNOWN", "count": 6}, {"status": "NEW", "count": 3},
               {"status": "REGRESSION", "count": 1}]
    assert known_shares(buckets) == {"findings": 40, "known_findings": 36, "findings_share": 0.9,
                                     "buckets": 4, "known_buckets": 2, "buckets_share": 0.5}
    assert known_shares([]) == {"findings": 0, "known_findings": 0, "findings_share": 0.0, "buckets": 0,
                                "known_buckets": 0, "buckets_share": 0.0}


class _Runner:
    """Program 1 shows a known crash (three times over its targets' counts: programs 1 and 4), program 2 a new one."""

    def check(self, source, targets):
        index = int(source.split("(program ")[1].split(")")[0])
        signature = {1: "crash:KnownError@torch._dynamo.x:y", 4: "crash:KnownError@torch._dynamo.x:y",
                     2: "crash:NewError@torch._dynamo.x:z"}.get(index)
        verdict = Verdict("crash", "c", signature, "x") if signature else Verdict("ok", "", "ok")
        return ProgramReport({"torch": verdict}, False, {})


def test_a_campaign_draws_with_the_avoiding_weights_and_reports_known_shares(tmp_path):
    known = KnownBugs([KnownBug("known.py", "KNOWN", "crash:KnownError@torch._dynamo.x:y")])
    avoid = Avoidance([KnownShape("known.py", frozenset({"flow.generator"}))])
    configs = []

    def generate(seed, index, config=None):
        configs.append(config)
        return generate_program(seed, index, config)

    summary = Campaign(CampaignConfig(("torch",), tmp_path, programs=6), _Runner(), generate=generate,
                       known=known, avoid=avoid).run()
    assert all(c is not None and c.weight("flow.generator") == pytest.approx(0.3) for c in configs)
    assert summary["known_share"] == {"findings": 3, "known_findings": 2, "findings_share": 0.6667,
                                      "buckets": 2, "known_buckets": 1, "buckets_share": 0.5}
    assert summary["avoid"]["lowered"] == {"flow.generator": 0.5}
    new = next(b for b in summary["buckets"] if b["status"] == "NEW")
    assert header_fields((tmp_path / new["repro"]).read_text())["weights"] == "flow.generator=0.3"


def test_the_report_shows_the_known_shares(tmp_path):
    from fuzz.report._data import CampaignData
    from fuzz.report._html import _cards

    buckets = [{"status": "KNOWN", "count": 3}, {"status": "NEW", "count": 1}]
    html = _cards(CampaignData(tmp_path, {"programs": 5, "seconds": 2, "buckets": buckets}, [], []))
    assert "KNOWN findings" in html and "75% (3/4)" in html
    assert "KNOWN buckets" in html and "50% (1/2)" in html


def test_registry_constructs_are_read_off_their_most_specific_library_name(monkeypatch):
    import sys
    import types

    import fuzz.program

    fake = types.ModuleType("fuzz.program.families")
    # catalog tags stand in for the registry's own (whatever catalog this ngb-fuzz has)
    fake.CONSTRUCTS = {name: types.SimpleNamespace(name=name, keep_names=frozenset(keep)) for name, keep in (
        ("call.varargs", {"sorted", "float"}), ("flow.loop", {"list", "reversed"}),
        ("side.list", {"list", "next"}), ("side.dict", {"filter", "list"}))}
    monkeypatch.setitem(sys.modules, "fuzz.program.families", fake)
    monkeypatch.setattr(fuzz.program, "families", fake, raising=False)
    source = "def entry(x):\n    return list(reversed(sorted([x], key=float)))\n"
    # list is shared by three constructs: it names none of them; reversed and sorted name theirs
    assert estimate_features(source) == {"call.varargs", "flow.loop"}


def test_a_variant_is_one_more_shape_of_its_bug_not_one_more_bug():
    from fuzz.corpus.manifest import Corpus

    corpus = Corpus(CORPUS)
    avoid = Avoidance.from_corpus(CORPUS)
    variants = {e.file: e.same_as for e in corpus.select() if e.same_as}
    assert variants  # the corpus holds variants (corpus/README.md)
    files = {shape.file for shape in avoid.shapes}
    assert not files & variants.keys()  # a variant's shape is named with its entry
    assert len(avoid) == len(files) < len(avoid.shapes)  # counted once as a bug, drawn less once per shape


def corpus_with_requires(tmp_path: Path, requires: str) -> tuple[Path, list[str]]:
    """A corpus of two of ``CORPUS``'s bug entries that have characterising features of their own (no variant's
    parent, no ``requires`` yet), the first given ``requires``; the corpus and the two files."""
    import json
    import shutil

    manifest = json.loads((CORPUS / "manifest.json").read_text())
    parents = {e.get("same_as") for e in manifest["files"]}
    shaped = {s.file for s in Avoidance.from_corpus(CORPUS).shapes} - parents
    entries = [e for e in manifest["files"] if e["file"] in shaped and not e.get("requires")][:2]
    assert len(entries) == 2
    entries[0]["requires"] = requires
    corpus = tmp_path / "corpus"
    corpus.mkdir()
    for e in entries:
        shutil.copy(CORPUS / e["file"], corpus / e["file"])
    (corpus / "manifest.json").write_text(json.dumps({"version": 1, "files": entries}))
    return corpus, [e["file"] for e in entries]


def test_a_bug_no_target_can_show_is_not_avoided(tmp_path):
    """A campaign against one torch draws freely what only another torch's bugs need: ``requires`` is asked of
    every target, and an entry is avoided when one of them meets it."""
    corpus, (old_only, any_torch) = corpus_with_requires(tmp_path, "torch<2.11")
    versions = {"old": ("2.10.0", "3.11"), "new": ("2.15.0", "3.11")}
    files = {spec: {s.file for s in Avoidance.from_corpus(corpus, specs, versions.__getitem__).shapes}
             for spec, specs in [("old", ["old"]), ("new", ["new"]), ("both", ["new", "old"])]}
    assert files["old"] == files["both"] == {old_only, any_torch}
    assert files["new"] == {any_torch}
    assert {s.file for s in Avoidance.from_corpus(corpus).shapes} == files["both"]  # no targets: every entry
