"""The shipped corpus is the tool's own regression suite: every entry shows what its manifest says."""

import json
import subprocess
import sys
from pathlib import Path

import pytest

from oracle import with_footer
from tests.conftest import requires_engine

CORPUS = Path(__file__).parent.parent / "corpus"
ENTRIES = json.loads((CORPUS / "manifest.json").read_text())["files"]


@pytest.mark.parametrize("entry", ENTRIES, ids=[e["file"] for e in ENTRIES])
def test_entry_shows_its_manifest_signature_on_its_target(runner, entry):
    source = (CORPUS / entry["file"]).read_text()
    expected = "ok" if entry["status"] in ("FIXED", "REGRESSION") else entry["signature"]
    verdict = runner.check(source, [entry["target"]]).verdicts[entry["target"]]
    assert verdict.signature == expected, verdict.detail


@requires_engine
@pytest.mark.parametrize("entry", [e for e in ENTRIES if e["file"].startswith("seed-")],
                         ids=lambda e: e["file"])
def test_seed_cases_pass_on_our_engine_too(runner, entry):
    source = (CORPUS / entry["file"]).read_text()
    report = runner.check(source, ["engine", "engine-classic"])
    assert {k: v.kind for k, v in report.verdicts.items()} == {"engine": "ok", "engine-classic": "ok"}


@pytest.mark.parametrize("path", sorted(CORPUS.glob("*.py")), ids=lambda p: p.name)
def test_every_file_has_the_current_standalone_footer(path):
    # the footer is generated code: `ngb-fuzz corpus footers` rewrites it after a change of oracle/_footer.py
    assert with_footer(path.read_text()) == path.read_text()


@pytest.mark.parametrize("entry", ENTRIES, ids=[e["file"] for e in ENTRIES])
def test_entry_runs_alone_with_only_torch(entry):
    # what a torch developer does with a pasted repro: exit 1 while the bug is open, 0 once fixed
    proc = subprocess.run([sys.executable, str(CORPUS / entry["file"])], capture_output=True, text=True,
                          timeout=300, cwd=CORPUS)
    expected = 0 if entry["status"] in ("FIXED", "REGRESSION") else 1
    assert proc.returncode == expected, proc.stdout[-2000:] + proc.stderr[-2000:]
    assert ("match:" if expected == 0 else "MISMATCH:") in proc.stdout
