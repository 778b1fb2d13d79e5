"""Signals: SIGINT, SIGTERM and SIGHUP all stop a command the same way, with exit code 128 + the signal number.

``timeout``, Slurm, systemd, ``docker stop`` and a closed ssh session send SIGTERM or SIGHUP; a user presses
Ctrl-C. Outside a campaign each raises ``Stopped`` (a KeyboardInterrupt) in the main thread; during one,
``stop_on_signals`` turns them into a request to stop, so the campaign writes its summary and state first.
"""

from __future__ import annotations

import contextlib
import signal
import types
from collections.abc import Callable, Iterator

__all__ = ["STOP_SIGNALS", "Stopped", "install", "stop_on_signals", "exit_code", "last_signal"]

STOP_SIGNALS = tuple(s for s in (getattr(signal, n, None) for n in ("SIGINT", "SIGTERM", "SIGHUP")) if s)


class Stopped(KeyboardInterrupt):
    """A stop signal arrived."""

    def __init__(self, signum: int) -> None:
        super().__init__(signal.Signals(signum).name)
        self.signum = signum


def exit_code(signum: int) -> int:
    return 128 + signum


_last: list[int] = []


def last_signal() -> int | None:
    """The stop signal that arrived last in this process (None if none did): a command that catches the
    ``Stopped`` to keep its best-so-far (the reducer) still exits with that signal's code."""
    return _last[-1] if _last else None


def _raise(signum: int, frame: types.FrameType | None) -> None:
    _last.append(signum)
    raise Stopped(signum)


def install() -> dict:
    """Every stop signal raises ``Stopped`` (also where the parent started us with SIGINT ignored, as
    pytest-xdist workers do); returns the handlers there were, to restore."""
    return {signum: signal.signal(signum, _raise) for signum in STOP_SIGNALS}


class Received:
    signum: int | None = None


@contextlib.contextmanager
def stop_on_signals(stop: Callable[[int], None]) -> Iterator[Received]:
    """While inside: the first stop signal calls ``stop(signum)``; later ones are only noted (the stop is under
    way and writes what it must). ``received.signum`` says which came first."""
    received = Received()

    def handler(signum: int, frame: types.FrameType | None) -> None:
        if received.signum is None:
            received.signum = signum
            stop(signum)

    previous = {s: signal.signal(s, handler) for s in STOP_SIGNALS}
    try:
        yield received
    finally:
        for s, h in previous.items():
            signal.signal(s, h)
