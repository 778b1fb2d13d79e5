"""Where a campaign's program checks run: in this process, or on the workers of a Dask cluster.

A campaign's driver loop (``fuzz.campaign.loop``) asks one callable for each program's report. ``Dispatcher`` is that
callable for both cases, written against ``concurrent.futures.Executor``: locally a thread pool calling the
campaign's own ``oracle.Runner``; on a cluster a Dask client's executor calling ``remote_check`` on a Dask worker,
which checks the program through ngb-fuzz's own worker processes there (a segfault or a hang kills one of those,
never the Dask worker). Generation, buckets, state, reduction and the report stay on the driver.

A Dask worker that dies takes its programs with it; the scheduler runs them again elsewhere, and where it gives up
(``KilledWorker``) the dispatcher submits again. The driver records each program once, by index, from the one
result its thread waits for, so a program run twice is still counted once. A scheduler that goes away raises
``ClusterLost``, which stops the campaign like Ctrl-C: programs in flight are dropped, state and summary written.
"""

from __future__ import annotations

import concurrent.futures
import contextlib
import logging
import threading
from collections.abc import Callable

__all__ = ["ClusterLost", "ClusterError", "Dispatcher", "local_dispatcher", "connect", "remote_check",
           "warm_up", "memory_on_worker", "INSTALL_HINT"]

INSTALL_HINT = "pip install 'ngb-fuzz[cluster]'"
CONNECT_TIMEOUT_S = 10.0
RESUBMITS = 3  # KilledWorker for one program this many times over: a harness error, not a lost cluster


class ClusterError(Exception):
    """A cluster that cannot be used (bad address, unreachable scheduler, no workers, Dask not installed)."""


class ClusterLost(BaseException):  # noqa: N818 - named for what happened, like KeyboardInterrupt
    """The scheduler went away mid-campaign.

    A BaseException on purpose: the campaign treats an ``Exception`` from a check as a bug of that one program
    (counted, kept under harness-errors/), but a lost cluster says nothing about the program; like Ctrl-C it must
    stop the campaign, leaving the program unrecorded so that a resumed campaign runs it again.
    """


class Dispatcher:
    """``check(source, targets) -> ProgramReport`` through an Executor; callable from many threads at once."""

    def __init__(self, executor: concurrent.futures.Executor, call: Callable, *args,
                 slots: int = 1, alive: Callable[[], bool] = lambda: True, where: str = "local",
                 on_close: Callable[[], None] | None = None, client=None,
                 memory: Callable[[], dict] | None = None):
        self.executor, self.call, self.args = executor, call, args
        self.client = client  # the Dask client on a cluster (None locally)
        self.slots = slots  # checks that can run at once: the campaign runs this many driver threads
        self.alive, self.where, self._on_close = alive, where, on_close
        self._memory = memory
        self._slots_asked = 0.0

    def current_slots(self) -> int:
        """Checks that can run at once now: on a cluster, its worker threads at the last ask (workers join and
        leave while a campaign runs; asked of the scheduler at most every 10 s); locally, ``slots``."""
        import time

        if self.client is None or time.monotonic() - self._slots_asked < 10.0:
            return self.slots
        self._slots_asked = time.monotonic()
        try:
            self.slots = max(1, sum(self.client.nthreads().values()))
        except Exception:  # noqa: BLE001 - a lost scheduler is reported by check(); keep the last figure
            pass
        return self.slots

    def memory(self) -> dict:
        """Memory of the processes that check programs ({"workers": {name: MB}, "rss_mb", "peak_rss_mb",
        "recycled"}, as ``oracle.Runner.memory``); empty where it cannot be known now."""
        if self._memory is None:
            return {}
        try:
            return self._memory()
        except Exception:  # noqa: BLE001 - a figure for the live view and report, never a reason to stop
            return {}

    def check(self, source: str, targets):
        targets = tuple(targets)
        for attempt in range(RESUBMITS + 1):
            if not self.alive():
                raise ClusterLost(f"the scheduler at {self.where} went away")
            try:
                future = self.executor.submit(self.call, source, targets, *self.args)
            except Exception as exc:  # a client closed (or an executor shut down) under us: the cluster is gone
                raise ClusterLost(f"{self.where}: {exc}") from None
            try:
                return future.result()
            except concurrent.futures.CancelledError:
                # Dask cancels every future of a client that lost its scheduler: nothing to do with the program
                raise ClusterLost(f"the scheduler at {self.where} went away") from None
            except Exception as exc:
                if type(exc).__name__ != "KilledWorker" or attempt == RESUBMITS:
                    raise
                if not self.alive():
                    raise ClusterLost(f"the scheduler at {self.where} went away") from None
        raise AssertionError("unreachable")

    __call__ = check

    def close(self) -> None:
        if self._on_close is not None:
            self._on_close()
        if isinstance(self.executor, concurrent.futures.ThreadPoolExecutor):
            self.executor.shutdown(wait=False, cancel_futures=True)


def local_dispatcher(runner, slots: int) -> Dispatcher:
    """Checks in this process: a thread pool of ``slots`` threads, each calling ``runner.check``."""
    pool = concurrent.futures.ThreadPoolExecutor(max_workers=slots, thread_name_prefix="ngb-check")
    return Dispatcher(pool, runner.check, slots=slots, memory=runner.memory)


def connect(address: str, timeout: float, connect_timeout: float = CONNECT_TIMEOUT_S) -> Dispatcher:
    """A Dispatcher on the cluster at ``address``: ``tcp://HOST:PORT`` (a running scheduler) or ``local:N``
    (a LocalCluster of N single-threaded worker processes on 127.0.0.1, closed with the dispatcher).

    ``timeout`` is the per-program, per-target timeout the remote runners use. Raises ClusterError with one line.
    """
    try:
        import distributed
    except ImportError:
        raise ClusterError(f"--cluster needs Dask distributed: {INSTALL_HINT}") from None
    cluster = None
    if address.startswith("local:"):
        count = address.removeprefix("local:")
        if not count.isdigit() or int(count) < 1:
            raise ClusterError(f"bad cluster {address!r}; use local:N with N >= 1 workers, or tcp://HOST:PORT")
        try:
            cluster = distributed.LocalCluster(
                n_workers=int(count), threads_per_worker=1, processes=True, host="127.0.0.1",
                dashboard_address=None, silence_logs=logging.ERROR)
        except Exception as exc:  # noqa: BLE001 - whatever Dask raised, the user gets one line
            raise ClusterError(f"cannot start a local cluster of {count} workers: {exc}") from None
        address = cluster.scheduler_address
    elif "://" not in address:
        raise ClusterError(f"bad cluster {address!r}; use tcp://HOST:PORT or local:N")
    try:
        client = distributed.Client(address, timeout=connect_timeout, set_as_default=False)
    except (OSError, TimeoutError, ValueError) as exc:
        if cluster is not None:
            cluster.close()
        reason = str(exc).splitlines()[0] if str(exc) else type(exc).__name__
        raise ClusterError(f"cannot reach the Dask scheduler at {address} within {connect_timeout:.0f}s "
                           f"({reason})") from None
    try:
        client.wait_for_workers(1, timeout=max(connect_timeout, 60.0) if cluster else connect_timeout * 3)
    except (TimeoutError, OSError):
        client.close()
        if cluster is not None:
            cluster.close()
        raise ClusterError(f"the Dask scheduler at {address} has no workers; start some with "
                           f"`dask worker {address}`") from None
    slots = max(1, sum(client.nthreads().values()))
    # A lost scheduler is reported by the campaign in one line (ClusterLost); Dask's own traceback of the broken
    # connection would bury it.
    logging.getLogger("distributed.client").setLevel(logging.CRITICAL)

    def close() -> None:
        with contextlib.suppress(Exception):
            client.close(timeout=5)
        if cluster is not None:
            with contextlib.suppress(Exception):
                cluster.close(timeout=10)

    # pure=False: two programs with the same text are still two tasks (and a retried one is not deduplicated)
    return Dispatcher(client.get_executor(pure=False), remote_check, timeout, slots=slots,
                      alive=lambda: client.status == "running", where=address, on_close=close, client=client,
                      memory=_ClusterMemory(client))


class _ClusterMemory:
    """The memory of every Dask worker's ngb-fuzz worker processes, asked for at most every ``every`` seconds
    (the live view asks each second; one round trip to every Dask worker is not free)."""

    def __init__(self, client, every: float = 10.0):
        self.client, self.every = client, every
        self._last: tuple[float, dict] | None = None
        self._lock = threading.Lock()

    def __call__(self) -> dict:
        import time

        with self._lock:
            if self._last is not None and time.monotonic() - self._last[0] < self.every:
                return self._last[1]
            running = self.client.status == "running"
            per_worker = self.client.run(memory_on_worker, on_error="ignore") if running else {}
            workers, peak, recycled = {}, 0.0, 0
            for address, memory in sorted(per_worker.items()):
                host = address.split("://", 1)[-1]
                for name, mb in memory.get("workers", {}).items():
                    workers[f"{host} {name}"] = mb
                peak = max(peak, memory.get("peak_rss_mb", 0.0))
                recycled += memory.get("recycled", 0)
            result = {"workers": workers, "rss_mb": list(workers.values()), "peak_rss_mb": peak,
                      "recycled": recycled} if per_worker else {}
            self._last = (time.monotonic(), result)
            return result


# -- on a Dask worker --------------------------------------------------------------------------------------------
_runners: dict[float, object] = {}
_runners_lock = threading.Lock()


def _worker_threads() -> int:
    try:
        from distributed import get_worker

        return max(1, int(get_worker().state.nthreads))
    except Exception:  # noqa: BLE001 - not on a Dask worker (a test calling this directly): one at a time
        return 1


def _runner(timeout: float):
    import atexit

    import oracle

    with _runners_lock:
        runner = _runners.get(timeout)
        if runner is None:
            runner = _runners[timeout] = oracle.Runner(workers=_worker_threads(), timeout=timeout)
            atexit.register(runner.close)
    return runner


def warm_up(timeout: float) -> dict:
    """Start this Dask worker's runner and one of its processes now (``client.run(warm_up, timeout)``), so that
    timing a campaign does not time torch's import; returns what the process reported about itself."""
    return _runner(timeout).warm_up()


def memory_on_worker() -> dict:
    """This Dask worker's ngb-fuzz worker processes (``client.run(memory_on_worker)``): its runners' memory merged,
    in ``oracle.Runner.memory``'s shape; empty before its first check."""
    with _runners_lock:
        runners = list(_runners.values())
    workers, peak, recycled = {}, 0.0, 0
    for i, runner in enumerate(runners):
        memory = runner.memory()
        for name, mb in memory["workers"].items():
            workers[f"{name}" if len(runners) == 1 else f"runner {i + 1} {name}"] = mb
        peak, recycled = max(peak, memory["peak_rss_mb"]), recycled + memory["recycled"]
    return {"workers": workers, "rss_mb": list(workers.values()), "peak_rss_mb": peak,
            "recycled": recycled} if runners else {}


def remote_check(source: str, targets: tuple[str, ...], timeout: float):
    """One program check on a Dask worker, through a Runner built once per worker process and reused.

    The Runner has as many isolated worker processes as the Dask worker has threads, so each task thread has its
    own; they start on first use (torch import) and are closed when the Dask worker process exits.
    """
    return _runner(timeout).check(source, targets)
