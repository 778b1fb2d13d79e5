"""Rendering of the constructs whose meaning depends on where code lives (helper modules, globals, cells)."""

from __future__ import annotations

from fuzz.program import ir
from fuzz.program.render import render
from fuzz.program.selfcheck import run_eager


def _program(functions, modules=()):
    return ir.Program(tuple(functions), tuple(modules), ir.Inputs(seed=1, rows=2, cols=3))


def test_helper_module_functions_read_their_own_globals():
    entry = ir.Function(0, "", "plain", (), (ir.Arith("global_affine"), ir.CallSite(1, "binop")))
    helper = ir.Function(1, "h1", "plain", (), (ir.Closure((ir.Break("graph_break"), ir.Arith("global_tensor"))),))
    src = render(_program([entry, helper], [ir.HelperModule("h1", 0.5, 0.25)]))
    assert 'ngb_h1 = types.ModuleType("ngb_h1")' in src and "x = x + T_H1" in src and "ngb_h1.f1(x)" in src
    run = run_eager(src)
    assert run.accident() is None
    module = run.module
    assert module.G_SCALE != module.ngb_h1.G_SCALE  # same name, other module, other value


def test_global_side_effects_declare_global_in_each_def():
    body = (ir.Construct("side.global"), ir.Closure((ir.Construct("side.global"),)), ir.Generator("exhaust", (ir.Construct("side.global"),)))
    src = render(_program([ir.Function(0, "", "plain", (), body)]))
    assert src.count("global COUNTER") == 3
    run = run_eager(src)
    assert run.accident() is None and run.module.COUNTER == 6  # three increments per call, two calls


def test_deliberate_raise_is_marked():
    body = (ir.With("user_class", (ir.Raise("escape"),)),)
    run = run_eager(render(_program([ir.Function(0, "", "plain", (), body)])))
    assert run.accident() is None
    assert run.results[0][0] == "raised" and "ngb deliberate" in run.results[0][2]
    tags = [tag for tag, _ in run.module.EFFECTS]
    assert tags[-1].endswith(".exit")  # __exit__ saw the exception on its way out
