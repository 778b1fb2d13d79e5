"""Naming a campaign's buckets against the corpus, as it stands today.

Three things a person reads beside a bucket come from here: its status when a campaign is opened again
(``rematch``: a reduced bucket's root cause found again on its repro with today's rules and matched against
today's corpus, so a variant added since makes it KNOWN and a removed entry makes it NEW again); for a
bucket reduced to a fixpoint that no corpus bug has, the corpus bugs whose trigger it needs too (``like``,
found by running it: ``fuzz.triage.trigger``; it is then KNOWN?, probably a new form of one); and which bugs
it looks like (``looks_like``: a hint from its text, never a verdict).
``Naming`` is a part that ``fuzz.campaign.loop.Campaign`` holds (``Owner``: what it uses of it); this module
does not import the campaign's.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, Protocol

from fuzz.campaign.bucket import Bucket
from fuzz.campaign.reductions import StoppableRunner, status_after
from fuzz.triage.rootcause import behaviour_shape, pins_bug, root_cause

__all__ = ["Naming"]

class Owner(Protocol):
    """What ``Naming`` uses of the campaign that holds it: its buckets, directory, known bugs and journal."""

    buckets: dict[tuple[str, str], Bucket]
    dir: Any
    known: Any
    runner: Any
    _lock: Any
    _stop: Any

    def _journal(self, record: dict) -> None: ...

    def _storing(self, write: Callable[..., Any], *args: Any) -> Any: ...


class Naming:
    def __init__(self, campaign: Owner) -> None:
        self._campaign = campaign
        self._looks: dict[tuple[str, int | None], list] = {}  # (repro, lines) -> corpus bugs it looks like
        # fuzz.triage.trigger.Triggers over the corpus, made on first need: one for slow compiles, whose
        # checks run at the slow horizon (``at_slow_horizon``), one for every other finding
        self._triggers: dict[bool, Any] = {}

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
            return root_cause(bucket.finding, behaviour_shape(source, minimal=bucket.reduction == "done"))
        if bucket.reduction is None:
            return root_cause(bucket.finding) or bucket.root_cause
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
            like = bucket.like
            if like:  # a bug gone from the corpus: asked again against today's
                like = [file for file in like if any(form.bug == file for form in known_bugs.forms)] or None
            if (known, regression, cause, like) != (bucket.known, bool(bucket.regression), bucket.root_cause,
                                                    bucket.like):
                self._rename(bucket, cause, known, regression, like, bucket.trigger if like else [])
        for bucket in [b for b in buckets.values() if b.same_as]:
            primary = next((b for b in buckets.values() if b.repro == bucket.same_as), None)
            named = (primary.known, primary.regression, primary.like) if primary else None
            if primary is None or named == (bucket.known, bucket.regression, bucket.like):
                continue
            self._rename(bucket, primary.root_cause, primary.known, primary.regression, primary.like,
                         primary.trigger)

    def _rename(self, bucket: Bucket, cause: str | None, known: str | None, regression: bool,
                like: list[str] | None, trigger: list[str]) -> None:
        """Journal ``bucket`` with this root cause, corpus match and likeness, its reduction as it stands."""
        record = {"k": "reduced", "repro": bucket.repro, "reduction": bucket.reduction,
                  "lines": bucket.lines, "root_cause": cause, "known": known, "regression": regression,
                  "like": like, "trigger": trigger}
        self._campaign._journal({**record, "status": status_after(bucket, record)})

    def like(self, bucket: Bucket, source: str, breaks: int | None = None) -> dict:
        """The fields of a "reduced" record that say which corpus bugs ``bucket``, reduced to ``source`` at a
        fixpoint and not known, needs the trigger of (``{"like": [...], "trigger": [...]}``;
        ``fuzz.triage.trigger``). Only a minimal repro is asked (one that is not needs calls its bug does
        not): the callers' part. ``{}`` when it is not asked: a crash its signature names, no corpus, or the
        campaign stopping. ``breaks``: the graph breaks the target took running ``source``, when the
        reduction's re-checks said (not asked again). Runs checks: not under the campaign's lock."""
        known_bugs = self._campaign.known
        if not known_bugs or not known_bugs.forms or pins_bug(bucket.finding):
            return {}
        from fuzz.reduce._oracle import at_slow_horizon
        from fuzz.triage.trigger import RULE, Triggers
        from oracle import OracleError

        slow = bucket.finding.startswith("slow:")
        if slow not in self._triggers:
            runner = StoppableRunner(self._campaign.runner, self._campaign._stop)
            runner = at_slow_horizon(runner, bucket.finding)
            self._triggers[slow] = Triggers.on_runner(known_bugs.forms, runner)
        try:
            like, trigger = self._triggers[slow].like(source, bucket.finding, bucket.target, breaks=breaks)
        except (KeyboardInterrupt, OracleError, OSError):
            return {}  # stopped, or the runner failed: asked again by the next run
        return {"like": like, "trigger": trigger, "like_rule": RULE}

    def ask_unasked(self) -> None:
        """Ask ``like`` of each bucket reduced to a fixpoint, not known, that no run asked yet (reduced before
        the rule, or by a run stopped while it asked) or that an older version of the rule found like nothing,
        and journal the answer."""
        from fuzz.triage.trigger import RULE

        asked = False
        for bucket in list(self._campaign.buckets.values()):
            if self._campaign._stop.is_set():
                break
            answered = bucket.like is not None and (bucket.like or bucket.like_rule >= RULE)
            if answered or bucket.known or bucket.same_as or bucket.reduction != "done":
                continue
            source = self._source(bucket)
            fields = self.like(bucket, source) if source is not None else {}
            if not fields:
                continue
            with self._campaign._lock:
                record = {"k": "reduced", "repro": bucket.repro, "reduction": bucket.reduction, **fields}
                record["status"] = status_after(bucket, record)
                self._campaign._storing(self._campaign._journal, record)
            asked = True
        if asked:
            with self._campaign._lock:
                self.rematch()  # the buckets pointed at one asked take its answer

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
