"""The construct registry (fuzz/program/families): every construct is wired fully, and a missing piece is caught.

For each family, each construct is generated (drawn by the strategies), rendered (a program that runs under
eager, deterministically, keeping x's shape and dtype), featured (its tag extracted from the IR), reduced (the
IR reducer can take a hosting construct apart, keeping its body) and grouped (root-cause shapes keep the library
names it declares).
"""

from __future__ import annotations

import ast
import dataclasses

import pytest
import torch

from fuzz.program import families, ir
from fuzz.program.features import CATALOG, GenerationConfig, extract
from fuzz.program.generate import generate_program
from fuzz.program.render import render
from fuzz.program.selfcheck import run_eager
from fuzz.reduce.passes._ir import _unwrap
from fuzz.triage.rootcause import _dump

_FAMILIES = [f.name for f in families.FAMILIES]
_AVOID = {"ctx.as_value": 0.0, "module.helper": 0.0}


def _constructs(family: str) -> list[families.Construct]:
    return [c for c in families.CONSTRUCTS.values() if c.family == family and c.available()]


def _program(c: families.Construct, rank: int = 2) -> ir.Program:
    """entry runs ``c`` (its hole calling f1, which breaks) between two graph breaks."""
    inner = (ir.CallSite(1, "plain"), ir.Effect("x.sum()")) if c.hosts else ()
    body = (ir.Break("graph_break"), ir.Construct(c.name, inner), ir.Arith("tanh"), ir.Break("graph_break"))
    callee = ir.Function(1, "", "plain", (), (ir.Arith("add", 0.5), ir.Break("graph_break"), ir.Arith("tanh")))
    inputs = ir.Inputs(seed=3, rows=3, cols=4, rank=rank)
    return ir.Program((ir.Function(0, "", "plain", (), body), callee), (), inputs)


@pytest.mark.parametrize("family", _FAMILIES)
def test_family_is_wired_fully(family):
    names = {f.name for f in CATALOG}
    for c in _constructs(family):
        assert c.name in names, f"{c.name} is not in the feature catalog"
        program = _program(c)
        source = render(program)
        assert c.name in extract(program)
        run = run_eager(source)
        assert run.accident() is None, f"{c.name}: {run.accident()}\n{source}"
        again = run_eager(source)
        assert repr(run.results) == repr(again.results), f"{c.name}: eager is not deterministic"
        out = run.results[0][1]
        out = out[0] if isinstance(out, tuple) else out
        assert isinstance(out, torch.Tensor) and tuple(out.shape) == program.inputs.shape, c.name
        assert out.dtype == torch.float32 and torch.isfinite(out).all(), c.name
        if c.hosts:  # the hole ran: f1's effect is in the log, and the reducer can take the construct apart
            tags = [tag for tag, _ in run.module.EFFECTS]
            assert any(t.startswith("entry.") for t in tags), c.name
            unwrapped = [edit() for edit in _unwrap(program)]
            assert any(
                not any(isinstance(s, ir.Construct) for s in p.functions[0].body)
                and any(isinstance(s, ir.CallSite) for s in p.functions[0].body)
                for p in unwrapped
            ), f"{c.name}: ir-unwrap-blocks cannot replace it by its body"
        dump = _dump(ast.parse(source.split("# ---- ngb-fuzz standalone")[0]))
        for name in c.keep_names:
            assert f"id='{name}'" in dump, f"{c.name}: root-cause shapes lose {name!r}"


@pytest.mark.parametrize("family", _FAMILIES)
def test_family_is_generated(family):
    for c in _constructs(family):
        if not c.filler and not c.hosts:
            continue  # placed by the strategies at one spot (side.inplace_input), drawn below
        config = GenerationConfig(weights={**_AVOID, c.name: 40.0})
        assert any(c.name in generate_program(5, i, config).features for i in range(60)), c.name


def test_inplace_input_is_generated():
    config = GenerationConfig(weights={"side.inplace_input": 40.0})
    assert any("side.inplace_input" in generate_program(5, i, config).features for i in range(60))


def test_constructs_run_on_every_rank():
    for c in families.CONSTRUCTS.values():
        if c.available():
            for rank in (1, 3):
                run = run_eager(render(_program(c, rank)))
                assert run.accident() is None, f"{c.name} rank {rank}: {run.accident()}"


_GOOD = families.Construct("demo.ok", 1.0, "a demo", "x = {hole}(x) * 0.5")


@pytest.mark.parametrize(
    "broken, message",
    [
        (dataclasses.replace(_GOOD, description=""), "no description"),
        (dataclasses.replace(_GOOD, name="other.ok"), "its name must be"),
        (dataclasses.replace(_GOOD, template="y = {hole}(1"), "does not parse"),
        (dataclasses.replace(_GOOD, template="y = 1"), "never reads or writes x"),
        (dataclasses.replace(_GOOD, template="x = x + 1\n{hole}"), None),  # a hole as a statement is a use
        (dataclasses.replace(_GOOD, template="x = '{hole}'"), "is not used as a name"),
        (dataclasses.replace(_GOOD, defs="class _A(:\n"), "defs do not parse"),
        (dataclasses.replace(_GOOD, imports=("heapq",)), "neither template nor defs use it"),
        (dataclasses.replace(_GOOD, weight=-1.0), "negative weight"),
        (dataclasses.replace(_GOOD, calls=0), "calls must be"),
    ],
)
def test_a_construct_missing_a_piece_is_refused(broken, message):
    if message is None:
        families.check_construct(broken, "demo")
        return
    with pytest.raises(families.WiringError, match=message):
        families.check_family(families.Family("demo", "demo family", (broken,)))


def test_a_family_declaring_a_construct_twice_or_none_is_refused():
    with pytest.raises(families.WiringError, match="declared twice"):
        families.check_family(families.Family("demo", "demo", (_GOOD, _GOOD)))
    with pytest.raises(families.WiringError, match="no constructs"):
        families.check_family(families.Family("demo", "demo", ()))
