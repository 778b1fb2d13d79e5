"""Dynamo's own axes as target options: ``dynamic=`` and ``config=`` (oracle/_configs.py), in specs, in the worker,
in repro files; and the third call on inputs of other sizes (its verdicts are rows of test_truth_table.py)."""

from __future__ import annotations

import subprocess
import sys

import pytest

import oracle
from oracle import _configs
from oracle._verdict import calls_for, judge
from tests.conftest import PROGRAMS


@pytest.mark.parametrize("spec, canonical", [
    ("torch:dynamic=auto", "torch"),
    ("torch:config=none", "torch"),
    ("torch:dynamic=true,backend=aot_eager", "torch:backend=aot_eager,dynamic=true"),
    ("torch:config=specialize_int+capture_scalar_outputs", "torch:config=capture_scalar_outputs+specialize_int"),
    ("torch:config=specialize_int+specialize_int", "torch:config=specialize_int"),
    ("fault:perturb-dynamic,dynamic=false", "fault:perturb-dynamic,dynamic=false"),
])
def test_axes_specs_are_canonical(spec, canonical):
    assert oracle.parse_target(spec).spec == canonical
    assert oracle.parse_target(canonical).spec == canonical


@pytest.mark.parametrize("spec, message", [
    ("torch:dynamic=yes", "bad value 'yes' for torch:dynamic; valid: auto, true, false"),
    ("torch:config=fast", "unknown config 'fast' in config=fast; valid: capture_scalar_outputs, "),
    ("torch:config=specialize_int+bogus", "unknown config 'bogus'"),
    ("torch:config=", "unknown config ''"),
    ("engine:dynamic=true", "unknown option 'dynamic' for target 'engine'"),
])
def test_bad_axes_are_one_line_naming_the_choices(spec, message):
    with pytest.raises(oracle.TargetError) as info:
        oracle.parse_target(spec)
    assert message in str(info.value) and "\n" not in str(info.value)


def test_a_bad_config_is_exit_2_naming_the_valid_names(tmp_path):
    proc = subprocess.run([sys.executable, "-m", "fuzz.cli", "run", "--target", "torch:config=nope", "--budget", "1",
                           "--out", str(tmp_path / "c")], capture_output=True, text=True, timeout=120)
    assert proc.returncode == 2
    assert "unknown config 'nope'" in proc.stderr and "capture_scalar_outputs" in proc.stderr
    assert len(proc.stderr.strip().splitlines()) == 1


def test_every_config_names_flags_this_torch_has():
    for config in _configs.CONFIGS.values():
        assert config.flags and config.description
        assert _configs.missing_flags(list(config.flags)) == [], config.name


def test_the_payload_carries_the_flags_and_the_spec_the_axes():
    target = oracle.parse_target("torch:config=recompile_limit_1+inductor_precision_casts,dynamic=false")
    assert target.payload()["config_flags"] == [("inductor", "emulate_precision_casts", True),
                                                ("dynamo", "recompile_limit", 1)]
    assert target.payload()["options"]["dynamic"] == "false"
    assert oracle.parse_target("torch").payload()["config_flags"] == []


def _worker_module():
    sys.path.insert(0, str(PROGRAMS.parent.parent / "oracle"))
    import _worker

    return _worker


def test_config_is_set_around_each_call_and_restored():
    import types

    import torch

    worker = _worker_module()
    module = types.ModuleType("ngb_program")
    module.entry = lambda x: x
    flags = [("dynamo", "capture_scalar_outputs", True), ("inductor", "emulate_precision_casts", True)]
    _, context, _ = worker.build({"kind": "torch", "options": {"config": "x"}, "config_flags": flags}, module)
    import torch._inductor.config

    assert not torch._dynamo.config.capture_scalar_outputs and not torch._inductor.config.emulate_precision_casts
    with context():
        assert torch._dynamo.config.capture_scalar_outputs and torch._inductor.config.emulate_precision_casts
    assert not torch._dynamo.config.capture_scalar_outputs and not torch._inductor.config.emulate_precision_casts


def test_a_flag_this_torch_lacks_is_a_clean_skip_not_a_crash(monkeypatch):
    import types

    worker = _worker_module()
    module = types.ModuleType("ngb_program")
    module.entry = lambda x: x
    with pytest.raises(worker.Unsupported, match="no config flag dynamo.no_such_flag"):
        worker.build({"kind": "torch", "options": {}, "config_flags": [("dynamo", "no_such_flag", 1)]}, module)
    verdict = judge(oracle.parse_target("torch"), {"calls": []}, {"unsupported": "torch 2.10 has no config flag x"})
    assert verdict.signature == "skip:unsupported" and not verdict.is_finding
    # and the target is refused at start, in one line, for this interpreter and for another one (python=)
    monkeypatch.setitem(_configs.CONFIGS, "old", _configs.ConfigSet("old", "test", (("dynamo", "no_such_flag", 1),)))
    for spec in ("torch:config=old", f"torch:config=old,python={sys.executable}"):
        with pytest.raises(oracle.TargetError, match="has no config flag dynamo.no_such_flag") as info:
            oracle.check_available(oracle.parse_target(spec))
        assert "\n" not in str(info.value)


def test_config_changes_what_dynamo_does_and_is_gone_for_the_next_target():
    source = (PROGRAMS / "truth" / "resizable_chain.py").read_text().replace(
        "return x + 1", "return x + x.mean().item()")
    with oracle.Runner(workers=1) as runner:
        report = runner.check(source, ["torch:config=capture_scalar_outputs", "torch"])
    assert {v.signature for v in report.verdicts.values()} == {"ok"}
    item = "Unsupported Tensor.item() call with capture_scalar_outputs=False"
    assert item not in report.stats["torch:config=capture_scalar_outputs"]["break_reasons"]
    assert item in report.stats["torch"]["break_reasons"]  # same worker, after: the flag was restored


def test_calls_for_a_signature():
    assert calls_for("mismatch:value:values") == 1
    assert calls_for("crash:second_call:RuntimeError@x") == 2
    assert calls_for("mismatch:third_call:value") == 3 and calls_for("crash:third_call:E@f") == 3
    assert calls_for(None) == 3


def _run(tmp_path, source: str, *args: str) -> subprocess.CompletedProcess:
    path = tmp_path / "repro.py"
    path.write_text(source)
    return subprocess.run([sys.executable, str(path), *args], capture_output=True, text=True, timeout=300,
                          cwd=tmp_path)


def test_the_standalone_footer_makes_the_third_call_and_sets_the_axes(tmp_path):
    bug = (PROGRAMS / "truth" / "third_call_value.py").read_text()
    header = {"signature": "mismatch:third_call:value", "target": "torch:config=specialize_int,dynamic=false"}
    source = oracle.with_footer(oracle.set_header(bug, **header))
    footer = oracle.split_source(source)[2]
    assert "dynamic=dynamic" in footer and "'recompile_limit_1': (('dynamo', 'recompile_limit', 1),)" in footer
    assert "for size in (0, 0, 1)" in footer
    proc = _run(tmp_path, source)
    assert proc.returncode == 1 and "call 3: result differs" in proc.stdout, proc.stdout + proc.stderr
    # the same program without inputs of other sizes: two calls, which agree
    two = bug.replace("def make_inputs(device, size=0):", "def make_inputs(device):").replace("3 if size == 0 else 2", "3")
    fixed = oracle.with_footer(oracle.set_header(two, **header))
    assert "for size in" not in oracle.split_source(fixed)[2]
    assert _run(tmp_path, fixed).returncode == 0


def test_a_file_without_axes_or_sizes_keeps_the_old_footer():
    assert oracle.standalone_footer("torch:ngb=off,backend=aot_eager") == oracle.standalone_footer()
    assert oracle.standalone_footer("torch:dynamic=true") != oracle.standalone_footer()


def test_short_checks_compile_with_the_targets_axes():
    from oracle._checks import check_for

    check = check_for("mismatch:value:values", "torch:backend=aot_eager,config=capture_scalar_outputs,dynamic=true",
                      "returned")
    assert 'torch.compile(mod.entry, backend="aot_eager", dynamic=True)' in check
    assert "torch._dynamo.config.capture_scalar_outputs = True" in check
    inductor = check_for("mismatch:value:values", "torch:config=inductor_precision_casts", "returned")
    assert "import torch._inductor.config" in inductor
    assert "torch._inductor.config.emulate_precision_casts = True" in inductor
    assert check_for("mismatch:third_call:value", "torch", "returned") is None  # the generic footer's three calls
    assert check_for("crash:third_call:RuntimeError@f", "torch", "returned") is None


@pytest.mark.parametrize("signature", ["crash:AssertionError@torch._dynamo.guards:__init__", "mismatch:value:values",
                                       "mismatch:second_call:value", "mismatch:third_call:value"])
def test_a_cuda_findings_standalone_check_makes_its_inputs_on_the_gpu(signature):
    # found on a GPU campaign: the repro of a device=cuda bucket ran its check on the CPU, where a bug of the
    # CUDA path reads "match"
    program = "import torch\n\n\ndef entry(x):\n    return x + 1\n\n\ndef make_inputs(device):\n    return (torch.ones(2).to(device),)\n"
    for target, device in (("torch:backend=inductor,device=cuda", "cuda"), ("torch:backend=inductor", "cpu")):
        source = oracle.with_footer(oracle.set_header(program, signature=signature, target=target, eager="returned"))
        footer = oracle.split_source(source)[2]
        assert f'mod.make_inputs("{device}"' in footer and f'mod.make_inputs("{"cpu" if device == "cuda" else "cuda"}"' not in footer
    assert oracle.standalone_footer("torch:device=cuda") != oracle.standalone_footer()
