"""Targets whose compiler models some Python versions' bytecode (the engine: 3.11, 3.12 and 3.13) are refused, with one
line, on any other version, instead of failing on the first program."""

import stat
import subprocess
import sys

import pytest

import oracle

HERE = f"{sys.version_info[0]}.{sys.version_info[1]}"


def fake_python(tmp_path, version: str):
    """An interpreter that answers the availability probe as a Python ``version`` with torch (CPU) would."""
    path = tmp_path / f"python{version}"
    path.write_text(f"#!/bin/sh\necho ngb-fuzz-probe 0 2.15.0 {version}\n")  # the probe's tagged answer
    path.chmod(path.stat().st_mode | stat.S_IEXEC)
    return path


def test_engine_kinds_name_the_version_the_engine_models():
    engine_version = pytest.importorskip("engine._vm._version")
    for name in ("engine", "engine-classic"):
        pythons = oracle.target_kinds()[name].pythons
        # the registry and the engine's own version facts must agree about this interpreter
        assert (HERE in pythons) == engine_version.SUPPORTED
        assert set(pythons) == {f"{a}.{b}" for a, b in engine_version.VERSIONS}


@pytest.mark.parametrize("version", ["3.10", "3.14"])
def test_engine_under_another_python_version_is_not_available(tmp_path, version):
    python = fake_python(tmp_path, version)
    for spec in (f"engine:python={python}", f"engine-classic:backend=aot_eager,python={python}"):
        with pytest.raises(oracle.TargetError, match=f"not available on Python {version}"):
            oracle.check_available(oracle.parse_target(spec))
    oracle.check_available(oracle.parse_target(f"torch:python={python}"))  # torch targets run on any version


def test_engine_here_is_available_exactly_where_its_version_is_modelled():
    target = oracle.parse_target("engine")
    if HERE in oracle.target_kinds()["engine"].pythons:
        oracle.check_available(target)
    else:
        with pytest.raises(oracle.TargetError, match=f"not available on Python {HERE}"):
            oracle.check_available(target)


def test_cli_refuses_an_unmodelled_version_in_one_line(tmp_path):
    python = fake_python(tmp_path, "3.14")
    proc = subprocess.run([sys.executable, "-m", "fuzz.cli", "run", "--target", f"engine:python={python}",
                           "--out", str(tmp_path / "run")], capture_output=True, text=True, timeout=120)
    assert proc.returncode == 2
    assert "not available on Python 3.14" in proc.stderr and len(proc.stderr.strip().splitlines()) == 1


@pytest.mark.parametrize("version", ["3.11", "3.12", "3.13"])
def test_engine_under_a_modelled_version_is_available(tmp_path, version):
    python = fake_python(tmp_path, version)
    for spec in (f"engine:python={python}", f"engine-classic:python={python}"):
        oracle.check_available(oracle.parse_target(spec))
