"""The oracle's truth table: for every verdict kind and signature class, a constructed program and a target that
must give exactly that signature through the real ``Runner`` (worker processes, eager twice, then the target).

Most programs differ between eager and compiled runs through ``torch.compiler.is_compiling()``, which is True
only while torch.compile traces: a real, deterministic difference that needs no planted bug in torch. The fault
backends (``fault:NAME``, oracle/_faults.py) give the rest. The programs are under tests/programs/truth/; each
says in its header what it does. All checks run once, in a module fixture, and each row is then one test.
"""

from __future__ import annotations

import pytest

from oracle._compare import ASPECTS
from oracle._verdict import KINDS
from tests.conftest import PROGRAMS, program_source

# its checks run once, in a module fixture: every test of it on one xdist worker (``--dist loadgroup``)
pytestmark = pytest.mark.xdist_group("truth-table")

# (program under tests/programs, target, signature it must give)
TRUTH = [
    ("seed_chain.py", "eager", "ok"),
    ("seed_chain.py", "torch", "ok"),
    ("seed_chain.py", "engine", "ok"),
    ("seed_chain.py", "fault:perturb", "mismatch:value:values"),
    ("truth/value_dtype.py", "torch", "mismatch:value:dtype"),
    ("truth/value_shape.py", "torch", "mismatch:value:shape"),
    ("truth/value_requires_grad.py", "torch", "mismatch:value:requires_grad"),
    ("truth/value_type.py", "torch", "mismatch:value:type"),
    ("truth/value_length.py", "torch", "mismatch:value:length"),
    ("truth/value_keys.py", "torch", "mismatch:value:keys"),
    ("truth/value_scalar.py", "torch", "mismatch:value:value"),
    ("truth/exception_type.py", "torch", "mismatch:exception:type"),
    ("truth/exception_message.py", "torch", "mismatch:exception:message"),
    ("truth/effects_values.py", "torch", "mismatch:effects:values"),
    ("truth/globals_value.py", "torch", "mismatch:globals:value"),
    ("truth/inputs_values.py", "torch", "mismatch:inputs:values"),
    ("seed_chain.py", "fault:flip-grad", "mismatch:torch_state:grad_enabled"),
    ("truth/torch_state_default_dtype.py", "torch", "mismatch:torch_state:default_dtype"),
    ("truth/gradients_values.py", "torch", "mismatch:gradients:values"),
    ("truth/second_call_value.py", "torch", "mismatch:second_call:value"),
    ("truth/second_call_effects.py", "torch", "mismatch:second_call:effects"),
    ("truth/third_call_value.py", "torch", "mismatch:third_call:value"),
    ("truth/resizable_chain.py", "torch", "ok"),
    ("truth/resizable_chain.py", "torch:dynamic=true", "ok"),
    ("truth/resizable_chain.py", "fault:perturb-dynamic", "mismatch:third_call:value"),
    ("truth/resizable_chain.py", "fault:perturb-dynamic,dynamic=true", "mismatch:value:values"),
    ("seed_chain.py", "fault:perturb-dynamic", "ok"),  # no inputs of other sizes: two static calls
    # the fault swaps the effect helper after the first graph, which in seed_chain runs after its only effect
    ("seed_chain.py", "fault:drop-effect", "mismatch:second_call:effects"),
    ("seed_chain.py", "fault:raise", "crash:RuntimeError@oracle._faults:_raise"),
    # a user exception leaving compiled code is reported at Dynamo's frame wrapper (torch 2.13)
    ("truth/crash_root_cause.py", "torch", "crash:RuntimeError/KeyError@torch._dynamo.eval_frame:compile_wrapper"),
    ("truth/crash_compiler_error.py", "torch", "crash:TorchRuntimeError@torch._dynamo.eval_frame:compile_wrapper"),
    ("truth/crash_second_call.py", "torch",
     "crash:second_call:RuntimeError@torch._dynamo.eval_frame:compile_wrapper"),
    ("truth/third_call_crash.py", "torch", "crash:third_call:RuntimeError@torch._dynamo.eval_frame:compile_wrapper"),
    ("truth/load_error.py", "torch", "crash:load:ImportError"),
    ("truth/invalid_program.py", "torch", "skip:invalid-program"),
    ("truth/flaky.py", "torch", "flaky"),
    ("truth/third_call_flaky.py", "torch", "flaky"),
    # these two end their worker: last, so the others share one
    ("truth/eager_dies.py", "torch", "skip:eager-failed"),
    ("seed_chain.py", "fault:kill", "crash:died:SIGKILL"),
]
HANG = ("seed_chain.py", "fault:hang,ngb=off", "hang")  # own runner with a short timeout; no twin (oracle._slow)
# never returns with nested graph breaks on, returns at once with them off: slow, not a hang (same runner)
SLOW = ("seed_chain.py", "fault:slow-ngb", "slow:compile")


def _source(name: str) -> str:
    return program_source(name) if name == "seed_chain.py" else (PROGRAMS / name).read_text()


@pytest.fixture(scope="module")
def verdicts():
    import oracle

    by_program: dict[str, list[str]] = {}
    for program, target, _ in TRUTH:
        by_program.setdefault(program, []).append(target)
    found = {}
    with oracle.Runner(workers=1, timeout=60.0) as runner:
        for program, targets in by_program.items():
            report = runner.check(_source(program), targets)
            for target in targets:
                found[program, oracle.parse_target(target).spec] = report.verdicts[oracle.parse_target(target).spec]
    # eager itself finishes at once here; 10 s is only how long the hanging target is given
    with oracle.Runner(workers=1, timeout=10.0, hang_recheck=1.5, slow_floor_s=5.0) as runner:
        for program, target, _ in (HANG, SLOW):
            found[program, target] = runner.check(_source(program), [target]).verdicts[target]
    return found


@pytest.mark.parametrize("program, target, signature", [*TRUTH, HANG, SLOW], ids=lambda v: str(v))
def test_program_gives_exactly_its_signature(verdicts, program, target, signature):
    verdict = verdicts[program, target]
    assert verdict.signature == signature, verdict.detail
    assert verdict.kind == signature.split(":")[0]
    assert verdict.is_finding == (verdict.kind in ("mismatch", "crash", "hang", "slow"))


def test_the_table_covers_every_verdict_kind_and_every_aspect():
    signatures = [s for _, _, s in [*TRUTH, HANG, SLOW]]
    assert {s.split(":")[0] for s in signatures} == set(KINDS)
    later = ("second_call", "third_call")
    first_call = {s.split(":")[1] for s in signatures if s.startswith("mismatch:") and s.split(":")[1] not in later}
    assert first_call == set(ASPECTS)
    for call in later:
        assert any(s.startswith(f"mismatch:{call}:") for s in signatures)
        assert any(s.startswith(f"crash:{call}:") for s in signatures)
    assert {"skip:invalid-program", "skip:eager-failed"} <= set(signatures)
