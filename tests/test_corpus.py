"""The shipped corpus is the tool's own regression suite: every entry shows what its manifest says."""

import json
import subprocess
import sys
from pathlib import Path

import pytest

from oracle import with_footer
from tests.conftest import requires_engine, runner_for

CORPUS = Path(__file__).parent.parent / "corpus"
ENTRIES = json.loads((CORPUS / "manifest.json").read_text())["files"]


def _skip_unless_shown_here(entry: dict) -> None:
    """An entry whose bug shows only on other torch/Python versions (its ``requires``) is not checked here."""
    from fuzz.corpus.requires import unmet
    from oracle import versions_of

    why = unmet(entry.get("requires", ""), *versions_of())
    if why:
        pytest.skip(f"{entry['file']} {why}")


@pytest.mark.parametrize("entry", ENTRIES, ids=[e["file"] for e in ENTRIES])
def test_entry_shows_its_manifest_signature_on_its_target(request, entry):
    _skip_unless_shown_here(entry)
    source = (CORPUS / entry["file"]).read_text()
    expected = "ok" if entry["status"] in ("FIXED", "REGRESSION") else entry["signature"]
    verdict = runner_for(request, expected).check(source, [entry["target"]]).verdicts[entry["target"]]
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
    _skip_unless_shown_here(entry)
    # what a torch developer does with a pasted repro: exit 1 while the bug is open, 0 once fixed
    proc = subprocess.run([sys.executable, str(CORPUS / entry["file"])], capture_output=True, text=True,
                          timeout=300, cwd=CORPUS)
    expected = 0 if entry["status"] in ("FIXED", "REGRESSION") else 1
    assert proc.returncode == expected, proc.stdout[-2000:] + proc.stderr[-2000:]
    assert ("match:" if expected == 0 else "MISMATCH:") in proc.stdout


# -- a corpus that cannot silently shrink ------------------------------------------------------------------------

def _broken_corpus(root: Path) -> Path:
    """A corpus with one good entry, one entry whose file is gone, a file with a syntax error and a stray."""
    from tests.conftest import program_source

    root.mkdir()
    good = program_source("seed_chain.py")
    (root / "good.py").write_text(good)
    (root / "syntax.py").write_text(good.replace("def entry(", "def entry((", 1))
    (root / "stray.py").write_text(good)
    entry = {"signature": "ok", "target": "eager", "torch": "2.13.0", "first_seen": "2026-11-22", "status": "FIXED"}
    files = [{"file": f, **entry} for f in ("good.py", "syntax.py", "gone.py")]
    (root / "manifest.json").write_text(json.dumps({"version": 1, "files": files}, indent=2) + "\n")
    return root


def test_corpus_check_makes_every_way_of_shrinking_an_error_and_rewrites_nothing(tmp_path, capsys):
    from fuzz.cli import main

    root = _broken_corpus(tmp_path / "corpus")
    manifest = (root / "manifest.json").read_bytes()
    assert main(["corpus", "check", "--dir", str(root)]) == 1
    out = capsys.readouterr()
    errors = {line.split()[1] for line in out.out.splitlines() if line.startswith("ERROR")}
    assert errors == {"gone.py", "syntax.py", "stray.py"}, out.out
    assert "3 errors" in out.err and "the manifest was not updated" in out.err
    assert (root / "manifest.json").read_bytes() == manifest
    assert main(["corpus", "list", "--dir", str(root)]) == 1
    assert "MISSING    gone.py" in capsys.readouterr().out


def test_corpus_commands_on_a_missing_directory_are_usage_errors(tmp_path, capsys):
    from fuzz.cli import main

    for action in ("check", "list", "stats"):
        assert main(["corpus", action, "--dir", str(tmp_path / "typo")]) == 2
        assert "no corpus at" in capsys.readouterr().err
    assert not (tmp_path / "typo").exists()


def test_corpus_add_refuses_a_program_that_does_not_load(tmp_path, capsys):
    from fuzz.cli import main
    from tests.conftest import program_source

    exits = tmp_path / "exits.py"
    exits.write_text(program_source("seed_chain.py").replace("import torch\n", "import torch\nraise SystemExit(3)\n", 1))
    assert main(["corpus", "add", str(exits), "--target", "eager", "--dir", str(tmp_path / "c")]) == 2
    assert "exits at import" in capsys.readouterr().err
    assert not (tmp_path / "c").exists()


def test_files_given_after_options_are_still_files_and_strays_are_refused(tmp_path, capsys):
    from fuzz.cli import main
    from tests.conftest import program_source

    exits = tmp_path / "exits.py"
    exits.write_text(program_source("seed_chain.py").replace("import torch\n", "import torch\nraise SystemExit(3)\n", 1))
    # the file after the options reaches `add` (which refuses it for its own reason), not argparse's leftovers
    assert main(["corpus", "add", "--target", "eager", "--dir", str(tmp_path / "c"), str(exits)]) == 2
    assert "exits at import" in capsys.readouterr().err
    with pytest.raises(SystemExit) as stop:  # a command without a file list keeps argparse's refusal
        main(["features", "stray"])
    assert stop.value.code == 2 and "unrecognized arguments: stray" in capsys.readouterr().err
