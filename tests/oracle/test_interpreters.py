"""Targets under another interpreter (python=...) run in their own worker pool."""

import os
import stat
import sys

import oracle
from tests.conftest import program_source


def test_target_under_another_interpreter_path(tmp_path, runner):
    # A wrapper script is a distinct interpreter path with the same torch: it exercises the mechanism
    # (availability probe, a separate pool, the standalone worker script) without a second install.
    python = tmp_path / "python"
    python.write_text(f"#!/bin/sh\nexec {sys.executable} \"$@\"\n")
    python.chmod(python.stat().st_mode | stat.S_IEXEC)
    target = oracle.parse_target(f"torch:python={python}")
    oracle.check_available(target)
    report = runner.check(program_source("seed_chain.py"), [target.spec, "torch"])
    assert {k: v.kind for k, v in report.verdicts.items()} == {target.spec: "ok", "torch": "ok"}
    assert set(runner._pools) == {None, os.path.abspath(python)}
