"""Naming a campaign's buckets against the corpus, as it stands today.

Two things a person reads beside a bucket come from here: its status when a campaign is opened again
(``rematch``: a reduced bucket's root cause found again on its repro with today's rules and matched against
today's corpus, so a variant added since makes it KNOWN and a removed entry makes it NEW again), and, for a
reduced bucket that no corpus bug has, which bugs it looks like (``looks_like``: a hint, never a verdict).
``Naming`` is a part that ``fuzz.campaign.loop.Campaign`` holds (``Owner``: what it uses of it); this module
does not import the campaign's.
"""

from __future__ import annotations

from typing import Any, Protocol

from fuzz.campaign.bucket import Bucket
from fuzz.campaign.reductions import status_after
from fuzz.triage.rootcause import behaviour_shape, root_cause

__all__ = ["Naming"]

class Owner(Protocol):
    """What ``Naming`` uses of the campaign that holds it: its buckets, directory, known bugs and journal."""

    buckets: dict[tuple[str, str], Bucket]
    dir: Any
    known: Any

    def _journal(self, record: dict) -> None: ...


class Naming:
    def __init__(self, campaign: Owner) -> None:
        self._campaign = campaign
        self._looks: dict[tuple[str, int | None], list] = {}  # (repro, lines) -> corpus bugs it looks like

    def _source(self, bucket: Bucket) -> str | None:
        try:
            return (self._campaign.dir.root / bucket.repro).read_text(encoding="utf-8-sig")
        except OSError:
            return None

    def _cause(self, bucket: Bucket) -> str | None:
        """Today's root cause of ``bucket``: a reduced one's found again on its repro (the rules may have
        changed), an unreduced one's by its signature (known at detection or not at all)."""
        if bucket.has_reduced_repro:
            source = self._source(bucket)
            if source is None:
                return bucket.root_cause
            return root_cause(bucket.signature, behaviour_shape(source, minimal=bucket.reduction == "done"))
        if bucket.reduction is None:
            return root_cause(bucket.signature) or bucket.root_cause
        return bucket.root_cause

    def rematch(self) -> None:
        """Name every bucket again against today's corpus and rules: one whose root cause a variant added
        since (or a new entry) has is KNOWN, one whose entry went is NEW. Each change is journaled, so every
        place that shows the status says it; a bucket pointed at another takes that one's status."""
        known_bugs, buckets = self._campaign.known, self._campaign.buckets
        if known_bugs is None:  # no corpus asked for (an empty one is asked for: nothing is known by it)
            return
        for bucket in [b for b in buckets.values() if not b.same_as]:
            cause = self._cause(bucket)
            if not cause:
                continue
            match = known_bugs.match_cause(cause, target=bucket.target)
            known, regression = (match.file, match.fixed) if match else (None, False)
            if (known, regression, cause) != (bucket.known, bool(bucket.regression), bucket.root_cause):
                self._rename(bucket, cause, known, regression)
        for bucket in [b for b in buckets.values() if b.same_as]:
            primary = next((b for b in buckets.values() if b.repro == bucket.same_as), None)
            if primary is None or (primary.known, primary.regression) == (bucket.known, bucket.regression):
                continue
            self._rename(bucket, primary.root_cause, primary.known, primary.regression)

    def _rename(self, bucket: Bucket, cause: str | None, known: str | None, regression: bool) -> None:
        """Journal ``bucket`` with this root cause and corpus match, its reduction as it stands."""
        record = {"k": "reduced", "repro": bucket.repro, "reduction": bucket.reduction, "lines": bucket.lines,
                  "root_cause": cause, "known": known, "regression": regression}
        self._campaign._journal({**record, "status": status_after(bucket, record)})

    def looks_like(self, bucket: Bucket) -> list:
        """The corpus bugs a reduced bucket that is not known (NEW, or NEW? once cut short; not pointed at
        another bucket) looks like, ``[[file, similarity], ...]`` (``KnownBugs.looks_like``: a hint only)."""
        known_bugs = self._campaign.known
        if not known_bugs or bucket.known or bucket.same_as or not bucket.has_reduced_repro:
            return []
        key = (bucket.repro, bucket.lines)
        if key not in self._looks:
            source = self._source(bucket)
            if source is None:
                return []
            self._looks[key] = [list(item) for item in known_bugs.looks_like(source)]
        return self._looks[key]
