"""A worker's limits on one job: bytecode instructions Dynamo traced, and CPU seconds spent.

Imported by ``oracle._worker`` (with the standard library and torch only, as that file is)."""

from __future__ import annotations

import contextlib
import os
import time
from collections.abc import Iterator
from typing import Any

__all__ = ["StepLimit", "Steps", "cpu_seconds"]


class StepLimit(BaseException):  # not an Exception: the compiler's handlers do not catch it
    """Raised inside Dynamo when a run has traced more bytecode instructions, or spent more CPU seconds, than
    its job allows."""


def cpu_seconds() -> float:
    """CPU seconds this process and the children it waited for (a backend's compiler) have used: what a
    compile costs, which, unlike the seconds on a clock, another process on the same cores does not add to."""
    times = os.times()
    return time.process_time() + times.children_user + times.children_system


class Steps:
    """Bytecode instructions Dynamo traced in this job (``InstructionTranslatorBase.step`` calls, inlined
    functions included): a measure of compile work that, unlike seconds, does not move with the machine's
    load. Counted only in jobs that ask (``"steps"``: a limit, 0 for none); a job may also give a limit of
    CPU seconds (``"cpu"``), checked at the same points. ``install`` wraps the method once, and a program that
    catches ``BaseException`` around the stop is stopped all the same (its result is the count)."""

    count = 0
    limit: int | None = None  # None: not counting
    cpu_deadline: float | None = None  # ``cpu_seconds`` past which the job stops; None: no limit

    @classmethod
    def install(cls) -> bool:
        """Wrap Dynamo's instruction step (once); False where this torch has none to wrap."""
        try:
            from torch._dynamo.symbolic_convert import InstructionTranslatorBase
        except ImportError:
            return False
        original = getattr(InstructionTranslatorBase, "step", None)
        if original is None:
            return False
        if getattr(original, "_ngb_counted", False):
            return True

        def step(self: Any) -> Any:
            if cls.limit is not None:
                cls.count += 1
                if cls.limit and cls.count > cls.limit:
                    raise StepLimit
            if cls.cpu_deadline is not None and cpu_seconds() > cls.cpu_deadline:
                raise StepLimit
            return original(self)

        step._ngb_counted = True  # type: ignore[attr-defined]
        InstructionTranslatorBase.step = step  # type: ignore[method-assign]
        return True

    @classmethod
    @contextlib.contextmanager
    def counting(cls, limit: int | None, cpu: float | None = None) -> Iterator[bool]:
        """Count this job's steps when ``limit`` is not None (stopping it past a limit > 0), and stop it past
        ``cpu`` CPU seconds from now when given; yields whether steps are counted."""
        installed = (limit is not None or cpu is not None) and cls.install()
        on = limit is not None and installed
        cls.count, cls.limit = 0, (limit if on else None)
        cls.cpu_deadline = cpu_seconds() + cpu if cpu is not None and installed else None
        try:
            yield on
        finally:
            cls.limit, cls.cpu_deadline = None, None
