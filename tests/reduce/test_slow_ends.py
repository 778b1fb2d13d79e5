"""A slow compile let finish once before it is reduced (``fuzz.reduce._ends``): the wrong value (or crash) it ends
in is the finding, reduced with checks of seconds; one that does not end, or ends as eager does, stays slow."""

from __future__ import annotations

import pytest

from fuzz.campaign.reductions import SLOW_WAIT_S
from fuzz.reduce._ends import FINISH_FACTOR, ends_in
from tests.reduce.test_slow_reduce import _program, _SlowRunner


class _EndingRunner(_SlowRunner):
    """The fake slow compile, which ends: with nested graph breaks on, ``deep()`` with ``x = x + 7`` compiles in
    ``on_s`` seconds (slow: past ``REDUCE_MARGIN`` times the limit of its twin's ``off_s``), and when it runs to
    its end a program that calls ``leak()`` returns ``wrong`` where eager returns 0. The leak needs neither."""

    def __init__(self, on_s: float = 40.0, wrong: int = 1):
        super().__init__(on_s=on_s)
        self.wrong = wrong

    def run(self, source, target, calls=1, timeout=None, **kwargs):
        result = super().run(source, target, calls, timeout)
        nested = dict(target.options).get("ngb", "on") == "on"
        if target.kind == "eager" or not nested or "leak()" not in source or "calls" not in result:
            return result
        return {**result, "calls": [{"exception": None, "value": self.wrong, "torch_state": {}}] * calls}

    def recheck(self, source, target, signature, times, **kwargs):
        import oracle

        if signature.startswith("slow:"):  # the full rule: past the slow limit of its twin's run
            slow = self.seconds(source, oracle.parse_target(target)) > self.slow_limit(self.off_s)
            return times if slow else 0
        ran = self.run(source, oracle.parse_target(target))
        return times if ran.get("calls") and ran["calls"][0]["value"] != 0 else 0


def _leaking() -> str:
    return _program().replace("    deep()\n", "    deep()\n    leak()\n").replace(
        "def entry(x):", "def leak():\n    pass\n\n\ndef entry(x):")


def test_a_slow_compile_that_ends_in_a_wrong_value_is_reduced_as_that_wrong_value(monkeypatch):
    from fuzz.reduce import _oracle
    from fuzz.reduce._oracle import reduce_program

    runner = _EndingRunner()
    monkeypatch.setattr(_oracle, "recheck", runner.recheck)
    result = reduce_program(_leaking(), "torch", signature="slow:compile", budget_s=600.0, runner=runner,
                            rechecks=1, hang_wait_s=SLOW_WAIT_S, cheaper=False)
    assert result.signature == "mismatch:value:value" and "finished" in result.stages, result
    assert "# signature: mismatch:value:value" in result.source
    # the wrong value needs the leak, not what made the compile slow
    assert "leak()" in result.source and "deep()" not in result.source and "x = x + 7" not in result.source
    assert (result.rechecks, result.reproduced, result.stopped) == (1, 1, "fixpoint")
    assert "ends in mismatch:value:value" in result.summary()
    # the original ran to its end once (given four times the slow limit), and no candidate waited out a limit
    limit = runner.slow_limit(runner.off_s)
    assert [t for spec, t in runner.runs if spec == "torch"][0] == FINISH_FACTOR * limit
    assert all(t is None for spec, t in runner.runs[2:] if spec == "torch")


@pytest.mark.parametrize("on_s, wrong", [(400.0, 1), (40.0, 0)], ids=["does not end", "ends as eager does"])
def test_a_slow_compile_that_does_not_end_or_ends_right_is_reduced_as_slow(monkeypatch, on_s, wrong):
    from fuzz.reduce import _oracle
    from fuzz.reduce._oracle import reduce_program

    runner = _EndingRunner(on_s=on_s, wrong=wrong)
    monkeypatch.setattr(_oracle, "recheck", runner.recheck)
    result = reduce_program(_leaking(), "torch", signature="slow:compile", budget_s=600.0, runner=runner,
                            rechecks=1, hang_wait_s=SLOW_WAIT_S, cheaper=False)
    assert result.signature == "slow:compile" and "finished" not in result.stages
    assert "deep()" in result.source and "x = x + 7" in result.source and "    leak()" not in result.source
    assert (result.reproduced, result.stopped) == (1, "fixpoint")


def test_the_run_to_its_end_is_given_a_multiple_of_the_slow_limit_within_the_waiting():
    runner = _EndingRunner(on_s=40.0)
    assert ends_in(runner, _leaking(), "torch", 1) == "mismatch:value:value"
    assert runner.runs == [("torch:ngb=off", None), ("torch", FINISH_FACTOR * runner.slow_limit(runner.off_s))]
    # a campaign's waiting for slow compiles bounds it: 30 s, and the run needs 40
    short = _EndingRunner(on_s=40.0)
    assert ends_in(short, _leaking(), "torch", 1, wait_s=30.0) is None and short.runs[-1] == ("torch", 30.0)
    # a target with no twin (nested graph breaks off already), and a runner that only judges programs: not asked
    assert ends_in(runner, _leaking(), "torch:ngb=off", 1) is None

    class Judging:
        def check(self, *args, **kwargs):
            raise AssertionError("not asked")

    assert ends_in(Judging(), _leaking(), "torch", 1) is None


def test_a_slow_compile_that_ran_on_says_so_and_is_not_let_finish_when_told(monkeypatch):
    # a compile that never ends costs the whole allowance each time: the result says it ran on ("no ending"), and
    # a caller that keeps that (a campaign's bucket) asks for no run the next time
    from fuzz.reduce import _oracle
    from fuzz.reduce._oracle import reduce_program

    asked = []
    monkeypatch.setattr(_oracle, "ends_in", lambda *args, **kwargs: asked.append(args[2]))
    runner = _EndingRunner(on_s=400.0)
    monkeypatch.setattr(_oracle, "recheck", runner.recheck)
    first = reduce_program(_leaking(), "torch", signature="slow:compile", budget_s=600.0, runner=runner, rechecks=1,
                           hang_wait_s=SLOW_WAIT_S, cheaper=False)
    assert asked == ["torch"] and "no ending" in first.stages and first.signature == "slow:compile"
    again = reduce_program(_leaking(), "torch", signature="slow:compile", budget_s=600.0, runner=runner, rechecks=1,
                           hang_wait_s=SLOW_WAIT_S, cheaper=False, let_finish=False)
    assert asked == ["torch"] and "no ending" not in again.stages


def test_a_slow_compile_whose_full_check_ends_in_a_wrong_value_is_reduced_as_that(monkeypatch):
    # given more time (a longer timeout, a quieter moment), the oracle's own repeat of a run that gave no result
    # sees it end in the wrong value: that is the finding, not a refusal ("gives ..., not slow:compile")
    import oracle
    from fuzz.reduce import _oracle
    from fuzz.reduce._oracle import reduce_program

    runner = _EndingRunner()

    def check(source, targets, *, calls=2, repeat_eager=True):
        leaks = "leak()" in source and "deep()" in source and "x = x + 7" in source
        verdict = oracle.Verdict("mismatch", "value", "mismatch:value:value") if leaks else oracle.Verdict("ok", "", "ok")
        return oracle.ProgramReport({t: verdict for t in targets}, False, {}, 0.0, "returned")

    runner.check = check
    monkeypatch.setattr(_oracle, "recheck", runner.recheck)
    monkeypatch.setattr(_oracle, "ends_in", lambda *args, **kwargs: pytest.fail("its end was seen already"))
    result = reduce_program(_leaking(), "torch", signature="slow:compile", budget_s=600.0, runner=runner,
                            rechecks=1, cheaper=False)
    assert result.signature == "mismatch:value:value" and "finished" in result.stages
    assert "    leak()" in result.source and "deep()" not in result.source and result.reproduced == 1
    # a verdict that is no finding, or waits out a limit too, is still refused
    runner.check = lambda source, targets, **kwargs: oracle.ProgramReport(
        {t: oracle.Verdict("hang", "", "hang") for t in targets}, False, {}, 0.0, "returned")
    with pytest.raises(_oracle.ReduceError, match="gives hang"):
        reduce_program(_leaking(), "torch", signature="slow:compile", runner=runner, cheaper=False)


def test_the_wrong_value_a_slow_compile_ends_in_is_reduced_without_the_ir_stage(monkeypatch):
    # the IR stage's candidates keep most of the program, each check the slow compile's time, for longer than the
    # source stage's cut-call-graph does
    from fuzz.reduce import _oracle
    from fuzz.reduce._oracle import reduce_program

    staged = []
    monkeypatch.setattr(_oracle, "reduce_ir", lambda *args, **kwargs: staged.append(kwargs.get("clock")))
    for on_s, expected in ((40.0, []), (400.0, [1])):  # ends in a wrong value; does not end: the IR stage runs
        staged.clear()
        runner = _EndingRunner(on_s=on_s)
        monkeypatch.setattr(_oracle, "recheck", runner.recheck)
        reduce_program(_leaking(), "torch", signature="slow:compile", budget_s=600.0, runner=runner, rechecks=1,
                       hang_wait_s=SLOW_WAIT_S, cheaper=False, ir=object())
        assert len(staged) == len(expected)
