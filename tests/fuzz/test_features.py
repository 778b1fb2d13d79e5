"""The catalog, tag extraction, histograms, and `ngb-fuzz features`."""

from __future__ import annotations

import json

from fuzz.cli import main
from fuzz.program import ir
from fuzz.program.features import CATALOG, extract, families, family_histogram, histogram
from fuzz.program.generate import generate_program


def _program(*body, module="", signature="plain", decorators=(), callee_body=None):
    fns = [ir.Function(0, "", "plain", (), tuple(body))]
    if callee_body is not None:
        fns.append(ir.Function(1, module, signature, decorators, tuple(callee_body)))
    modules = (ir.HelperModule("h1", 0.5, 0.25),) if module else ()
    return ir.Program(tuple(fns), modules, ir.Inputs(seed=0, rows=2, cols=3))


def test_catalog_names_unique_and_families_known():
    names = [f.name for f in CATALOG]
    assert len(names) == len(set(names))
    assert {"call", "depth", "break", "stack", "ctx", "flow", "side", "module", "closure"} <= set(families())


def test_extract_upper_frame_ctx_break():
    p = _program(ir.With("no_grad", (ir.CallSite(1, "plain"),)), callee_body=[ir.Break("graph_break")])
    tags = extract(p)
    assert {"ctx.no_grad", "break.graph_break", "stack.plain", "shape.upper_ctx_break", "depth.1"} <= tags


def test_extract_step_break_under_stack():
    p = _program(ir.CallSite(1, "tuple_display"), callee_body=[ir.Break("step_unsupported")])
    assert "shape.step_break_stack" in extract(p)
    p = _program(ir.CallSite(1, "plain"), callee_body=[ir.Break("step_unsupported")])
    assert "shape.step_break_stack" not in extract(p)


def test_extract_helper_closure_globals():
    closure = ir.Closure((ir.Break("graph_break"), ir.Arith("global_tensor")))
    p = _program(ir.CallSite(1, "plain"), module="h1", callee_body=[closure])
    assert {"module.helper", "closure.nonlocal", "shape.helper_closure_globals"} <= extract(p)


def test_histograms_count_programs():
    programs = [generate_program(0, i) for i in range(20)]
    hist = histogram(programs)
    assert hist == histogram(p.ir for p in programs)
    assert all(0 < n <= 20 for n in hist.values())
    fam = family_histogram(programs)
    assert fam["break"] == 20 and fam["depth"] == 20


def test_cli_lists_catalog(capsys):
    assert main(["features"]) == 0
    out = capsys.readouterr().out
    assert "break.step_unsupported" in out and "[ctx]" in out
    assert main(["features", "--json", "--sample", "5"]) == 0
    rows = json.loads(capsys.readouterr().out)
    assert {r["name"] for r in rows} >= {f.name for f in CATALOG}
    assert all("sampled" in r for r in rows)


def test_boosted_multiplies_weights_of_tags():
    from fuzz.program.features import GenerationConfig, boosted

    base = GenerationConfig(weights={"ctx": 0.5})
    config = boosted(base, ["ctx.no_grad", "shape.upper_ctx_break", "break.print"], factor=3.0)
    assert config.weight("ctx.no_grad") == base.weight("ctx.no_grad") * 3.0
    assert config.weight("break.print") == base.weight("break.print") * 3.0
    assert config.weight("ctx.enable_grad") == base.weight("ctx.enable_grad")
