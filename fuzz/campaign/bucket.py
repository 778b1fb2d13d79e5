"""A campaign's bucket: (target spec, verdict signature), its repro file, and what its reduction and the
corpus made of it (root cause, status)."""

from __future__ import annotations

import dataclasses

from fuzz.triage.rootcause import root_cause

__all__ = ["BESIDE", "STATUSES", "Bucket", "beside", "shown"]

# Every status a bucket can have (``Bucket.status``), in the order a summary names them.
STATUSES = ("NEW", "NEW?", "KNOWN?", "KNOWN", "REGRESSION")

# The files a campaign keeps beside a bucket's repro, by kind: ``orig``, a reduction's original (the program
# as found); ``partial``, the smallest program of an interrupted round (not re-checked in a fresh process, so
# not the repro; where the bucket's next round starts).
BESIDE = ("orig", "partial")


def beside(repro: str, kind: str) -> str:
    """The name of the ``kind`` file (``BESIDE``) kept beside the repro file named ``repro``."""
    assert kind in BESIDE, kind
    return repro.removesuffix(".py") + f".{kind}.py"


# Bucket.reduction: None (nothing to reduce: a KNOWN bug), "pending" (not reduced yet: reduced while the
# campaign runs, on a share of its workers, or after fuzzing; reduction off, interrupted, or a round that
# raised, a bug of ngb-fuzz: the next run or `ngb-fuzz reduce --campaign DIR` does it), "done" (a fixpoint),
# "cut short" (its budget ran out first: smaller, not minimal; the next run or `reduce --campaign` goes on
# from it), or "failed" (nothing smaller kept the signature in a fresh process: the original stays). A
# compiler crash that pins its bug is one bucket whichever call raised it (``also`` lists the other calls'
# signatures). A bucket sharing an earlier bucket's root cause gets that bucket's reduced repro (and its
# reduction) instead of a reduction of its own.
@dataclasses.dataclass
class Bucket:
    target: str
    signature: str
    count: int
    repro: str  # file name inside the campaign directory
    first_program: int
    lines: int | None = None  # code lines of the repro once reduced
    root_cause: str | None = None  # buckets sharing it are one bug (second bucketing; see root_cause())
    same_as: str | None = None  # repro of the earlier bucket with this root cause (then not reduced again)
    reduction: str | None = "pending"
    known: str | None = None  # corpus file of the known bug with this root cause (see fuzz.triage.known)
    regression: bool = False  # ... and that corpus entry is FIXED: the bug came back, which is news
    also: list[str] = dataclasses.field(default_factory=list)  # the same compiler crash on other calls
    # corpus bugs whose trigger its reduced repro needs too (fuzz.triage.trigger; None: not asked yet),
    # and that trigger: the calls it needs the compiler to trace
    like: list[str] | None = None
    trigger: list[str] = dataclasses.field(default_factory=list)
    like_rule: int = 0  # the version of the rule that answered ``like`` (fuzz.triage.trigger.RULE; 0: none)
    # a slow compile whose run, let finish, ended in a wrong value or a crash: that finding's signature, which
    # its reduction kept and its root cause is of (``fuzz.reduce._ends``); "": it ended in none (not let
    # finish again); None: not let finish yet (or no slow compile)
    ends_in: str | None = None

    @property
    def finding(self) -> str:
        """The signature its repro shows and its root cause is of: what it ends in, else its own."""
        return shown(self.signature, self.ends_in)

    @property
    def status(self) -> str:
        """KNOWN / REGRESSION (a corpus bug's root cause), NEW (a root cause no corpus entry has), KNOWN?
        (NEW, but it needs what a corpus bug needs, ``like``: probably a new form of it), or NEW? (not decided
        yet).
        Only evidence decides NEW: a compiler crash's root cause is its exception and
        compiler frame, known when it is seen (``pins_bug``); any other finding's is the shape of its reduced
        repro, known once its reduction reached a fixpoint. Until then (not reduced, cut short, failed) it may
        be a known bug under a large program."""
        if self.known:
            return "REGRESSION" if self.regression else "KNOWN"
        if not self.decided:
            return "NEW?"
        return "KNOWN?" if self.like else "NEW"

    @property
    def decided(self) -> bool:
        """Whether the root cause is settled: by the signature (a crash raised in compiler code), or by a
        finished reduction."""
        return root_cause(self.finding) is not None or self.reduction == "done"

    @property
    def has_reduced_repro(self) -> bool:
        """Its repro is a reduction's result (done, or cut short: smaller, not minimal), not the one found."""
        return self.reduction in ("done", "cut short")

    @property
    def unfinished(self) -> bool:
        """Its reduction is still to do, or to go on with: not reduced yet, or cut short."""
        return self.reduction in ("pending", "cut short")

    @property
    def old_news(self) -> bool:
        """A known bug that is still open: not reduced again, not new for --bias."""
        return bool(self.known) and not self.regression


def shown(signature: str, ends_in: str | None) -> str:
    """The signature a bucket's repro shows and its root cause is of: what it ends in (a slow compile let
    finish, ``Bucket.ends_in``), else its own. For a ``Bucket`` (``Bucket.finding``) and for its record in the
    journal or ``summary.json``, which carries ``signature`` and ``ends_in``."""
    return ends_in or signature
