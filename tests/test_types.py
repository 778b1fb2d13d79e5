"""The type checker over the typed scope (pyproject.toml, [tool.mypy]: oracle/, engine's non-VM core, the
campaign state and the public surface): CI fails with mypy's own report on any error it finds.

One test, so one mypy run per pytest session whatever the number of xdist workers. A cold run (CI's: a fresh
clone has no .mypy_cache) takes about 13 s of CPU here, torch's own annotations included (a minute of wall
time on a loaded 2-core machine); a warm one about a second. Checked on the Python and torch CI installs (3.11, constraints.txt): mypy reads the installed torch's
annotations, which other releases change.
"""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]


@pytest.mark.skipif(sys.version_info[:2] != (3, 11), reason="the typed scope is checked on CI's Python (3.11)")
def test_mypy_reports_no_error_on_the_typed_scope():
    proc = subprocess.run([sys.executable, "-m", "mypy"], cwd=ROOT, capture_output=True, text=True, timeout=600)
    assert proc.returncode == 0, f"mypy (pyproject.toml [tool.mypy]) reports:\n{proc.stdout}{proc.stderr}"
