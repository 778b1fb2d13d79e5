"""Reducing a slow compile (``slow:compile``): candidates are timed against their twin, as the oracle does."""

from __future__ import annotations

import pytest

from fuzz.reduce._ends import FINISH_FACTOR
from oracle._slow import REDUCE_MARGIN


class _SlowRunner:
    """A fake runner: with nested graph breaks on, a program that calls ``deep()`` and keeps ``x = x + 7`` compiles
    in ``on_s`` seconds; everything else, and everything with them off, in ``off_s``. A run past its timeout
    reports the timeout, as the runner does."""

    timeout = 60.0
    slow_floor_s, slow_ratio = 15.0, 10.0

    def __init__(self, on_s: float = 400.0, off_s: float = 0.5):
        self.on_s, self.off_s = on_s, off_s
        self.runs: list[tuple[str, float | None]] = []  # (target, timeout) of each compiled run

    def seconds(self, source: str, target) -> float:
        nested = dict(target.options).get("ngb", "on") == "on"
        return self.on_s if nested and "deep()" in source and "x = x + 7\n" in source else self.off_s

    def slow_limit(self, twin_s: float) -> float:
        return max(self.slow_floor_s, self.slow_ratio * twin_s)

    def run(self, source, target, calls=1, timeout=None, **kwargs):
        if target.kind == "eager":
            return {"calls": [{"exception": None, "value": 0, "torch_state": {}}] * calls, "seconds": 0.01}
        self.runs.append((target.spec, timeout))
        took = self.seconds(source, target)
        if took > (timeout or self.timeout):
            return {"hang": timeout or self.timeout}
        return {"calls": [{"exception": None, "value": 0, "torch_state": {}}] * calls, "seconds": took}

    def check(self, source, targets, *, calls=2, repeat_eager=True):
        import oracle

        kind = lambda t: "slow:compile" if self.seconds(source, oracle.parse_target(t)) > 60 else "ok"  # noqa: E731
        return oracle.ProgramReport({t: oracle.Verdict(kind(t).partition(":")[0], "", kind(t)) for t in targets},
                                    False, {}, 0.0, "returned")

    def recheck(self, source, target, signature, times, **kwargs):
        import oracle

        return times if self.seconds(source, oracle.parse_target(target)) > 60 else 0


def _program() -> str:
    body = "".join(f"    x = x + {k}\n" for k in range(12))
    return (f"import torch\n\n\ndef deep():\n    pass\n\n\ndef entry(x):\n{body}    deep()\n    return x\n\n\n"
            "def make_inputs(device):\n    return (torch.ones(1),)\n")


def test_a_slow_compile_is_reduced_by_its_ratio_to_the_twin_each_kept_candidate_waiting_out_its_limit(monkeypatch):
    from fuzz.campaign.reductions import SLOW_WAIT_S
    from fuzz.reduce import _oracle
    from fuzz.reduce._oracle import reduce_program

    runner = _SlowRunner()
    monkeypatch.setattr(_oracle, "recheck", runner.recheck)
    result = reduce_program(_program(), "torch", signature="slow:compile", budget_s=600.0, runner=runner,
                            rechecks=1, hang_wait_s=SLOW_WAIT_S, cheaper=False)
    assert result.stopped == "fixpoint" and result.lines < result.original_lines, result
    assert "deep()" in result.source and "x = x + 7" in result.source and "x = x + 3" not in result.source
    assert (result.rechecks, result.reproduced) == (1, 1) and "finished" not in result.stages
    # the original first let finish once (``fuzz.reduce._ends``), after its twin: it does not, so it is reduced
    # as a slow compile
    assert runner.runs[:2] == [("torch:ngb=off", None), ("torch", FINISH_FACTOR * runner.slow_limit(runner.off_s))]
    # every candidate's target run is preceded by its twin's, and waits out the margin times the twin's limit, not
    # the runner's timeout
    targets = [(spec, timeout) for spec, timeout in runner.runs[2:] if spec == "torch"]
    assert targets and {timeout for _, timeout in targets} == {REDUCE_MARGIN * runner.slow_limit(runner.off_s)}
    assert all(runner.runs[i - 1][0] == "torch:ngb=off" for i, (spec, _) in enumerate(runner.runs) if spec == "torch")


class _CountingRunner(_SlowRunner):
    """The fake runner, counting as a worker does: a run asked to count reports ``twin_steps`` instructions
    traced, and a slow one asked to stop past a count stops there after ``stop_s`` seconds."""

    def __init__(self, twin_steps: int = 300, stop_s: float = 2.0):
        super().__init__()
        self.twin_steps, self.stop_s = twin_steps, stop_s
        self.limits: list[int | None] = []  # the count each target run was asked to stop past

    def run(self, source, target, calls=1, timeout=None, steps=None, **kwargs):
        result = super().run(source, target, calls, timeout)
        if target.spec == "torch":
            self.limits.append(steps)
        if target.kind == "eager" or steps is None or self.twin_steps is None:
            return result
        if steps and self.seconds(source, target) > self.stop_s:
            return {"steps_over": steps + 1, "seconds": self.stop_s}
        return {**result, "steps": self.twin_steps}


def test_a_kept_candidate_stops_at_its_count_of_traced_instructions_not_at_its_time_limit(monkeypatch):
    from fuzz.campaign.reductions import SLOW_WAIT_S
    from fuzz.reduce import _oracle
    from fuzz.reduce._oracle import reduce_program
    from oracle._slow import STEP_FLOOR, step_limit

    assert step_limit(10) == STEP_FLOOR and step_limit(STEP_FLOOR) == 15 * STEP_FLOOR
    runner = _CountingRunner()
    monkeypatch.setattr(_oracle, "recheck", runner.recheck)
    result = reduce_program(_program(), "torch", signature="slow:compile", budget_s=600.0, runner=runner,
                            rechecks=1, hang_wait_s=SLOW_WAIT_S, cheaper=False)
    assert result.stopped == "fixpoint" and "deep()" in result.source and "x = x + 3" not in result.source
    # every candidate's target run asks to stop past the limit of its twin's count (still under its time limit);
    # the first target run is the original's, let finish (``fuzz.reduce._ends``), counting nothing
    assert runner.limits[0] is None and set(runner.limits[1:]) == {step_limit(runner.twin_steps)}
    assert {t for spec, t in runner.runs[2:] if spec == "torch"} == {REDUCE_MARGIN * runner.slow_limit(runner.off_s)}

    # a torch that cannot count (no ``steps`` in the twin's result), or the count turned off: time alone
    uncounted = _CountingRunner(twin_steps=None)
    keeps = _oracle.oracle_predicate(uncounted, "torch", "slow:compile", "returned")
    assert keeps(_program()) and uncounted.limits == [None]
    monkeypatch.setattr(_oracle._slow, "REDUCE_BY_STEPS", False)
    counting = _CountingRunner()
    assert _oracle.oracle_predicate(counting, "torch", "slow:compile", "returned")(_program())
    assert counting.limits == [None]  # the target asked for no count


def test_a_candidate_as_slow_with_nested_graph_breaks_off_does_not_keep_a_slow_compile():
    import oracle
    from fuzz.reduce._oracle import oracle_predicate

    runner = _SlowRunner(on_s=400.0, off_s=30.0)  # the twin takes 30 s: the limit is 300 s, the margin 450 s
    keeps = oracle_predicate(runner, "torch", "slow:compile", "returned")
    assert not keeps(_program())
    assert keeps(_program()) is False and runner.runs[-1] == ("torch", REDUCE_MARGIN * 300.0)
    runner = _SlowRunner(on_s=400.0, off_s=0.5)
    assert oracle_predicate(runner, oracle.parse_target("torch").spec, "slow:compile", "returned")(_program())


class _SharedCoresRunner(_SlowRunner):
    """The fake runner on cores other processes share: each run costs ``seconds`` CPU seconds (reported as a
    worker does, and stopped past a ``cpu`` limit) and takes ``load`` times as long on the clock, the twin's
    runs ``twin_load`` times."""

    def __init__(self, load: float = 1.0, twin_load: float = 3.0, **kwargs):
        super().__init__(**kwargs)
        self.load, self.twin_load = load, twin_load
        self.cpu_limits: list[float | None] = []  # the CPU seconds each target run was asked to stop past

    def run(self, source, target, calls=1, timeout=None, cpu=None, **kwargs):
        if target.kind == "eager":
            return super().run(source, target, calls, timeout)
        self.runs.append((target.spec, timeout))
        nested = dict(target.options).get("ngb", "on") == "on"
        if nested:
            self.cpu_limits.append(cpu)
        spent = self.seconds(source, target)
        clock = spent * (self.load if nested else self.twin_load)
        if cpu is not None and spent > cpu:
            return {"cpu_over": cpu, "seconds": cpu * self.load}
        if clock > (timeout or self.timeout):
            return {"hang": timeout or self.timeout}
        return {"calls": [{"exception": None, "value": 0, "torch_state": {}}] * calls, "seconds": clock,
                "cpu": spent}


def test_a_candidate_is_kept_by_its_cpu_seconds_against_its_twins_whatever_the_clock_says():
    from fuzz.reduce._oracle import oracle_predicate
    from oracle._slow import LOAD_ALLOWANCE

    # 20 times its twin in CPU seconds; on the clock the twin ran in a moment three times as busy: by seconds
    # on the clock the limit was 45 s (the margin 67.5 s), which the candidate's 30 s never reached
    runner = _SharedCoresRunner(on_s=30.0, off_s=1.5)
    keeps = oracle_predicate(runner, "torch", "slow:compile", "returned")
    assert keeps(_program())
    limit = REDUCE_MARGIN * runner.slow_limit(1.5)
    assert runner.cpu_limits == [limit] and runner.runs[-1] == ("torch", LOAD_ALLOWANCE * limit)
    # and the other way: a twin in a quiet moment, a candidate in a busy one, slow only on the clock
    busy = _SharedCoresRunner(on_s=1.5, off_s=1.5, load=30.0, twin_load=1.0)
    assert not oracle_predicate(busy, "torch", "slow:compile", "returned")(_program())


@pytest.mark.slow
def test_a_real_slow_compile_reduces_its_candidates_kept_at_their_count_and_its_repro_is_slow():
    import oracle
    from fuzz.reduce._oracle import reduce_program

    filler = "".join(f"    y{k} = x * {k}\n" for k in range(4))
    # Dynamo traces the counting loop only with nested graph breaks on (over a million instructions, seconds);
    # eager and the twin skip it
    program = (
        "# ngb-fuzz program\n# target: torch\nimport torch\n\n\n"
        "def inner(x):\n    if torch._dynamo.config.nested_graph_breaks:\n        k = 0\n"
        "        for _ in range(100000):\n            k += 1\n"
        "    torch._dynamo.graph_break()\n    return x + 1\n\n\n"
        f"def entry(x):\n{filler}    return inner(x * 2) - 3\n\n\n"
        "def make_inputs(device):\n    return (torch.arange(4.0, device=device),)\n"
    )
    stopped = []

    class Counting(oracle.Runner):
        def run(self, *args, **kwargs):
            result = super().run(*args, **kwargs)
            stopped.append("steps_over" in result)
            return result

    # twice the twin, not ten times: on a loaded machine the twin's compile alone takes up to a second
    with Counting(workers=1, timeout=60.0, slow_floor_s=2.0, slow_ratio=2.0) as runner:
        result = reduce_program(program, "torch", budget_s=20.0, checks=40, ceiling_s=300.0, runner=runner,
                                rechecks=1)
        started = runner._pool(None).started
    assert result.signature == "slow:compile" and result.reproduced == 1, result
    assert result.lines < result.original_lines and "range(100000)" in result.source and "y2 = " not in result.source
    # the kept candidates stopped at their count, each in the worker it ran in (a timeout replaces the worker)
    assert sum(stopped) >= 3 and started <= 3, (sum(stopped), started)


def test_a_slow_compile_is_rechecked_at_its_slow_limit_not_at_the_hang_horizon(monkeypatch):
    """The fresh-process re-check of a reduced slow compile waits ``SLOW_RECHECK_S`` then its twin's slow limit
    (``oracle._slow.hang_rule`` gives the repeat that limit wherever it is longer), not the runner's timeout and
    three times it: a campaign's last round of a slow compile was still in that re-check (four minutes) when its
    budget ended, and kept nothing."""
    from fuzz.campaign.reductions import SLOW_WAIT_S
    from fuzz.reduce import _oracle
    from fuzz.reduce._oracle import SLOW_RECHECK_S, recheck_horizon, reduce_program

    runner = _SlowRunner()
    asked: list[dict] = []

    def recheck(source, target, signature, times, **kwargs):
        asked.append(kwargs)
        return runner.recheck(source, target, signature, times)

    monkeypatch.setattr(_oracle, "recheck", recheck)
    result = reduce_program(_program(), "torch", signature="slow:compile", budget_s=600.0, runner=runner,
                            rechecks=1, hang_wait_s=SLOW_WAIT_S, cheaper=False, timeout=60.0)
    assert result.reproduced == 1 and asked
    assert all(a["timeout"] == SLOW_RECHECK_S < 60.0 and a["hang_recheck"] == 1.0 for a in asked), asked
    # every other finding keeps the runner's horizon and the oracle's repeat
    assert recheck_horizon("hang", 60.0) == {"timeout": 60.0}
    assert recheck_horizon("mismatch:value:values", 45.0) == {"timeout": 45.0}
    assert recheck_horizon("slow:compile", 20.0) == {"timeout": 20.0, "hang_recheck": 1.0}  # never longer
