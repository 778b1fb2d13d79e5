"""The working tensor's dtypes, ranks and layouts, and the loop over its data: every template stays valid."""

from __future__ import annotations

import itertools

import pytest
import torch

from fuzz.program import ir
from fuzz.program._templates import ARITH
from fuzz.program.features import extract
from fuzz.program.render import render
from fuzz.program.selfcheck import run_eager
from tests.conftest import requires_engine
from tests.fuzz import _exec

_DTYPES = ("float32", "float64", "bfloat16")
_RANKS = (1, 2, 3)


def _inputs(rank=2, dtype="float32", layout="contiguous", requires_grad=False, extras=()):
    return ir.Inputs(seed=3, rows=3, cols=4, layout=layout, requires_grad=requires_grad, extras=extras,
                     dtype=dtype, rank=rank, batch=2)


@pytest.mark.parametrize("rank", _RANKS)
@pytest.mark.parametrize("dtype", _DTYPES)
@pytest.mark.parametrize("layout", ("contiguous", "transposed"))
def test_make_inputs_builds_the_declared_tensor(rank, dtype, layout):
    inputs = _inputs(rank, dtype, layout, requires_grad=True, extras=("scalar", "empty", "double", "int"))
    program = ir.Program((ir.Function(0, "", "plain", (), ()),), (), inputs)
    module = run_eager(render(program)).module
    x, *extras = module.make_inputs("cpu")
    assert tuple(x.shape) == inputs.shape == ((4,), (3, 4), (2, 3, 4))[rank - 1]
    assert x.dtype == getattr(torch, dtype) and x.requires_grad and x.is_leaf
    assert x.is_contiguous() == (layout == "contiguous")
    assert [e.dim() for e in extras] == [0, 2, 1, 1]
    tags = extract(program)
    assert (f"input.rank{rank}" in tags) == (rank != 2)
    assert ("input.main_" + dtype in tags) == (dtype != "float32")
    assert ("input.noncontiguous" in tags) == (layout == "transposed")


def _all_templates_program(inputs: ir.Inputs) -> ir.Program:
    """entry runs every arithmetic op, the rank-dependent constructs and each tensor loop around a call."""
    body: list = [ir.Arith(op, 0.5) for op in ARITH if not op.startswith("global")]
    body += [ir.Arith("tanh"), ir.Return(taken=False), ir.CallSite(1, "conditional")]
    for kind, exit_ in itertools.product(("iter", "unbind"), ("", "index", "data")):
        body.append(ir.TensorLoop(kind, (ir.CallSite(1, "binop"), ir.Arith("tanh")), exit_))
    body += [ir.Break(k) for k in ("item", "tolist", "numpy", "attr_store", "disable")]
    body += [ir.Construct("nn.module"), ir.Construct("class.str"), ir.CallSite(1, "fstring"), ir.Effect("x")]
    callee = ir.Function(1, "", "plain", (), (ir.Effect("x.sum()"), ir.Break("graph_break"), ir.Arith("tanh")))
    return ir.Program((ir.Function(0, "", "plain", (), tuple(body)), callee), (), inputs, wants_grad=True)


@pytest.mark.parametrize("rank", _RANKS)
@pytest.mark.parametrize("dtype", _DTYPES)
def test_every_template_keeps_shape_and_dtype_and_backward_works(rank, dtype):
    inputs = _inputs(rank, dtype, "transposed", requires_grad=True, extras=("scalar", "double", "int"))
    program = _all_templates_program(inputs)
    run = run_eager(render(program))
    assert run.accident() is None, run.accident()
    out = run.results[0][1]
    assert tuple(out.shape) == inputs.shape and out.dtype == getattr(torch, dtype)
    x, *extras = run.module.make_inputs("cpu")
    run.module.entry(x, *extras).sum().backward()
    assert x.grad is not None and x.grad.shape == x.shape and torch.isfinite(x.grad.float()).all()
    # the conditional context takes the call on every rank (stack.conditional stays true), and the loops ran
    tags = [tag for tag, _ in run.module.EFFECTS]
    assert sum(t.startswith("f1.") for t in tags) >= 2 * (2 + 2 * (2 + 2 + 1))  # two calls of entry


def test_tensor_loop_tags_and_data_exit_is_a_break():
    def program(exit_):
        loop = ir.TensorLoop("iter", (ir.Arith("tanh"),), exit_)
        entry = ir.Function(0, "", "plain", (), (ir.With("no_grad", (ir.CallSite(1, "plain"),)),))
        return ir.Program((entry, ir.Function(1, "", "plain", (), (loop,))), (), _inputs())

    assert {"flow.tensor_loop", "shape.upper_ctx_break"} <= extract(program("data"))
    tags = extract(program("index"))
    assert "flow.tensor_loop" in tags and "shape.upper_ctx_break" not in tags


def test_tensor_loop_rendering():
    loop = ir.TensorLoop("unbind", (ir.CallSite(1, "plain"),), "index")
    callee = ir.Function(1, "", "plain", (), (ir.Arith("sin"),))
    src = render(ir.Program((ir.Function(0, "", "plain", (), (loop,)), callee), (), _inputs(rank=3)))
    entry = src[src.index("def entry(x):"):src.index("def make_inputs")]
    assert entry.split("\n")[1:9] == [
        "    acc2 = torch.zeros_like(x)",
        "    for i2, r2 in enumerate(x.unbind(0)):",
        "        acc2 = acc2 + r2",
        "        x = f1(x)",
        "        if i2 >= 1:",
        "            break",
        "    x = x * 0.5 + acc2 * 0.125",
        "    return x",
    ]


@requires_engine
@pytest.mark.parametrize(("rank", "dtype"), [(1, "bfloat16"), (3, "float64")])
def test_new_inputs_and_tensor_loops_match_under_torch_compile_and_engine(rank, dtype):
    import engine

    callee = ir.Function(1, "", "plain", (), (ir.Break("graph_break"), ir.Effect("x"), ir.Arith("matmul")))
    body = (
        ir.TensorLoop("iter", (ir.CallSite(1, "tuple_display"), ir.Arith("tanh")), "data"),
        ir.TensorLoop("unbind", (ir.CallSite(1, "plain"), ir.Arith("sin")), "index"),
        ir.CallSite(1, "conditional"),
    )
    inputs = _inputs(rank, dtype, "transposed", requires_grad=True)
    source = render(ir.Program((ir.Function(0, "", "plain", (), body), callee), (), inputs, returns="tuple"))
    eager = _exec.run(source)
    assert eager[0]["result"][0] == "returned"
    assert _exec.run(source, compiled=True) == eager
    assert _exec.run(source, compiler=lambda fn: engine.compile(fn, backend="eager")) == eager
