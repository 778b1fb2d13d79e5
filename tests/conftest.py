"""Shared fixtures: program files under tests/programs and one oracle runner per test module."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

PROGRAMS = Path(__file__).parent / "programs"


def _engine_models_this_python() -> bool:
    import oracle

    return f"{sys.version_info[0]}.{sys.version_info[1]}" in oracle.target_kinds()["engine"].pythons


# The engine interprets the bytecode of some Python versions (3.11, 3.12, 3.13); elsewhere its own tests are not collected
# and tests that run programs under it are skipped (the harness itself is tested on every version).
ENGINE_HERE = _engine_models_this_python()
requires_engine = pytest.mark.skipif(not ENGINE_HERE, reason="the engine models another Python version's bytecode")
collect_ignore = [] if ENGINE_HERE else ["engine"]

# Engine tests skipped on one modelled version, by node id ("tests/engine/test_x.py::test_y", which also names every
# parametrization of it; "...::test_y[case]" names one), each with why. Only what that version does not do yet (engine/README.md, "Python versions"); the rest runs.
ENGINE_GAPS: dict[tuple[int, int], dict[str, str]] = {
    (3, 12): {},
    (3, 13): {},
}


def pytest_collection_modifyitems(config, items):
    gaps = ENGINE_GAPS.get(sys.version_info[:2], {})
    for item in items:
        for test_id, why in gaps.items():
            if item.nodeid == test_id or item.nodeid.startswith(test_id + "["):
                item.add_marker(pytest.mark.skip(reason=f"Python {sys.version_info[0]}.{sys.version_info[1]}: {why}"))


def program_source(name: str) -> str:
    """A test program with the standalone footer appended, as generated files have it."""
    import oracle

    return oracle.with_footer((PROGRAMS / name).read_text())


def raised_in_torch_frame(module: str, source: str, *args, expected: type[BaseException] = Exception
                          ) -> BaseException:
    """What the first function of ``source``, compiled as torch's file ``module`` (``"_dynamo/guards.py"``),
    raised (an ``expected``, or the test fails) when called with ``args``: an exception whose innermost frames
    are the compiler's, as oracle's naming of a crash's frame reads them."""
    namespace: dict = {}
    exec(compile(source, f"/site-packages/torch/{module}", "exec"), namespace)
    name = source.split("(")[0].removeprefix("def ")
    with pytest.raises(expected) as info:
        namespace[name](*args)
    return info.value


@pytest.fixture(scope="module")
def runner():
    import oracle

    with oracle.Runner(workers=1, timeout=30.0, hang_recheck=1.2) as r:  # the hang fault never ends: a short re-check
        yield r


@pytest.fixture(scope="module")
def hang_runner():
    """A runner for programs that never finish on their target: each such check waits out its timeout twice (the
    run, then its re-check in a fresh worker), so a short one; eager's runs of these programs take milliseconds."""
    import oracle

    with oracle.Runner(workers=1, timeout=10.0, hang_recheck=1.2) as r:
        yield r


def runner_for(request: pytest.FixtureRequest, signature: str):
    """The module's runner to check a program expected to give ``signature``: ``hang_runner`` where every check
    that shows it waits out a timeout (a hang, a slow compile), else ``runner``."""
    from oracle._slow import waits_out

    return request.getfixturevalue("hang_runner" if waits_out(signature) else "runner")
