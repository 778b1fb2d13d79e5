"""Files a user hands ngb-fuzz, read as the user meant them: a program saved with a UTF-8 BOM and CRLF line ends
loads (in ``repro`` and in its own standalone check), a directory given for a file is named as one, a corpus
manifest that contradicts itself is refused before anything is written, and every command printed for pasting
survives paths with spaces and non-ASCII characters."""

import json
import shlex
import subprocess
import sys

import pytest

from fuzz.cli import main
from tests.conftest import program_source

GOOD = program_source("seed_chain.py")


def _bom_crlf(path):
    path.write_bytes(b"\xef\xbb\xbf" + GOOD.replace("\n", "\r\n").encode())
    return path


def test_a_program_saved_with_a_bom_and_crlf_loads_in_repro(tmp_path, capsys):
    path = _bom_crlf(tmp_path / "bom.py")
    assert main(["repro", str(path), "--target", "eager"]) == 0, capsys.readouterr().err


def test_the_standalone_check_of_a_program_saved_with_a_bom_and_crlf_runs(tmp_path):
    path = _bom_crlf(tmp_path / "bom.py")
    proc = subprocess.run([sys.executable, str(path), "torch"], capture_output=True, text=True, timeout=300)
    assert proc.returncode == 0 and "match" in proc.stdout, proc.stdout[-2000:] + proc.stderr[-2000:]


def test_a_directory_given_for_a_program_file_is_named_as_one(tmp_path, capsys):
    for command in (["repro", str(tmp_path)], ["triage", str(tmp_path)], ["reduce", str(tmp_path), "--target", "eager"]):
        assert main(command) == 2
        err = capsys.readouterr().err
        assert f"{tmp_path} is a directory" in err and "no such file" not in err, err


def _manifest_entry(file, **extra):
    return {"file": file, "signature": "mismatch:value:values", "target": "fault:perturb", "torch": "2.13.0",
            "first_seen": "2026-11-01", "status": "KNOWN", **extra}


@pytest.mark.parametrize("entries, says", [
    ([_manifest_entry("a.py", note="first"), _manifest_entry("a.py", note="second")], "a.py is listed twice"),
    ([_manifest_entry("a.py", status="WONTFIX")], "unknown status 'WONTFIX'"),
])
@pytest.mark.parametrize("action", [["list"], ["stats"], ["add", "{d}/good.py", "--target", "eager"]])
def test_a_manifest_that_contradicts_itself_is_an_error_and_stays_untouched(tmp_path, capsys, entries, says,
                                                                            action):
    root = tmp_path / "corpus"
    root.mkdir()
    (root / "a.py").write_text(GOOD)
    (tmp_path / "good.py").write_text(GOOD)
    manifest = json.dumps({"version": 1, "files": entries}, indent=2).encode()
    (root / "manifest.json").write_bytes(manifest)
    argv = ["corpus", *[a.replace("{d}", str(tmp_path)) for a in action], "--dir", str(root)]
    assert main(argv) == 1
    err = capsys.readouterr().err
    assert says in err and "manifest.json" in err and "Traceback" not in err, err
    assert (root / "manifest.json").read_bytes() == manifest
    assert sorted(p.name for p in root.iterdir()) == ["a.py", "manifest.json"]


def _pasted(line: str, command: str) -> list[str]:
    """The words a shell gives the command printed in ``line`` after ``command``."""
    start = line.index(command)
    return shlex.split(line[start:].split("  (")[0])


def test_printed_commands_survive_paths_with_spaces_and_non_ascii(tmp_path, capsys):
    from fuzz.cli._run import _print_summary

    out = tmp_path / "my runs" / "zürich $HOME"
    bucket = {"count": 2, "status": "NEW", "signature": "mismatch:value:values", "target": "torch:ngb=off",
              "repro": "001-mismatch-value-values-torch.py", "reduction": "pending", "same_as": None, "known": None,
              "lines": None}
    summary = {"verdicts": {"mismatch": 2}, "programs": 2, "seconds": 1.0, "buckets": [bucket], "root_causes": 1}
    _print_summary(summary, out, "done")
    lines = capsys.readouterr().out.splitlines()
    [replay] = [line for line in lines if "replay:" in line]
    assert _pasted(replay, "ngb-fuzz repro") == ["ngb-fuzz", "repro", str(out / bucket["repro"]), "--target",
                                                  "torch:ngb=off"]
    [reduce] = [line for line in lines if "reduce --campaign" in line]
    assert _pasted(reduce, "ngb-fuzz reduce") == ["ngb-fuzz", "reduce", "--campaign", str(out)]


def test_repro_prints_a_replay_command_that_pastes(tmp_path, capsys):
    folder = tmp_path / "a folder" / "ünïcode"
    folder.mkdir(parents=True)
    path = folder / "p.py"
    path.write_text(GOOD)
    assert main(["repro", str(path), "--target", "fault:perturb"]) == 1
    [replay] = [line for line in capsys.readouterr().out.splitlines() if "replay:" in line]
    assert _pasted(replay, "ngb-fuzz repro") == ["ngb-fuzz", "repro", str(path), "--target", "fault:perturb"]
