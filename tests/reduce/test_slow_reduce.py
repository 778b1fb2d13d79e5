"""Reducing a slow compile (``slow:compile``): candidates are timed against their twin, as the oracle does."""

from __future__ import annotations

import pytest

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
    assert (result.rechecks, result.reproduced) == (1, 1)
    # every target run is preceded by its twin's, and waits out the margin times the twin's limit, not the
    # runner's timeout
    targets = [(spec, timeout) for spec, timeout in runner.runs if spec == "torch"]
    assert targets and {timeout for _, timeout in targets} == {REDUCE_MARGIN * runner.slow_limit(runner.off_s)}
    assert all(runner.runs[i - 1][0] == "torch:ngb=off" for i, (spec, _) in enumerate(runner.runs) if spec == "torch")


def test_a_candidate_as_slow_with_nested_graph_breaks_off_does_not_keep_a_slow_compile():
    import oracle
    from fuzz.reduce._oracle import oracle_predicate

    runner = _SlowRunner(on_s=400.0, off_s=30.0)  # the twin takes 30 s: the limit is 300 s, the margin 450 s
    keeps = oracle_predicate(runner, "torch", "slow:compile", "returned")
    assert not keeps(_program())
    assert keeps(_program()) is False and runner.runs[-1] == ("torch", REDUCE_MARGIN * 300.0)
    runner = _SlowRunner(on_s=400.0, off_s=0.5)
    assert oracle_predicate(runner, oracle.parse_target("torch").spec, "slow:compile", "returned")(_program())


@pytest.mark.slow
def test_a_real_slow_compile_reduces_and_its_repro_is_slow_under_the_same_rules():
    import oracle
    from fuzz.reduce._oracle import reduce_program

    filler = "".join(f"    y{k} = x * {k}\n" for k in range(4))
    program = (
        "# ngb-fuzz program\n# target: torch\nimport time\n\nimport torch\n\n\n"
        "def inner(x):\n    if torch._dynamo.config.nested_graph_breaks:\n        time.sleep(6)\n"
        "    torch._dynamo.graph_break()\n    return x + 1\n\n\n"
        f"def entry(x):\n{filler}    return inner(x * 2) - 3\n\n\n"
        "def make_inputs(device):\n    return (torch.arange(4.0, device=device),)\n"
    )
    # twice the twin, not ten times: on a loaded machine the twin's compile alone takes up to a second
    with oracle.Runner(workers=1, timeout=30.0, slow_floor_s=2.0, slow_ratio=2.0) as runner:
        # a budget in checks (stretched to their pace, up to the ceiling): each kept candidate waits out seconds,
        # and a loaded machine must not cut the reduction short before its first cut
        result = reduce_program(program, "torch", budget_s=20.0, checks=40, ceiling_s=400.0, runner=runner,
                                rechecks=1)
    assert result.signature == "slow:compile" and result.reproduced == 1, result
    assert result.lines < result.original_lines and "time.sleep(6)" in result.source and "y2 = " not in result.source
