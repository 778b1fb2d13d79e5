import pytest

import oracle


@pytest.mark.parametrize("spec, canonical", [
    ("torch", "torch"),
    ("torch:ngb=on,backend=eager", "torch"),
    ("torch:backend=aot_eager,ngb=off", "torch:backend=aot_eager,ngb=off"),
    ("torch:ngb=off", "torch:ngb=off"),
    ("fault:perturb", "fault:perturb"),
    ("fault:fault=kill,ngb=off", "fault:kill,ngb=off"),
    ("engine-classic", "engine-classic"),
    ("eager", "eager"),
])
def test_canonical_specs(spec, canonical):
    assert oracle.parse_target(spec).spec == canonical
    assert oracle.parse_target(canonical).spec == canonical


@pytest.mark.parametrize("spec, message", [
    ("tourch", "unknown target 'tourch'"),
    ("torch:backend=tvm", "bad value 'tvm' for torch:backend; valid: eager, aot_eager, inductor"),
    ("torch:speed=fast", "unknown option 'speed'"),
    ("torch:ngb", "expected KEY=VALUE"),
    ("torch:ngb=on,ngb=off", "given twice"),
    ("fault", "needs fault="),
    ("eager:python=/no/such/python", "no such executable"),
])
def test_bad_specs_name_the_problem_in_one_line(spec, message):
    with pytest.raises(oracle.TargetError) as info:
        oracle.parse_target(spec)
    assert message in str(info.value)
    assert "\n" not in str(info.value)


def test_exactness_follows_the_backend():
    assert oracle.parse_target("torch").exact
    assert oracle.parse_target("eager").exact
    assert not oracle.parse_target("torch:backend=inductor").exact


def test_cuda_target_without_cuda_is_refused():
    import torch

    if torch.cuda.is_available():
        pytest.skip("this machine has CUDA")
    with pytest.raises(oracle.TargetError, match="needs CUDA"):
        oracle.check_available(oracle.parse_target("torch:device=cuda"))


def test_a_targets_eager_reference_keeps_its_interpreter_and_device():
    import sys

    from oracle import parse_target

    target = parse_target(f"torch:backend=aot_eager,device=cuda,python={sys.executable}")
    assert target.eager.spec == f"eager:device=cuda,python={sys.executable}"
    assert parse_target("fault:perturb").eager.spec == "eager"
