"""A thread waiting for a busy worker is never left waiting for ever."""

from __future__ import annotations

import threading
import time

import oracle

PROGRAM = "import torch\n\n\ndef entry():\n    return torch.ones(1)\n"


def _wait_in_thread(runner):
    outcome = {}

    def wait():
        try:
            outcome["result"] = runner.run(PROGRAM, "eager", 1)
        except oracle.WorkerError as exc:
            outcome["error"] = exc

    thread = threading.Thread(target=wait, daemon=True)
    thread.start()
    return thread, outcome


def test_a_thread_waiting_for_a_worker_is_told_when_the_runner_closes():
    # a stopping campaign closes its runner while a reduction's check waits for a worker: the check must end (and
    # with it the process, which joins such threads at exit), not wait for a worker that never comes back
    runner = oracle.Runner(workers=1)
    pool = runner._pool(None)
    held = pool.acquire()  # the only worker, busy
    thread, outcome = _wait_in_thread(runner)
    time.sleep(1.0)
    assert thread.is_alive()  # waiting, as it should while the worker is busy
    runner.close()
    thread.join(timeout=10)
    assert not thread.is_alive() and "the runner is closed" in str(outcome.get("error"))
    pool.release(held)


def test_a_thread_waiting_for_a_worker_that_dies_starts_one_in_its_place():
    # the dead worker's holder gives it back and asks for none again: the waiting thread must start one itself
    with oracle.Runner(workers=1) as runner:
        pool = runner._pool(None)
        held = pool.acquire()
        thread, outcome = _wait_in_thread(runner)
        time.sleep(1.0)
        held.kill()
        pool.release(held)  # dead: its place is free, nothing goes back to the idle queue
        thread.join(timeout=120)
        assert not thread.is_alive() and "calls" in outcome.get("result", {}), outcome
