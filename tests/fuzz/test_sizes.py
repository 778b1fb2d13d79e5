"""Inputs of other sizes (``make_inputs(device, size=1)``, the oracle's third call) and ``input.mark_dynamic``."""

from __future__ import annotations

import dataclasses

import pytest
import torch

from fuzz.program import ir
from fuzz.program.features import extract
from fuzz.program.generate import generate_program
from fuzz.program.render import other_size, render
from fuzz.program.selfcheck import run_eager
from tests.fuzz.test_inputs import _all_templates_program, _inputs


@pytest.mark.parametrize("rank", (1, 2, 3))
@pytest.mark.parametrize("layout", ("contiguous", "transposed"))
def test_size_1_changes_every_dimension_and_every_template_keeps_it(rank, layout):
    inputs = dataclasses.replace(_inputs(rank, "float32", layout, requires_grad=True,
                                          extras=("scalar", "empty", "double", "int")), other_sizes=True)
    run = run_eager(render(_all_templates_program(inputs)))
    assert run.accident() is None, run.accident()
    module = run.module
    x, *extras = module.make_inputs("cpu", size=1)
    other = tuple(map(other_size, inputs.shape))
    assert tuple(x.shape) == other and all(a != b and b >= 2 for a, b in zip(inputs.shape, other))
    assert x.is_contiguous() == (layout == "contiguous") and x.requires_grad and x.is_leaf
    assert [tuple(e.shape) for e in extras] == [(), (0, other[-1]), (other[-1],), (other[-1],)]
    out = module.entry(x, *extras)
    assert tuple(out.shape) == other and torch.isfinite(out.float()).all()
    # the usual inputs stay what they were: size=0 is the default
    assert torch.equal(module.make_inputs("cpu")[0], module.make_inputs("cpu", size=0)[0])


def test_other_sizes_is_a_feature_and_without_it_make_inputs_takes_no_size():
    program = _all_templates_program(_inputs())
    assert "def make_inputs(device):" in render(program) and "input.other_sizes" not in extract(program)
    resized = dataclasses.replace(program, inputs=dataclasses.replace(_inputs(), other_sizes=True))
    assert "def make_inputs(device, size=0):" in render(resized) and "input.other_sizes" in extract(resized)
    assert "for size in (0, 0, 1)" in render(resized) and "for size in" not in render(program)  # the footer


def test_mark_dynamic_is_a_feature_rendered_in_make_inputs():
    program = ir.Program((ir.Function(0, "", "plain", (), (ir.Arith("tanh"),)),), (),
                         dataclasses.replace(_inputs(requires_grad=True), mark_dynamic=True))
    source = render(program)
    assert "torch._dynamo.maybe_mark_dynamic(x, 0)" in source
    assert "input.mark_dynamic" in extract(program)
    assert "input.mark_dynamic" not in extract(dataclasses.replace(program, inputs=_inputs()))
    x, = run_eager(source).module.make_inputs("cpu")
    assert x.requires_grad and x.is_leaf and 0 in x._dynamo_weak_dynamic_indices  # marked on what entry gets


def test_generated_programs_sometimes_mark_x_dynamic_and_give_other_sizes():
    programs = [generate_program(5, i) for i in range(300)]
    marked = sum("input.mark_dynamic" in p.features for p in programs)
    assert 1 <= marked <= 30  # a low weight: a few in a hundred
    resized = [p for p in programs if "input.other_sizes" in p.features]
    assert 15 <= len(resized) <= 90  # some 15%: the third call costs about 1.4 times the rest of a check
    assert all(("def make_inputs(device, size=0):" in p.source) == (p in resized) for p in programs)
