"""Reducing a campaign's buckets: while it fuzzes, after, and for ``ngb-fuzz reduce --campaign``.

While fuzzing, a share of the worker threads (one in ``FUZZING_SHARE``) reduces buckets as they open, most-seen and
freshest first (``reduce_one_now``), so a long or bug-rich campaign does not end with a queue. Once fuzzing is over,
every bucket whose reduction is not finished is reduced, ``slots`` at a time (one per worker) with one check in flight
each; a time budget keeps a reserve for this while fuzzing (``reserve``), sized by what this run's reductions took. A
bucket sharing an earlier bucket's root cause gets that one's reduced repro instead of a reduction of its own. A
reduction cut short by its budget is gone on with, from its smallest program so far: at once while a round pays
(``GO_ON_SHARE``, ``GO_ON_ROUNDS``), while fuzzing too once no bucket waits for its first round (the reserve keeps
time for such rounds), else by the next run or ``reduce --campaign``. Hangs and slow compiles come last (every
candidate that keeps one waits out a timeout): they are not reduced while fuzzing, and their reductions stop after
``HANG_WAIT_S`` (``SLOW_WAIT_S``) of such waiting. A stop (signal, budget) interrupts the reductions in flight, which
leave their buckets as they were for the next run, and the smallest program each reached beside its repro
(``*.partial.py``: not re-checked in a fresh process), where its next round starts; a round already re-checked is
kept though the stop cuts off its naming (``like``, asked by the next run). ``Reductions`` is a part that
``fuzz.campaign.loop.Campaign`` holds (``Owner``: what it uses of it); this module does not import the campaign's.
"""

from __future__ import annotations

import collections
import contextlib
import dataclasses
import math
import threading
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any, Protocol

from fuzz.campaign.bucket import Bucket, beside
from fuzz.campaign.directory import StorageError
from fuzz.campaign.stoppable import StoppableRunner
from fuzz.triage.rootcause import root_cause
from oracle import set_header
from oracle._slow import waits_out

__all__ = ["FUZZING_SHARE", "GO_ON_ROUNDS", "GO_ON_SHARE", "HANG_WAIT_S", "READABLE_LINES", "RECORDED",
           "RESERVE_SHARE", "Reductions", "SLOW_WAIT_S", "StoppableRunner", "status_after", "wait_budget"]

# Seconds a hang's reduction may spend waiting out timeouts (``reduce_program``'s ``hang_wait_s``): every candidate
# that keeps a hang waits out its run's timeout, so a budget stretched to the pace of the quick candidates would let
# one hang hold a reduction slot for many minutes. Those timeouts are short ones (``fuzz.reduce._hang``: three times
# a candidate's compile, 3-15 s on a campaign's programs), so this is what four of the default 60 s timeouts were
# before, when each kept candidate waited one out: 16-80 kept candidates now, against 4, which is what a reduction
# to 20 lines takes. The result's re-check under the full rule comes on top. A hang's round comes after the other
# buckets' (``reduce_one_now``).
HANG_WAIT_S = 240.0
# The same for a slow compile (``oracle._slow``): a candidate that keeps one waits out 1.5 times its slow limit,
# 22 s at the least (the floor), against a hang's 3-15 s, so it gets twice the time for about 20 kept candidates.
SLOW_WAIT_S = 480.0


def wait_budget(signature: str) -> float | None:
    """``reduce_program``'s ``hang_wait_s`` for a bucket with ``signature``: None unless each of its kept candidates
    waits out a timeout (``oracle._slow.waits_out``)."""
    if not waits_out(signature):
        return None
    return SLOW_WAIT_S if signature.startswith("slow:") else HANG_WAIT_S

# A reduction cut short by its budget after taking at least ``GO_ON_SHARE`` of its program's lines off is gone on
# with at once, from where it stands, up to ``GO_ON_ROUNDS`` rounds in one run (the first included), once the
# buckets waiting for a first round had theirs. On a loaded 2-core machine one round's ceiling (four budgets) held
# large programs to a quarter or a third of their lines a round (a 2.13 effects mismatch: 257 -> 186 -> 144; a 2.15
# hang: 186 -> 60 -> 33; a defaultdict bug: 49 -> 15), each round asked for by hand. A round's take is lumpy: one
# that took little off is often followed by one that takes most (a 2.10 second-call mismatch: 100 -> 85, then
# 85 -> 18 at a fixpoint in the next run's round; a 2.15 deque mismatch: 87 -> 80, then 80 -> 21), so only a round
# that took almost nothing off (under a twentieth) waits for the next run.
GO_ON_ROUNDS = 4
GO_ON_SHARE = 0.05
# A repro a reader takes in at once: what a paying bucket's further rounds are expected to reach (``reserve``).
READABLE_LINES = 20

# A time budget's share that may be kept for the reductions after fuzzing: fuzzing gets a third of it at least. A
# campaign against a bug-rich torch finds buckets faster than they are reduced (2.10: 14 buckets in its first five
# minutes, a reduction taking two minutes on loaded cores); with a third kept (before), it ended with a queue of
# 9 of 24 never reduced. A bucket no reduction has taken is worth less than one reduced: its repro is hundreds of
# lines and its status undecided.
RESERVE_SHARE = 2 / 3
# While fuzzing, one worker thread in this many may be reducing (at least one): the others go on fuzzing.
FUZZING_SHARE = 2
# Seconds a bucket may wait for its first round while fresher ones go first (most seen, then freshest): then it
# goes first, the longest waiting first. Without it a 2.10 campaign's buckets opened in minute 5 waited for the
# end behind five fresher ones, and ended it unreduced.
FIRST_ROUND_WAIT_S = 300.0
# A reduction keeps one check in flight while another bucket waits: a second one buys next to nothing (the reducer
# takes the first candidate that keeps the bug, and much of its work is one check at a time: the original's full
# check, the IR stage's rounds, the re-check in a fresh process), so workers reduce more buckets at once instead.
# Measured on six 2.10 findings (178-464 lines, 2 cores): one after another with two checks in flight, 236 s; two
# at once with one each, 123 s, to the same sizes. A lone bucket gets every worker.


class Owner(Protocol):
    """What ``Reductions`` uses of the campaign that holds it (``fuzz.campaign.loop.Campaign``): its settings,
    buckets, runner and directory, its lock and stop event, and how it journals and stores."""

    config: Any
    buckets: dict[tuple[str, str], Bucket]
    runner: Any
    dir: Any
    bias: Any
    known: Any
    naming: Any
    on_progress: Callable | None
    on_reduced: Callable | None
    _lock: threading.Lock
    _stop: threading.Event
    _spent_at_start: bool

    @property
    def seconds(self) -> float: ...

    def regenerate(self, index: int) -> Any: ...

    def _journal(self, record: dict) -> None: ...

    def _storing(self, write, *args): ...

    def _guarded(self, loop: Callable[[], None], stop_all: bool = False) -> Callable[[], None]: ...


class Reductions:
    """The reduction of a campaign's buckets: a part the campaign holds (``Campaign.reductions``), working on its
    buckets under its lock, with its runner."""

    def __init__(self, campaign: Owner):
        self.campaign = campaign
        self._reducing = 0  # worker threads reducing a bucket now (``reduce_one_now``)
        self._reducing_waits = 0  # ... of which a hang or a slow compile
        self._tried: set[str] = set()  # repros whose reduction this run started: one each per run
        self._raised: set[str] = set()  # repros whose reduction raised in this run (a bug of ngb-fuzz)
        self._paid: dict[str, tuple[int, int]] = {}  # repro -> (lines before, after) of its last cut-short round
        self._rounds: collections.Counter[str] = collections.Counter()  # repro -> rounds this run started
        self._taken: list[float] = []  # wall seconds of this run's reductions that ran to their end (``cost``)
        # repro -> what its rounds in this run found not interesting (``reduce_program``'s ``memory``): a round
        # going on from where the last one stopped does not check those candidates again
        self._memory: dict[str, dict] = {}
        self._timing = threading.Lock()
        self._in_flight = 0  # reductions running now (``reduce_bucket``), on any thread
        self._opened: dict[str, float] = {}  # repro -> campaign seconds when this run first saw it waiting
        self._idle = threading.Condition()

    @property
    def reserve(self) -> float:
        """Seconds of a time budget kept for reducing, after fuzzing, the buckets no reduction has taken yet: what
        one reduction takes (``cost``) for each round of ``slots`` of those that need a reduction of their own, up
        to ``RESERVE_SHARE`` of the budget. Fuzzing stops once only that much is left, so the buckets found last
        get their reduction budget (a 6-minute campaign with 17 buckets had left 8 s each, and most stayed
        unreduced). Buckets are reduced while fuzzing as they open, so the reserve is only for those still
        waiting."""
        if self.campaign.config.seconds is None or self.campaign.config.reduce_seconds <= 0:
            return 0.0
        wanted = [self._rounds_wanted(b) if self._pays(b) else self._first_rounds(b)
                  for b in self.campaign.buckets.values()
                  if (b.unfinished and b.same_as is None and b.repro not in self._tried) or self._pays(b)]
        # buckets are reduced ``slots`` at a time, and one bucket's rounds one after another
        rounds = max(-(-sum(wanted) // self.slots), max(wanted, default=0))
        return min(self.campaign.config.seconds * RESERVE_SHARE, rounds * self.cost)

    @property
    def cost(self) -> float:
        """Seconds one reduction is expected to take: the median wall time of this run's reductions that ran to
        their end (a loaded machine's reductions take twice their budget and more), ``reduce_seconds`` before
        one has."""
        with self._timing:
            taken = sorted(self._taken)
        return taken[len(taken) // 2] if taken else self.campaign.config.reduce_seconds

    @property
    def slots(self) -> int:
        """Buckets reduced at once after fuzzing: one per worker process of the runner (at least one)."""
        workers = getattr(self.campaign.runner, "workers", None) or self.campaign.config.workers
        return max(1, min(self.campaign.config.workers, workers))

    @property
    def fuzzing_slots(self) -> int:
        """Worker threads that may be reducing while the others fuzz: one in ``FUZZING_SHARE`` (at least one)."""
        return max(1, min(self.slots, self.campaign.config.workers // FUZZING_SHARE))

    def _reduction_time_left(self) -> float | None:
        """Seconds of the time budget left for reductions; None: no limit but ``reduce_seconds`` (no time budget,
        or a run started with its budget already spent: re-running a finished campaign's command is asking for
        the reductions it left unfinished, which would otherwise get no time at all)."""
        if self.campaign.config.seconds is None or self.campaign._spent_at_start:
            return None
        return self.campaign.config.seconds - self.campaign.seconds

    def _waits(self, bucket: Bucket) -> Bucket | None:
        """The bucket whose root cause ``bucket`` shares (``same_as``) while that one is to be reduced first or to
        be pointed at (its reduction done or cut short); None when ``bucket`` needs a reduction of its own (no
        such bucket, or its reduction failed, or raised in this run)."""
        primary = next((b for b in self.campaign.buckets.values() if b.repro == bucket.same_as), None) if bucket.same_as else None
        if primary is None or primary.repro in self._raised:
            return None
        return primary if primary.reduction in ("pending", "done", "cut short") else None

    def _to_point(self, bucket: Bucket) -> Bucket | None:
        """The reduced bucket whose repro ``bucket`` should get now (its primary's changed since), else None."""
        primary = self._waits(bucket)
        if primary is None or not primary.has_reduced_repro:
            return None
        return primary if (bucket.reduction, bucket.lines) != (primary.reduction, primary.lines) else None

    def reduce_one_now(self) -> bool:
        """While fuzzing, for a worker thread: reduce the bucket most worth it now (``_first_of``) or
        point a bucket at its root cause's reduced repro, when fewer than ``fuzzing_slots`` threads are reducing;
        whether it did. A bucket's first round comes before any bucket's further one; a further round of a bucket
        whose last one was cut short and paid (``_pays``) comes as soon as no bucket waits for its first, and at the
        end (``_go_on``). A hang's or slow compile's first round comes when nothing else waits and no thread is
        reducing, only while another thread fuzzes, and it holds no slot: a bucket opened meanwhile is not kept
        waiting by its minutes of timeouts."""
        if self.campaign.config.reduce_seconds <= 0:
            return False
        waiting = False  # the bucket taken is a hang or a slow compile
        with self.campaign._lock:
            now = self.campaign.seconds
            for b in self.campaign.buckets.values():
                if b.unfinished:
                    self._opened.setdefault(b.repro, now)
            if self.campaign._stop.is_set() or self._reducing - self._reducing_waits >= self.fuzzing_slots:
                return False
            point = next(((b, p) for b in self.campaign.buckets.values() if b.same_as and (p := self._to_point(b))), None)
            if point is None:
                # a hang or a slow compile comes after every other bucket's round: its checks that keep it each wait
                # out a timeout
                ready = [b for b in self.campaign.buckets.values() if b.unfinished and b.repro not in self._tried
                         and self._waits(b) is None and not waits_out(b.finding)]
                ready = ready or [b for b in self.campaign.buckets.values()
                                  if self._pays(b) and not waits_out(b.finding)]
                if not ready and self._reducing == 0 and self.campaign.config.workers > self.fuzzing_slots:
                    # with one worker it waits for the end (``reduce_all``): left for the end with more, a 2.10
                    # campaign's slow compile was still unreduced when its budget ran out
                    ready = [b for b in self.campaign.buckets.values() if b.unfinished and b.repro not in self._tried
                             and self._waits(b) is None]
                    waiting = bool(ready)
                if not ready:
                    return False
                bucket = self._first_of(ready, now)
                self._tried.add(bucket.repro)
                budget = self.campaign.config.reduce_seconds
                if (left := self._reduction_time_left()) is not None:
                    budget = min(budget, left)
                if budget < 1.0:
                    return False
                self._paid.pop(bucket.repro, None)  # taken: another thread does not go on with it too
            self._reducing += 1
            self._reducing_waits += waiting
        try:
            if point is not None:
                self._point_at(*point)
            else:
                self.reduce_bucket(bucket, self._regenerated_ir(bucket), budget, 1)  # the other workers fuzz
        finally:
            with self.campaign._lock:
                self._reducing -= 1
                self._reducing_waits -= waiting
        return True

    def _first_of(self, ready: list[Bucket], now: float) -> Bucket:
        """The bucket to reduce next while fuzzing: the one waiting longest for its first round once that is
        ``FIRST_ROUND_WAIT_S`` or more, else the most seen, then the freshest."""
        overdue = [b for b in ready if b.repro not in self._tried
                   and now - self._opened.get(b.repro, now) >= FIRST_ROUND_WAIT_S]
        if overdue:
            return min(overdue, key=lambda b: (self._opened[b.repro], -b.count, b.first_program))
        return max(ready, key=lambda b: (b.count, b.first_program))

    def reduce_all(self) -> None:
        """After fuzzing (and for ``reduce --campaign``): reduce every bucket whose reduction is not finished —
        new ones, those an earlier run left unreduced or cut short — not tried yet in this run,
        ``slots`` at a time, each within ``reduce_seconds`` and, under a time budget, within its share
        of what is left of it. A bucket whose root cause an earlier bucket already has is not reduced again: once
        that one is, its file becomes that bucket's reduced repro, pointing at it."""
        if self.campaign.config.reduce_seconds <= 0:
            return
        with self.campaign._lock:
            pending = sorted((b for b in self.campaign.buckets.values() if b.unfinished or self._to_point(b)),
                             key=lambda b: (waits_out(b.finding), b.same_as is not None, -b.count, -b.first_program))
        own = [b for b in pending if self._waits(b) is None and b.repro not in self._tried]
        self._tried.update(b.repro for b in own)
        self._reduce_concurrently(own)
        self._go_on()
        for bucket in (b for b in pending if self._waits(b) is not None):
            if self.campaign._stop.is_set():
                return  # the rest stay as they are: the next run reduces them
            primary = self._to_point(bucket)
            if primary is not None:
                self._point_at(bucket, primary)
            elif self._waits(bucket) is None and bucket.repro not in self._tried:
                self._tried.add(bucket.repro)  # the first one's reduction failed: a chance of its own
                self._reduce_concurrently([bucket])
            # else it waits for its root cause's first bucket (interrupted: the next run does both)
        self.campaign.naming.ask_unasked()

    def _go_on(self) -> None:
        """Further rounds (``GO_ON_ROUNDS`` in all, this run's first round while fuzzing included) for the buckets
        whose last round was cut short after taking ``GO_ON_SHARE`` of their lines off, most seen first."""
        while not self.campaign._stop.is_set():  # a bucket has GO_ON_ROUNDS at most
            with self.campaign._lock:
                again = sorted((b for b in self.campaign.buckets.values() if self._pays(b)),
                               key=lambda b: (waits_out(b.finding), -b.count, -b.first_program))
                started = sum(self._rounds.values())
            if not again:
                return
            self._reduce_concurrently(again)
            if sum(self._rounds.values()) == started:
                return  # no time left to start one: the next run goes on with them

    def _pays(self, bucket: Bucket) -> bool:
        """``bucket``'s last round in this run was cut short after taking ``GO_ON_SHARE`` of its lines off, and it
        has a round left (``GO_ON_ROUNDS``)."""
        before, after = self._paid.get(bucket.repro, (0, 0))
        return (bucket.reduction == "cut short" and 0 < after <= before * (1 - GO_ON_SHARE)
                and self._rounds[bucket.repro] < GO_ON_ROUNDS)

    def _first_rounds(self, bucket: Bucket) -> int:
        """What a bucket's first reduction is expected to take, in reductions of ``cost``: one; for a hang or a
        slow compile, whose kept candidates each wait out a timeout, as many as its budget of such waiting
        (``wait_budget``) holds. Counted as one (before), a slow compile got a reserve of one median reduction,
        a minute or two, for a reduction that waits out 22 s or more for each candidate it keeps."""
        waiting = wait_budget(bucket.finding)
        return 1 if waiting is None else max(1, math.ceil(waiting / max(self.cost, 1.0)))

    def _rounds_wanted(self, bucket: Bucket) -> int:
        """The further rounds a paying bucket (``_pays``) is expected to need to reach ``READABLE_LINES``: its
        last round's take (lines after over before) again each round, at least one (a fixpoint is a round of
        its own), at most the rounds it has left. Counted as one round each before (a 2.15 second-call crash
        cut short at 191 of 277 lines in minute 16 got one round's reserve, 181 lines at the end; reduced
        afterwards it took two more rounds, to 16 lines)."""
        before, after = self._paid.get(bucket.repro, (0, 0))
        left = GO_ON_ROUNDS - self._rounds[bucket.repro]
        if after <= READABLE_LINES or before <= after:
            return 1
        wanted = math.ceil(math.log(after / READABLE_LINES) / math.log(before / after))
        return max(1, min(wanted, left))

    def _reduce_concurrently(self, buckets: list[Bucket]) -> None:
        """Reduce ``buckets`` in order, ``slots`` at once, each with its share of the runner's workers (one each
        while another bucket waits). Under a time budget a reduction gets, when it starts, what is left of the
        budget over the rounds of ``slots`` still to start (never more than ``reduce_seconds``); one with under a
        second left is not started and stays "pending"."""
        if not buckets:
            return
        slots = min(self.slots, len(buckets))
        workers = max(1, self.slots // slots)
        queue = collections.deque(buckets)
        taking = threading.Lock()

        def reduce_next() -> None:
            while not self.campaign._stop.is_set():
                with taking:
                    if not queue:
                        return
                    rounds = -(-len(queue) // slots)
                    bucket = queue.popleft()
                    budget = self.campaign.config.reduce_seconds
                    if (left := self._reduction_time_left()) is not None:
                        budget = min(budget, max(0.0, left) / rounds)
                if budget >= 1.0:
                    self.reduce_bucket(bucket, self._regenerated_ir(bucket), budget, workers)

        if slots == 1:
            reduce_next()
            return
        threads = [threading.Thread(target=self.campaign._guarded(reduce_next, stop_all=True), daemon=True, name=f"reduce-{k}")
                   for k in range(slots)]
        for thread in threads:
            thread.start()
        while any(t.is_alive() for t in threads):  # joined in steps: a signal handler still runs in between
            for thread in threads:
                thread.join(timeout=0.2)
            if self.campaign.on_progress:
                self.campaign.on_progress(self.campaign)

    def _point_at(self, bucket: Bucket, primary: Bucket) -> None:
        """A bucket sharing ``primary``'s root cause gets its reduced repro (the original stays as ``*.orig.py``)."""
        path = self.campaign.dir.root / bucket.repro
        with self.campaign._lock:
            if self.campaign._stop.is_set():
                return
            text = set_header((self.campaign.dir.root / primary.repro).read_text(), same_root_cause_as=primary.repro)
            orig = beside(path.name, "orig")
            if not (self.campaign.dir.root / orig).exists():
                self.campaign._storing(self.campaign.dir.write_text, orig, path.read_text())
            self.campaign._storing(self.campaign.dir.write_text, bucket.repro, text)
            record = {"k": "reduced", "repro": bucket.repro, "reduction": primary.reduction, "lines": primary.lines,
                      "like": primary.like, "trigger": primary.trigger}
            self.campaign._storing(self.campaign._journal, {**record, "status": status_after(bucket, record)})
        if self.campaign.on_reduced:
            self.campaign.on_reduced(bucket)

    def _keep_partial(self, partial: Path, text: str, start: str) -> None:
        """Keep ``text``, a round's best program so far, as the bucket's ``*.partial.py`` when it is smaller than
        the program the round started from: written as each candidate is kept, so a round stopped in the middle
        of a check (a slow compile's takes half a minute), or a campaign killed, loses none of its work."""
        from fuzz.reduce import code_lines

        if code_lines(text) < code_lines(start):
            with contextlib.suppress(OSError, StorageError):  # a full disk: the next round starts from the repro
                self.campaign.dir.write_text(partial.name, text)

    def _regenerated_ir(self, bucket: Bucket):
        if (self.campaign.dir.root / beside(bucket.repro, "orig")).exists():
            return None  # a reduction to go on with: its repro is smaller than the generated program
        try:
            if self.campaign.bias is not None:  # drawn with the weights of its moment, which its header holds
                from fuzz.reduce._oracle import generator_ir

                return generator_ir((self.campaign.config.out / bucket.repro).read_text())
            return getattr(self.campaign.regenerate(bucket.first_program), "ir", None)
        except Exception:  # noqa: BLE001 - the IR only speeds reduction up; the source stage does without it
            return None

    def settle(self, seconds: float) -> None:
        """After a stop: wait up to ``seconds`` for the reductions in flight to return (each at its next check),
        so that an interrupted one keeps the smallest program it reached (``*.partial.py``)."""
        deadline = time.monotonic() + seconds
        with self._idle:
            while self._in_flight and (left := deadline - time.monotonic()) > 0:
                self._idle.wait(left)

    def reduce_bucket(self, bucket: Bucket, ir=None, budget: float | None = None, workers: int | None = None) -> None:
        """Shrink a bucket's repro in place (the original stays as ``*.orig.py``) and find its root cause. A repro
        cut short before is gone on with from where it stands (its ``*.orig.py`` is the original), one whose
        last round was interrupted from that round's smallest program (``*.partial.py``)."""
        with self._idle:
            self._in_flight += 1
        try:
            self._reduce_bucket(bucket, ir, budget, workers)
        finally:
            with self._idle:
                self._in_flight -= 1
                self._idle.notify_all()

    def _bug(self, bucket: Bucket, what: str, then: str) -> None:
        self.campaign.dir.notice(f"reducing {bucket.repro}: {what} (a bug in ngb-fuzz, please report it); {then}")

    def _reduce_bucket(self, bucket: Bucket, ir, budget: float | None, workers: int | None) -> None:
        from fuzz.reduce import ReduceError, code_lines, described, reduce_program
        from fuzz.triage.rootcause import behaviour_shape

        budget = self.campaign.config.reduce_seconds if budget is None else budget
        ceiling = 4 * budget  # a reduction's budget follows the cost of a check (``fuzz.reduce.Clock``) up to this
        waiting = wait_budget(bucket.finding)
        if waiting is not None:  # ... and a hang's or slow compile's up to its waiting: a slow compile's candidates
            ceiling = max(ceiling, waiting)  # stop at their count in seconds, and then the clock cut it short first
        if (left := self._reduction_time_left()) is not None:
            ceiling = max(budget, min(ceiling, left))
            if waiting is not None:  # a hang's waiting out timeouts, too, within what is left of the time budget
                waiting = max(budget, min(waiting, left))
        path = self.campaign.config.out / bucket.repro
        orig = self.campaign.dir.root / beside(bucket.repro, "orig")
        partial = self.campaign.dir.root / beside(bucket.repro, "partial")
        with self.campaign._lock:
            self._paid.pop(bucket.repro, None)  # taken: no other thread starts a round of it now
            self._rounds[bucket.repro] += 1
        started = time.monotonic()

        def reduce(start: str):
            return reduce_program(start, bucket.target, signature=bucket.finding,
                                  runner=StoppableRunner(self.campaign.runner, self.campaign._stop),
                                  workers=workers or self.campaign.config.workers,
                                  budget_s=budget, rechecks=1, timeout=self.campaign.config.timeout,
                                  ir=ir if start == source else None,  # the IR is the program as generated
                                  ceiling_s=ceiling, hang_wait_s=waiting,
                                  memory=self._memory.setdefault(bucket.repro, {}),
                                  let_finish=bucket.ends_in is None,  # "": let finish before, and it did not end
                                  kept=lambda text: self._keep_partial(partial, text, start))

        try:
            source = path.read_text()
            first = orig.read_text() if orig.exists() else source
            start = _partial_start(partial, source)
            try:
                result = reduce(start)
            except ReduceError:  # the interrupted round's program does not show the bug here (now)
                if start == source:
                    raise
                partial.unlink(missing_ok=True)
                start = source
                result = reduce(start)
        except ReduceError:
            result = None
        except (KeyboardInterrupt, OSError):
            return  # stopped (or the repro is unreadable): the bucket stays as it was for the next run
        except Exception as exc:  # noqa: BLE001 - a bug of the reducer costs this round, not the campaign
            # and the bucket stays as it was (not "failed"): the next run, or ``reduce --campaign`` after an
            # upgrade that mends the bug, tries again (seen: a round that raised was never taken up again)
            self._bug(bucket, f"raised {type(exc).__name__}: {exc}",
                      "its repro stays as it was, and the next run reduces it again")
            with self.campaign._lock:
                self._raised.add(bucket.repro)  # a bucket of its root cause gets a round of its own meanwhile
            return
        for stats in result.passes if result is not None else ():
            if stats.error:
                self._bug(bucket, f"pass {stats.name} raised {stats.error}", "the reduction went on without it")
        if (result is None and self.campaign._stop.is_set()) or (result is not None and result.stopped == "interrupted"):
            # interrupted: the bucket stays as it was, and its next round starts from the smallest program this
            # one kept (a slow compile's round at a campaign's end had taken 300 lines to 150 in 7 minutes),
            # on disk since it was kept (``_keep_partial``). A round that ended (its re-checks done) before the
            # stop is kept below, even when the stop came while its bucket was being named
            if result is not None:
                self._keep_partial(partial, result.source, start)
            return
        with contextlib.suppress(OSError):
            partial.unlink(missing_ok=True)
        with self._timing:
            self._taken.append(time.monotonic() - started)
        fixpoint = result is not None and result.stopped == "fixpoint"
        # the lines this round is measured against: a round that started from an interrupted one's program
        # (``_partial_start``) against the repro's, which that program was already below
        baseline = result.original_lines if result is not None and start == source else code_lines(source)
        smaller = result is not None and result.lines < baseline
        usable = result is not None and result.reproduced >= 1 and (smaller or fixpoint)
        shape, match, asked = None, None, {}
        # a slow compile that, let finish, ended in a wrong value or a crash: reduced as that, and named by it
        ending = result.signature if result is not None and result.signature not in ("", bucket.signature) else None
        finding = ending or bucket.signature
        # let finish, it ended in no finding: kept, so that no later round (nor run) waits for its end again
        unended = {"ends_in": ""} if result is not None and "no ending" in result.stages else {}
        if usable:  # named outside the lock: asking ``like`` runs checks
            # the program the repro will hold: not smaller, it keeps what the re-checks saw (``# graph-breaks:``)
            kept = result.source if smaller else _observed(source, result.source)
            shape = behaviour_shape(kept, minimal=fixpoint)
            known = self.campaign.known
            match = known.match(finding, shape, target=bucket.target) if known else None
            if fixpoint and not match:  # which corpus bugs a minimal repro not known needs the trigger of
                asked = self.campaign.naming.like(dataclasses.replace(bucket, ends_in=ending), kept, result.breaks)
        with self.campaign._lock:
            if self.campaign._stop.is_set() and not usable:
                return
            # usable: a stop during the naming (``like``: checks, minutes for a slow compile) leaves ``like``
            # unasked, for the next run's ``ask_unasked``; the reduction, re-checked already, is kept (a 2.13
            # campaign's slow compile reached its fixpoint and lost it to the budget's end while it was named)
            if not usable:
                # nothing smaller reproduces in a fresh process (or the budget ran out first): the repro stays;
                # one cut short before stays cut short, at its lines
                cut = bucket.reduction == "cut short" or (result is not None and not fixpoint)
                record = {"k": "reduced", "repro": bucket.repro, "reduction": "cut short" if cut else "failed",
                          **unended}
                self.campaign._storing(self.campaign._journal, {**record, "status": status_after(bucket, record)})
                return
            reduction = "done" if fixpoint else "cut short"
            if not fixpoint:
                self._paid[bucket.repro] = (baseline, result.lines)
            if smaller:
                found_by = self.campaign.config.found_by(bucket.first_program).with_reduction(
                    described(result, code_lines(first)))
                reduced = set_header(result.source, found_by=str(found_by))
                if not orig.exists():  # a reduction redone or gone on with keeps the first original
                    self.campaign._storing(self.campaign.dir.write_text, orig.name, source)
                self.campaign._storing(self.campaign.dir.write_text, bucket.repro, reduced)
            elif kept != source:  # the same program, with what its re-checks saw: the rule reads it on a resume too
                self.campaign._storing(self.campaign.dir.write_text, bucket.repro, kept)
            record = {"k": "reduced", "repro": bucket.repro, "reduction": reduction,
                      "lines": result.lines, "root_cause": root_cause(finding, shape),
                      **({"ends_in": ending} if ending else unended),
                      "known": match.file if match else None, "regression": bool(match and match.fixed),
                      **({} if match else asked)}
            self.campaign._storing(self.campaign._journal, {**record, "status": status_after(bucket, record)})
        if self.campaign.on_reduced:
            self.campaign.on_reduced(bucket)


def _observed(source: str, reduced: str) -> str:
    """``source`` with the ``# graph-breaks:`` field of ``reduced`` (the same program, re-checked): set as there,
    or gone where it is not (one an earlier round wrote stays no longer than the program it saw). What the
    state-object rule reads (``fuzz.triage.rootcause.behaviour_shape``)."""
    from oracle import ProgramFile

    seen = ProgramFile.parse(reduced).get("graph-breaks")
    if ProgramFile.parse(source).get("graph-breaks") == seen:
        return source
    return set_header(source, graph_breaks=seen) if seen is not None else set_header(source, drop=("graph-breaks",))


def _partial_start(partial: Path, source: str) -> str:
    """Where a bucket's round starts: its interrupted round's smallest program when that is smaller than its
    repro ``source`` (the round's first check is a full one: a program that no longer shows the bug is out
    there), else the repro."""
    from fuzz.reduce import code_lines

    try:
        text = partial.read_text()
    except (OSError, UnicodeDecodeError):
        return source
    return text if code_lines(text) < code_lines(source) else source


# The bucket fields a "reduced" journal record sets.
RECORDED = ("reduction", "lines", "root_cause", "known", "regression", "like", "trigger", "like_rule", "ends_in")


def status_after(bucket: Bucket, record: dict) -> str:
    """The status ``bucket`` has once ``record`` (a "reduced" journal record) is applied: written into the record,
    so the journal says what the summary, report and live view say."""
    fields = {key: record[key] for key in RECORDED if key in record}
    return dataclasses.replace(bucket, **fields).status
