"""Soak figures of a long campaign: programs/s and peak resident memory per worker, per time window.

Reads a campaign directory's ``timeline.jsonl`` (written by ``ngb-fuzz run``) and prints one row per window; a
flat table is the goal (no slowdown from growing caches, memory bounded by worker recycling).

    ngb-fuzz run --target torch --budget 1h --out runs/soak     # the soak itself
    python benchmarks/soak.py runs/soak [--window 10m]
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from fuzz.campaign.timeline import read_timeline
from fuzz.cli._common import parse_duration


def windows(records: list[dict], seconds: float) -> list[dict]:
    """One row per ``seconds`` of campaign time: programs, programs/s, peak MB per worker, workers recycled."""
    rows: list[dict] = []
    if not records:
        return rows
    start_t, start_programs = records[0]["t"], records[0]["programs"]
    recycled_before = records[0].get("memory", {}).get("recycled", 0)
    current: dict | None = None
    for record in records[1:]:
        index = int((record["t"] - records[0]["t"]) // seconds)
        if current is None or current["index"] != index:
            if current is not None:
                rows.append(current)
                start_t, start_programs = current["end_t"], current["end_programs"]
                recycled_before = current["end_recycled"]
            current = {"index": index, "start_t": start_t, "start_programs": start_programs, "peak": {},
                       "recycled_before": recycled_before}
        memory = record.get("memory", {})
        for worker, mb in memory.get("workers", {}).items():
            current["peak"][worker] = max(current["peak"].get(worker, 0.0), mb)
        current.update(end_t=record["t"], end_programs=record["programs"],
                       end_recycled=memory.get("recycled", current["recycled_before"]))
    if current is not None:
        rows.append(current)
    for row in rows:
        span = row["end_t"] - row["start_t"]
        row["programs"] = row["end_programs"] - row["start_programs"]
        row["rate"] = row["programs"] / span if span > 0 else 0.0
        row["recycled"] = row["end_recycled"] - row["recycled_before"]
    return rows


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("campaign", type=Path, help="campaign directory (holds timeline.jsonl)")
    parser.add_argument("--window", default="10m", help="window length (default 10m)")
    args = parser.parse_args(argv)
    records = read_timeline(args.campaign)
    if len(records) < 2:
        print(f"soak: {args.campaign} has no timeline to read (run a campaign with ngb-fuzz run first)",
              file=sys.stderr)
        return 2
    rows = windows(records, parse_duration(args.window, "--window"))
    workers = sorted({w for row in rows for w in row["peak"]})
    print(f"{args.campaign}: {records[-1]['programs']} programs in {records[-1]['t'] / 60:.1f} min")
    print("| minutes | programs | programs/s | " + " | ".join(f"peak MB {w}" for w in workers)
          + " | workers recycled |")
    print("|---|---|---|" + "---|" * len(workers) + "---|")
    for row in rows:
        peaks = " | ".join(f"{row['peak'][w]:.0f}" if w in row["peak"] else "-" for w in workers)
        print(f"| {row['start_t'] / 60:.0f}-{row['end_t'] / 60:.0f} | {row['programs']} | {row['rate']:.3f} | "
              f"{peaks} | {row['recycled']} |")
    return 0


if __name__ == "__main__":
    sys.exit(main())
