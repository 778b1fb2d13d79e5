"""An interpreter given by ``python=`` (or ``triage --python``) that does not answer as a Python with torch is a
usage error: one line and exit 2, never a traceback (whose exit 1 ``repro`` and ``triage`` define as a finding).
A wrapper that prints on stdout before it execs Python is refused the same way: workers talk to ngb-fuzz over
their stdout, which the wrapper's words would garble (docs/oracle.md)."""

import stat
import sys

import pytest

import oracle
from fuzz.cli import main
from tests.conftest import program_source


def _script(path, body):
    path.write_text("#!/bin/sh\n" + body)
    path.chmod(path.stat().st_mode | stat.S_IEXEC)
    return str(path)


@pytest.fixture
def interpreters(tmp_path):
    return {
        "true": "/bin/true",
        "echoes": _script(tmp_path / "echoes", f"echo hello from the wrapper\nexec {sys.executable} \"$@\"\n"),
        "not-python": _script(tmp_path / "not-python", "echo 1 2 3 4 5\n"),
    }


@pytest.mark.parametrize("which", ["true", "echoes", "not-python"])
def test_an_interpreter_that_answers_unexpectedly_is_one_line_and_exit_2(tmp_path, capsys, interpreters, which):
    program = tmp_path / "p.py"
    program.write_text(program_source("seed_chain.py"))
    python = interpreters[which]
    for argv in (["repro", str(program), "--target", f"torch:python={python}"],
                 ["triage", str(program), "--python", python, "--backend", "eager"]):
        assert main(argv) == 2
        err = capsys.readouterr().err
        assert len(err.strip().splitlines()) == 1 and "Traceback" not in err and python in err, err


def test_a_wrapper_that_prints_before_exec_is_told_why(interpreters):
    with pytest.raises(oracle.TargetError, match="printed .*hello from the wrapper.* on stdout"):
        oracle.check_available(oracle.parse_target(f"torch:python={interpreters['echoes']}"))


def test_a_wrapper_that_prints_on_stderr_before_exec_is_fine(tmp_path):
    python = _script(tmp_path / "chatty", f"echo activating the venv >&2\nexec {sys.executable} \"$@\"\n")
    oracle.check_available(oracle.parse_target(f"torch:python={python}"))
