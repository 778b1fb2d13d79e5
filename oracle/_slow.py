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
The ratio, not a wall time, is what a reduction keeps (``fuzz.reduce``): it holds on a smaller program and on
a loaded machine, where both runs are slowed alike. The reducer asks for ``REDUCE_MARGIN`` times the limit, so
the reduced repro keeps the verdict when it is checked again on a quieter or busier moment.
"""

from __future__ import annotations

import collections
import dataclasses
import threading
from typing import TYPE_CHECKING

if TYPE_CHECKING:  # the campaign's scheduling asks ``waits_out`` without importing torch (``_verdict`` does)
    from ._targets import Target
    from ._verdict import Verdict

__all__ = ["REDUCE_MARGIN", "SLOW_FLOOR_S", "SLOW_RATIO", "SLOW_SIGNATURE", "TOO_SLOW_SIGNATURE",
           "USUAL_FACTOR", "USUAL_MIN", "UsualTimes", "slow_limit", "slow_verdict", "too_slow_verdict",
           "twin", "waits_out"]

SLOW_RATIO = 10.0  # times the twin's run
SLOW_FLOOR_S = 15.0  # and at least this many seconds: below it, worker start and load noise are the same size
SLOW_SIGNATURE = "slow:compile"
TOO_SLOW_SIGNATURE = "skip:too-slow"
REDUCE_MARGIN = 1.5
# A finished run on a target with nested graph breaks on is timed against its twin only when it took
# USUAL_FACTOR times the median of the runner's last USUAL_RUNS there (once it has USUAL_MIN of them): on two
# loaded cores most compiles of a campaign's programs pass the 15 s floor, and a twin run for each would
# double what they cost (seen: a 2.13 campaign beside two others checked 7 programs in its first four
# minutes).
USUAL_FACTOR = 3.0
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


def slow_limit(twin_s: float, floor_s: float = SLOW_FLOOR_S, ratio: float = SLOW_RATIO) -> float:
    """Seconds a run must take (or not finish within) to be slow, given its twin's run took ``twin_s``."""
    return max(floor_s, ratio * twin_s)


def slow_verdict(on_s: float, twin_s: float, limit: float, finished: bool, target: Target) -> Verdict:
    """The ``slow`` verdict of a run that took ``on_s`` seconds (``finished``), or gave no result in them,
    against its twin's ``twin_s``; ``limit``: the slow limit (``slow_limit``) that a second run did not finish
    within."""
    from ._verdict import Verdict

    took = (f"took {on_s:.1f} s, and once more gave no result within {limit:.0f} s" if finished
            else f"gave no result in {on_s:.0f} s")
    off = twin(target)
    return Verdict(
        "slow", "compile", SLOW_SIGNATURE,
        f"with nested graph breaks on, the run {took}; with them off ({off.spec if off else 'ngb=off'}) it "
        f"took {twin_s:.1f} s: {on_s / max(twin_s, 1e-3):.0f} times as long or more (slow from "
        f"{limit:.0f} s)",
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


def waits_out(signature: str) -> bool:
    """Whether every check that keeps a finding with ``signature`` waits out a timeout (a hang, a slow
    compile): such reductions cost the most and are served last."""
    return signature == "hang" or signature.startswith("slow:")
