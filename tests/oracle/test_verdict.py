"""``judge`` on constructed worker results: every verdict kind and signature class, without starting a worker.

The end-to-end counterpart (real programs through the real Runner) is test_truth_table.py; these cases are the
fast half, so a broken judge fails here in a second.
"""

import types

import pytest
import torch

from oracle import parse_target
from oracle._observe import observe, observe_globals
from oracle._verdict import FINDING_KINDS, KINDS, ProgramReport, Verdict, judge


def record(value=None, exception=None, effects=(), grad=True, grads=None, module="builtins", root=None, frame=None,
           inputs=()):
    out = {"exception": exception, "value": observe(value), "effects": observe(list(effects)),
           "globals": ("dict", []), "inputs": observe(tuple(inputs)),
           "torch_state": {"grad_enabled": grad, "inference_mode": False}, "compiler_frame": frame}
    if exception is not None:
        out.update(value=None, root_cause=root or exception[0], exception_module=module)
    if grads is not None:
        out["grads"] = observe(grads)
    return out


def result(*calls):
    return {"calls": list(calls), "stats": {}}


EAGER = result(record(torch.ones(3)), record(torch.ones(3)))


def verdict(target, eager, actual) -> Verdict:
    return judge(parse_target(target), eager, actual)


def test_everything_equal_is_ok():
    v = verdict("torch", EAGER, result(record(torch.ones(3)), record(torch.ones(3))))
    assert (v.kind, v.what, v.signature, v.is_finding) == ("ok", "", "ok", False)


def test_runner_markers_give_hang_and_died_crashes():
    v = verdict("torch", EAGER, {"hang": 30.0})
    assert (v.kind, v.signature, v.is_finding) == ("hang", "hang", True)
    assert "30s" in v.detail
    v = verdict("torch", EAGER, {"died": -9, "stderr": "last words"})
    assert (v.kind, v.signature) == ("crash", "crash:died:SIGKILL")
    assert "last words" in v.detail and "SIGKILL" in v.detail
    assert verdict("torch", EAGER, {"died": -11}).signature == "crash:died:SIGSEGV"
    assert verdict("torch", EAGER, {"died": 3}).signature == "crash:died:exit3"
    v = verdict("torch", EAGER, {"load_error": ("ImportError", "no module named x")})
    assert (v.kind, v.signature) == ("crash", "crash:load:ImportError")


def test_target_raising_where_eager_did_not_is_a_crash_named_by_type_root_cause_and_frame():
    raised = record(exception=("BackendCompilerFailed", "boom"), module="torch._dynamo.exc", root="RuntimeError",
                    frame="torch._inductor.graph:run")
    v = verdict("torch", EAGER, result(raised, raised))
    assert (v.kind, v.what) == ("crash", "exception")
    assert v.signature == "crash:BackendCompilerFailed/RuntimeError@torch._inductor.graph:run"
    assert "first call" in v.detail and "eager did not" in v.detail
    same_root = record(exception=("RuntimeError", "boom"), frame=None)
    assert verdict("torch", EAGER, result(same_root, same_root)).signature == "crash:RuntimeError@program"


def test_a_crash_on_the_second_call_only_is_named_so():
    raised = record(exception=("RuntimeError", "stale guard"), frame="torch._dynamo.guards:check")
    v = verdict("torch", EAGER, result(record(torch.ones(3)), raised))
    assert (v.kind, v.what) == ("crash", "second_call")
    assert v.signature == "crash:second_call:RuntimeError@torch._dynamo.guards:check"
    assert "second call" in v.detail


def test_a_compiler_error_where_eager_raised_another_error_is_a_crash_but_a_user_error_is_a_mismatch():
    eager = result(*[record(exception=("ValueError", "on purpose"))] * 2)
    torch_error = record(exception=("TorchRuntimeError", "x"), module="torch._dynamo.exc", frame="torch._dynamo.a:b")
    v = verdict("torch", eager, result(torch_error, torch_error))
    assert v.signature == "crash:TorchRuntimeError@torch._dynamo.a:b"
    assert "eager raised ValueError" in v.detail
    engine_error = record(exception=("Unsupported", "x"), module="engine._errors")
    assert verdict("engine", eager, result(engine_error, engine_error)).kind == "crash"
    user_error = record(exception=("TypeError", "on purpose"))
    assert verdict("torch", eager, result(user_error, user_error)).signature == "mismatch:exception:type"
    # same type, other message, even from torch's own modules: the program's error, not a compiler crash
    same_type = record(exception=("ValueError", "other words"), module="torch._dynamo.exc")
    v = verdict("torch", eager, result(same_type, same_type))
    assert (v.kind, v.what, v.signature) == ("mismatch", "exception", "mismatch:exception:message")
    assert "other words" in v.detail and "on purpose" in v.detail


def test_a_builtin_error_raised_by_compiler_code_where_eager_raised_another_is_that_crash():
    eager = result(*[record(exception=("NameError", "name 't47' is not defined"))] * 2)
    check = record(exception=("AssertionError", "multiple exits?"), frame="torch._dynamo.variables.ctx_manager:c")
    check["raised_in_compiler"] = True
    v = verdict("torch", eager, result(check, check))
    assert v.signature == "crash:AssertionError@torch._dynamo.variables.ctx_manager:c"
    passing = dict(check, raised_in_compiler=False)  # the program's own AssertionError, passing through Dynamo
    assert verdict("torch", eager, result(passing, passing)).signature == "mismatch:exception:type"


def test_an_error_of_eager_s_type_raised_by_compiler_code_where_eager_s_was_not_is_that_crash():
    # a recursive disable_nested_graph_breaks function: eager's AssertionError comes from torch's config patching,
    # the compiled one from Dynamo's own check; a 2.10 campaign called the known "multiple exits?" bug NEW as a
    # mismatch of messages
    eager_error = record(exception=("AssertionError", "prior should be empty when entering ConfigPatch"))
    eager = result(eager_error, eager_error)
    check = record(exception=("AssertionError", "multiple exits?"), frame="torch._dynamo.variables.ctx_manager:c")
    check["raised_in_compiler"] = True
    assert verdict("torch", eager, result(check, check)).signature == \
        "crash:AssertionError@torch._dynamo.variables.ctx_manager:c"
    # eager's raised in compiler code too, or the program's own raised under Dynamo: messages that differ
    both = result(*[dict(eager_error, raised_in_compiler=True)] * 2)
    assert verdict("torch", both, result(check, check)).signature == "mismatch:exception:message"
    passing = dict(check, raised_in_compiler=False)
    assert verdict("torch", eager, result(passing, passing)).signature == "mismatch:exception:message"
    # eager's very error, raised from the compiler's code: what eager did
    same = dict(check, exception=eager_error["exception"])
    assert verdict("torch", eager, result(same, same)).kind == "ok"


def test_raised_in_compiler_is_where_the_innermost_frame_is():
    from oracle._worker import raised_in_compiler

    def raising(filename: str) -> BaseException:
        namespace: dict = {}
        exec(compile("def f():\n    raise AssertionError('x')\n", filename, "exec"), namespace)
        try:
            namespace["f"]()
        except AssertionError as exc:
            return exc
        raise AssertionError("did not raise")

    assert raised_in_compiler(raising("/site-packages/torch/_dynamo/variables/ctx_manager.py"))
    assert not raised_in_compiler(raising("/work/program.py"))
    wrapped = RuntimeError("wrapped")
    wrapped.__cause__ = raising("/site-packages/torch/_dynamo/symbolic_convert.py")
    assert raised_in_compiler(wrapped)  # the root of its causes was


def test_the_same_error_as_eager_is_ok():
    eager = result(*[record(exception=("ValueError", "on purpose"))] * 2)
    same = record(exception=("ValueError", "on purpose"), module="torch._dynamo.exc")
    assert verdict("torch", eager, result(same, same)).signature == "ok"


@pytest.mark.parametrize("field, eager_value, target_value, signature", [
    ("value", torch.ones(3), torch.zeros(3), "mismatch:value:values"),
    ("effects", [("a", 1)], [], "mismatch:effects:length"),
    ("grad", True, False, "mismatch:torch_state:grad_enabled"),
    ("grads", [torch.ones(2)], [torch.zeros(2)], "mismatch:gradients:values"),
    ("inputs", [torch.ones(2)], [torch.zeros(2)], "mismatch:inputs:values"),
])
def test_first_call_mismatches_name_aspect_and_class(field, eager_value, target_value, signature):
    base = {"value": torch.ones(3)}
    eager = result(record(**{**base, field: eager_value}), record(**{**base, field: eager_value}))
    actual = result(record(**{**base, field: target_value}), record(**{**base, field: target_value}))
    v = verdict("torch", eager, actual)
    assert (v.kind, v.what, v.signature) == ("mismatch", signature.split(":")[1], signature)
    assert v.detail.startswith("first call:")


def test_globals_mismatch():
    def with_global(value):
        module = types.ModuleType("ngb_program")
        module.G = value
        out = record(1)
        out["globals"] = observe_globals(module)
        return out

    v = verdict("torch", result(with_global(1), with_global(1)), result(with_global(2), with_global(2)))
    assert v.signature == "mismatch:globals:value"
    assert "G" in v.detail


def test_a_difference_on_the_second_call_only_is_second_call_whatever_its_class():
    for field, a, b in (("value", torch.ones(3), torch.zeros(3)), ("effects", [("a", 1)], [])):
        base = {"value": torch.ones(3)}
        eager = result(record(**base), record(**{**base, field: a}))
        actual = result(record(**base), record(**{**base, field: b}))
        v = verdict("torch", eager, actual)
        assert (v.kind, v.what, v.signature) == ("mismatch", "second_call", f"mismatch:second_call:{field}")
        assert v.detail.startswith("second call:")


def test_first_difference_decides_and_the_detail_lists_several():
    eager = result(record(torch.ones(3), effects=[("a", 1)]), record(torch.ones(3), effects=[("a", 1)]))
    actual = result(record(torch.zeros(3), effects=[]), record(torch.zeros(3), effects=[]))
    v = verdict("torch", eager, actual)
    assert v.signature == "mismatch:value:values"
    assert v.detail.count("differs") == 4  # value and effects, on both calls


def test_tolerance_follows_the_target_backend():
    eager = result(*[record(torch.tensor([1.0]))] * 2)
    near = result(*[record(torch.tensor([1.0 + 5e-5]))] * 2)  # inside inductor's float32 rtol, outside aot_eager's
    assert verdict("torch", eager, near).kind == "mismatch"
    assert verdict("torch:backend=aot_eager", eager, near).kind == "mismatch"
    assert verdict("engine:backend=aot_eager", eager, near).kind == "mismatch"
    assert verdict("torch:backend=inductor", eager, near).kind == "ok"
    nearer = result(*[record(torch.tensor([1.0 + 5e-6]))] * 2)
    assert verdict("torch:backend=aot_eager", eager, nearer).kind == "ok"
    assert verdict("engine:backend=aot_eager", eager, nearer).kind == "ok"
    assert verdict("torch", eager, nearer).kind == "mismatch"


def test_finding_kinds_and_report_findings():
    assert set(FINDING_KINDS) == {"mismatch", "crash", "hang", "slow"} and set(FINDING_KINDS) <= set(KINDS)
    verdicts = {k: Verdict(k, "", k) for k in KINDS}
    assert set(ProgramReport(verdicts, False, {}).findings()) == set(FINDING_KINDS)
    assert [k for k in KINDS if Verdict(k, "", k).is_finding] == [k for k in KINDS if k in FINDING_KINDS]


def test_verdicts_and_reports_are_frozen_records():
    import dataclasses

    v = Verdict("ok", "", "ok")
    with pytest.raises(dataclasses.FrozenInstanceError):
        v.kind = "crash"
    report = ProgramReport({}, False, {})
    assert report.seconds == 0.0
    with pytest.raises(dataclasses.FrozenInstanceError):
        report.flaky = True


@pytest.mark.parametrize("name", ["torch_dynamo_resume_in_inner_at_214", "torch_dynamo_resume_in_f3_at_9",
                                  "__resume_at_30_1"])
def test_a_crash_in_a_generated_resume_function_has_one_signature_whatever_its_line(name):
    from oracle._worker import compiler_frame

    # A function compiled as Dynamo compiles its resume functions: its file is Dynamo's, its name says where the
    # break was. The crash's compiler frame must not carry that line or function name.
    namespace = {}
    code = f"def {name}(x):\n    return x + None\n"
    exec(compile(code, "/site-packages/torch/_dynamo/external_utils.py", "exec"), namespace)
    with pytest.raises(TypeError) as info:
        namespace[name](1)
    assert compiler_frame(info.value) == "torch._dynamo.external_utils:torch_dynamo_resume"


def test_a_crash_in_an_fx_graph_node_has_one_signature_however_the_op_was_spelled():
    import torch
    import torch.fx

    from oracle._worker import compiler_frame

    # The same failing op as a method (call_method node) and as a function (call_function node): the FX
    # interpreter's innermost frame differs by spelling only, so the crash must not.
    frames = set()
    for spelled in (lambda x: x.view(7), lambda x: torch.reshape(x, (7,))):
        graph = torch.fx.symbolic_trace(spelled)
        assert {n.op for n in graph.graph.nodes} & {"call_method", "call_function"}
        with pytest.raises(RuntimeError) as info:
            torch.fx.Interpreter(graph).run(torch.ones(3))
        frames.add(compiler_frame(info.value))
    assert frames == {"torch.fx.interpreter:run_node"}
