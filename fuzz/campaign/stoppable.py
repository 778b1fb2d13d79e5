"""A campaign's runner as its reducer and its naming see it: one that stops with the campaign."""

from __future__ import annotations

import threading
from typing import Any

__all__ = ["StoppableRunner"]


class StoppableRunner:
    """The campaign's runner as the reducer sees it: once the campaign stops (Ctrl-C, budget), every further
    check interrupts the reduction, which then returns its best so far at once instead of running out its
    budget."""

    def __init__(self, runner: Any, stop: threading.Event) -> None:
        self._runner, self._stop = runner, stop

    @property
    def stop_event(self) -> threading.Event:
        """The campaign's stop: the reducer's re-checks in fresh processes end on it (``recheck``)."""
        return self._stop

    def check(self, *args: Any, **kwargs: Any) -> Any:
        if self._stop.is_set():
            raise KeyboardInterrupt
        return self._runner.check(*args, **kwargs)

    def run(self, *args: Any, **kwargs: Any) -> Any:  # the reducer's cheap checks: eager, the target
        if self._stop.is_set():
            raise KeyboardInterrupt
        return self._runner.run(*args, **kwargs)

    def with_horizon(self, timeout: float, hang_recheck: float | None = None) -> StoppableRunner:
        """The runner's ``with_horizon``, still stopped with the campaign."""
        return StoppableRunner(self._runner.with_horizon(timeout, hang_recheck), self._stop)

    def __getattr__(self, name: str) -> Any:
        return getattr(self._runner, name)
