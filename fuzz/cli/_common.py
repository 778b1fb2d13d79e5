"""Argument helpers shared by subcommands: budgets, target lists, worker counts."""

from __future__ import annotations

import re

from . import UsageError

__all__ = ["parse_budget", "parse_duration", "parse_targets"]

_DURATION = re.compile(r"^(\d+(?:\.\d+)?)(s|m|h)$")


def parse_duration(text: str) -> float:
    """'90s', '10m', '1.5h' -> seconds."""
    match = _DURATION.match(text.strip())
    if not match:
        raise UsageError(f"bad duration {text!r}; use e.g. 30s, 10m or 1h")
    return float(match.group(1)) * {"s": 1, "m": 60, "h": 3600}[match.group(2)]


def parse_budget(text: str) -> tuple[int | None, float | None]:
    """'500' -> (500 programs, None); '10m' -> (None, 600 seconds)."""
    text = text.strip()
    if text.isdigit():
        if int(text) < 1:
            raise UsageError("budget must be at least 1 program")
        return int(text), None
    try:
        return None, parse_duration(text)
    except UsageError:
        raise UsageError(f"bad budget {text!r}; use a program count (500) or a duration (30s, 10m, 1h)") from None


def parse_targets(specs: list[str] | None, default: str = "torch", check: bool = True) -> list[str]:
    """Canonical specs, validated (and, with ``check``, available here); UsageError on a bad one."""
    import oracle

    specs = specs or [default]
    try:
        if check:
            return oracle.resolve_targets(specs)
        return list(dict.fromkeys(oracle.parse_target(spec).spec for spec in specs))
    except oracle.TargetError as exc:
        raise UsageError(str(exc)) from None
