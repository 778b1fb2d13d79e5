"""A campaign's timeline: ``timeline.jsonl`` in its directory, one JSON record appended per interval.

The report draws its over-time plots from it (programs/s, verdicts, new root causes) and its per-program
distributions (graphs and breaks per program, per target), which the campaign's running totals cannot give.
Append-only, so a resumed campaign adds to it and a record half-written by a killed driver costs only that
line (readers skip it). A record::

    {"t": campaign seconds (continues across resumes), "time": unix time, "programs": N, "verdicts": {kind:
    n},
     "buckets": n, "root_causes": n, "per_program": {target: {"graphs": {"3": programs, ...}, "breaks":
     {...}}},   # programs since the last record "memory": ...}
     # only where the summary has it
"""

from __future__ import annotations

import collections
import json
import threading
import time
from pathlib import Path
from typing import Any, Protocol


class Summarized(Protocol):
    """What a timeline reads from its campaign (``Campaign.summary``)."""

    def summary(self) -> dict[str, Any]: ...

__all__ = ["Timeline", "read_timeline", "TIMELINE", "PER_PROGRAM"]

TIMELINE = "timeline.jsonl"
PER_PROGRAM = ("graphs", "breaks")  # per-program stats whose distribution the report shows


class Timeline:
    """Feed it ``program(index, report)`` for each recorded program and ``tick(campaign)`` often (both are a
    campaign's callbacks: on_recorded, on_progress); it appends a record once ``interval`` seconds have
    passed, and always on ``tick(campaign, force=True)`` (the end of a run)."""

    def __init__(self, out: Path, interval: float = 60.0) -> None:
        self.path = Path(out) / TIMELINE
        self.interval = interval
        self._lock = threading.Lock()
        self._last: float | None = None  # the first tick writes a record: the start of this run
        self._pending: dict[str, dict[str, collections.Counter[str]]] = {}
        self._pending_programs = 0

    def program(self, index: int, report: object) -> None:  # a ProgramReport, or anything with its stats
        with self._lock:
            self._pending_programs += 1
            for spec, stats in getattr(report, "stats", {}).items():
                per_target = self._pending.setdefault(
                    spec, {key: collections.Counter() for key in PER_PROGRAM}
                )
                for key in PER_PROGRAM:
                    if isinstance(stats.get(key), int):
                        per_target[key][str(stats[key])] += 1

    def tick(self, campaign: Summarized, force: bool = False) -> dict[str, Any] | None:
        """Append a record if the interval has passed (or ``force``); returns it, or None."""
        # One lock over the whole tick, so records land in order. It is taken before the campaign's own lock
        # (in summary()) and never the other way round: callbacks run outside the campaign's lock.
        with self._lock:
            now = time.monotonic()
            if self._last is not None:
                if not force and now - self._last < self.interval:
                    return None
                if force and not self._pending_programs and now - self._last < 1.0:
                    return None  # nothing new since a record a moment ago
            self._last = now
            pending, self._pending, self._pending_programs = self._pending, {}, 0
            summary = campaign.summary()
            record = {
                "t": round(summary["seconds"], 2),
                "time": round(time.time(), 2),
                "programs": summary["programs"],
                "verdicts": summary["verdicts"],
                "buckets": len(summary["buckets"]),
                "root_causes": summary["root_causes"],
                "per_program": {
                    spec: {key: dict(counter) for key, counter in stats.items()}
                    for spec, stats in pending.items()
                },
            }
            if "memory" in summary:  # per-worker memory, where the campaign reports it
                record["memory"] = summary["memory"]
            with self.path.open("a") as f:
                f.write(json.dumps(record, sort_keys=True) + "\n")
            return record


def read_timeline(out: Path) -> list[dict[str, Any]]:
    """The records of ``out/timeline.jsonl`` in order; lines that do not parse (a killed writer) are
    skipped."""
    path = Path(out) / TIMELINE
    if not path.exists():
        return []
    records: list[dict[str, Any]] = []
    for line in path.read_text().splitlines():
        try:
            record = json.loads(line)
        except json.JSONDecodeError:
            continue
        if isinstance(record, dict) and isinstance(record.get("t"), int | float):
            records.append(record)
    return records
