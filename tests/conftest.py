"""Shared fixtures: program files under tests/programs and one oracle runner per test module."""

from __future__ import annotations

from pathlib import Path

import pytest

PROGRAMS = Path(__file__).parent / "programs"


def program_source(name: str) -> str:
    """A test program with the standalone footer appended, as generated files have it."""
    import oracle

    return oracle.with_footer((PROGRAMS / name).read_text())


@pytest.fixture(scope="module")
def runner():
    import oracle

    with oracle.Runner(workers=1, timeout=30.0) as r:
        yield r
