"""The reduction loop, one for both stages: run a stage's passes to a fixpoint, keeping the best interesting
program found so far.

A stage says how the loop sees its programs (source-level ``Program`` trees, or the generator's IR): the text
to check, a cache key and a size. Candidates are filtered locally first (size, cache, still a valid program);
only survivors cost a predicate call. With ``workers > 1`` a batch of candidates is checked at once from a
thread pool (the predicate hands work to worker processes) and the first interesting one in pass order wins,
so the result does not depend on which check finished first.
"""

from __future__ import annotations

import itertools
import time
from collections.abc import Callable, Iterator, Sequence
from concurrent.futures import FIRST_COMPLETED, Future, ThreadPoolExecutor, wait
from dataclasses import dataclass, field
from typing import Any

from fuzz.errors import FuzzError
from fuzz.reduce._tree import Program, code_lines, size
from fuzz.reduce.passes import IR_PASSES, PASSES, ReductionPass
from fuzz.reduce.passes._focus import focus
from fuzz.reduce.passes._orphans import defined_names, drop_orphans, unread_definitions

__all__ = ["Clock", "IRResult", "PassStats", "ReduceError", "ReduceResult", "reduce_ir", "reduce_source"]


class ReduceError(FuzzError):
    """The reducer cannot start: the input is not a program or is not interesting to begin with."""


@dataclass(frozen=True, slots=True)
class PassStats:
    name: str
    attempts: int  # predicate calls spent on this pass's candidates
    successes: int  # candidates kept
    error: str = ""  # what the pass raised while making its edits (a bug in ngb-fuzz): it ended there


@dataclass(frozen=True, slots=True)
class ReduceResult:
    source: str  # best-so-far program (the original when nothing smaller was interesting)
    original_lines: int  # code lines above the footer, before
    lines: int  # ... and after
    invocations: int  # predicate calls in total
    cache_hits: int  # candidates skipped because an identical normalized source was tried
    invalid: int  # candidates rejected locally (syntax, lost entry/make_inputs)
    passes: tuple[PassStats, ...]
    elapsed_s: float
    stopped: str  # "fixpoint", "budget" or "interrupted" (an IR stage that stopped paying: "gave way"; a hang whose
    # waiting ran out: "timeouts"; a hang reduced to a program that is not one under the full rule: "unconfirmed")
    # Filled in by reduce_program (the oracle front end):
    target: str = ""
    signature: str = ""
    rechecks: int = 0  # re-checks of the final program in fresh processes
    reproduced: int = 0  # ... of which kept the signature
    # "backend=eager" (checked there), "ir", "target", "source"; "finished": a slow compile's run let finish ended in
    # another finding, which was reduced instead (``fuzz.reduce._ends``)
    stages: tuple[str, ...] = field(default=())
    breaks: int | None = None  # graph breaks the target took in the re-checks that kept it (the fewest; None: not known)

    def summary(self) -> str:
        lines = [
            f"reduced {self.original_lines} -> {self.lines} lines in {self.elapsed_s:.1f}s, "
            f"{self.invocations} checks, {self.cache_hits} cache hits, {self.invalid} invalid; stopped: {self.stopped}"
        ]
        for p in self.passes:
            lines.append(f"  {p.name:<22} {p.successes:>4} kept / {p.attempts:>5} tried"
                         + (f"  (raised {p.error}: skipped; a bug in ngb-fuzz, please report it)" if p.error else ""))
        if "backend=eager" in self.stages:
            lines.append("candidates checked with the eager backend (the original shows the signature there too), "
                         + ("the result lost it on the target and was reduced again there" if "target" in self.stages
                            else "the result on the target"))
        if "finished" in self.stages:
            lines.append(f"the slow compile, let finish once, ends in {self.signature}: reduced as that (each check "
                         "then takes seconds; the slow verdict had hidden it)")
        if self.rechecks:
            lines.append(f"re-check in fresh processes: {self.reproduced}/{self.rechecks} reproduced {self.signature}")
        return "\n".join(lines)


def described(result: ReduceResult, original_lines: int | None = None) -> str:
    """What a reduction did, as a ``found-by`` header says it: ``340 -> 10 lines``, with how it was cut short when
    it was. ``original_lines``: the program as first found, when the reduction went on from a smaller one."""
    first = result.original_lines if original_lines is None else original_lines
    note = "" if result.stopped == "fixpoint" else (f"; cut short ({result.stopped}) after {result.elapsed_s:.0f}s "
                                                    f"at {result.lines} lines: smaller, not minimal")
    return f"{first} -> {result.lines} lines{note}"


@dataclass(frozen=True, slots=True)
class IRResult:
    source: str
    ir: object
    original_lines: int
    invocations: int
    passes: tuple[PassStats, ...]
    elapsed_s: float
    interrupted: bool = False
    stopped: str = "fixpoint"  # as ReduceResult.stopped


class _OutOfTime(Exception):
    pass


class _GaveWay(Exception):
    """The pass stopped paying: its last checks took off too little for what they cost (``Clock.stalled``)."""


class Clock:
    """A reduction's budget, shared by its stages: ``budget_s`` of wall time, stretched to follow the cost of a
    check. Counted from the first candidate's check; once ``WARM_CHECKS`` candidates were checked, it is what
    ``checks`` candidates cost at the measured wall time per check (eager rejections and compiles alike, with the
    workers in flight), never less than ``budget_s``, and never past ``ceiling_s`` from the start in all. A
    577-line torch 2.15 finding (2 workers, about 0.2 s a check on a quiet machine, 0.8 s on a loaded one)
    reached its 9-line fixpoint in 468 checks; a small program's fixpoint comes in seconds. ``checks`` 0:
    ``budget_s`` alone.

    ``stalled(size)``, asked before each check of a pass: true once its last ``STALL_CHECKS`` checks took less
    than ``STALL_SHARE`` of the size off; the pass then gives way to the next one (``_run``). On that 577-line
    finding the IR stage's statement deletions spent 30 s taking 22 of 228 lines, one at a time, before the
    passes after them took 12 lines in 2 checks and the source stage's first pass 119 lines in 2 more."""

    WARM_CHECKS = 3
    STALL_CHECKS = 16
    STALL_SHARE = 0.05

    def __init__(self, budget_s: float, checks: int = 0, ceiling_s: float | None = None,
                 start: float | None = None):
        self.start = time.monotonic() if start is None else start
        self.budget_s, self.checks = budget_s, checks
        self.ceiling_s = max(budget_s, ceiling_s if ceiling_s is not None else budget_s)
        self.invocations = 0
        self._checked_since: float | None = None  # when the first candidate was checked
        self._sizes: list[int] = []  # the best's size after each check of the stage asking ``stalled``
        self._expired = False

    def expire(self) -> None:
        """End the budget now (a reduction out of some other allowance: ``reduce_program``'s ``timeouts``): no
        further check is started, and the reduction stops as one whose budget ran out."""
        self._expired = True

    def checked(self) -> None:
        if self._checked_since is None:
            self._checked_since = time.monotonic()
        self.invocations += 1

    @property
    def seconds(self) -> float:
        """The budget as it stands: ``budget_s``, or what ``checks`` checks cost at the pace measured, counted
        from the first candidate's check: the time before it (the original's full check, starting the worker
        processes: a minute for a large program under another interpreter on a loaded machine) is a cost of the
        program, not of the reduction, up to ``ceiling_s`` in all."""
        if self._expired:
            return 0.0
        if self._checked_since is None or self.checks and self.invocations < self.WARM_CHECKS:
            # no pace measured yet: only the ceiling bounds the start (a stage left a second of its budget by the
            # one before it still measures its pace; two-second checks under load would never have begun)
            return self.ceiling_s
        before = self._checked_since - self.start
        wanted = self.budget_s
        if self.checks:
            per_check = (time.monotonic() - self._checked_since) / self.invocations
            wanted = max(wanted, per_check * self.checks)
        return min(self.ceiling_s, before + wanted)

    @property
    def deadline(self) -> float:
        return self.start + self.seconds

    def left(self) -> float:
        return self.deadline - time.monotonic()

    def new_pass(self) -> None:
        self._sizes = []

    def stalled(self, size: int) -> bool:
        self._sizes.append(size)
        if len(self._sizes) <= self.STALL_CHECKS:
            return False
        then = self._sizes[-1 - self.STALL_CHECKS]
        return then - size < self.STALL_SHARE * then


@dataclass(frozen=True, slots=True)
class _Stage:
    """How the loop sees one representation of a program."""

    source: Callable[[Any], str | None]  # the program file to check; None when the candidate is not valid
    key: Callable[[Any], object]  # cache key of tried candidates
    cost: Callable[[Any], tuple[int, int]]  # smaller is better; a candidate never grows
    tidy: Callable[[Any, Any], Any] = lambda best, candidate: candidate  # clean-up riding along with every edit


def _source_stage() -> _Stage:
    unread: dict[int, tuple[Program, frozenset[str]]] = {}  # id(best) -> (best kept alive, its unread definitions)

    def tidy(best: Program, candidate: Program) -> Program:
        hit = unread.get(id(best))
        if hit is None or hit[0] is not best:
            names = frozenset(n for s in unread_definitions(best.tree) for n in defined_names(s))
            unread.clear()
            unread[id(best)] = hit = (best, names)
        return drop_orphans(best, candidate, hit[1])

    return _Stage(
        source=lambda prog: prog.source if prog.is_valid() else None,
        key=lambda prog: prog.key,
        cost=lambda prog: (size(prog.tree), len(prog.source)),
        tidy=tidy,
    )


def _ir_stage(found_by: str | None) -> _Stage:
    from fuzz.program.render import render

    rendered: dict[int, tuple[object, str | None]] = {}  # id -> (program kept alive, its rendering)

    def source(program) -> str | None:
        hit = rendered.get(id(program))
        if hit is not None and hit[0] is program:
            return hit[1]
        try:
            text = render(program, found_by=found_by, features=frozenset())
        except Exception:
            text = None
        rendered[id(program)] = (program, text)
        return text

    return _Stage(source=source, key=lambda program: source(program),
                  cost=lambda program: (len(source(program) or ""), 0))


class _Pace:
    """How long the last check that compiled took (over half a second; an eager rejection takes milliseconds): a
    check predicted to end past the deadline is not started, so a reduction ends within its budget instead of
    one large compile after it. The last compile, not a rate per line: a compile's cost is far from linear in
    the lines (a 42-line candidate took 10 s, a 150-line one 12 s on a loaded machine), and candidates shrink."""

    COMPILED_S = 0.5

    def __init__(self) -> None:
        self.last = 0.0

    def record(self, seconds: float) -> None:
        if seconds > self.COMPILED_S:
            self.last = seconds

    def predict(self) -> float:
        return self.last


# A candidate under check: (its edit's index, the program, the check's result or future, its cache key).
_Check = tuple[int, Any, Future | bool, object]


def _done(check: _Check) -> bool:
    return isinstance(check[2], bool) or check[2].done()


def _result(check: _Check) -> bool:
    return check[2] if isinstance(check[2], bool) else check[2].result()


class _Reduction:
    def __init__(self, stage: _Stage, program, predicate, workers: int, clock: Clock, progress,
                 gives_way: bool = False, rejected: set | None = None):
        self.stage = stage
        self.clock = clock
        self.gives_way = gives_way  # a pass that stops paying ends (``Clock.stalled``); see ``_run``
        self.gave_way = False  # ... and one did since this was last cleared
        self.best = program
        self.best_cost = stage.cost(program)
        self.predicate = predicate
        self.workers = max(1, workers)
        self.progress = progress
        self.seen = {stage.key(program)}
        # keys of candidates checked and not interesting, also by an earlier reduction of this bug with this
        # predicate (``reduce_source``'s ``rejected``): not checked again
        self.rejected = set() if rejected is None else rejected
        self.stats: dict[str, list[int]] = {}
        self.invocations = 0
        self.cache_hits = 0
        self.invalid = 0
        self.pool = ThreadPoolExecutor(self.workers) if self.workers > 1 else None
        self.pace = _Pace()
        self.exhausted: dict[str, object] = {}  # pass name -> key of the program it last found nothing on
        self.errors: dict[str, str] = {}  # pass name -> what it raised first while making its edits

    @property
    def deadline(self) -> float:
        return self.clock.deadline

    def check(self, source: str) -> bool:
        started = time.monotonic()
        try:
            return bool(self.predicate(source))
        except KeyboardInterrupt:
            raise
        except Exception:  # a crashing predicate means "not interesting", never a dead reducer
            return False
        finally:
            self.pace.record(time.monotonic() - started)

    def run_pass(self, p: ReductionPass) -> bool:
        """Run ``p`` on the best program until none of its edits is kept; whether one was. A pass that found
        nothing on this very program before is not run again: every candidate would be a cache hit, each
        still built (a copy of the whole tree, unparsed) for nothing."""
        key = self.stage.key(self.best)
        if self.exhausted.get(p.name) == key:
            return False
        counts = self.stats.setdefault(p.name, [0, 0])
        position, progressed = 0, False
        self.clock.new_pass()
        while True:
            try:
                hit = self._first_hit(p, position, counts)
            except _GaveWay:
                self.gave_way = True
                return progressed
            if hit is None:
                if not progressed:  # every edit tried on this program (after a hit, those before it were not)
                    self.exhausted[p.name] = key
                return progressed
            position, self.best = hit
            self.best_cost = self.stage.cost(self.best)
            counts[1] += 1
            progressed = True
            if self.progress:
                source = self.stage.source(self.best) or ""
                self.progress(p.name, code_lines(source), self.invocations, source)

    def _first_hit(self, p: ReductionPass, position: int, counts: list[int]):
        """The first of ``p``'s edits from ``position`` on whose candidate is interesting, as (index, program);
        None when none is. With several workers the checks overlap: up to ``workers`` candidates in flight, in
        pass order, and a later one is taken only when every earlier one was not interesting, so the result is
        the one a single worker would give. A window, not batches: a check that ends (an eager rejection takes
        milliseconds) frees its worker for the next candidate at once instead of idling beside a compile
        (seconds) until the batch is done."""
        edits = itertools.islice(enumerate(self._guarded(p)), position, None)
        window: list[_Check] = []  # in pass order: running, or done and not yet decided
        more, out_of_time = True, False
        while True:
            # a later candidate found interesting already wins over anything after it: nothing more to start
            while more and sum(not _done(c) for c in window) < self.workers and not any(
                    _done(c) and _result(c) for c in window):
                if self.gives_way and self.clock.stalled(self.best_cost[0]):
                    # before the next edit is taken (and marked seen); the candidates still in flight, whose results
                    # go unused, are unmarked: the pass's last round checks them again (those done were not
                    # interesting, or nothing more would be started)
                    self.seen.difference_update(c[3] for c in window if not _done(c))
                    raise _GaveWay
                entry = self._next_candidate(edits)
                if entry is None:
                    more, out_of_time = False, time.monotonic() > self.deadline
                    break
                if time.monotonic() + self.pace.predict() > self.deadline:
                    more, out_of_time = False, True  # predicted to end past the budget: not started
                    break
                index, candidate, key = entry
                source = self.stage.source(candidate) or ""
                self.invocations += 1
                self.clock.checked()
                counts[0] += 1
                pending = self.pool.submit(self.check, source) if self.pool is not None else self.check(source)
                window.append((index, candidate, pending, key))
            if not window:
                if out_of_time:
                    raise _OutOfTime
                return None
            head = window[0]
            if _done(head):
                window.pop(0)
                if _result(head):
                    return head[0], head[1]  # later ones still running finish on their own, unused
                self.rejected.add(head[3])
                continue
            wait([c[2] for c in window if not _done(c)], return_when=FIRST_COMPLETED)
            self.rejected.update(c[3] for c in window if c is not head and _done(c) and not _result(c))
            window = [c for c in window if c is head or not _done(c) or _result(c)]

    def _guarded(self, p: ReductionPass) -> Iterator:
        """``p``'s edits of the best program; a pass that raises while it makes them ends there (for this program),
        its error kept for the result (``PassStats.error``): a pass's bug costs its edits, never the reduction or
        the campaign that runs it."""
        edits = None
        while True:
            try:
                edits = iter(p.edits(self.best)) if edits is None else edits  # a pass may raise at once, too
                edit = next(edits)
            except StopIteration:
                return
            except Exception as exc:  # noqa: BLE001 - kept and shown: ``ReduceResult.summary``, the campaign
                self.errors.setdefault(p.name, f"{type(exc).__name__}: {exc}")
                return
            yield edit

    def _next_candidate(self, edits) -> tuple[int, Any, object] | None:
        """The next edit's candidate worth a check, with the edit's index and the candidate's cache key; None
        when the edits or the time ran out."""
        for index, edit in edits:
            if time.monotonic() > self.deadline:
                return None
            found = self._candidate(edit)
            if found is not None:
                return index, *found
        return None

    def _candidate(self, edit) -> tuple[Any, object] | None:
        """The edit's candidate with its cache key, or None: not a program, tried before, or larger."""
        try:
            candidate = edit()
        except (LookupError, ValueError, AttributeError, TypeError, StopIteration, RecursionError):
            return None  # an edit that cannot apply to this program is no candidate; the reduction goes on
        if candidate is None:
            return None
        candidate = self.stage.tidy(self.best, candidate)
        key = self.stage.key(candidate)
        if key is None:
            self.invalid += 1
            return None
        if key in self.seen or key in self.rejected:
            self.cache_hits += 1
            return None
        self.seen.add(key)
        if self.stage.cost(candidate) > self.best_cost or self.stage.source(candidate) is None:
            self.invalid += 1
            return None
        return candidate, key


# A round whose removing passes took at least this share of the program off goes round again without the polish
# passes (``ReductionPass.polish``: renames, simpler expressions, smaller tensors), which take nothing off and cost a
# check each: on a 130-line 2.13 finding under load they spent 70 checks (90 s of 276) at 66-61 lines, before the
# next round's cuts took it to 33 lines in 40 checks. Once a round pays less, they run, and a fixpoint is one of
# every pass.
POLISH_WHILE = 0.1


def _still_paying(round_size: int, size_now: int) -> bool:
    return round_size - size_now >= POLISH_WHILE * round_size


def _run(stage: _Stage, program, predicate, passes: Sequence[ReductionPass], *, workers: int, progress,
         check_original: bool, clock: Clock | None = None, budget_s: float = 60.0,
         gives_way: bool = False, rejected: set | None = None) -> tuple[_Reduction, str, float]:
    """Run ``passes`` to a fixpoint from ``program``; (the run with its best program, why it stopped, seconds).

    A pass that stops paying (``Clock.stalled``) gives way to the next one for the round. A round in which
    nothing but such passes took anything off ends the stage when ``gives_way`` (a stage with a next one: "gave
    way"); otherwise one more round runs every pass to its end, so that a fixpoint is one."""
    start = time.monotonic()
    run = _Reduction(stage, program, predicate, workers, clock or Clock(budget_s), progress, gives_way=True,
                     rejected=rejected)
    stopped = "fixpoint"
    try:
        if check_original:
            run.invocations += 1
            if not run.check(stage.source(program) or ""):
                raise ReduceError("the original program is not interesting")
        tidy = [p for p in passes if p.tidy]
        for p in passes:  # stats in pass order, whichever runs first (a polish pass may wait a round)
            run.stats.setdefault(p.name, [0, 0])
        changed = True
        while changed:
            changed, run.gave_way, paid = False, False, False
            round_size = stage.cost(run.best)[0]
            for p in passes:
                if p.polish and _still_paying(round_size, stage.cost(run.best)[0]):
                    continue  # the next round comes (this one changed the program): polish once it pays less
                gave = run.gave_way
                if run.run_pass(p):
                    changed = True
                    paid = paid or run.gave_way == gave  # ran to its end
                    for t in tidy if not p.tidy else ():
                        run.run_pass(t)
            if run.gave_way and not paid:
                if gives_way:
                    stopped = "gave way"
                    break
                changed, run.gives_way = True, False  # the last round: every pass to its end
            elif changed:
                run.gives_way = True
    except _OutOfTime:
        stopped = "budget"
    except KeyboardInterrupt:
        stopped = "interrupted"
    finally:
        if run.pool is not None:
            run.pool.shutdown(wait=False, cancel_futures=True)
    return run, stopped, time.monotonic() - start


def _stats(run: _Reduction) -> tuple[PassStats, ...]:
    return tuple(PassStats(name, a, s, run.errors.get(name, "")) for name, (a, s) in run.stats.items())


def reduce_source(
    source: str,
    is_interesting: Callable[[str], bool],
    *,
    budget_s: float = 60.0,
    workers: int = 1,
    passes: Sequence[ReductionPass] | None = None,
    progress: Callable[[str, int, int, str], None] | None = None,
    check_original: bool = True,
    clock: Clock | None = None,
    names: frozenset[str] = frozenset(),
    rejected: set | None = None,
) -> ReduceResult:
    """Shrink ``source`` while ``is_interesting(candidate)`` holds; return the best program found.

    ``is_interesting`` must be thread-safe when ``workers > 1``. The footer (from the standalone-check marker
    on) is never edited and comes back unchanged. Stops at a fixpoint of all passes, when ``budget_s`` is
    spent, or on Ctrl-C, and always returns the best-so-far program. ``progress(pass_name, lines,
    invocations, source)`` is called after every kept candidate (``source``: that program). ``clock``: the budget as a ``Clock`` (shared with an
    earlier stage; then ``budget_s`` is not used). ``names``: the program's functions the failure's frames name
    (``failure_names``); the ``focus`` pass cuts the program below them first. ``rejected``: the keys of the
    candidates an earlier reduction of this bug with this same predicate checked and found not interesting (a
    campaign's earlier round, which stopped where this one starts): not checked again, and this reduction's
    added (the set is updated in place).
    """
    try:
        program = Program.parse(source)
    except SyntaxError as exc:
        raise ReduceError(f"not a Python program: {exc.msg} (line {exc.lineno})") from None
    passes = PASSES if passes is None else passes
    if names:
        passes = [focus(names), *passes]
    run, stopped, elapsed = _run(_source_stage(), program, is_interesting, passes,
                                 clock=clock or Clock(budget_s), workers=workers, progress=progress,
                                 check_original=check_original, rejected=rejected)
    best = run.best.source if run.best is not program else source
    return ReduceResult(
        source=best,
        original_lines=code_lines(source),
        lines=code_lines(best),
        invocations=run.invocations,
        cache_hits=run.cache_hits,
        invalid=run.invalid,
        passes=_stats(run),
        elapsed_s=elapsed,
        stopped=stopped,
        stages=("source",),
    )


def reduce_ir(program, is_interesting: Callable[[str], bool], *, budget_s: float = 20.0, workers: int = 1,
              found_by: str | None = None, progress=None, clock: Clock | None = None,
              gives_way: bool = True) -> IRResult | None:
    """Shrink ``program`` (a ``fuzz.program.ir.Program``) while its rendering stays interesting; None when the
    rendering of the original itself is not interesting (the file was edited: skip the IR stage). The stage
    ends within ``budget_s`` (or ``clock``'s deadline), or once it stops paying (``gives_way``): the source
    stage comes next."""
    stage = _ir_stage(found_by)
    try:
        run, stopped, elapsed = _run(stage, program, is_interesting, IR_PASSES, clock=clock or Clock(budget_s),
                                     workers=workers, progress=progress, check_original=True, gives_way=gives_way)
    except ReduceError:
        return None
    best_source = stage.source(run.best) or ""
    return IRResult(best_source, run.best, code_lines(stage.source(program) or ""), run.invocations,
                    _stats(run), elapsed, stopped == "interrupted", stopped)
