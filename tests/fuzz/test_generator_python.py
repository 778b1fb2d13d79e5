"""The generator's Python knob: constructs that need a newer Python than the harness's are drawn when (and only
when) every target's interpreter parses them; such programs run there, and the campaign sets the knob from its
targets' interpreters."""

from __future__ import annotations

import os
import shutil
import stat
import sys

import pytest

import oracle
from fuzz.campaign.loop import CampaignConfig, oldest_python
from fuzz.program import families
from fuzz.program.features import GenerationConfig
from fuzz.program.generate import generate_program
from fuzz.reduce._oracle import parses_here
from oracle import header_fields

NEW_312 = ("control.generic_func", "control.generic_class", "control.type_alias", "strings.pep701")
BOOSTED = {name: 50.0 for name in NEW_312}
HERE = sys.version_info[:2]


def _python312() -> str | None:
    """A Python 3.12 interpreter with torch: $NGB_PYTHON312, the project's venv, or python3.12 on PATH."""
    for path in (os.environ.get("NGB_PYTHON312"), "/work/venvs/py312/bin/python", shutil.which("python3.12")):
        if path and os.path.exists(path):
            try:
                if oracle.versions_of(path)[1] == "3.12":
                    return path
            except oracle.TargetError:
                pass
    return None


def fake_python(tmp_path, version: str):
    """An interpreter that answers the availability probe as a Python ``version`` with torch would."""
    path = tmp_path / f"python{version}"
    path.write_text(f"#!/bin/sh\necho ngb-fuzz-probe 0 2.13.0 {version}\n")
    path.chmod(path.stat().st_mode | stat.S_IEXEC)
    return str(path)


def test_the_new_constructs_need_3_12():
    for name in NEW_312:
        c = families.construct(name)
        assert c.min_python == (3, 12) and c.hosts, name
        assert c.available((3, 12)) and not c.available((3, 11))
        assert c in families.hosting((3, 12)) and c not in families.hosting((3, 11))
        assert not c.defs  # module-level defs are parsed by the harness, which may be older


def test_for_an_older_python_they_are_never_drawn():
    config = GenerationConfig(BOOSTED, max_depth=3, max_functions=4, python=(3, 11))
    for index in range(30):
        program = generate_program(1, index, config)
        assert not program.features & set(NEW_312), index
        assert header_fields(program.source)["for-python"] == "3.11"


def test_coverage_counts_only_what_the_campaign_can_draw():
    """The live view's rarest features are among those a campaign's programs may hold: a construct for a newer
    Python than its oldest interpreter (or weighted 0) is never drawn, so its count of 0 says nothing."""
    from fuzz.cli._run import feature_rows, rarest_tags
    from fuzz.program.features import CATALOG, drawable

    older = drawable(GenerationConfig(python=(3, 11)))
    assert not set(NEW_312) & set(older) and "control.for_else" in older
    assert set(NEW_312) <= set(drawable(GenerationConfig(python=(3, 12))))
    assert "control.for_else" not in drawable(GenerationConfig({"control.for_else": 0}, python=(3, 12)))
    seen = {f.name: 3 for f in CATALOG if f.name not in NEW_312}
    seen["control.for_else"] = 1
    assert rarest_tags(seen, 2, older)[0] == ("control.for_else", 1)
    rows = {family: rare for family, _, rare, _ in feature_rows(10, {"control": 10}, seen, {}, older)}
    assert rows["control"] == "for_else=1" and rows["strings"].endswith("=3")


def test_the_default_is_this_interpreters_python():
    assert GenerationConfig().for_python == HERE
    program = generate_program(1, 0, GenerationConfig(BOOSTED, max_depth=3, max_functions=4))
    assert "for-python" not in header_fields(program.source)
    if HERE < (3, 12):
        for index in range(30):
            features = generate_program(1, index, GenerationConfig(BOOSTED, max_depth=3, max_functions=4)).features
            assert not features & set(NEW_312), index


def test_for_3_12_they_are_drawn_and_the_header_rebuilds_the_program():
    config = GenerationConfig(BOOSTED, max_depth=3, max_functions=4, python=(3, 12))
    program = generate_program(1, 186, config)
    assert set(NEW_312) <= program.features
    fields = header_fields(program.source)
    assert fields["for-python"] == "3.12"
    major, minor = map(int, fields["for-python"].split("."))
    again = generate_program(1, 186, GenerationConfig(BOOSTED, max_depth=3, max_functions=4, python=(major, minor)))
    assert again.source == program.source
    assert parses_here(program.source) == (HERE >= (3, 12))


def test_bad_knob_values_are_refused():
    for bad in ((2, 7), (3, 9), (3,)):
        with pytest.raises(ValueError, match="python must be"):
            GenerationConfig(python=bad)


def test_a_campaign_generates_for_its_oldest_interpreter(tmp_path):
    py312, py313 = fake_python(tmp_path, "3.12"), fake_python(tmp_path, "3.13")
    assert oldest_python([f"torch:python={py312}", f"torch:python={py313}"]) == (3, 12)
    assert oldest_python([f"torch:python={py313}", "torch"]) == min(HERE, (3, 13))
    config = CampaignConfig((f"engine:python={py312}", f"torch:python={py313}"), tmp_path)
    if HERE == (3, 12):
        assert config.generation() is None  # the catalog's weights, for this interpreter's Python
    else:
        assert config.generation().python == (3, 12)
    assert CampaignConfig(("torch",), tmp_path).generation() is None


def test_a_3_12_program_runs_under_eager_and_the_engine_on_3_12():
    python = _python312()
    if python is None:
        pytest.skip("no Python 3.12 interpreter with torch here ($NGB_PYTHON312, /work/venvs/py312, python3.12)")
    program = generate_program(1, 186, GenerationConfig(BOOSTED, max_depth=3, max_functions=4, python=(3, 12)))
    spec = oracle.parse_target(f"engine:python={python}").spec
    with oracle.Runner(workers=1, timeout=300) as runner:
        eager = runner.run(program.source, oracle.parse_target(spec).eager, 2)
        report = runner.check(program.source, [spec])
    assert "calls" in eager and all(call["exception"] is None for call in eager["calls"]), eager
    # each new construct logged its effect: it ran, under eager on 3.12
    logged = repr([call["effects"] for call in eager["calls"]])
    assert "TypeVarTuple" in logged and "ParamSpec" in logged  # generic_func
    assert "Generic" in logged  # generic_class (its MRO)
    assert "TypeAliasType" in logged and "int | float" in logged  # type_alias
    assert "float32|'a\\\\tb'|" in logged  # pep701
    assert report.eager_outcome == "returned"
    assert report.verdicts[spec].signature == "ok", report.verdicts[spec]


def test_a_harness_that_cannot_parse_the_program_reduces_its_ir_only():
    python = _python312()
    if python is None or HERE >= (3, 12):
        pytest.skip("needs a harness older than 3.12 and a Python 3.12 interpreter with torch")
    from fuzz.reduce import ReduceError, reduce_program

    program = generate_program(1, 186, GenerationConfig(BOOSTED, max_depth=3, max_functions=4, python=(3, 12)))
    spec = f"fault:drop-effect,python={python}"
    with pytest.raises(ReduceError, match="does not parse on this Python"):
        reduce_program(program.source, spec, budget_s=5.0, rechecks=0)
    result = reduce_program(program.source, spec, ir=program.ir, budget_s=30.0, rechecks=0)
    assert "ir only: newer syntax" in result.stages
    assert result.lines <= result.original_lines and result.signature.startswith("mismatch:")


def test_the_cli_loads_a_program_written_for_a_newer_python():
    from fuzz.cli._common import program_problem

    program = generate_program(1, 186, GenerationConfig(BOOSTED, max_depth=3, max_functions=4, python=(3, 12)))
    assert program_problem(program.source) is None  # its targets' interpreters parse it, not (maybe) this one
    broken = program.source.replace("# for-python: 3.12", "# for-python: 3.11").replace("def entry(", "def entry((")
    assert program_problem(broken).startswith("syntax error")
