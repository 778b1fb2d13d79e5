"""Runs programs in worker processes and turns what they observed into verdicts.

One ``Runner`` keeps a pool of workers per interpreter, each with torch already imported. A worker that hangs is
killed (verdict ``hang``), one that dies is reported (``crash``), and either is replaced: the harness never dies
with a target. ``check`` runs eager twice (a program whose eager runs disagree is ``flaky``, never a finding), then
every target; it is thread-safe, so a campaign calls it from as many threads as it has workers.
"""

from __future__ import annotations

import collections
import os
import pickle
import queue
import select
import struct
import subprocess
import sys
import threading
import time

from ._compare import compare_calls
from ._errors import OracleError, WorkerError
from ._targets import Target, parse_target
from ._verdict import ProgramReport, Verdict, judge

__all__ = ["Runner", "check_source"]

_WORKER = os.path.join(os.path.dirname(os.path.abspath(__file__)), "_worker.py")
_PROJECT_ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


class _Worker:
    """One worker process and its framed pipe protocol."""

    def __init__(self, python: str | None, startup_timeout: float):
        # One intra-op thread per worker: workers run side by side, one per core, instead of fighting over
        # cores. Eager and target run in the same worker, so both see the same thread count (and reduction order).
        env = dict(os.environ, PYTHONUNBUFFERED="1", OMP_NUM_THREADS="1", MKL_NUM_THREADS="1")
        self.proc = subprocess.Popen(
            [python or sys.executable, _WORKER], stdin=subprocess.PIPE, stdout=subprocess.PIPE,
            stderr=subprocess.PIPE, env=env, start_new_session=True,
        )
        self.stderr = collections.deque(maxlen=40)
        threading.Thread(target=self._drain_stderr, daemon=True).start()
        self.info = self._receive(startup_timeout)
        if not isinstance(self.info, dict) or not self.info.get("ready"):
            self.kill()
            raise WorkerError(f"worker failed to start: {self.info!r}\n{self.stderr_tail()}")
        self._send({"op": "paths", "paths": [_PROJECT_ROOT]})

    def _drain_stderr(self) -> None:
        for line in self.proc.stderr:
            self.stderr.append(line.decode("utf-8", "replace").rstrip())

    def stderr_tail(self) -> str:
        return "\n".join(list(self.stderr)[-15:])

    def _send(self, message) -> None:
        data = pickle.dumps(message, protocol=4)
        self.proc.stdin.write(struct.pack(">Q", len(data)) + data)
        self.proc.stdin.flush()

    def _read_exact(self, size: int, deadline: float) -> bytes | None:
        fd, chunks, got = self.proc.stdout.fileno(), [], 0
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

    def _receive(self, timeout: float):
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

    def _died(self) -> dict:
        code = self.proc.wait()
        time.sleep(0.05)  # let the stderr thread catch the last lines
        return {"died": code, "stderr": self.stderr_tail()}

    def request(self, job: dict, timeout: float) -> dict:
        try:
            self._send(job)
        except (BrokenPipeError, OSError):
            return self._died()
        return self._receive(timeout)

    @property
    def alive(self) -> bool:
        return self.proc.poll() is None

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
                self.proc.stdin.close()
                self.proc.wait(timeout=5)
            except (OSError, subprocess.TimeoutExpired):
                self.kill()


class _Pool:
    """Up to ``size`` workers for one interpreter, started on demand, replaced when they die."""

    def __init__(self, python: str | None, size: int, startup_timeout: float):
        self.python, self.size, self.startup_timeout = python, size, startup_timeout
        self.idle: queue.LifoQueue[_Worker] = queue.LifoQueue()
        self.started = 0
        self.lock = threading.Lock()
        self.all: list[_Worker] = []

    def acquire(self) -> _Worker:
        with self.lock:
            start = self.idle.empty() and self.started < self.size
            if start:
                self.started += 1
        if start:
            try:
                worker = _Worker(self.python, self.startup_timeout)
            except BaseException:
                with self.lock:
                    self.started -= 1
                raise
            with self.lock:
                self.all.append(worker)
            return worker
        return self.idle.get()

    def release(self, worker: _Worker) -> None:
        if worker.alive:
            self.idle.put(worker)
        else:
            with self.lock:
                self.started -= 1
                self.all.remove(worker)

    def close(self) -> None:
        for worker in list(self.all):
            worker.close()


class Runner:
    """A pool of worker processes; ``check(source, targets)`` gives a ProgramReport."""

    def __init__(self, workers: int = 1, timeout: float = 60.0, startup_timeout: float = 180.0):
        if workers < 1:
            raise OracleError(f"workers must be >= 1, got {workers}")
        self.workers, self.timeout, self.startup_timeout = workers, timeout, startup_timeout
        self._pools: dict[str | None, _Pool] = {}
        self._lock = threading.Lock()

    def __enter__(self) -> Runner:
        return self

    def __exit__(self, *exc) -> None:
        self.close()

    def close(self) -> None:
        for pool in self._pools.values():
            pool.close()

    def warm_up(self, python: str | None = None) -> dict:
        """Start one worker (e.g. before timing) and return what it reported about itself."""
        pool = self._pool(python)
        worker = pool.acquire()
        try:
            return dict(worker.info)
        finally:
            pool.release(worker)

    def _pool(self, python: str | None) -> _Pool:
        with self._lock:
            if python not in self._pools:
                self._pools[python] = _Pool(python, self.workers, self.startup_timeout)
            return self._pools[python]

    def run(self, source: str, target: Target | str, calls: int = 2) -> dict:
        """Run ``source`` under one target; the worker's raw observations (or a hang/died marker)."""
        target = parse_target(target)
        pool = self._pool(target.python)
        worker = pool.acquire()
        try:
            job = {"op": "run", "source": source, "target": target.payload(), "device": target.device,
                   "calls": calls}
            result = worker.request(job, self.timeout)
            if result.get("clean") is False:
                worker.close()  # it exits by itself after a job it could not clean up: never hand it another
        finally:
            pool.release(worker)
        if "harness_error" in result:
            raise WorkerError(f"ngb-fuzz harness failed for target {target.spec}:\n{result['harness_error']}")
        return result

    def check(self, source: str, targets, *, calls: int = 2, repeat_eager: bool = True) -> ProgramReport:
        """Run ``source`` under eager and each target and judge. ``calls`` per run (2 also checks the cached
        path); ``repeat_eager=False`` skips the determinism run of eager (the reducer's cheap checks, whose
        result is re-checked in full at the end)."""
        started = time.monotonic()
        parsed = [parse_target(t) for t in targets]
        verdicts, stats, any_flaky = {}, {}, False
        references: dict[tuple, tuple[dict | None, Verdict | None]] = {}
        for target in parsed:
            key = (target.python, target.device)
            if key not in references:
                references[key] = self._reference(source, target, calls, repeat_eager)
            eager, refusal = references[key]
            if refusal is not None:
                verdicts[target.spec] = refusal
                any_flaky |= refusal.kind == "flaky"
                continue
            result = self.run(source, target, calls)
            verdicts[target.spec] = judge(target, eager, result)
            stats[target.spec] = result.get("stats", {})
        outcome = next((_outcome(eager) for eager, _ in references.values() if eager is not None), "")
        return ProgramReport(verdicts, any_flaky, stats, time.monotonic() - started, outcome)

    def _reference(self, source: str, like: Target, calls: int = 2,
                   repeat: bool = True) -> tuple[dict | None, Verdict | None]:
        """Eager (twice unless not ``repeat``) under the target's interpreter and device; a refusal verdict if
        unusable."""
        eager = Target("eager", (), like.python, like.device)
        first = self.run(source, eager, calls)
        if "load_error" in first:
            return None, Verdict("skip", "", "skip:invalid-program", f"program does not load: {first['load_error']}")
        if "hang" in first or "died" in first:
            return None, Verdict("skip", "", "skip:eager-failed", f"eager run did not finish: {first}")
        if not repeat:
            return first, None
        second = self.run(source, eager, calls)
        if "calls" not in second or compare_calls(first["calls"], second["calls"], None):
            return None, Verdict("flaky", "", "flaky", "two eager runs of this program disagree")
        return first, None


def _outcome(eager: dict) -> str:
    exception = eager["calls"][0]["exception"] if eager.get("calls") else None
    return "returned" if exception is None else f"raised:{exception[0]}"


def check_source(source: str, targets, timeout: float = 60.0) -> ProgramReport:
    """Check one program against ``targets`` with a throwaway single-worker runner."""
    with Runner(workers=1, timeout=timeout) as runner:
        return runner.check(source, targets)
