"""What a report shows, read from a campaign directory (or a live campaign's summary), tolerant of what is missing.

Sources, best first: the summary passed in (a running campaign's), ``summary.json`` (a finished or interrupted
run), ``state.json`` (a run killed before its summary was written). Fields later versions add to the summary or to
its buckets (NEW/KNOWN, triage results, memory per worker) are shown where present and ignored where absent.
"""

from __future__ import annotations

import dataclasses
import json
from pathlib import Path

from fuzz.campaign.bucket import STATUSES, shown
from fuzz.campaign.timeline import read_timeline

__all__ = ["CampaignData", "Finding", "load"]


@dataclasses.dataclass
class Finding:
    signature: str
    target: str
    count: int
    repro: str  # file name inside the campaign directory
    first_program: int | None
    root_cause: str | None
    cause_label: str | None  # the root cause as people read it: "#2 mismatch (first seen as 003-....py)"
    same_as: str | None
    lines: int | None
    reduction: str | None  # "done", "cut short", "failed", "pending"; None: nothing to reduce (or not recorded)
    status: str | None  # NEW / KNOWN where the campaign knows
    known: str | None  # the corpus file a KNOWN (or REGRESSION) bucket matched
    triage: str | None  # a triage result, where known
    source: str | None  # the repro's text (reduced where reduction ran)
    first_seen_s: float | None  # campaign seconds when first seen (from the timeline; approximate)
    looks_like: tuple[tuple[str, float], ...] = ()  # corpus bugs a NEW bucket looks like (a hint, not a verdict)
    like: tuple[str, ...] = ()  # corpus bugs whose trigger a KNOWN? bucket needs too (fuzz.triage.trigger)
    trigger: tuple[str, ...] = ()  # ... and that trigger: the calls it needs the compiler to trace
    ends_in: str | None = None  # a slow compile's: the finding its run ended in, let finish (fuzz.reduce._ends)


@dataclasses.dataclass
class CampaignData:
    out: Path
    summary: dict
    timeline: list[dict]
    findings: list[Finding]

    @property
    def targets(self) -> list[str]:
        return list(self.summary.get("targets") or sorted({f.target for f in self.findings}))


def load(out: Path, summary: dict | None = None) -> CampaignData:
    """Raises FileNotFoundError if ``out`` holds no campaign."""
    out = Path(out)
    if summary is None:
        summary = _read_summary(out)
    timeline = read_timeline(out)
    buckets = summary.get("buckets", [])
    labels = cause_labels(buckets)
    findings = [_finding(out, bucket, timeline, labels) for bucket in buckets]
    findings.sort(key=lambda f: (f.status == "KNOWN", -f.count, f.signature))
    return CampaignData(out, summary, timeline, findings)


def _read_summary(out: Path) -> dict:
    for name in ("summary.json", "state.json"):
        path = out / name
        if path.exists():
            try:
                data = json.loads(path.read_text())
            except json.JSONDecodeError:
                continue
            return data if name == "summary.json" else _summary_from_state(data)
    raise FileNotFoundError(f"{out} holds no campaign (no summary.json or state.json)")


def _summary_from_state(state: dict) -> dict:
    """A summary as the campaign writes it, from the state it keeps while running."""
    identity = state.get("identity", {})
    buckets = state.get("buckets", [])
    return {
        "programs": len(state.get("completed", [])), "verdicts": state.get("verdicts", {}), "buckets": buckets,
        "root_causes": len({b.get("root_cause") or f"{b.get('target')}|{b.get('signature')}" for b in buckets}),
        "seconds": state.get("seconds", 0.0), "features": state.get("features", {}),
        "families": state.get("families", {}), "target_stats": state.get("stats", {}),
        "break_reasons": state.get("break_reasons", {}), "seed": identity.get("seed"),
        "targets": identity.get("targets", []),
        **{key: state[key] for key in ("memory",) if key in state},
    }


def _status(bucket: dict) -> str | None:
    for key in ("status", "novelty"):
        if isinstance(bucket.get(key), str) and bucket[key].upper() in STATUSES:
            return bucket[key].upper()
    if isinstance(bucket.get("known"), bool | str | dict | list):
        if bucket["known"]:
            return "REGRESSION" if bucket.get("regression") else "KNOWN"
        if "reduction" not in bucket:
            return "NEW"  # a summary from before reductions were tracked
        # as fuzz.campaign.loop.Bucket.status: NEW only once the root cause is settled
        from fuzz.triage.rootcause import root_cause

        finding = shown(bucket.get("signature", ""), bucket.get("ends_in"))
        settled = root_cause(finding) is not None or bucket["reduction"] == "done"
        return ("KNOWN?" if _names(bucket, "like") else "NEW") if settled else "NEW?"
    return None


def _triage(bucket: dict) -> str | None:
    value = bucket.get("triage")
    if value is None:
        return None
    if isinstance(value, dict):
        return "; ".join(f"{k}: {v}" for k, v in value.items() if v not in (None, ""))
    return str(value)


def cause_labels(buckets: list[dict]) -> dict[str, str]:
    """A readable name for each root cause, numbered in the order the campaign first saw them. A crash's root cause
    reads as it is (exception and compiler frame); a mismatch's is a hash of its reduced repro's shape, so it is
    named by the first bucket that has it (or by its state-object family, see fuzz.triage.rootcause)."""
    labels: dict[str, str] = {}
    for bucket in sorted(buckets, key=lambda b: (b.get("first_program") is None, b.get("first_program") or 0)):
        cause = bucket.get("root_cause")
        if not cause or cause in labels:
            continue
        kind, sep, rest = cause.partition(":")
        kind_, _, shape = cause.partition("|")
        if sep and kind in ("crash", "hang"):
            text = f"{kind}: {rest}"
        elif shape.startswith("state-object:"):  # fuzz.triage.rootcause names this family instead of hashing its shape
            text = f"{kind_}: a torch {shape.partition(':')[2]} mode object kept un-entered across a break"
        else:
            text = f"{kind_} (first seen as {bucket.get('repro', '?')})"
        labels[cause] = f"#{len(labels) + 1} {text}"
    return labels


def _finding(out: Path, bucket: dict, timeline: list[dict], labels: dict[str, str]) -> Finding:
    repro = str(bucket.get("repro", ""))
    path = out / repro
    source = path.read_text(errors="replace") if repro and path.is_file() else None
    first = bucket.get("first_program")
    seen = None
    if isinstance(first, int):  # the first record that counts program ``first`` as done: when it was seen, roughly
        seen = next((r["t"] for r in timeline if r.get("programs", 0) > first), None)
    return Finding(
        signature=str(bucket.get("signature", "?")), target=str(bucket.get("target", "?")),
        count=int(bucket.get("count", 0) or 0), repro=repro, first_program=first,
        root_cause=bucket.get("root_cause"), cause_label=labels.get(bucket.get("root_cause") or ""),
        same_as=bucket.get("same_as"), lines=bucket.get("lines"),
        reduction=bucket.get("reduction"), status=_status(bucket), triage=_triage(bucket), source=source, first_seen_s=seen,
        known=bucket["known"] if isinstance(bucket.get("known"), str) else None,
        looks_like=_looks_like(bucket), like=_names(bucket, "like"), trigger=_names(bucket, "trigger"),
        ends_in=bucket["ends_in"] if isinstance(bucket.get("ends_in"), str) else None,
    )


def _names(bucket: dict, key: str) -> tuple[str, ...]:
    items = bucket.get(key)
    return tuple(str(i) for i in items) if isinstance(items, list) else ()


def _looks_like(bucket: dict) -> tuple[tuple[str, float], ...]:
    items = bucket.get("looks_like")
    if not isinstance(items, list):
        return ()
    return tuple((str(i[0]), float(i[1])) for i in items
                 if isinstance(i, list | tuple) and len(i) == 2 and isinstance(i[1], int | float))
