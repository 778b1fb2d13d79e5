"""Shared fixtures: program files under tests/programs and one oracle runner per test module."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

PROGRAMS = Path(__file__).parent / "programs"


def _engine_models_this_python() -> bool:
    import oracle

    return f"{sys.version_info[0]}.{sys.version_info[1]}" in oracle.target_kinds()["engine"].pythons


# The engine interprets one Python version's bytecode; elsewhere its own tests are not collected and tests that run
# programs under it are skipped (the harness itself is tested on every version).
ENGINE_HERE = _engine_models_this_python()
requires_engine = pytest.mark.skipif(not ENGINE_HERE, reason="the engine models another Python version's bytecode")
collect_ignore = [] if ENGINE_HERE else ["engine"]


def program_source(name: str) -> str:
    """A test program with the standalone footer appended, as generated files have it."""
    import oracle

    return oracle.with_footer((PROGRAMS / name).read_text())


@pytest.fixture(scope="module")
def runner():
    import oracle

    with oracle.Runner(workers=1, timeout=30.0, hang_recheck=1.2) as r:  # the hang fault never ends: a short re-check
        yield r
