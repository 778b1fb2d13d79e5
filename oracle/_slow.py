"""Slow compiles with nested graph breaks on: the ``slow`` verdict.

A target compiled with nested graph breaks on (``torch`` or ``fault`` with ``ngb=on``) has a *twin*: the same
target with them off. Some programs compile hundreds of times slower with them on (seen in campaigns: about
400 s against 2-4 s off, deep recursion through decorated functions and ``disable`` breaks). The oracle's
``hang`` rule calls such a program a hang, rightly, but a hang cannot be reduced: a smaller program compiles
faster and is no hang any more, though it is still as many times slower with nested graph breaks on. So a run
on such a target that did not finish within the timeout, or took ``SLOW_FLOOR_S`` or more, is timed against
its twin's run of the same program, right after it, in the same pool of workers:

- it is ``slow`` (signature ``slow:compile``) when it took at least ``SLOW_RATIO`` times as long as the twin,
  and ``SLOW_FLOOR_S`` at least (``slow_limit``); a run that finished so slowly is run once more with that
  limit as its timeout and must not finish within it either (a load spike, or a compile cache the twin's run
  filled, makes one measurement wrong, seldom two); a run that did not finish is repeated once in a fresh
  worker, given the hang rule's time or that limit, whichever is longer, and must not finish again;
- a run that did not finish, whose twin (given the runner's timeout) does not finish either, is
  ``skip:too-slow``: nothing was compared and nothing says nested graph breaks made it slow. Seen on two
  cores: a 937-line program whose compile gave no result in 300 s with them off either, which the hang rule
  called a hang and a campaign then spent a quarter of an hour reducing. A slow run whose twin does not
  finish in its time is ``ok``.

Only a run that showed nothing else (``ok``, or no result) is timed: a wrong value or a crash is the finding.
The ratio, not a wall time, is what a reduction keeps (``fuzz.reduce``): it holds on a smaller program. The
reducer asks for ``REDUCE_MARGIN`` times the limit, so the reduced repro keeps the verdict when it is checked
again on a quieter or busier moment.

Runs are compared by the CPU seconds their worker used (``spent``), and a second run is stopped past the
limit in CPU seconds, not on the clock: on two shared cores a run's seconds on the clock grow with what runs
beside it, and a twin of a few seconds may fall in a quieter moment than a run of minutes, which then read
as ten times slower (a false finding) or, the other way, not (seen: a 2.15 campaign's slow compile, 18 times
its twin on a quiet machine, not kept by its reduction while a test suite ran beside it). The clock only
sieves which runs are timed against a twin.
"""

from __future__ import annotations

import collections
import dataclasses
import threading
from typing import TYPE_CHECKING, Any, Protocol

if TYPE_CHECKING:  # the campaign's scheduling asks ``waits_out`` without importing torch (``_verdict`` does)
    from ._targets import Target
    from ._verdict import Verdict

__all__ = ["LOAD_ALLOWANCE", "REDUCE_BY_STEPS", "REDUCE_MARGIN", "SLOW_FLOOR_S", "SLOW_RATIO",
           "SLOW_SIGNATURE", "STEP_FLOOR", "TOO_SLOW_SIGNATURE", "USUAL_FACTOR", "USUAL_MIN", "UsualTimes",
           "hang_rule", "limits", "slow_limit", "slow_verdict", "slowness", "spent", "step_limit",
           "too_slow_verdict", "twin", "waits_out"]

SLOW_RATIO = 10.0  # times the twin's run
SLOW_FLOOR_S = 15.0  # and at least this many seconds: below it, worker start and load noise are the same size
SLOW_SIGNATURE = "slow:compile"
TOO_SLOW_SIGNATURE = "skip:too-slow"
REDUCE_MARGIN = 1.5
# A reduction's candidate keeps a slow compile as soon as Dynamo traced ``step_limit`` bytecode instructions
# (``oracle._worker``'s count): a count moves with the program, not with the machine's load, so it needs no
# floor of seconds against noise, and a kept candidate stops there instead of waiting out a time limit.
# Measured on torch 2.13 (quiet): 11 campaign programs of 300-1,000 lines traced 1.0-2.1 times as many with
# nested graph breaks on as off (up to 18,000, 4 s), 40 corpus repros 0.9-4.5 times (up to 460); the
# corpus's Dynamo loop traced 200,000 in 9 s with them on, 124 off. Pace varies: 4,000 a second on tensor
# code, 240,000 on a loop of integer constants. The floor keeps a small program that happens to trace a few
# thousand more with them on from passing for a blow-up; the ratio keeps a large compile from doing so.
STEP_FLOOR = 50_000
REDUCE_BY_STEPS = True  # False: candidates timed only, as before (benchmarks/slow_reduce.py compares)
# A finished run on a target with nested graph breaks on is timed against its twin only when it took
# USUAL_FACTOR times the median of the runner's last USUAL_RUNS there (once it has USUAL_MIN of them): on two
# loaded cores most compiles of a campaign's programs pass the 15 s floor, and a twin run for each would
# double what they cost (seen: a 2.13 campaign beside two others checked 7 programs in its first four
# minutes).
USUAL_FACTOR = 3.0
# A run stopped past a limit of CPU seconds gets this many times that limit on the clock before its timeout:
# on two cores that the campaign's workers, a reduction and a test suite share, a run's seconds on the clock
# are up to about three times its CPU seconds.
LOAD_ALLOWANCE = 3.0
USUAL_RUNS = 50
USUAL_MIN = 10


class UsualTimes:
    """Seconds of a runner's recent finished runs, per target: what is usual on this machine now."""

    def __init__(self) -> None:
        self._runs: dict[str, collections.deque[float]] = collections.defaultdict(
            lambda: collections.deque(maxlen=USUAL_RUNS))
        self._lock = threading.Lock()

    def median(self, spec: str, seconds: float | None) -> float | None:
        """The median of the recent runs on ``spec`` (None: fewer than ``USUAL_MIN``, as in a fresh runner, a
        reduction's re-check); records ``seconds`` after."""
        with self._lock:
            recent = sorted(self._runs[spec])
            if seconds is not None:
                self._runs[spec].append(seconds)
        return recent[len(recent) // 2] if len(recent) >= USUAL_MIN else None


def twin(target: Target) -> Target | None:
    """``target`` with nested graph breaks off, when it compiles with them on; else None."""
    options = dict(target.options)
    if target.kind not in ("torch", "fault") or options.get("ngb", "on") != "on":
        return None
    return dataclasses.replace(target, options=tuple(sorted({**options, "ngb": "off"}.items())))


def step_limit(twin_steps: int) -> int:
    """Bytecode instructions a reduction's candidate may have Dynamo trace with nested graph breaks on, given
    its twin traced ``twin_steps``, before it keeps a slow compile (``fuzz.reduce``): the margin times the
    ratio of them, and ``STEP_FLOOR`` at least."""
    return max(STEP_FLOOR, round(REDUCE_MARGIN * SLOW_RATIO * twin_steps))


def slow_limit(twin_s: float, floor_s: float = SLOW_FLOOR_S, ratio: float = SLOW_RATIO) -> float:
    """Seconds a run must take (or not finish within) to be slow, given its twin's run took ``twin_s``."""
    return max(floor_s, ratio * twin_s)


def slow_verdict(on_s: float, twin_s: float, limit: float, finished: bool, target: Target,
                 cpu: bool = False, clock: bool = True) -> Verdict:
    """The ``slow`` verdict of a run that cost ``on_s`` seconds (``finished``), or gave no result in them,
    against its twin's ``twin_s``; ``limit``: the slow limit (``slow_limit``) that a second run did not finish
    within. ``cpu``: the twin's cost and the limit are CPU seconds (``spent``); ``clock``: ``on_s`` is seconds
    on the clock (a run stopped at its timeout), else as the twin's."""
    from ._verdict import Verdict

    unit = " CPU seconds" if cpu else " s"
    took = (f"took {on_s:.1f}{unit}, and once more gave no result within {limit:.0f}{unit}" if finished
            else f"gave no result in {on_s:.0f}" + (" s" if clock else unit))
    off = twin(target)
    return Verdict(
        "slow", "compile", SLOW_SIGNATURE,
        f"with nested graph breaks on, the run {took}; with them off ({off.spec if off else 'ngb=off'}) it "
        f"took {twin_s:.1f}{unit}: {on_s / max(twin_s, 1e-3):.0f} times as long or more (slow from "
        f"{limit:.0f}{unit})",
    )


def too_slow_verdict(on_s: float, twin_s: float, target: Target) -> Verdict:
    """The ``skip`` of a run that gave no result in ``on_s`` seconds whose twin gave none in ``twin_s``
    either: nothing to compare, and no sign that nested graph breaks made it slow."""
    from ._verdict import Verdict

    off = twin(target)
    return Verdict(
        "skip", "", TOO_SLOW_SIGNATURE,
        f"no result in {on_s:.0f} s, and none in {twin_s:.0f} s with nested graph breaks off "
        f"({off.spec if off else 'ngb=off'}) either: the program is too slow to compile here for a hang to "
        f"tell anything of nested graph breaks",
    )


class Runner(Protocol):
    """What the rules here use of an ``oracle.Runner`` (named so that this module does not import it)."""

    timeout: float
    hang_recheck: float
    slow_floor_s: float
    slow_ratio: float
    _usual: UsualTimes

    def run(self, source: str, target: Target | str, calls: int = ..., timeout: float | None = None,
            perturb: int | None = None, steps: int | None = None, cpu: float | None = None
            ) -> dict[str, Any]: ...

    def slow_limit(self, twin_s: float) -> float: ...


def spent(result: dict[str, Any]) -> float:
    """What a finished run cost: the CPU seconds its worker measured (``oracle._limits.cpu_seconds``), else
    (a runner of one's own) its seconds on the clock."""
    return float(result["cpu"]) if "cpu" in result else float(result.get("seconds", 0.0))


def _stopped(result: dict[str, Any]) -> bool:
    """A run that gave no result within its time, or was stopped past its CPU seconds."""
    return "hang" in result or "cpu_over" in result


def limits(seconds: float, by_cpu: bool) -> tuple[float, float | None]:
    """A run's timeout and CPU seconds (``Runner.run``) for a run given ``seconds``: CPU seconds, with
    ``LOAD_ALLOWANCE`` times them on the clock, where the run's cost is measured in CPU seconds; else seconds
    on the clock and no limit of CPU seconds."""
    return (LOAD_ALLOWANCE * seconds, seconds) if by_cpu else (seconds, None)


def hang_rule(runner: Runner, source: str, target: Target, calls: int, result: dict[str, Any]
              ) -> tuple[dict[str, Any], Verdict | None, float | None]:
    """A target run that gave no result within ``runner``'s timeout (``result``): the run to judge instead,
    the verdict when this decides it, and the twin's cost (``spent``) when it ran and finished. A compile can
    be slow rather than stuck (inductor under load, many graphs), so the run is repeated once in a fresh
    worker given ``hang_recheck`` times as long. A target with a twin has the twin run first, at the runner's
    timeout: a twin that gives no result either decides ``skip:too-slow`` (the program is too slow to compile
    here for a hang to tell anything of nested graph breaks); one that finishes sets the slow limit, the
    repeat gets that limit where it is longer, in CPU seconds where the twin's were measured (with
    ``LOAD_ALLOWANCE`` times them on the clock), and no result again is ``slow``. A compile that ends in a
    crash or a wrong value within the repeat's time is that finding, as it would be in a quicker run."""
    pair = twin(target)
    other = runner.run(source, pair, calls) if pair is not None else {}
    if "hang" in other:
        return result, too_slow_verdict(float(result["hang"]), float(other["hang"]), target), None
    twin_s = spent(other) if "calls" in other else None  # a twin that died sets no limit
    limit = runner.slow_limit(twin_s) if twin_s is not None else 0.0
    by_cpu = "cpu" in other
    again = max(runner.timeout * runner.hang_recheck, limit)  # a compile that ends in a finding shows it
    if again > float(result["hang"]):
        timeout, cpu = limits(again, by_cpu)
        result = runner.run(source, target, calls, timeout=timeout, cpu=cpu)
    if twin_s is not None and _stopped(result):
        on_s = float(result["hang"]) if "hang" in result else float(result["cpu_over"])
        return result, slow_verdict(on_s, twin_s, limit, False, target, by_cpu, "hang" in result), twin_s
    return result, None, twin_s


def slowness(runner: Runner, source: str, target: Target, calls: int, result: dict[str, Any],
             verdict: Verdict, twin_s: float | None = None) -> Verdict:
    """``slow`` instead of ``verdict`` (``ok``) when the run (finished: a run that did not is ``hang_rule``'s)
    cost ``slow_limit`` of its twin's and a second run is stopped past that limit too; else ``verdict``.
    Costs are CPU seconds where the worker measured them (``spent``): on cores that other processes share, a
    run's seconds on the clock grow with what runs beside it, and the twin's, a few seconds long, may fall
    in a quieter moment than a long run. The clock only sieves (the floor, what is usual). ``twin_s``: the
    twin's cost when ``hang_rule`` ran it already (not run again)."""
    pair = twin(target)
    on_s = float(result.get("seconds", 0.0))
    if pair is None:
        return verdict
    usual = runner._usual.median(target.spec, on_s)
    if on_s < runner.slow_floor_s or (usual is not None and on_s < USUAL_FACTOR * usual):
        return verdict
    on = spent(result)
    if twin_s is None:
        # the twin need not run longer than a slow run's twin can take: past that, the ratio is not there
        other = runner.run(source, pair, calls, timeout=min(
            runner.timeout, max(LOAD_ALLOWANCE * on_s / runner.slow_ratio, 1.0)))
        if "calls" not in other:  # the twin hung or died too: nested graph breaks did not make it slow
            return verdict
        twin_s = spent(other)
    limit = runner.slow_limit(twin_s)
    if on < limit:
        return verdict
    by_cpu = "cpu" in result
    timeout, cpu = limits(limit, by_cpu)
    if not _stopped(runner.run(source, target, calls, timeout=timeout, cpu=cpu)):
        return verdict
    return slow_verdict(on, twin_s, limit, True, target, by_cpu)


def waits_out(signature: str) -> bool:
    """Whether every check that keeps a finding with ``signature`` waits out a timeout (a hang, a slow
    compile): such reductions cost the most and are served last."""
    return signature == "hang" or signature.startswith("slow:")
