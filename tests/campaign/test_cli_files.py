"""Exit codes that never lie: `repro` exits 0 only for a program that ran and matched; files that are not
programs are refused by repro, reduce and corpus add; output paths are checked before long work starts."""

import pytest

from fuzz.cli import main
from tests.conftest import program_source

GOOD = program_source("seed_chain.py")


@pytest.fixture
def files(tmp_path):
    made = {
        "binary.py": b"\x7fELF\x02\x01\x01\x00\x00\x00" + bytes(range(256)),
        "syntax.py": b"def entry(x:\n    return x\n",
        "comments.py": b"# def entry(x): ...\n# def make_inputs(device): ...\nx = 1\n",
        "good.py": GOOD.encode(),
    }
    for name, data in made.items():
        (tmp_path / name).write_bytes(data)
    return tmp_path


@pytest.mark.parametrize("name, code, says", [
    ("binary.py", 2, "not a program file"),
    ("syntax.py", 3, "does not load: syntax error at line 1"),
    ("comments.py", 3, "does not load: it defines no entry at top level"),
])
def test_repro_of_a_file_that_is_no_program_never_exits_0(files, capsys, name, code, says):
    assert main(["repro", str(files / name), "--target", "eager"]) == code
    assert says in capsys.readouterr().err


@pytest.mark.parametrize("body, code", [
    ("import sys\nsys.exit(0)\n", 3),  # exits at import: the program does not load
    ("raise ValueError('at import')\n", 3),
    ("import os\ndef make_inputs(device):\n    os._exit(0)\n", 4),  # eager dies
])
def test_repro_of_a_program_that_does_not_run_has_its_own_exit_code(tmp_path, capsys, body, code):
    path = tmp_path / "p.py"
    path.write_text(GOOD.replace("# ---- ngb-fuzz standalone check", body + "# ---- ngb-fuzz standalone check", 1))
    assert main(["repro", str(path), "--target", "eager", "--timeout", "120"]) == code


@pytest.mark.parametrize("argv", [
    ["reduce", "{d}/binary.py", "--target", "eager"],
    ["reduce", "{d}/syntax.py", "--target", "eager"],
    ["corpus", "add", "{d}/binary.py", "--target", "eager", "--dir", "{d}/corpus"],
    ["corpus", "add", "{d}/comments.py", "--target", "eager", "--dir", "{d}/corpus"],
    ["reduce", "{d}/good.py", "--target", "eager", "--out", "{d}/missing/r.py"],
    ["reduce", "{d}/good.py", "--target", "eager", "--out", "{d}"],
    ["reduce", "{d}/good.py", "--target", "eager", "--budget", "0s"],
    ["repro", "{d}/good.py", "--timeout", "inf"],
])
def test_non_programs_and_unusable_outputs_are_refused_before_any_work(files, capsys, argv):
    assert main([a.replace("{d}", str(files)) for a in argv]) == 2
    err = capsys.readouterr().err
    assert len(err.strip().splitlines()) == 1 and "Traceback" not in err, err
    assert not (files / "corpus").exists()  # nothing recorded
