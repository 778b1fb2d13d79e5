"""The reduction loop: run the passes to a fixpoint, keeping the best interesting program found so far.

Candidates are filtered locally first (size, cache of normalized sources, compiles and still defines ``entry``
/ ``make_inputs``); only survivors cost a predicate call. With ``workers > 1`` a batch of candidates is checked
at once from a thread pool (the predicate is expected to hand work to worker processes) and the first
interesting one in pass order wins, so the result does not depend on which check finished first.
"""

from __future__ import annotations

import itertools
import time
from collections.abc import Callable, Sequence
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field

from fuzz.reduce._passes import PASSES, ReductionPass
from fuzz.reduce._tree import Program, code_lines, iter_nodes

__all__ = ["PassStats", "ReduceError", "ReduceResult", "reduce_source"]


class ReduceError(Exception):
    """The reducer cannot start: the input is not a program or is not interesting to begin with."""


@dataclass(frozen=True, slots=True)
class PassStats:
    name: str
    attempts: int  # predicate calls spent on this pass's candidates
    successes: int  # candidates kept


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
    stopped: str  # "fixpoint", "budget" or "interrupted"
    # Filled in by reduce_program (the oracle front end):
    target: str = ""
    signature: str = ""
    rechecks: int = 0  # re-checks of the final program in fresh processes
    reproduced: int = 0  # ... of which kept the signature
    stages: tuple[str, ...] = field(default=())

    def summary(self) -> str:
        lines = [
            f"reduced {self.original_lines} -> {self.lines} lines in {self.elapsed_s:.1f}s, "
            f"{self.invocations} checks, {self.cache_hits} cache hits, {self.invalid} invalid; stopped: {self.stopped}"
        ]
        for p in self.passes:
            lines.append(f"  {p.name:<22} {p.successes:>4} kept / {p.attempts:>5} tried")
        if self.rechecks:
            lines.append(f"re-check in fresh processes: {self.reproduced}/{self.rechecks} reproduced {self.signature}")
        return "\n".join(lines)


class _OutOfTime(Exception):
    pass


def _cost(prog: Program) -> tuple[int, int]:
    return sum(1 for _ in iter_nodes(prog.tree)), len(prog.source)


class _Reduction:
    def __init__(self, program: Program, predicate, workers: int, deadline: float, progress):
        self.best = program
        self.best_cost = _cost(program)
        self.predicate = predicate
        self.workers = max(1, workers)
        self.deadline = deadline
        self.progress = progress
        self.seen = {program.key}
        self.stats: dict[str, list[int]] = {}
        self.invocations = 0
        self.cache_hits = 0
        self.invalid = 0
        self.pool = ThreadPoolExecutor(self.workers) if self.workers > 1 else None

    def check(self, source: str) -> bool:
        try:
            return bool(self.predicate(source))
        except KeyboardInterrupt:
            raise
        except Exception:  # a crashing predicate means "not interesting", never a dead reducer
            return False

    def run_pass(self, p: ReductionPass) -> bool:
        counts = self.stats.setdefault(p.name, [0, 0])
        position, progressed = 0, False
        while True:
            hit = self._first_hit(p, position, counts)
            if hit is None:
                return progressed
            position, self.best = hit
            self.best_cost = _cost(self.best)
            counts[1] += 1
            progressed = True
            if self.progress:
                self.progress(p.name, code_lines(self.best.source), self.invocations)

    def _first_hit(self, p: ReductionPass, position: int, counts: list[int]):
        batch: list[tuple[int, Program]] = []
        for index, edit in itertools.islice(enumerate(p.edits(self.best)), position, None):
            if time.monotonic() > self.deadline:
                raise _OutOfTime
            candidate = self._candidate(edit)
            if candidate is None:
                continue
            batch.append((index, candidate))
            if len(batch) == self.workers:
                hit = self._evaluate(batch, counts)
                if hit is not None:
                    return hit
                batch = []
        return self._evaluate(batch, counts) if batch else None

    def _candidate(self, edit) -> Program | None:
        try:
            candidate = edit()
        except (IndexError, ValueError, AttributeError, TypeError):
            return None
        if candidate is None or _cost(candidate) > self.best_cost:
            return None
        key = candidate.key
        if key in self.seen:
            self.cache_hits += 1
            return None
        self.seen.add(key)
        if not candidate.is_valid():
            self.invalid += 1
            return None
        return candidate

    def _evaluate(self, batch: list[tuple[int, Program]], counts: list[int]):
        self.invocations += len(batch)
        counts[0] += len(batch)
        if self.pool is None:
            results = [self.check(prog.source) for _, prog in batch]
        else:
            results = list(self.pool.map(self.check, [prog.source for _, prog in batch]))
        for (index, prog), ok in zip(batch, results):
            if ok:
                return index, prog
        return None


def reduce_source(
    source: str,
    is_interesting: Callable[[str], bool],
    *,
    budget_s: float = 60.0,
    workers: int = 1,
    passes: Sequence[ReductionPass] | None = None,
    progress: Callable[[str, int, int], None] | None = None,
    check_original: bool = True,
) -> ReduceResult:
    """Shrink ``source`` while ``is_interesting(candidate)`` holds; return the best program found.

    ``is_interesting`` must be thread-safe when ``workers > 1``. The footer (from the standalone-check marker
    on) is never edited and comes back unchanged. Stops at a fixpoint of all passes, when ``budget_s`` is
    spent, or on Ctrl-C, and always returns the best-so-far program. ``progress(pass_name, lines,
    invocations)`` is called after every kept candidate.
    """
    start = time.monotonic()
    try:
        program = Program.parse(source)
    except SyntaxError as exc:
        raise ReduceError(f"not a Python program: {exc.msg} (line {exc.lineno})") from None
    run = _Reduction(program, is_interesting, workers, start + budget_s, progress)
    stopped = "fixpoint"
    try:
        if check_original:
            run.invocations += 1
            if not run.check(source):
                raise ReduceError("the original program is not interesting")
        changed = True
        while changed:
            changed = False
            for p in passes if passes is not None else PASSES:
                changed |= run.run_pass(p)
    except _OutOfTime:
        stopped = "budget"
    except KeyboardInterrupt:
        stopped = "interrupted"
    finally:
        if run.pool is not None:
            run.pool.shutdown(wait=False, cancel_futures=True)
    best = run.best.source if run.best is not program else source
    return ReduceResult(
        source=best,
        original_lines=code_lines(source),
        lines=code_lines(best),
        invocations=run.invocations,
        cache_hits=run.cache_hits,
        invalid=run.invalid,
        passes=tuple(PassStats(name, a, s) for name, (a, s) in run.stats.items()),
        elapsed_s=time.monotonic() - start,
        stopped=stopped,
        stages=("source",),
    )
