"""torch 2.13 bugs that generated programs hit, reduced by hand: documented as xfail so the suite shows when a
torch upgrade fixes them (an XPASS). Each asserts what eager does."""

from __future__ import annotations

import contextlib
import sys
import types

import pytest
import torch
import torch._dynamo

_BUG = pytest.mark.xfail(reason="torch 2.13 bug found by the generator", strict=False)


@pytest.fixture(autouse=True)
def _fresh_dynamo():
    torch._dynamo.reset()
    old = torch._dynamo.config.nested_graph_breaks
    torch._dynamo.config.nested_graph_breaks = True
    yield
    torch._dynamo.config.nested_graph_breaks = old
    torch.set_grad_enabled(True)


@_BUG
def test_cm_object_from_caller_entered_after_nested_break_leaks_no_grad():
    # ctx.as_value: NGB on leaves grad mode disabled after the call (NGB off is correct)
    def inner(x, cm):
        torch._dynamo.graph_break()
        with cm:
            x = x + 1
        return x

    def outer(x):
        return inner(x, torch.no_grad())

    torch.compile(outer, backend="eager")(torch.randn(3))
    assert torch.is_grad_enabled()


@_BUG
def test_no_grad_over_disabled_contextmanager_decorator_resume_assertion():
    # ctx.decorator + ctx.contextmanager_disabled under enable_grad/no_grad of upper frames (NGB on only):
    # AssertionError: resume instruction not found in original code - this is a bug.
    @contextlib.contextmanager
    @torch._disable_dynamo(recursive=False)
    def ctx():
        yield

    @torch.no_grad()
    @ctx()
    def leaf(x):
        return x + 1

    def mid(x):
        with torch.enable_grad():
            return leaf(x)

    def entry(x):
        with torch.no_grad():
            return mid(x)

    x = torch.randn(3)
    assert torch.equal(torch.compile(entry, backend="eager")(x), entry(x))


@_BUG
@pytest.mark.parametrize("ngb", [True, False])
def test_decorator_form_enable_grad_under_inference_mode_decorated_entry(ngb):
    # grad mode inside torch.enable_grad()(leaf) is False after the break (NGB on and off)
    torch._dynamo.config.nested_graph_breaks = ngb
    seen = []

    def leaf(x):
        torch._dynamo.graph_break()
        seen.append(torch.is_grad_enabled())
        return x + 1

    @torch.inference_mode()
    def entry(x):
        return torch.enable_grad()(leaf)(x)

    torch.compile(entry, backend="eager")(torch.randn(3))
    assert seen == [True]


@_BUG
def test_with_enable_grad_under_inference_mode_decorated_entry_classic_resume():
    # the with-form of the case above is right with NGB and wrong with classic (top-level-only) resume
    torch._dynamo.config.nested_graph_breaks = False
    seen = []

    def leaf(x):
        torch._dynamo.graph_break()
        seen.append(torch.is_grad_enabled())
        return x + 1

    @torch.inference_mode()
    def entry(x):
        with torch.enable_grad():
            return leaf(x)

    torch.compile(entry, backend="eager")(torch.randn(3))
    assert seen == [True]


@_BUG
def test_inlining_a_function_of_a_module_missing_from_sys_modules():
    # module.helper: InternalTorchDynamoError: ModuleNotFoundError: No module named 'ngb_...' (NGB on and off)
    helper = types.ModuleType("ngb_finding_helper")  # a name no other test puts into sys.modules
    exec("import torch\ndef g(x):\n    x = x + 1\n    torch._dynamo.graph_break()\n    return x + 1\n", helper.__dict__)

    def f(x):
        return helper.g(x) * 2

    x = torch.randn(3)
    assert torch.equal(torch.compile(f, backend="eager")(x), f(x))


@_BUG
def test_generator_return_value_lost_when_caller_has_live_tensor():
    # flow.generator: StopIteration.value is None under NGB when the caller keeps a tensor live across the call
    # (TypeError: unsupported operand type(s) for +: 'Tensor' and 'NoneType'); NGB off is correct
    def f(x):
        def gen(x):
            x = torch.tanh(x)
            yield x
            return x * 0.5

        g = gen(x)
        first = next(g)
        try:
            next(g)
        except StopIteration as stop:
            x = first + stop.value
        return x

    def entry(x):
        y = x * 0.5
        return f(x) + y

    x = torch.randn(3)
    assert torch.equal(torch.compile(entry, backend="eager")(x), entry(x))


@_BUG
def test_aot_eager_python_mod_of_int_from_breaking_builtin():
    # break.builtin + backend=aot_eager, NGB on only: BackendCompilerFailed:
    # AttributeError: type object 'TensorReferenceAnalysis' has no attribute 'python_mod'
    import zlib

    def f4(x):
        return x + zlib.crc32(b"f4.55") % 7 * 0.01

    def f3(x):
        x = x + zlib.crc32(b"f3.59") % 7 * 0.01
        return x * 0.5 + f4(x)

    def entry(x):
        return x * 0.5 + f3(x)

    x = torch.randn(5, 4)
    torch.testing.assert_close(torch.compile(entry, backend="aot_eager")(x), entry(x))


_POISON_CHECK = """
import sys, types, torch
torch._dynamo.config.nested_graph_breaks = True
module = types.ModuleType("ngb_program")
sys.modules["ngb_program"] = module
exec(compile(open(sys.argv[1]).read(), "<finding>", "exec"), module.__dict__)
try:
    torch.compile(module.entry, backend="aot_eager")(*module.make_inputs("cpu"))
except Exception as exc:
    print("compile failed:", type(exc).__name__)
print(torch.ones(2) + 1)  # plain eager torch must still work afterwards
"""


@_BUG
def test_aot_eager_failure_on_inference_tensors_poisons_the_process():
    # generated program (seed 12, program 6, known-bug features off), not reduced: aot_eager raises
    # BackendCompilerFailed (RuntimeError: Cannot set version_counter for inference tensor) and afterwards *every*
    # torch op in the process fails: INTERNAL ASSERT ... PythonDispatcherTLS was not set. A worker that saw a
    # BackendCompilerFailed must be replaced, or later programs get spurious crashes.
    import subprocess
    from pathlib import Path

    program = Path(__file__).parent / "findings" / "aot_eager_inference_poison.txt"
    out = subprocess.run([sys.executable, "-c", _POISON_CHECK, str(program)], capture_output=True, text=True)
    assert "compile failed" not in out.stdout and out.returncode == 0, out.stdout + out.stderr[-500:]
