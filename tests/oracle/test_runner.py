"""The runner end to end: real targets agree with eager, every fault backend gives its verdict kind."""

import pytest

from oracle._faults import FAULTS, fault_spec
from tests.conftest import program_source, runner_for

SEED_CHAIN = program_source("seed_chain.py")


def test_torch_with_and_without_ngb_agree_with_eager_and_report_stats(runner):
    report = runner.check(SEED_CHAIN, ["torch", "torch:ngb=off"])
    assert {k: v.kind for k, v in report.verdicts.items()} == {"torch": "ok", "torch:ngb=off": "ok"}
    assert not report.flaky
    # NGB resumes inside the callee: fewer graphs and breaks than top-frame-only resumption.
    assert report.stats["torch"]["graphs"] < report.stats["torch:ngb=off"]["graphs"]
    assert report.stats["torch"]["breaks"] < report.stats["torch:ngb=off"]["breaks"]


# slow-ngb is the hang fault with a twin that returns: its verdict is in the truth table
# (tests/oracle/test_truth_table.py), on a program whose twin run is known to be quick
@pytest.mark.parametrize("fault", sorted(set(FAULTS) - {"slow-ngb"}))
def test_each_fault_backend_is_caught_with_its_verdict_kind(request, fault):
    spec = fault_spec(fault)
    runner = runner_for(request, FAULTS[fault][1])
    verdict = runner.check(SEED_CHAIN, [spec]).verdicts[spec]
    assert verdict.kind == FAULTS[fault][1], verdict
    assert verdict.is_finding


def test_signatures_are_stable_and_free_of_addresses_and_paths(runner):
    first = runner.check(SEED_CHAIN, ["fault:raise", "fault:kill"]).verdicts
    again = runner.check(SEED_CHAIN, ["fault:raise", "fault:kill"]).verdicts
    assert {k: v.signature for k, v in first.items()} == {k: v.signature for k, v in again.items()} == {
        "fault:raise": "crash:RuntimeError@oracle._faults:_raise", "fault:kill": "crash:died:SIGKILL"}


def test_flaky_program_is_never_a_finding(runner):
    source = SEED_CHAIN.replace("def entry(x):\n", "def entry(x):\n    x = x + torch.rand(1).item()\n")
    report = runner.check(source, ["fault:perturb"])
    assert report.flaky
    assert report.verdicts["fault:perturb"].kind == "flaky"


def test_program_that_does_not_load_is_skipped(runner):
    report = runner.check("def entry(:\n", ["torch"])
    assert report.verdicts["torch"].signature == "skip:invalid-program"


def test_leaked_grad_mode_does_not_poison_the_next_program(runner):
    runner.check(SEED_CHAIN, ["fault:flip-grad"])
    assert runner.check(SEED_CHAIN, ["torch"]).verdicts["torch"].kind == "ok"


def test_standalone_file_exits_0_on_match_and_1_on_mismatch(tmp_path):
    import subprocess
    import sys

    def run(source):
        path = tmp_path / "prog.py"
        path.write_text(source)
        return subprocess.run([sys.executable, str(path)], capture_output=True, text=True, timeout=300)

    ok = run(SEED_CHAIN)
    assert ok.returncode == 0, ok.stdout + ok.stderr
    assert "match: eager vs torch.compile (torch)" in ok.stdout
    # torch.compiler.is_compiling() is True only under the compiler: a genuine eager/compiled difference.
    differs = SEED_CHAIN.replace("    x = x + 1\n", "    x = x + int(torch.compiler.is_compiling())\n", 1)
    bad = run(differs)
    assert bad.returncode == 1, bad.stdout + bad.stderr
    assert "call 1: result differs" in bad.stdout and "MISMATCH" in bad.stdout


def test_oracle_sees_the_same_difference_the_standalone_check_sees(runner):
    differs = SEED_CHAIN.replace("    x = x + 1\n", "    x = x + int(torch.compiler.is_compiling())\n", 1)
    verdict = runner.check(differs, ["torch"]).verdicts["torch"]
    assert verdict.signature == "mismatch:value:values"


def test_a_worker_poisoned_by_a_program_is_replaced(runner):
    leak = SEED_CHAIN.replace("def entry(x):\n", (
        "def entry(x):\n"
        "    from torch.utils._python_dispatch import TorchDispatchMode, _push_mode\n"
        "    class Spy(TorchDispatchMode):\n"
        "        def __torch_dispatch__(self, func, types, args=(), kwargs=None):\n"
        "            return func(*args, **(kwargs or {}))\n"
        "    _push_mode(Spy())  # never popped: every later op in this process would go through it\n"))
    runner.check(SEED_CHAIN, ["eager"])
    before = {w.proc.pid for w in runner._pools[None].all}
    # each of the three runs (eager twice, then the target) poisons its worker; the next run must get a fresh
    # one, never the poisoned worker while it is still exiting (that read as crash:died:exit0 or skip)
    for _ in range(3):
        assert runner.check(leak, ["eager"]).verdicts["eager"].signature == "ok"
    after = {w.proc.pid for w in runner._pools[None].all}
    assert before and not before & after  # the worker that ran the leak is gone
    assert runner.check(SEED_CHAIN, ["torch"]).verdicts["torch"].kind == "ok"


@pytest.mark.parametrize("kind", ["torch", "engine"])
def test_a_job_leaves_no_generated_source_in_the_worker(kind):
    """Compilers cache the source of every function they generate (FX graph code, resume functions, guards,
    residual code); a long-lived worker that kept them all grew by about a megabyte per program."""
    import os

    from oracle import _observe as obs
    from oracle import _worker as worker

    if kind == "engine":
        pytest.importorskip("engine")
    job = {"source": program_source("seed_chain.py"), "target": {"kind": kind, "options": {}}, "calls": 2}
    state, dispatch = obs.torch_state(), obs.dispatch_state()
    worker.run_job(job, state, dispatch)  # the first job may load library files into linecache: those stay
    caches = worker._source_caches()
    assert len(caches) == 2, "FX's source cache is no longer where the worker looks for it"
    before = [set(cache) for cache in caches]
    result = worker.run_job(job, state, dispatch)
    assert result["stats"]["graphs"] >= 1  # it compiled something
    for cache, keys in zip(caches, before):
        added = [k for k in set(cache) - keys if not (isinstance(k, str) and os.path.isfile(k))]
        assert added == []


def test_a_finished_program_keeps_none_of_its_functions_alive_in_the_worker():
    """Dynamo holds the globals dict of every function it compiled past ``torch._dynamo.reset()``; a worker
    that left the program's names there kept every program's functions, classes and tensors."""
    import gc

    import torch

    from oracle import _observe as obs
    from oracle import _worker as worker

    def alive() -> int:
        torch._dynamo.reset()
        gc.collect()
        return sorted(o.__name__ for o in gc.get_objects()  # Dynamo's own resume functions may stay
                      if type(o).__name__ == "function" and o.__code__.co_filename == worker.PROGRAM_FILE
                      and not o.__name__.startswith(("torch_dynamo_resume_in_", "__resume_at_")))

    job = {"source": program_source("seed_chain.py"), "target": {"kind": "torch", "options": {}}, "calls": 2}
    state, dispatch = obs.torch_state(), obs.dispatch_state()
    before = alive()
    for _ in range(3):
        assert worker.run_job(job, state, dispatch)["stats"]["graphs"] >= 1
    assert alive() == before


# Slow only where it is compiled: is_compiling() is True while torch.compile traces entry, and the sleep is a graph
# break that then runs for real; eager never sleeps. Two calls, so a compiled run takes about 2 * SLOW seconds.
SLOW = 2.5
SLOW_UNDER_COMPILE = SEED_CHAIN.replace(
    "def entry(x):\n",
    f"def entry(x):\n    if torch.compiler.is_compiling():\n        __import__('time').sleep({SLOW})\n",
)


def test_a_slow_target_is_rechecked_with_more_time_before_it_is_called_a_hang():
    import oracle

    # 4 s is past the compiled run's ~5 s of sleep plus compile; three times as long is not.
    # A target without a twin (nested graph breaks off): with one, a run slow either way is skip:too-slow.
    with oracle.Runner(workers=1, timeout=4.0) as r:
        verdict = r.check(SLOW_UNDER_COMPILE, ["torch:ngb=off"]).verdicts["torch:ngb=off"]
    assert verdict.kind == "ok", verdict
    with oracle.Runner(workers=1, timeout=4.0, hang_recheck=1.0) as r:  # no re-check: the slow run is a hang
        verdict = r.check(SLOW_UNDER_COMPILE, ["torch:ngb=off"]).verdicts["torch:ngb=off"]
    assert verdict.kind == "hang", verdict


def test_hang_recheck_factor_is_validated():
    import oracle

    for bad in (0.5, float("nan"), float("inf")):
        with pytest.raises(oracle.OracleError, match="hang_recheck"):
            oracle.Runner(hang_recheck=bad)


def test_warm_up_starts_as_many_workers_as_asked_at_once():
    import oracle

    with oracle.Runner(workers=2, timeout=30.0) as r:
        info = r.warm_up(count=2)
        assert info["ready"]
        assert set(r.memory()["workers"]) == {"worker 1", "worker 2"}  # both started, not one handed out twice


def test_the_effect_log_is_optional_but_never_supplied_to_a_program_that_writes_it(runner):
    from oracle._runner import eager_outcome

    no_log = "import torch\n\ndef entry(x):\n    return x + 1\n\ndef make_inputs(device):\n    return (torch.ones(2),)\n"
    record = runner.run(no_log, "eager")
    assert eager_outcome(record) == "returned" and record["calls"][0]["effects"] == ("list", [])
    # writing a log the program does not define fails as it does on its own: a reducer that dropped the
    # definition must see the outcome change
    writes = no_log.replace("    return x + 1\n", "    EFFECTS.append(1)\n    return x + 1\n")
    assert eager_outcome(runner.run(writes, "eager")) == "raised:NameError"
