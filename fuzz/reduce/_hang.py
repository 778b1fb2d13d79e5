"""A hang's reduction: candidates run with short timeouts; the result is confirmed under the oracle's full rule.

Every candidate that keeps a hang waits out its target run's timeout. With the oracle's own (a campaign's
``--timeout``, 60 s by default) a reduction affords a handful of them, and it needs tens. So a hang's candidates
run with a short timeout (``HangTimeouts.target``): a target run that does not finish in it keeps the hang
(eager having finished, as for any candidate). That is a guess, which a program only slow to compile passes, so
``reduce_program`` re-checks the result under the full rule (the runner's timeout, then a fresh worker given
``HANG_RECHECK`` times as long: what a fresh check calls ``hang``) and, when it is not a hang there, reports the
smallest kept candidate that is (``smallest_confirmed``), at least the original.
"""

from __future__ import annotations

import collections
import threading
from collections.abc import Callable

from fuzz.reduce._driver import Clock
from fuzz.reduce._tree import code_lines

__all__ = ["COMPILE_FACTOR", "EAGER_FACTOR", "FALLBACK_CHECKS", "HANG_FLOOR_S", "HangTimeouts", "short_timeout",
           "smallest_confirmed"]

# The short timeout of a hang's candidate runs (``short_timeout``). A target run compiles before it runs, and the
# compile dominates: on 2 loaded cores (torch 2.13, a campaign's programs) eager ran each in 0.01 s while Dynamo
# took 0.6 s on a 71-line program, 2.1-2.6 s on 162 lines, 4.7-5.0 s on 187 and 11 s on 330. Eager's time says
# nothing of that, so the target's timeout follows the compile times measured on the candidates that finished,
# the slowest of the last ``RECENT_RUNS`` (candidates shrink: recent ones are the size of today's), times
# ``COMPILE_FACTOR`` (a loaded machine's noise, two to one above, stays under it). Never under ``HANG_FLOOR_S``
# (worker start and scheduling noise), nor over half the full timeout (nothing gained past that); before any
# candidate finished, that half.
HANG_FLOOR_S = 3.0
COMPILE_FACTOR = 3.0
RECENT_RUNS = 8
# An eager run of a candidate (which must finish: one that does not is out) may take this many times the
# original's, and ``HANG_FLOOR_S`` at least: a candidate whose eager run loops (a deleted loop counter) is out
# in seconds instead of a full timeout.
EAGER_FACTOR = 4.0
# Full-rule checks made to find a smaller confirmed program when the result is not a hang under the full rule:
# a bisection over the kept candidates, largest first (each check can wait out the timeout four times over).
FALLBACK_CHECKS = 3


def short_timeout(eager_s: float, finished_s: list[float], timeout: float) -> float:
    """The timeout of a hang's candidate target run: the slowest of the recent target runs that finished
    (``finished_s``) times ``COMPILE_FACTOR``, at least ``HANG_FLOOR_S`` and ``EAGER_FACTOR`` times eager's run
    of the original (``eager_s``), at most half the full ``timeout``; that half while nothing finished yet."""
    cap = timeout / 2
    if not finished_s:
        return cap
    return min(cap, max(HANG_FLOOR_S, EAGER_FACTOR * eager_s, COMPILE_FACTOR * max(finished_s)))


class HangTimeouts:
    """A hang's reduction's timeouts and its budget of waiting. ``target()``/``eager()``: the timeouts of a
    candidate's runs; ``finished(s)`` records a target run that finished in ``s`` seconds, ``waited(s)`` one that
    was killed at its timeout, ``kept(source)`` a candidate that kept the hang (the fallback's candidates).

    ``wait_s``: seconds that runs may spend waiting out their timeouts in all; once spent, every clock watched
    (``watch``) expires and the reduction stops, cut short (None: no limit but the clock's). Seconds, not a
    count: a kept candidate costs its short timeout, a few seconds on a small program and more on a large one."""

    def __init__(self, timeout: float, eager_s: float, wait_s: float | None = None):
        self.timeout, self.eager_s, self.wait_s = timeout, eager_s, wait_s
        self.waited_s = 0.0
        self._recent: collections.deque[float] = collections.deque(maxlen=RECENT_RUNS)
        self._kept: dict[str, int] = {}
        self._clocks: list[Clock] = []
        self._lock = threading.Lock()

    def target(self) -> float:
        with self._lock:
            return short_timeout(self.eager_s, list(self._recent), self.timeout)

    def eager(self) -> float:
        return min(self.timeout, max(HANG_FLOOR_S, EAGER_FACTOR * self.eager_s))

    def finished(self, seconds: float) -> None:
        with self._lock:
            self._recent.append(seconds)

    def kept(self, source: str) -> None:
        with self._lock:
            self._kept.setdefault(source, code_lines(source))

    def kept_sources(self) -> list[str]:
        """The candidates that kept the hang under the short timeout, largest first."""
        with self._lock:
            return sorted(self._kept, key=lambda s: -self._kept[s])

    @property
    def exhausted(self) -> bool:
        return self.wait_s is not None and self.waited_s >= self.wait_s

    def watch(self, clock: Clock) -> Clock:
        with self._lock:
            self._clocks.append(clock)
            if self.exhausted:
                clock.expire()
        return clock

    def waited(self, seconds: float) -> None:
        with self._lock:
            self.waited_s += seconds
            if self.exhausted:
                for clock in self._clocks:
                    clock.expire()


def smallest_confirmed(candidates: list[str], confirm: Callable[[str], bool], tries: int = FALLBACK_CHECKS
                       ) -> str | None:
    """The smallest of ``candidates`` (largest first, each smaller than a confirmed original) that ``confirm``
    accepted, found by bisection in at most ``tries`` calls; None when none was. A reduction's kept candidates
    descend from one another, so once one is only slow, those after it mostly are too: the confirmed ones come
    first."""
    good, bad = -1, len(candidates)
    while bad - good > 1 and tries > 0:
        middle = (good + bad) // 2
        tries -= 1
        if confirm(candidates[middle]):
            good = middle
        else:
            bad = middle
    return candidates[good] if good >= 0 else None
