"""Why oracle workers check their own health after every job (``oracle/_worker.py``: ``obs.healthy`` after
``run_job``; a worker that fails it exits and the parent starts a fresh one).

A torch 2.13 bug, kept here as a strict xfail: a torch upgrade that fixes it fails this test (XPASS(strict)),
so it gets noticed and this becomes a plain assertion. A generated program (seed 12, program 6, not reduced)
makes aot_eager raise BackendCompilerFailed (RuntimeError: Cannot set version_counter for inference tensor), and
afterwards *every* torch op in the process fails (INTERNAL ASSERT ...
PythonDispatcherTLS was not set). It is no program verdict (the failing compile is an ordinary crash finding); it
is about the process: without the health check, a worker that saw it would turn every later program it runs into
a spurious crash.
"""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

PROGRAM = Path(__file__).parent / "findings" / "aot_eager_inference_poison.txt"

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


@pytest.mark.xfail(reason="torch 2.13 bug: a BackendCompilerFailed of aot_eager on inference tensors leaves the "
                          "process unable to run any torch op; the reason oracle workers check their health after "
                          "every job", strict=True)
def test_aot_eager_failure_on_inference_tensors_poisons_the_process():
    out = subprocess.run([sys.executable, "-c", _POISON_CHECK, str(PROGRAM)], capture_output=True, text=True)
    assert "compile failed" not in out.stdout and out.returncode == 0, out.stdout + out.stderr[-500:]


def test_a_worker_repairs_the_leaked_dispatch_keys_and_goes_on_correctly():
    """The worker undoes that damage (``obs.repair_dispatch``) instead of being replaced: a reduction of such a
    crash would otherwise start a fresh worker, seconds each, for every candidate. What it runs afterwards must
    be exactly what a fresh worker gives."""
    import os

    import oracle
    from oracle._runner import worker_pids
    from tests.conftest import program_source

    seed_chain = program_source("seed_chain.py")
    with oracle.Runner(workers=1, timeout=60.0) as fresh:
        expected = fresh.check(seed_chain, ["torch:backend=aot_eager"]).verdicts["torch:backend=aot_eager"]
    with oracle.Runner(workers=1, timeout=60.0) as runner:
        crash = runner.run(PROGRAM.read_text(), "torch:backend=aot_eager", calls=1)
        assert crash["calls"][0]["exception"] is not None  # the compile failed, as it does on torch 2.13
        assert crash["clean"] is True
        before = worker_pids(os.getpid())
        after = runner.check(seed_chain, ["torch:backend=aot_eager"]).verdicts["torch:backend=aot_eager"]
        assert worker_pids(os.getpid()) == before and len(before) == 1  # the same worker ran it
    assert after.kind == expected.kind == "ok"
    assert after.signature == expected.signature



_LEAVES_A_MODE = """# ngb-fuzz program
import torch


class Mode(torch.overrides.TorchFunctionMode):
    def __torch_function__(self, func, types, args=(), kwargs=None):
        return func(*args, **(kwargs or {})) * 0


def entry(x):
    Mode().__enter__()  # never left: the mode stays on the stack after the call
    return x + 1


def make_inputs(device):
    return (torch.ones(2),)
"""


def test_a_worker_pops_a_torch_function_mode_left_on_its_stack_and_goes_on_correctly():
    """A mode left pushed (by a program, or by a compiler crash inside one: torch 2.10's guard AssertionError) is
    popped after the job instead of the worker being replaced; what runs next is exactly what a fresh worker
    gives (under the leaked mode every result would be zero)."""
    import os

    import oracle
    from oracle._runner import worker_pids
    from tests.conftest import program_source

    seed_chain = program_source("seed_chain.py")
    with oracle.Runner(workers=1, timeout=60.0) as runner:
        leaked = runner.run(_LEAVES_A_MODE, "eager", calls=1)
        assert leaked["calls"][0]["exception"] is None and leaked["clean"] is True
        before = worker_pids(os.getpid())
        after = runner.check(seed_chain, ["torch"])
        assert worker_pids(os.getpid()) == before and len(before) == 1  # the same worker ran it
    assert after.verdicts["torch"].kind == "ok"
    assert after.eager_outcome == "returned"
