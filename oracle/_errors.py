"""The oracle's exceptions: one root, one-line messages for bad user input."""

from __future__ import annotations

__all__ = ["OracleError", "TargetError", "WorkerError"]


class OracleError(Exception):
    """Root of every error the oracle raises on purpose."""


class TargetError(OracleError, ValueError):
    """A target spec that is malformed or cannot run here; the message is one line naming valid choices."""

    spec: str | None = None  # the spec as given, set by resolve_targets


class WorkerError(OracleError):
    """The harness itself failed inside a worker (never a verdict about the target)."""

    died: bool = False  # the worker process died (killed, maybe from outside) rather than failed
