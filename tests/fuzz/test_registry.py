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
from fuzz.triage.rootcause import _breaks_from_entry, _dump, unentered_state_objects

_FAMILIES = [f.name for f in families.FAMILIES if any(c.template for c in f.constructs)]
_AVOID = {"ctx.as_value": 0.0, "module.helper": 0.0}


def _constructs(family: str) -> list[families.Construct]:
    """The family's ir.Construct constructs (those with a template; pieces are checked below)."""
    return [c for c in families.CONSTRUCTS.values() if c.family == family and c.available() and c.template]


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
        if c.available() and c.template:
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


# ---- the older families: constructs made of pieces (a break kind, a stack context, a manager kind ...) ----------

_PIECED = [c for c in families.CONSTRUCTS.values() if c.pieces and c.available()]


def _records(program: ir.Program, name: str) -> int:
    """How many IR statements of ``program`` are pieces of construct ``name``."""
    count = 0
    for fn in program.functions:
        for s, _ in ir.walk(fn.body):
            if isinstance(s, ir.With):
                count += families.tag("ctx", s.kind) == name
            elif isinstance(s, ir.Break):
                count += families.tag("break", s.kind) == name
            elif not isinstance(s, ir.CallSite | ir.Recurse | ir.Arith | ir.Effect | ir.Probe | ir.Construct):
                count += families.read(s) == name
    return count


def _smallest_with(name: str):
    config = GenerationConfig(weights={**_AVOID, name: 40.0} if name != "ctx.as_value" else {name: 40.0})
    found = [p for p in (generate_program(5, i, config) for i in range(60)) if name in p.features]
    return min(found, key=lambda p: len(p.source)) if found else None


@pytest.mark.parametrize("name", [c.name for c in _PIECED])
def test_pieced_construct_is_wired_fully(name):
    """Generated, rendered, runs under eager twice alike, featured; a piece with a body can be unwrapped by the
    IR reducer; root-cause grouping reads the source (and knows the break's call, where it has one)."""
    program = _smallest_with(name)
    assert program is not None, f"{name} is never generated"
    assert name in extract(program.ir)
    run = run_eager(program.source)
    assert run.accident() is None, f"{name}: {run.accident()}\n{program.source}"
    assert repr(run.results) == repr(run_eager(program.source).results), f"{name}: eager is not deterministic"
    pieces = families.construct(name).pieces
    before = _records(program.ir, name)
    if before and any(p.slot in ("wrapper", "ctx") or "branch" in p.traits for p in pieces):  # it has a body
        assert any(_records(edit(), name) < before for edit in _unwrap(program.ir)), \
            f"{name}: ir-unwrap-blocks cannot take it apart"
    tree = ast.parse(program.source.split("# ---- ngb-fuzz standalone")[0])
    _dump(tree)
    for piece in pieces:
        if piece.part("call"):  # the break alone in entry: root-cause grouping sees it break
            body = piece.template.format(tag="t", k=1).replace("\n", "\n    ")
            alone = ast.parse(f"def entry(x):\n    {body}\n    return x\n")
            assert _breaks_from_entry(alone), f"{name}: root-cause grouping misses the break {piece.part('call')!r}"
        if piece.part("state"):  # a torch manager made and kept un-entered is the state-object root cause
            kept = ast.parse(f"cm = {piece.template.format(tag='t')}\nLOG.append(cm)\n")
            assert unentered_state_objects(kept) == {piece.part("state")}, name


def test_every_old_family_is_in_the_registry():
    names = {f.name for f in families.FAMILIES}
    assert {"call", "depth", "break", "stack", "ctx", "flow", "closure", "module", "input", "grad", "raise",
            "filler"} <= names


_PIECE = families.Piece("stack", "demo_ctx", "x = x * 0.5 + {call}")
_PIECE_GOOD = families.Construct("demo.ctx", 1.0, "a demo context", pieces=(_PIECE,))


@pytest.mark.parametrize(
    "broken, message",
    [
        (dataclasses.replace(_PIECE, slot="nowhere"), "unknown slot"),
        (dataclasses.replace(_PIECE, template=""), "no template"),
        (dataclasses.replace(_PIECE, template="x = {call"), "does not parse"),
        (dataclasses.replace(_PIECE, template="y = {nofield}"), "does not parse"),
        (dataclasses.replace(_PIECE, template="y = {call}"), "never uses x"),
        (dataclasses.replace(_PIECE, share=0.0), "share must be"),
        (dataclasses.replace(_PIECE, kind=""), "no kind"),
        (families.Piece("signature", "demo_sig", "{name}({arg})"), "lacks the part"),
        (families.Piece("wrapper", "demo_wrap", "x = 1", draw=lambda *a: ()), "takes no template"),
        (families.Piece("wrapper", "demo_wrap"), "no draw hook"),
        (dataclasses.replace(_PIECE, draw=lambda *a: ()), "takes no draw hook"),
        (families.Piece("placed", "demo_record", reads=lambda s: False), "reads and render"),
        (families.Piece("placed", "demo_record", render=lambda s, r: []), "reads and render"),
        (families.Piece("depth", "demo_depth", parts=(("lo", "1"),)), "lacks the part"),
    ],
)
def test_a_piece_missing_a_piece_is_refused(broken, message):
    families.check_family(families.Family("demo", "demo family", (_PIECE_GOOD,)))
    with pytest.raises(families.WiringError, match=message):
        families.check_family(families.Family("demo", "demo", (dataclasses.replace(_PIECE_GOOD, pieces=(broken,)),)))


def test_constructs_with_pieces_and_a_template_or_nothing_are_refused():
    with pytest.raises(families.WiringError, match="no ir.Construct template"):
        families.check_construct(dataclasses.replace(_PIECE_GOOD, template="x = x"), "demo")
    with pytest.raises(families.WiringError, match="no template, pieces or tag_only"):
        families.check_construct(dataclasses.replace(_PIECE_GOOD, pieces=()), "demo")


def test_two_constructs_filling_one_kind_are_refused():
    other = dataclasses.replace(_PIECE_GOOD, name="demo.other")
    with pytest.raises(families.WiringError, match="declared by"):
        families.check_pieces([families.Family("demo", "demo", (_PIECE_GOOD, other))])
    plain = families.piece("stack", "plain")
    clash = families.Construct("demo.plain", 1.0, "clash", pieces=(plain,))
    with pytest.raises(families.WiringError, match="declared by"):
        families.check_pieces([*families.FAMILIES, families.Family("demo", "demo", (clash,))])
