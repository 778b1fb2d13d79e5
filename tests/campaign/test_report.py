"""The campaign report: one self-contained HTML page with the findings (repro inline, replay command) and plots,
built from what a campaign directory holds (summary.json, or state.json alone) and its timeline."""

import dataclasses
import json
import re
import subprocess
import sys

import pytest

from fuzz.campaign.loop import Campaign, CampaignConfig
from fuzz.campaign.timeline import Timeline, read_timeline
from tests.conftest import program_source

pytest.importorskip("plotly")

from fuzz.report import write_report  # noqa: E402

# a campaign in a module fixture: every test of it on one xdist worker (``--dist loadgroup``)
pytestmark = pytest.mark.xdist_group("report")

BASE = program_source("seed_chain.py")
NGB = [sys.executable, "-m", "fuzz.cli"]


@dataclasses.dataclass(frozen=True)
class FakeProgram:
    source: str
    features: frozenset


def generate(seed, index):
    return FakeProgram(BASE.replace("return x + 2\n", f"return x + {index + 2}\n"),
                       frozenset({"call.chain", "control.if"}))


@pytest.fixture(scope="module")
def campaign_dir(tmp_path_factory, runner):
    """A real (tiny) campaign with a finding, its timeline written as `ngb-fuzz run` writes it."""
    out = tmp_path_factory.mktemp("campaign")
    config = CampaignConfig(("torch", "fault:drop-effect"), out, programs=3, seed=3)
    timeline = Timeline(out, interval=0.0)  # a record at every tick: several points from a short run
    campaign = Campaign(config, runner, generate=generate, on_progress=timeline.tick, on_recorded=timeline.program)
    campaign.run()
    timeline.tick(campaign, force=True)
    return out


def plots(page: str) -> list[str]:
    return re.findall(r"<h2>([^<]+)</h2>\s*<div", page)


def test_report_holds_the_findings_and_the_plots(campaign_dir):
    page = write_report(campaign_dir).read_text()
    summary = json.loads((campaign_dir / "summary.json").read_text())
    [bucket] = summary["buckets"]
    assert bucket["signature"] in page and bucket["target"] in page
    repro = (campaign_dir / bucket["repro"]).read_text()
    assert "# signature: mismatch:second_call:effects" in page  # the repro itself, inline
    assert f"ngb-fuzz repro {campaign_dir / bucket['repro']} --target fault:drop-effect" in page
    assert repro.count("\n") > 10 and "copy</button>" in page
    # self-contained: plotly's JS inlined, nothing loaded from the network
    assert "<script src=" not in page and len(page) > 1_000_000 and "Plotly.newPlot" in page
    shown = plots(page)
    for title in ("Throughput", "Verdicts over time", "Root causes over time", "Feature-family coverage",
                  "Graphs and breaks per program", "Memory per worker"):
        assert title in shown, shown
    records = read_timeline(campaign_dir)
    # the runner's workers, by name, in the timeline the memory plot is drawn from
    named = [r["memory"]["workers"] for r in records if r.get("memory", {}).get("workers")]
    assert named and all(mb > 50 for workers in named for mb in workers.values()), records
    assert "memory per worker (MB)" in page
    assert records[-1]["programs"] == 3
    assert sum(sum(h.values()) for r in records for h in [r["per_program"].get("torch", {}).get("graphs", {})]) == 3


def test_report_shows_fields_other_parts_add_and_builds_from_state_alone(campaign_dir, tmp_path):
    summary = json.loads((campaign_dir / "summary.json").read_text())
    summary["buckets"][0].update(status="KNOWN", triage="fixed in torch 2.14")
    summary["memory"] = {"workers": {"worker 1": 812.5, "worker 2": 640.0}, "rss_mb": [812.5, 640.0],
                         "peak_rss_mb": 812.5, "recycled": 0}
    page = write_report(campaign_dir, summary=summary, dest=tmp_path / "r.html").read_text()
    assert '<span class="badge KNOWN">KNOWN</span>' in page and "fixed in torch 2.14" in page
    for reduction, says in (("cut short", "78 lines, reduction cut short"), ("done", "78 lines, reduced"),
                            ("pending", "not reduced yet")):
        summary["buckets"][0].update(reduction=reduction, lines=78)
        page = write_report(campaign_dir, summary=summary, dest=tmp_path / "r.html").read_text()
        assert says in page, reduction
        assert reduction == "done" or "lines, reduced" not in page  # cut short is never called reduced
    assert "Memory per worker" in plots(page)
    # a campaign killed before its summary: the state is enough
    state_only = tmp_path / "killed"
    state_only.mkdir()
    for name in ("state.json", summary["buckets"][0]["repro"]):
        (state_only / name).write_text((campaign_dir / name).read_text())
    page = write_report(state_only).read_text()
    assert summary["buckets"][0]["signature"] in page and "No timeline.jsonl" in page


def test_cli_report_and_its_errors(campaign_dir, tmp_path):
    proc = subprocess.run(NGB + ["report", str(campaign_dir), "--out", str(tmp_path / "x.html")],
                          capture_output=True, text=True, timeout=120)
    assert proc.returncode == 0 and (tmp_path / "x.html").stat().st_size > 1_000_000, proc.stderr
    proc = subprocess.run(NGB + ["report", str(tmp_path / "nothing")], capture_output=True, text=True, timeout=120)
    assert proc.returncode == 2 and "holds no campaign" in proc.stderr
    assert len(proc.stderr.strip().splitlines()) == 1
    # without plotly: one line saying how to install the extra
    code = "import sys; sys.modules['plotly'] = None; from fuzz.cli import main; sys.exit(main(sys.argv[1:]))"
    proc = subprocess.run([sys.executable, "-c", code, "report", str(campaign_dir)], capture_output=True,
                          text=True, timeout=120)
    assert proc.returncode == 2 and "pip install 'ngb-fuzz[report]'" in proc.stderr
    assert len(proc.stderr.strip().splitlines()) == 1


def test_root_causes_read_as_names_numbered_in_order_seen_not_as_hashes():
    from fuzz.report._data import cause_labels

    buckets = [
        {"repro": "003-mismatch_b.py", "first_program": 9, "root_cause": "mismatch|5e1f0c2d9a"},
        {"repro": "001-crash.py", "first_program": 2, "root_cause": "crash:KeyError@torch._dynamo.x:step"},
        {"repro": "002-mismatch_a.py", "first_program": 4, "root_cause": "mismatch|5e1f0c2d9a"},
        {"repro": "004-pending.py", "first_program": 1, "root_cause": None},  # not reduced yet: no name
        {"repro": "005-mismatch_c.py", "first_program": 12, "root_cause": "mismatch|state-object:grad"},
    ]
    assert cause_labels(buckets) == {
        "crash:KeyError@torch._dynamo.x:step": "#1 crash: KeyError@torch._dynamo.x:step",
        "mismatch|5e1f0c2d9a": "#2 mismatch (first seen as 002-mismatch_a.py)",
        "mismatch|state-object:grad": "#3 mismatch: a torch grad mode object kept un-entered across a break",
    }


def test_the_findings_table_names_a_root_cause_instead_of_its_hash(campaign_dir, tmp_path):
    summary = json.loads((campaign_dir / "summary.json").read_text())
    summary["buckets"][0]["root_cause"] = "mismatch|deadbeef00"
    page = write_report(campaign_dir, summary=summary, dest=tmp_path / "r.html").read_text()
    assert f"#1 mismatch (first seen as {summary['buckets'][0]['repro']})" in page
    assert "mismatch|deadbeef00" not in page


def test_a_known_bucket_points_at_its_corpus_file_instead_of_looking_unreduced(campaign_dir, tmp_path):
    summary = json.loads((campaign_dir / "summary.json").read_text())
    bucket = summary["buckets"][0]
    bucket.update(status="KNOWN", known="torch-grad-ctx-object-entered-after-break.py", reduction=None, lines=None)
    page = write_report(campaign_dir, summary=summary, dest=tmp_path / "r.html").read_text()
    assert "known bug: corpus/torch-grad-ctx-object-entered-after-break.py" in page
    assert "not reduced: a known bug, reduced in corpus/torch-grad-ctx-object-entered-after-break.py" in page
