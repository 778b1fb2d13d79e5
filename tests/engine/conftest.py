"""Engine-test switches.

NGB_ENGINE_ALL_EAGER=1 replaces the engine's entry with a plain eager call of the function, for the whole
session. It measures how much the engine tests depend on the engine compiling anything: with it set, almost
every test must fail (issue #14: fewer than 10% may pass). Test-only on purpose: the engine itself has no
such mode.
"""

from __future__ import annotations

import os

import pytest


@pytest.fixture(autouse=True, scope="session")
def _engine_all_eager():
    if os.environ.get("NGB_ENGINE_ALL_EAGER") != "1":
        yield
        return
    from engine import _segments

    original = _segments.Compiled.__call__

    def all_eager(self, *args, **kwargs):
        return self.fn(*args, **kwargs)

    _segments.Compiled.__call__ = all_eager
    try:
        yield
    finally:
        _segments.Compiled.__call__ = original
