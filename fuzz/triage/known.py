"""Known bugs: a campaign's finding that has the root cause of a corpus entry is KNOWN, not news.

The corpus (``corpus/``) holds one reduced repro per bug already found. A finding matches an entry when both
have the same root cause (``fuzz.triage.rootcause.root_cause``): a crash raised inside compiler code by its exception
type and compiler frame alone (``pins_bug``: it matches as soon as it is seen, before any reduction); a mismatch,
a hang, and a crash the program raised itself (through a pass-through frame such as ``compile_wrapper``: a wrong
value made user code raise) by the normalized shape of its reduced repro (so it can only match once reduced). Regression cases (signature ``ok``) are not bugs
and never match; nor does an entry whose ``requires`` the finding's torch/Python does not meet (a 2.15-only bug is
not what a 2.13 campaign found). A KNOWN bucket is not reduced (when known at detection), does not count as new for ``--bias``,
and is reported as KNOWN with the corpus file it matched. A finding whose root cause is that of a FIXED entry only
is a REGRESSION: news, reduced and counted as new like a NEW bucket, and named with the entry it brings back;
but a variant of a FIXED entry that names the older versions it shows on (``requires``: a torch 2.10 form of a
bug fixed in 2.13) is found there as KNOWN, where the fix never was.

A bug can take several forms that reduce to different shapes (a deque's maxlen lost across a break shows with
``pop``, ``extend`` or ``appendleft``). Matching stays exact; what grows is what it matches against: an entry whose
manifest names ``same_as`` (``ngb-fuzz corpus add FILE --same-as ENTRY``, after a person triaged a NEW bucket as
that bug) adds its own root cause to ENTRY's, and a finding with it is KNOWN as ENTRY.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING

from .nearest import Profiles
from .rootcause import behaviour_shape, root_cause
from .trigger import Form

if TYPE_CHECKING:
    from fuzz.corpus.manifest import Entry

__all__ = ["KnownBug", "KnownBugs"]


@dataclasses.dataclass(frozen=True, slots=True)
class KnownBug:
    file: str  # corpus file, relative to the corpus directory
    status: str  # the entry's manifest status (NEW, KNOWN, FIXED, REGRESSION)
    root_cause: str
    lines: int = 0  # program lines of its repro: what a user reads instead of an unreduced KNOWN finding
    requires: str = ""  # the torch/Python versions it shows on (fuzz.corpus.requires); "" for every version

    @property
    def fixed(self) -> bool:
        """The bug was fixed: a finding with its root cause is a regression, not a known bug."""
        return self.status == "FIXED"


class KnownBugs:
    """The root causes of a corpus's bug entries; ``match`` names the entry a finding repeats."""

    def __init__(self, bugs: list[KnownBug] | tuple[KnownBug, ...] = (), sources: dict[str, str] | None = None,
                 forms: tuple[Form, ...] = ()):
        self.bugs = tuple(bugs)
        self.forms = forms  # each repro with its bug and signature: for ``fuzz.triage.trigger`` (KNOWN?)
        self._sources = sources or {}  # entry file -> its repro (for ``looks_like``), variants under their parent's
        self._profiles: Profiles | None = None
        self._by_cause: dict[str, list[KnownBug]] = {}
        for bug in sorted(self.bugs, key=lambda b: b.fixed):  # an open entry wins over a FIXED one
            self._by_cause.setdefault(bug.root_cause, []).append(bug)

    def __len__(self) -> int:
        return len(self.bugs)

    @classmethod
    def from_corpus(cls, root: str | Path) -> KnownBugs:
        """Every bug entry of the corpus at ``root`` (an empty index where there is none)."""
        from fuzz.corpus.manifest import Corpus
        from fuzz.reduce import code_lines
        from oracle import read_program_text

        corpus = Corpus(root)
        bugs, lines, sources = [], {}, {}
        for entry in corpus.select():
            path = corpus.root / entry.file
            if entry.signature == "ok" or entry.target.startswith("fault") or not path.is_file():
                continue
            source = read_program_text(path)
            sources[entry.file] = source
            lines[entry.file] = code_lines(source)
            cause = root_cause(entry.signature, behaviour_shape(source))
            if cause:
                bugs.append((entry, cause))
        parents = {entry.file: entry.same_as or entry.file for entry, _ in bugs}
        # a FIXED bug's repros are asked too: the trigger rule runs each on the finding's own target, where a fixed
        # bug does not show (no trigger, like nothing) unless that torch predates the fix (a 2.10 campaign's form
        # of a bug fixed in 2.13 is that bug) or the bug came back
        forms = tuple(Form(entry.file, parents[entry.file], entry.signature, sources[entry.file])
                      for entry, _ in bugs)
        return cls([_as_bug(entry, cause, corpus.entries.get(entry.same_as), lines) for entry, cause in bugs],
                   {f"{file}>{parents.get(file, file)}": source for file, source in sources.items()}, forms)

    def looks_like(self, source: str) -> list[tuple[str, float]]:
        """The corpus bugs ``source`` looks like (``fuzz.triage.nearest``): a hint for whoever triages a NEW
        finding, never a verdict. Entry files (a variant's parent, once), most alike first, with the similarity."""
        if not self._sources:
            return []
        if self._profiles is None:
            self._profiles = Profiles(self._sources, bug_of=lambda key: key.split(">", 1)[1])
        named: dict[str, float] = {}
        for key, score in self._profiles.looks_like(source, top=len(self._sources)):
            named.setdefault(key.split(">", 1)[1], score)
        return list(named.items())[:3]

    def lines_of(self, file: str | None) -> int | None:
        """Program lines of the repro of the entry ``file`` (None for a file it does not hold)."""
        return next((bug.lines for bug in self.bugs if bug.file == file), None)

    def match(self, signature: str, shape: str | None = None, target: str | None = None,
              versions: Callable[[str], tuple[str, str]] | None = None) -> KnownBug | None:
        """The known bug with this finding's root cause (``shape``: its reduced repro's shape key), or None.
        Found on ``target``: an entry that does not show on that target's torch/Python (its ``requires``) is not
        the finding's bug, whatever the root cause says (``versions(spec)``: default, asked of the interpreter)."""
        return self.match_cause(root_cause(signature, shape), target, versions)

    def match_cause(self, cause: str | None, target: str | None = None,
                    versions: Callable[[str], tuple[str, str]] | None = None) -> KnownBug | None:
        """``match`` for a root cause already found (a campaign's recorded one)."""
        candidates = self._by_cause.get(cause, []) if cause else []
        if target is not None and any(bug.requires for bug in candidates):
            from fuzz.corpus.requires import target_versions, unmet

            have = (versions or target_versions)(target)
            candidates = [bug for bug in candidates if not unmet(bug.requires, *have)]
        return candidates[0] if candidates else None


def _as_bug(entry: Entry, cause: str, parent: Entry | None, lines: dict[str, int]) -> KnownBug:
    """The known bug an entry stands for: its own, or (a variant, ``same_as``) its parent's, matched by the
    variant's root cause and named, with its status and repro, as the parent."""
    if parent is None:
        return KnownBug(entry.file, entry.status, cause, lines[entry.file], entry.requires)
    # a variant of a FIXED bug that names the versions it shows on (``requires``: an older torch, where the fix is
    # not) is that bug where it was never fixed: found there it is known, not a regression; elsewhere it does not
    # match at all
    status = entry.status if parent.status == "FIXED" and entry.requires else parent.status
    return KnownBug(parent.file, status, cause, lines.get(parent.file, lines[entry.file]),
                    entry.requires or parent.requires)

