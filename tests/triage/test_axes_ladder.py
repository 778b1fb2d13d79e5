"""Dynamo's own axes in the blame ladder: kept from the file's target, swept against the defaults, concluded on."""

import subprocess
import sys
from pathlib import Path

from fuzz.triage.ladder import Rung, Triage, conclude, format_table, rung_spec, target_axes

ROOT = Path(__file__).resolve().parents[2]
BUG = "mismatch:third_call:value"


def ladder(fails, axes=("dynamic=true", "")):
    rungs = tuple(Rung("2.13.0", None, n, "eager", BUG if fails(n, a) else "ok", a) for a in axes for n in ("on", "off"))
    return Triage(rungs, ("2.13.0",))


def test_target_axes_are_the_non_default_dynamic_and_config_options():
    assert target_axes("torch:backend=aot_eager,dynamic=true,config=specialize_int") == \
        "dynamic=true,config=specialize_int"
    assert target_axes("torch:ngb=off") == target_axes(None) == target_axes("engine") == ""
    assert rung_spec(None, "off", "eager", "config=specialize_int") == "torch:config=specialize_int,ngb=off"


def test_a_bug_that_needs_the_axes_says_so_and_the_table_shows_them():
    result = ladder(lambda n, a: a == "dynamic=true")
    assert "needs dynamic=true (fine with defaults)" in conclude(result)
    table = format_table(result).splitlines()
    assert table[0].split() == ["torch", "ngb", "axes", "eager"]
    assert table[1].split() == ["2.13.0", "on", "dynamic=true", "FAIL", "[1]"]
    assert table[2].split() == ["2.13.0", "on", "defaults", "ok"]
    assert "whatever the dynamic=/config= options tried" in conclude(ladder(lambda n, a: True))
    assert "with dynamic=true" in conclude(ladder(lambda n, a: True, axes=("dynamic=true",)))
    plain = format_table(ladder(lambda n, a: True, axes=("",)))
    assert "axes" not in plain.splitlines()[0]  # no axes column when every rung has the defaults


def test_cli_ladders_a_third_call_bug_with_and_without_the_files_axes(tmp_path):
    source = (ROOT / "tests" / "programs" / "truth" / "third_call_value.py").read_text()
    path = tmp_path / "repro.py"
    path.write_text(source.replace("# ngb-fuzz program\n", "# ngb-fuzz program\n# target: torch:dynamic=false\n"))
    out = subprocess.run([sys.executable, "-m", "fuzz.cli", "triage", str(path), "--backend", "eager"],
                         capture_output=True, text=True, cwd=ROOT, timeout=600)
    assert out.returncode == 1, out.stdout + out.stderr
    assert "axes: dynamic=false | defaults" in out.stderr
    assert "ngb=on backend=eager dynamic=false: mismatch:third_call:value" in out.stderr
    assert "whatever the dynamic=/config= options tried" in out.stdout
    bad = subprocess.run([sys.executable, "-m", "fuzz.cli", "triage", str(path), "--config", "nope"],
                         capture_output=True, text=True, cwd=ROOT, timeout=120)
    assert bad.returncode == 2 and "unknown config 'nope'" in bad.stderr
