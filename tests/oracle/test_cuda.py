"""The oracle's CUDA paths: a ``device=cuda`` target gets its inputs on the GPU (eager's reference too), inductor's
GPU kernels are compared within tolerance without false findings, and a wrong backend is still caught there.
Run on a machine with a CUDA device; skipped cleanly elsewhere."""

from __future__ import annotations

import pytest
import torch

import oracle

pytestmark = [pytest.mark.cuda,
              pytest.mark.skipif(not torch.cuda.is_available(), reason="no CUDA device here")]

SEES_DEVICE = """import torch
EFFECTS = []


def entry(x, w):
    EFFECTS.append(x.device.type)
    y = torch.softmax(x @ w, dim=-1)
    torch._dynamo.graph_break()
    return (y * x.sum()).cumsum(0), y.sum(dim=0)


def make_inputs(device):
    g = torch.Generator().manual_seed(0)
    return torch.randn(32, 48, generator=g).to(device), torch.randn(48, 48, generator=g).to(device)
"""


def _value(raw: dict):
    return raw["calls"][0]["value"]


def test_a_cuda_target_and_its_eager_reference_run_on_the_gpu(runner):
    for spec in ("eager:device=cuda", "torch:device=cuda"):
        raw = runner.run(SEES_DEVICE, spec, 1)
        kind, items = _value(raw)  # ('tuple', [item, ...])
        assert kind == "tuple" and [item[3] for item in items] == ["cuda", "cuda"], (spec, repr(items)[:200])
        assert raw["calls"][0]["exception"] is None


@pytest.mark.parametrize("backend", ["eager", "aot_eager", "inductor"])
def test_correct_backends_on_cuda_are_ok(runner, backend):
    spec = oracle.parse_target(f"torch:device=cuda,backend={backend}").spec
    report = runner.check(SEES_DEVICE, [spec])
    assert not report.flaky
    assert report.verdicts[spec].signature == "ok", report.verdicts[spec]


def test_a_wrong_backend_on_cuda_is_a_finding(runner):
    spec = oracle.parse_target("fault:perturb,device=cuda").spec
    assert runner.check(SEES_DEVICE, [spec]).verdicts[spec].signature == "mismatch:value:values"


def test_a_cuda_findings_repro_runs_its_check_on_the_gpu(tmp_path):
    import subprocess
    import sys

    for signature in ("mismatch:value:values", "mismatch:third_call:value"):  # a short check, the generic footer
        source = oracle.with_footer(oracle.set_header(SEES_DEVICE, signature=signature,
                                                      target="torch:device=cuda", eager="returned"))
        path = tmp_path / "repro.py"
        path.write_text(source.replace("    EFFECTS.append(x.device.type)\n",
                                       "    EFFECTS.append(x.device.type)\n    assert x.is_cuda, x.device\n"))
        proc = subprocess.run([sys.executable, str(path)], capture_output=True, text=True, timeout=300)
        assert proc.returncode == 0 and "match" in proc.stdout, (signature, proc.stdout + proc.stderr)
