"""The shipped corpus is the tool's own regression suite: every entry shows what its manifest says."""

import json
from pathlib import Path

import pytest

CORPUS = Path(__file__).parent.parent / "corpus"
ENTRIES = json.loads((CORPUS / "manifest.json").read_text())["files"]


@pytest.mark.parametrize("entry", ENTRIES, ids=[e["file"] for e in ENTRIES])
def test_entry_shows_its_manifest_signature_on_its_target(runner, entry):
    source = (CORPUS / entry["file"]).read_text()
    expected = "ok" if entry["status"] in ("FIXED", "REGRESSION") else entry["signature"]
    verdict = runner.check(source, [entry["target"]]).verdicts[entry["target"]]
    assert verdict.signature == expected, verdict.detail


@pytest.mark.parametrize("entry", [e for e in ENTRIES if e["file"].startswith("seed-")],
                         ids=lambda e: e["file"])
def test_seed_cases_pass_on_our_engine_too(runner, entry):
    source = (CORPUS / entry["file"]).read_text()
    report = runner.check(source, ["engine", "engine-classic"])
    assert {k: v.kind for k, v in report.verdicts.items()} == {"engine": "ok", "engine-classic": "ok"}
