"""A table of a campaign's buckets as a user reads them, and the figures issues ask of a campaign.

For each campaign directory: every bucket with its status, repro lines, reduction state, the corpus entry it
matched, and the minute (from the campaign's start, by its timeline) when its repro file was last written; then
programs, buckets, root causes, buckets per root cause, the share of buckets that are KNOWN, and, with
``--corpus-at REV``, the same figures against the corpus as it was at git revision REV (say, when an issue was
filed): which root causes are new since then, and how small their repros are.

    python benchmarks/campaign_table.py DIR [DIR ...] [--corpus-at REV] [--json FILE]

A KNOWN bucket counts as known at REV when its corpus entry, or the entry it is a variant of (``same_as``), was
in REV's manifest. A NEW bucket is new at REV too (the corpus only grows). Prints Markdown.
"""

from __future__ import annotations

import argparse
import json
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def _manifest_files(text: str) -> dict[str, dict]:
    data = json.loads(text)
    return {entry["file"]: entry for entry in data.get("files", [])}


def corpus_at(rev: str) -> set[str]:
    """The corpus files in the manifest at git revision ``rev``."""
    text = subprocess.run(["git", "-C", str(ROOT), "show", f"{rev}:corpus/manifest.json"], check=True,
                          capture_output=True, text=True).stdout
    return set(_manifest_files(text))


def _parent(entry: str, manifest: dict[str, dict]) -> str:
    return (manifest.get(entry) or {}).get("same_as") or entry


def _smallest(row: dict) -> int | None:
    """Lines of the smallest repro of a bucket's bug: its own reduced one, or its corpus entry's."""
    sizes = [n for n in (row["lines"], row["known_lines"]) if n is not None]
    return min(sizes) if sizes else None


def _started(out: Path) -> float | None:
    try:
        with (out / "timeline.jsonl").open() as handle:
            return float(json.loads(handle.readline())["time"])
    except (OSError, ValueError, KeyError):
        return None


def table(out: Path, before: set[str] | None, manifest: dict[str, dict]) -> dict:
    summary = json.loads((out / "summary.json").read_text())
    start = _started(out)
    rows = []
    for number, bucket in enumerate(summary["buckets"], 1):
        path = out / bucket["repro"]
        minute = (path.stat().st_mtime - start) / 60 if start and path.exists() else None
        known = bucket.get("known")
        rows.append({
            "n": number, "status": bucket["status"], "lines": bucket.get("lines"), "like": bucket.get("like") or [],
            "known_lines": bucket.get("known_lines"),
            "reduction": bucket.get("reduction") or "-", "known": known, "signature": bucket["signature"],
            "root_cause": bucket.get("root_cause") or f"{bucket['target']}|{bucket['signature']}",
            "also": len(bucket.get("also") or []), "minute": minute,
            "known_before": bool(known) and before is not None and _parent(known, manifest) in before,
        })
    causes = {row["root_cause"] for row in rows}
    figures = {
        "dir": str(out), "programs": summary["programs"], "seconds": summary["seconds"],
        "buckets": len(rows), "root_causes": len(causes),
        "buckets_per_root_cause": round(len(rows) / len(causes), 2) if causes else None,
        "known_buckets": sum(1 for row in rows if row["known"]),
        "unsettled": sum(1 for row in rows if row["status"] == "NEW?"),
        "probably_known": sum(1 for row in rows if row["status"] == "KNOWN?"),
        "over_20_not_known": sum(1 for row in rows if not row["known"] and (row["lines"] is None or row["lines"] > 20)),
    }
    if before is not None:
        fresh = {row["root_cause"]: row for row in rows if not row["known_before"]}
        figures.update({
            "known_before_buckets": sum(1 for row in rows if row["known_before"]),
            "new_since_root_causes": len(fresh),
            "new_since_le_15_lines": sum(1 for row in fresh.values() if _smallest(row) is not None
                                         and _smallest(row) <= 15),
        })
    return {"figures": figures, "rows": rows}


def _print(result: dict, rev: str | None) -> None:
    figures = result["figures"]
    print(f"\n## {figures['dir']}\n")
    print("| # | status | lines | reduction | minute | corpus entry / signature |" + (" known at rev |" if rev else ""))
    print("|---|---|---|---|---|---|" + ("---|" if rev else ""))
    for row in result["rows"]:
        minute = "-" if row["minute"] is None else f"{row['minute']:.0f}"
        name = row["known"] or row["signature"] + (f" (like {', '.join(row['like'])})" if row["like"] else "")
        also = f" (+{row['also']} calls)" if row["also"] else ""
        lines = "-" if row["lines"] is None else row["lines"]
        if row["known_lines"] is not None:
            lines = f"{lines} (entry {row['known_lines']})"
        print(f"| {row['n']:03d} | {row['status']} | {lines} | "
              f"{row['reduction']} | {minute} | {name}{also} |" + (f" {'yes' if row['known_before'] else 'no'} |"
                                                                   if rev else ""))
    share = figures["known_buckets"] / figures["buckets"] if figures["buckets"] else 0
    print(f"\n{figures['programs']} programs in {figures['seconds'] / 60:.1f} min; {figures['buckets']} buckets, "
          f"{figures['root_causes']} root causes ({figures['buckets_per_root_cause']} buckets per root cause); "
          f"KNOWN {figures['known_buckets']}/{figures['buckets']} ({share:.0%}); KNOWN? {figures['probably_known']}; "
          f"NEW? {figures['unsettled']}; "
          f"not KNOWN and over 20 lines: {figures['over_20_not_known']}")
    if rev:
        before = figures["known_before_buckets"] / figures["buckets"] if figures["buckets"] else 0
        print(f"against the corpus at {rev}: KNOWN {figures['known_before_buckets']}/{figures['buckets']} "
              f"({before:.0%}); root causes not in it: {figures['new_since_root_causes']}, "
              f"{figures['new_since_le_15_lines']} of them with a repro (their own or their corpus entry) of <= 15 lines")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("dirs", nargs="+", type=Path)
    parser.add_argument("--corpus-at", metavar="REV", help="also count against the corpus at this git revision")
    parser.add_argument("--json", type=Path, help="write the tables and figures there")
    args = parser.parse_args(argv)
    manifest = _manifest_files((ROOT / "corpus" / "manifest.json").read_text())
    before = corpus_at(args.corpus_at) if args.corpus_at else None
    results = []
    for out in args.dirs:
        if not (out / "summary.json").exists():
            print(f"{out}: no summary.json (not a campaign directory, or it never wrote one)", file=sys.stderr)
            return 2
        results.append(table(out, before, manifest))
        _print(results[-1], args.corpus_at)
    if args.json:
        args.json.write_text(json.dumps(results, indent=2))
    return 0


if __name__ == "__main__":
    sys.exit(main())
