"""Runs programs in worker processes and turns what they observed into verdicts.

One ``Runner`` keeps a pool of workers per interpreter, each with torch already imported. A worker that hangs
is killed (verdict ``hang``), one that dies is reported (``crash``), and either is replaced: the harness never
dies with a target. Workers die with the runner's process, however it ends (see ``_worker.die_with_parent``),
and are replaced after ``recycle_after`` runs or once their memory passes ``max_rss_mb`` (Dynamo's caches and
the allocator only grow in a long campaign). ``check`` runs eager twice (a program whose eager runs disagree
is ``flaky``, never a finding), then every target; it is thread-safe, so a campaign calls it from as many
threads as it has workers.
"""

from __future__ import annotations

import collections
import copy
import os
import pickle
import queue
import select
import struct
import subprocess
import sys
import threading
import time
from collections.abc import Iterable
from concurrent.futures import Future
from pathlib import Path
from subprocess import Popen
from typing import IO, Any

from ._compare import compare_calls
from ._errors import OracleError, WorkerError
from ._slow import SLOW_FLOOR_S, SLOW_RATIO, UsualTimes, hang_rule, slow_limit, slowness
from ._targets import Target, parse_target
from ._verdict import ProgramReport, Verdict, judge, tolerance_for

# Seeds of the nudged eager runs that tell an ill-conditioned program (its result hangs on rounding) from a
# compiler bug. One nudge flipped a branch on a mean-centered sum (rounding noise) in 37% of 199 seeds,
# whatever its size from 2**-23 to 2**-14: twelve miss such a program about once in 250. Asked of mismatches
# alone.
CONDITIONING_SEEDS = tuple(range(1, 13))

__all__ = ["Runner", "check_source", "RECYCLE_AFTER", "MAX_RSS_MB"]

# runs per worker before it is replaced (a worker starts in a few seconds: < 1% of its life)
RECYCLE_AFTER = 1000
MAX_RSS_MB = 2048.0  # ... or once its resident memory passes this (a fresh worker holds about 330 MB)
# a target run past the timeout is re-run once in a fresh worker with this many times as long
HANG_RECHECK = 3.0
# How often a thread waiting for a busy worker looks whether the pool was closed, or a busy worker died and
# left its place free. Without it, a reduction's check waiting for a worker when its campaign stopped waited
# for ever, and so did the process, at exit (seen after a SIGTERM: 90 minutes in futex_wait).
ACQUIRE_POLL_S = 0.5
# Calls per run: the first, the second through the caches, and a third on inputs of other sizes (automatic
# dynamic shapes, recompiles) for a program whose make_inputs takes ``size`` (docs/program-format.md); others
# make two.
CALLS = 3

_WORKER = os.path.join(os.path.dirname(os.path.abspath(__file__)), "_worker.py")
_PROJECT_ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


class _Spawner:
    """Starts worker processes from one thread that lives as long as the process.

    Linux sends a process its parent-death signal when the *thread* that forked it exits, not only when the
    whole parent does: a worker started from a campaign thread would be killed when that thread ends while the
    runner (and its pool) lives on. So every worker is forked here instead.
    """

    def __init__(self) -> None:
        self._jobs: queue.SimpleQueue[tuple[tuple[Any, ...], dict[str, Any], Future[Popen[bytes]]]] = \
            queue.SimpleQueue()
        self._thread: threading.Thread | None = None
        self._lock = threading.Lock()

    def popen(self, *args: Any, **kwargs: Any) -> Popen[bytes]:
        with self._lock:
            if self._thread is None or not self._thread.is_alive():
                self._thread = threading.Thread(target=self._serve, daemon=True, name="ngb-fuzz-spawner")
                self._thread.start()
        done: Future[Popen[bytes]] = Future()
        self._jobs.put((args, kwargs, done))
        return done.result()

    def _serve(self) -> None:
        while True:
            args, kwargs, done = self._jobs.get()
            try:
                done.set_result(subprocess.Popen(*args, **kwargs))
            except BaseException as exc:  # noqa: BLE001 - handed to the caller
                done.set_exception(exc)


_SPAWNER = _Spawner()


def rss_mb(pid: int) -> float | None:
    """Resident memory of a process in MB (Linux /proc; None elsewhere or once it is gone)."""
    try:
        with open(f"/proc/{pid}/statm") as f:
            return int(f.read().split()[1]) * os.sysconf("SC_PAGE_SIZE") / 2**20
    except (OSError, ValueError, IndexError):
        return None


class _Worker:
    """One worker process and its framed pipe protocol."""

    def __init__(self, python: str | None, startup_timeout: float) -> None:
        # One intra-op thread per worker: workers run side by side, one per core, instead of fighting over
        # cores. Eager and target run in the same worker, so both see the same thread count (and reduction
        # order).
        env = dict(os.environ, PYTHONUNBUFFERED="1", OMP_NUM_THREADS="1", MKL_NUM_THREADS="1",
                   NGB_FUZZ_PARENT=str(os.getpid()))
        # Inductor otherwise starts a pool of compile processes per worker, one per core: N workers then fight
        # over the cores with N pools, and slow compiles turn into hang verdicts. One worker, one core, unless
        # told.
        env.setdefault("TORCHINDUCTOR_COMPILE_THREADS", "1")
        self.proc = _SPAWNER.popen(
            [python or sys.executable, _WORKER], stdin=subprocess.PIPE, stdout=subprocess.PIPE,
            stderr=subprocess.PIPE, env=env, start_new_session=True,
        )
        assert self.proc.stdin and self.proc.stdout and self.proc.stderr  # all three are pipes
        self._stdin: IO[bytes] = self.proc.stdin
        self._stdout: IO[bytes] = self.proc.stdout
        self._stderr: IO[bytes] = self.proc.stderr
        self.runs = 0  # programs run (each eager or target run counts)
        # its place in its pool (set by the pool); a recycled worker's replacement takes it over
        self.slot = 0
        self.peak_mb = 0.0
        self.stderr: collections.deque[str] = collections.deque(maxlen=40)
        threading.Thread(target=self._drain_stderr, daemon=True).start()
        self.info = self._receive(startup_timeout)
        if not isinstance(self.info, dict) or not self.info.get("ready"):
            self.kill()
            error = WorkerError(f"worker failed to start: {self.info!r}\n{self.stderr_tail()}")
            error.died = isinstance(self.info, dict) and "died" in self.info  # killed, maybe from outside
            raise error
        try:
            self._send({"op": "paths", "paths": [_PROJECT_ROOT]})
        except OSError:  # it died just after it said it was ready
            self.kill()
            error = WorkerError(f"worker died as it started: {self.proc.returncode}\n{self.stderr_tail()}")
            error.died = True
            raise error from None

    def _drain_stderr(self) -> None:
        for line in self._stderr:
            self.stderr.append(line.decode("utf-8", "replace").rstrip())

    def stderr_tail(self) -> str:
        return "\n".join(list(self.stderr)[-15:])

    def _send(self, message: dict[str, Any]) -> None:
        data = pickle.dumps(message, protocol=4)
        self._stdin.write(struct.pack(">Q", len(data)) + data)
        self._stdin.flush()

    def _read_exact(self, size: int, deadline: float) -> bytes | None:
        fd, chunks, got = self._stdout.fileno(), [], 0
        while got < size:
            left = deadline - time.monotonic()
            if left <= 0 or not select.select([fd], [], [], left)[0]:
                raise TimeoutError
            chunk = os.read(fd, size - got)
            if not chunk:
                return None
            chunks.append(chunk)
            got += len(chunk)
        return b"".join(chunks)

    def _receive(self, timeout: float) -> Any:  # a result dict, unless the worker misbehaves
        deadline = time.monotonic() + timeout
        try:
            header = self._read_exact(8, deadline)
            if header is None:
                return self._died()
            body = self._read_exact(struct.unpack(">Q", header)[0], deadline)
            return self._died() if body is None else pickle.loads(body)
        except TimeoutError:
            self.kill()
            return {"hang": timeout}

    def _died(self) -> dict[str, Any]:
        code = self.proc.wait()
        time.sleep(0.05)  # let the stderr thread catch the last lines
        return {"died": code, "stderr": self.stderr_tail()}

    def request(self, job: dict[str, Any], timeout: float) -> dict[str, Any]:
        self.runs += 1
        try:
            self._send(job)
        except (BrokenPipeError, OSError):
            return self._died()
        result: dict[str, Any] = self._receive(timeout)
        return result

    @property
    def alive(self) -> bool:
        return self.proc.poll() is None

    def memory_mb(self) -> float | None:
        mb = rss_mb(self.proc.pid) if self.alive else None
        if mb is not None:
            self.peak_mb = max(self.peak_mb, mb)
        return mb

    def kill(self) -> None:
        if self.proc.poll() is None:
            try:
                os.killpg(self.proc.pid, 9)
            except ProcessLookupError:
                pass
        self.proc.wait()

    def close(self) -> None:
        if self.proc.poll() is None:
            try:
                self._stdin.close()
                self.proc.wait(timeout=5)
            except (OSError, subprocess.TimeoutExpired):
                self.kill()


class _Pool:
    """Up to ``size`` workers for one interpreter, started on demand, replaced when they die or are worn."""

    def __init__(self, python: str | None, size: int, startup_timeout: float, recycle_after: int | None,
                 max_rss_mb: float | None) -> None:
        self.python, self.size, self.startup_timeout = python, size, startup_timeout
        self.recycle_after, self.max_rss_mb = recycle_after, max_rss_mb
        self.idle: queue.LifoQueue[_Worker] = queue.LifoQueue()
        self.started = 0
        self.recycled = 0
        self.peak_mb = 0.0  # of any worker this pool had
        self.closed = False
        self.lock = threading.Lock()
        self.all: list[_Worker] = []

    def acquire(self) -> _Worker:
        with self.lock:
            if self.closed:
                raise WorkerError("the runner is closed")
            start = self.idle.empty() and self.started < self.size
            if start:
                self.started += 1
        if start:
            try:
                worker = self._start()
            except BaseException:
                with self.lock:
                    self.started -= 1
                raise
            with self.lock:
                # a replacement takes the lowest free slot, so "worker 1" is one line through recycles
                taken = {w.slot for w in self.all}
                worker.slot = min(i for i in range(len(taken) + 1) if i not in taken)
                self.all.append(worker)
                if self.closed:  # closed while it started
                    worker.kill()
                    raise WorkerError("the runner is closed")
            return worker
        while True:
            try:
                worker = self.idle.get(timeout=ACQUIRE_POLL_S)
                break
            except queue.Empty:
                with self.lock:
                    if self.closed:  # closed while this waited: no worker will come back to the pool
                        raise WorkerError("the runner is closed") from None
                    free = self.started < self.size
                if free:  # a busy worker died while this waited: its place is free, start one
                    return self.acquire()
        # killed while idle (the OOM killer, a user): never handed out; a fresh one instead
        if not worker.alive:
            self.release(worker)
            return self.acquire()
        return worker

    def _start(self) -> _Worker:
        """A new worker; one killed while it starts (from outside: it died before saying it was ready) is
        started once more before that is an error."""
        try:
            return _Worker(self.python, self.startup_timeout)
        except WorkerError as exc:
            if not getattr(exc, "died", False):
                raise
        return _Worker(self.python, self.startup_timeout)

    def release(self, worker: _Worker) -> None:
        if worker.alive and self._worn(worker):
            worker.close()
            with self.lock:
                self.recycled += 1
        if worker.alive:
            self.idle.put(worker)
        else:
            with self.lock:
                self.started -= 1
                self.all.remove(worker)
                self.peak_mb = max(self.peak_mb, worker.peak_mb)

    def _worn(self, worker: _Worker) -> bool:
        if self.recycle_after is not None and worker.runs >= self.recycle_after:
            return True
        mb = worker.memory_mb()
        return self.max_rss_mb is not None and mb is not None and mb > self.max_rss_mb

    def memory(self) -> list[dict[str, Any]]:
        with self.lock:
            workers = list(self.all)
        rows = []
        for w in workers:
            mb = w.memory_mb()
            if mb is not None:
                rows.append({"slot": w.slot, "pid": w.proc.pid, "rss_mb": round(mb, 1), "runs": w.runs,
                             "peak_mb": w.peak_mb})
        return rows

    def close(self) -> None:
        with self.lock:
            self.closed = True
            workers = list(self.all)
        idle = set()
        while not self.idle.empty():
            idle.add(self.idle.get_nowait())
        for worker in workers:
            if worker in idle:
                worker.close()
            else:
                worker.kill()  # busy (maybe in a hanging program): it would not read its stdin closing


class Runner:
    """A pool of worker processes; ``check(source, targets)`` gives a ProgramReport."""

    def __init__(self, workers: int = 1, timeout: float = 60.0, startup_timeout: float = 180.0,
                 recycle_after: int | None = RECYCLE_AFTER, max_rss_mb: float | None = MAX_RSS_MB,
                 hang_recheck: float = HANG_RECHECK, slow_floor_s: float = SLOW_FLOOR_S,
                 slow_ratio: float = SLOW_RATIO) -> None:
        if workers < 1:
            raise OracleError(f"workers must be >= 1, got {workers}")
        if not timeout > 0 or timeout == float("inf"):
            raise OracleError(f"timeout must be a finite number of seconds > 0, got {timeout}")
        if not hang_recheck >= 1 or hang_recheck == float("inf"):
            raise OracleError(f"hang_recheck must be a finite factor >= 1, got {hang_recheck}")
        if not slow_floor_s > 0 or not slow_ratio > 1:
            raise OracleError(f"slow_floor_s must be > 0 and slow_ratio > 1, got {slow_floor_s}, "
                              f"{slow_ratio}")
        if recycle_after is not None and recycle_after < 1:
            raise OracleError(f"recycle_after must be >= 1 (or None), got {recycle_after}")
        self.workers, self.timeout, self.startup_timeout = workers, timeout, startup_timeout
        self.recycle_after, self.max_rss_mb, self.hang_recheck = recycle_after, max_rss_mb, hang_recheck
        self.slow_floor_s, self.slow_ratio = slow_floor_s, slow_ratio
        self._pools: dict[str | None, _Pool] = {}
        self._lock = threading.Lock()
        self._usual = UsualTimes()  # what is usual for this runner's programs now (``_slow.slowness``)

    def with_horizon(self, timeout: float, hang_recheck: float | None = None) -> Runner:
        """This runner with another ``timeout`` (and ``hang_recheck``) for the checks made through it: the
        same workers, rules and record of usual times, so it is closed with this one, never by itself. A slow
        compile's checks use it (``fuzz.reduce._oracle.at_slow_horizon``): at the campaign's hang horizon
        each waits out minutes that the slow rule does not need."""
        if not timeout > 0 or timeout == float("inf"):
            raise OracleError(f"timeout must be a finite number of seconds > 0, got {timeout}")
        if hang_recheck is not None and (not hang_recheck >= 1 or hang_recheck == float("inf")):
            raise OracleError(f"hang_recheck must be a finite factor >= 1, got {hang_recheck}")
        view = copy.copy(self)  # shares ``_pools``, ``_lock`` and ``_usual`` by reference
        view.timeout = timeout
        view.hang_recheck = self.hang_recheck if hang_recheck is None else hang_recheck
        return view

    def __enter__(self) -> Runner:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def close(self) -> None:
        with self._lock:
            pools = list(self._pools.values())
        for pool in pools:
            pool.close()

    def memory(self) -> dict[str, Any]:
        """Memory of the workers now: ``workers`` maps a stable worker name (its slot; a recycled worker's
        replacement keeps the name) to resident MB, ``rss_mb`` lists the same figures, ``peak_rss_mb`` is the
        peak of any worker so far and ``recycled`` how many were replaced."""
        with self._lock:
            pools = list(self._pools.values())
        named: dict[str, float] = {}
        peaks = [p.peak_mb for p in pools]  # of the workers gone
        for i, pool in enumerate(pools):
            prefix = f"python {i + 1} " if len(pools) > 1 else ""
            for row in sorted(pool.memory(), key=lambda r: r["slot"]):
                named[f"{prefix}worker {row['slot'] + 1}"] = row["rss_mb"]
                peaks.append(row["peak_mb"])  # a live worker's own: its memory falls back once a compile ends
        peak = max(peaks, default=0.0)
        return {"workers": named, "rss_mb": list(named.values()), "peak_rss_mb": round(peak, 1),
                "recycled": sum(p.recycled for p in pools)}

    def warm_up(self, python: str | None = None, count: int = 1) -> dict[str, Any]:
        """Start ``count`` workers at once (e.g. all of them before timing: started one after another, a
        worker just released is handed out again and the others would start inside the timed run); return what
        the first reported about itself."""
        pool = self._pool(python)
        workers: list[_Worker] = []
        errors: list[BaseException] = []

        def start() -> None:
            try:
                worker = pool.acquire()
            except BaseException as exc:  # noqa: BLE001 - raised below, in the caller's thread
                errors.append(exc)
            else:
                workers.append(worker)

        threads = [threading.Thread(target=start, daemon=True) for _ in range(min(count, self.workers))]
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join()
        try:
            if errors:
                raise errors[0]
            return dict(workers[0].info)
        finally:
            for worker in workers:
                pool.release(worker)

    def _pool(self, python: str | None) -> _Pool:
        with self._lock:
            if python not in self._pools:
                self._pools[python] = _Pool(python, self.workers, self.startup_timeout, self.recycle_after,
                                            self.max_rss_mb)
            return self._pools[python]

    def run(self, source: str, target: Target | str, calls: int = CALLS, timeout: float | None = None,
            perturb: int | None = None, steps: int | None = None, cpu: float | None = None) -> dict[str, Any]:
        """Run ``source`` under one target; the worker's raw observations (or a hang/died marker), with the
        run's ``seconds`` and, where it finished, the CPU seconds it used (``cpu``). ``timeout`` replaces the
        runner's for this run; ``perturb`` (a seed) nudges the floating-point inputs by a few units in the
        last place (``oracle._worker.perturb``). ``steps``: count the bytecode instructions Dynamo traces (the
        result's ``steps``, where that torch lets them be counted) and, when > 0, stop the run past that many
        (the result is ``{"steps_over": n}``). ``cpu``: stop a compile past that many CPU seconds (the result
        is ``{"cpu_over": s}``), which another process on the same cores does not bring closer as it does a
        ``timeout``."""
        target = parse_target(target)
        pool = self._pool(target.python)
        worker = pool.acquire()
        try:
            job = {"op": "run", "source": source, "target": target.payload(), "device": target.device,
                   "calls": calls, **({"perturb": perturb} if perturb is not None else {}),
                   **({"steps": steps} if steps is not None else {}),
                   **({"cpu": cpu} if cpu is not None else {})}
            started = time.monotonic()
            result = worker.request(job, timeout or self.timeout)
            result.setdefault("seconds", time.monotonic() - started)  # the run alone, not a worker's start
            if result.get("clean") is False:
                worker.close()  # it exits by itself after a job it could not clean up: never hand it another
        finally:
            pool.release(worker)
        if "harness_error" in result:
            raise WorkerError(f"ngb-fuzz harness failed for target {target.spec}:\n{result['harness_error']}")
        return result

    def check(
        self, source: str, targets: Iterable[str | Target], *, calls: int = CALLS, repeat_eager: bool = True
    ) -> ProgramReport:
        """Run ``source`` under eager and each target and judge. ``calls`` per run (2 also checks the cached
        path, 3 also a call on inputs of other sizes where the program has them); ``repeat_eager=False`` skips
        the determinism run of eager (the reducer's cheap checks, whose result is re-checked in full at the
        end)."""
        started = time.monotonic()
        parsed = [parse_target(t) for t in targets]
        verdicts: dict[str, Verdict] = {}
        stats: dict[str, dict[str, Any]] = {}
        any_flaky = False
        references: dict[tuple[str | None, str], tuple[dict[str, Any] | None, Verdict | None]] = {}
        for target in parsed:
            key = (target.python, target.device)
            if key not in references:
                references[key] = self._reference(source, target, calls, repeat_eager)
            eager, refusal = references[key]
            if refusal is not None:
                verdicts[target.spec] = refusal
                any_flaky |= refusal.kind == "flaky"
                continue
            assert eager is not None  # no refusal: eager ran
            result = self._run_unkilled(source, target, calls)
            decided, twin_s = None, None
            if "hang" in result:
                result, decided, twin_s = hang_rule(self, source, target, calls, result)
            verdict = decided or judge(target, eager, result)
            if decided is None and verdict.kind == "ok":
                verdict = slowness(self, source, target, calls, result, verdict, twin_s)
            if (
                verdict.kind == "mismatch"
                and not target.exact
                and self.ill_conditioned(source, target, eager, calls)
            ):
                verdict = Verdict(
                    "flaky",
                    "ill-conditioned",
                    "flaky",
                    "eager on inputs nudged by a few units in the last place differs beyond the "
                    "tolerance: the result hangs on rounding, which this backend may do otherwise",
                )
                any_flaky = True
            verdicts[target.spec] = verdict
            stats[target.spec] = result.get("stats", {})
        outcome = next((eager_outcome(eager) for eager, _ in references.values() if eager is not None), "")
        return ProgramReport(verdicts, any_flaky, stats, time.monotonic() - started, outcome)

    def slow_limit(self, twin_s: float) -> float:
        """Seconds a run must take to be slow against its twin's ``twin_s`` (``oracle._slow``)."""
        return slow_limit(twin_s, self.slow_floor_s, self.slow_ratio)

    def _run_unkilled(self, source: str, target: Target, calls: int) -> dict[str, Any]:
        """``run``, once more in a fresh worker when its worker died: a worker killed from outside (the OOM
        killer, a user) is no verdict on the program. Dying again, it is the program's doing: its verdict
        stands (``crash:died:<SIGNAL>`` on a target, ``skip:eager-failed`` under eager)."""
        result = self.run(source, target, calls)
        return self.run(source, target, calls) if "died" in result else result

    def ill_conditioned(self, source: str, target: Target, eager: dict[str, Any], calls: int) -> bool:
        """Whether eager itself, on inputs nudged by rounding-sized amounts (``CONDITIONING_SEEDS``), differs
        from its own result beyond ``target``'s tolerance. A backend that may reorder arithmetic (inductor,
        aot_eager) then differs from eager by rounding alone, through a data-dependent branch on a value that
        is only rounding noise, say: a mismatch there is no finding. Asked only of mismatches: a few eager
        runs each."""
        tolerance = tolerance_for(target)
        reference = target.eager
        for seed in CONDITIONING_SEEDS:
            nudged = self.run(source, reference, calls, perturb=seed)
            if "calls" in nudged and compare_calls(eager["calls"], nudged["calls"], tolerance):
                return True
        return False

    def _reference(self, source: str, like: Target, calls: int = CALLS,
                   repeat: bool = True) -> tuple[dict[str, Any] | None, Verdict | None]:
        """Eager (twice unless not ``repeat``) under the target's interpreter and device; a refusal verdict if
        unusable."""
        eager = like.eager
        first = self._run_unkilled(source, eager, calls)
        if "load_error" in first:
            return None, Verdict(
                "skip", "", "skip:invalid-program", f"program does not load: {first['load_error']}"
            )
        if "hang" in first or "died" in first:
            return None, Verdict("skip", "", "skip:eager-failed", f"eager run did not finish: {first}")
        if not repeat:
            return first, None
        second = self.run(source, eager, calls)
        if "calls" not in second or compare_calls(first["calls"], second["calls"], None):
            return None, Verdict("flaky", "", "flaky", "two eager runs of this program disagree")
        return first, None


def eager_outcome(eager: dict[str, Any]) -> str:
    """What an eager run's first call did: "returned" or "raised:<ExceptionType>" (``Runner.run``'s
    result)."""
    return (eager_outcomes(eager) or ("returned",))[0]


def eager_outcomes(eager: dict[str, Any]) -> tuple[str, ...]:
    """What each call of an eager run did, as ``eager_outcome`` says it for the first."""
    return tuple("returned" if call["exception"] is None else f"raised:{call['exception'][0]}"
                 for call in eager.get("calls") or ())


def worker_pids(parent: int) -> list[int]:
    """Live (not zombie) worker processes started by process ``parent``: each carries its PID in its
    environment (``NGB_FUZZ_PARENT``), which is how tests and the fault-injection benchmark find orphans
    (Linux /proc)."""
    found = []
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit():
            continue
        try:
            environ = (entry / "environ").read_bytes()
            state = (entry / "stat").read_text().rsplit(")", 1)[1].split()[0]
        except OSError:
            continue
        if f"NGB_FUZZ_PARENT={parent}\0".encode() in environ and state != "Z":
            found.append(int(entry.name))
    return found


def check_source(source: str, targets: Iterable[str | Target], timeout: float = 60.0) -> ProgramReport:
    """Check one program against ``targets`` with a throwaway single-worker runner."""
    with Runner(workers=1, timeout=timeout) as runner:
        return runner.check(source, targets)
