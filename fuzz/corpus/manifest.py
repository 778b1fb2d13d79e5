"""The corpus: reduced repro files plus ``manifest.json``, re-checkable against any target.

Each manifest entry names one file and says what it is: the ``signature`` it is expected to show on its
``target`` ("ok" for a regression case: a program that must keep passing), the torch version and date it was
first seen, and a ``status``:

- ``NEW``: a finding just added, not re-checked yet (an open bug);
- ``KNOWN``: re-checked and still shows its signature (an open bug);
- ``FIXED``: shows ``ok`` now (a fixed bug, or a regression case that passes);
- ``REGRESSION``: was FIXED (or is a regression case) and fails again.

``Corpus.check`` re-runs files and moves statuses along those lines; a file that now fails differently keeps
its status and records the new signature in ``last_signature`` (reported as "changed"). Checking on a target
of another kind (a torch bug on the engine) reports the verdict but moves no status: the status belongs to the
compiler the bug was found in, under any version or options (``torch:python=/newer/venv/bin/python`` does
move it). The pytest plugin
marks open bugs ``xfail(strict=True)``, so a fix turns CI red until the manifest says FIXED.

A corpus cannot shrink silently: ``Corpus.problems()`` names every manifest entry without its file and every
program file without an entry, and a file that does not load is a broken check (``BROKEN_SIGNATURES``); the
CLI and the pytest plugin treat each as an error, and a check with one rewrites nothing. A manifest that lists a
file twice or gives a status outside ``STATUSES`` is refused when read (``ManifestError``; the CLI exits 1).
"""

from __future__ import annotations

import ast
import dataclasses
import datetime
import hashlib
import json
import re
from collections.abc import Callable, Iterable
from pathlib import Path

from fuzz.errors import FuzzError
from oracle import ProgramFile, read_program_text, with_footer

from .requires import RequiresError, parse_requires, target_versions, unmet

__all__ = ["Corpus", "CorpusError", "ManifestError", "Entry", "CheckOutcome", "STATUSES", "BROKEN_SIGNATURES",
           "REQUIRES_UNMET", "next_status", "shape_key"]

MANIFEST = "manifest.json"
STATUSES = ("NEW", "KNOWN", "REGRESSION", "FIXED")
OPEN = ("NEW", "KNOWN")
# What a corpus file shows when nothing could be compared: it does not load, eager fails or disagrees with itself,
# it compiles too slowly here either way, or its file is gone. Never a status change; always an error.
BROKEN_SIGNATURES = ("missing", "skip:invalid-program", "skip:eager-failed", "skip:too-slow", "flaky")
# What a check shows for an entry whose ``requires`` the target's torch or Python does not meet: not run, no move.
REQUIRES_UNMET = "skip:requires"


class CorpusError(FuzzError):
    """A corpus directory or manifest that cannot be used (one-line message)."""


class ManifestError(CorpusError):
    """A manifest that reads but contradicts itself (a file listed twice, an unknown status): a corpus problem,
    like an entry without its file, which the CLI reports with exit 1 and nothing written."""


@dataclasses.dataclass(slots=True)
class Entry:
    file: str  # path relative to the corpus directory
    signature: str  # expected on ``target``; "ok" for a regression case
    target: str  # canonical target spec
    torch: str  # torch version when first seen
    first_seen: str  # ISO date
    status: str  # one of STATUSES
    note: str = ""
    last_checked: str = ""
    last_target: str = ""
    last_signature: str = ""
    last_torch: str = ""
    matrix: dict = dataclasses.field(default_factory=dict)  # the blame ladder (``ngb-fuzz corpus matrix``)
    requires: str = ""  # versions it shows on ("torch>=2.15", fuzz.corpus.requires); "" for every version
    # another entry's file when this repro is a variant of that entry's bug (triaged by a person): a finding
    # with this repro's root cause is KNOWN as that entry (fuzz.triage.known); "" for an entry of its own
    same_as: str = ""

    @property
    def is_open(self) -> bool:
        """An open bug: the file is expected to fail (pytest: xfail, strict on its own target)."""
        return self.status in OPEN and self.signature != "ok"


@dataclasses.dataclass(frozen=True, slots=True)
class CheckOutcome:
    file: str
    target: str
    signature: str  # observed ("flaky" when eager disagreed with itself)
    old_status: str
    new_status: str
    changed: bool  # fails, but with another signature than expected
    detail: str = ""


def next_status(entry: Entry, observed: str) -> tuple[str, bool]:
    """(new status, changed?) after observing ``observed`` for ``entry``."""
    if observed == "flaky":
        return entry.status, False
    if entry.signature == "ok":  # a regression case
        return ("FIXED", False) if observed == "ok" else ("REGRESSION", observed != "ok")
    if observed == "ok":
        return "FIXED", False
    if observed == entry.signature:
        return ("REGRESSION" if entry.status in ("FIXED", "REGRESSION") else "KNOWN"), False
    return entry.status, True


def shape_key(source: str) -> str:
    """Hash of a program's normalized shape: identifiers and constants abstracted, footer and comments dropped.

    Two reduced repros with the same shape key and signature are one bug (the design's second bucketing).
    """
    tree = ast.parse(ProgramFile.parse(source).code)
    for node in ast.walk(tree):
        if isinstance(node, ast.Name):
            node.id = "N" if node.id not in ("torch", "EFFECTS", "entry", "make_inputs") else node.id
        elif isinstance(node, ast.arg):
            node.arg = "A"
        elif isinstance(node, ast.FunctionDef | ast.ClassDef) and node.name not in ("entry", "make_inputs"):
            node.name = "F"
        elif isinstance(node, ast.Constant) and not isinstance(node.value, bool | type(None)):
            node.value = type(node.value).__name__
    return hashlib.sha1(ast.dump(tree).encode()).hexdigest()[:16]


def _kind(spec: str) -> str:
    return spec.partition(":")[0]


def _today() -> str:
    return datetime.date.today().isoformat()


def _torch_version() -> str:
    import torch

    return torch.__version__.split("+")[0]


def _slug(text: str) -> str:
    return re.sub(r"[^A-Za-z0-9]+", "-", text).strip("-")[:48] or "x"


class Corpus:
    """A corpus directory and its manifest (created on first save)."""

    def __init__(self, root: str | Path, *, must_exist: bool = False):
        self.root = Path(root)
        if self.root.exists() and not self.root.is_dir():
            raise CorpusError(f"{self.root} is not a directory")
        if must_exist and not self.root.is_dir():
            raise CorpusError(f"no corpus at {self.root}: no such directory")
        self.entries: dict[str, Entry] = {}
        path = self.root / MANIFEST
        if path.exists():
            try:
                data = json.loads(path.read_text())
                entries = [Entry(**item) for item in data.get("files", [])]
            except (ValueError, TypeError, AttributeError) as exc:
                raise CorpusError(f"{path}: unreadable manifest ({exc})") from None
            for entry in entries:
                if entry.file in self.entries:  # merging them would drop one's note, status or matrix
                    raise ManifestError(f"{path}: {entry.file} is listed twice; keep one entry for it")
                if entry.status not in STATUSES:
                    raise ManifestError(f"{path}: {entry.file} has unknown status {entry.status!r}; one of "
                                        f"{', '.join(STATUSES)}")
                try:
                    parse_requires(entry.requires)
                except RequiresError as exc:
                    raise ManifestError(f"{path}: {entry.file}: {exc}") from None
                self.entries[entry.file] = entry
            for entry in self.entries.values():
                problem = self._variant_problem(entry.file, entry.same_as)
                if problem:
                    raise ManifestError(f"{path}: {entry.file}: {problem}")

    def _variant_problem(self, file: str, same_as: str) -> str | None:
        """What is wrong with ``file`` being a variant of ``same_as`` (None: nothing, or no variant)."""
        if not same_as:
            return None
        parent = self.entries.get(same_as)
        if parent is None or same_as == file:
            return f"same_as names {same_as!r}, which is no other entry of this corpus"
        if parent.same_as:
            return f"same_as names {same_as}, itself a variant of {parent.same_as}: name that entry instead"
        return None

    def save(self) -> None:
        self.root.mkdir(parents=True, exist_ok=True)
        files = [{k: v for k, v in dataclasses.asdict(e).items() if v or k not in ("matrix", "requires", "same_as")}  # additive
                 for e in sorted(self.entries.values(), key=lambda e: e.file)]
        text = json.dumps({"version": 1, "files": files}, indent=2) + "\n"
        (self.root / MANIFEST).write_text(text)

    def files(self) -> list[Path]:
        """Every program file in the corpus directory (manifest entries or not), sorted."""
        if not self.root.is_dir():
            return []
        return sorted(p for p in self.root.rglob("*.py") if not p.name.startswith(("_", "conftest", "test_")))

    def problems(self) -> list[tuple[str, str]]:
        """(file, what is wrong) for manifest entries whose file is gone and program files the manifest lacks."""
        found = {p.relative_to(self.root).as_posix() for p in self.files()}
        gone = [(e.file, "listed in the manifest, but the file is missing") for e in self.select()
                if e.file not in found]
        strays = [(f, "not in the manifest (add it with `ngb-fuzz corpus add` or delete it)")
                  for f in sorted(found - set(self.entries))]
        return gone + strays

    def entry_for(self, path: Path) -> Entry | None:
        return self.entries.get(path.relative_to(self.root).as_posix())

    def select(self, target: str | None = None) -> list[Entry]:
        return [e for e in sorted(self.entries.values(), key=lambda e: e.file) if target in (None, e.target)]

    def add(self, source: str, target: str, signature: str, *, status: str = "NEW", name: str | None = None,
            note: str = "", torch_version: str | None = None, requires: str = "",
            same_as: str = "") -> tuple[Entry, bool]:
        """Add a repro (file + entry); (entry, False) instead when one with the same target, signature and
        normalized shape is already there. ``same_as``: the entry whose bug this repro is a variant of."""
        if status not in STATUSES:
            raise CorpusError(f"unknown status {status!r}; one of {', '.join(STATUSES)}")
        problem = self._variant_problem(name or "", same_as)
        if problem:
            raise CorpusError(problem)
        parse_requires(requires)
        key = shape_key(source)
        for entry in self.entries.values():
            path = self.root / entry.file
            if entry.target == target and entry.signature == signature and path.exists():
                if shape_key(read_program_text(path)) == key:
                    return entry, False
        name = name or f"{_slug(signature)}-{key[:8]}.py"
        self.root.mkdir(parents=True, exist_ok=True)
        (self.root / name).write_text(with_footer(source))
        entry = Entry(name, signature, target, torch_version or _torch_version(), _today(), status, note,
                      requires=requires, same_as=same_as)
        self.entries[name] = entry
        return entry, True

    def refresh_footers(self) -> list[Path]:
        """Give every program file the current standalone footer (it is generated code); returns those changed."""
        changed = []
        for path in self.files():
            source = read_program_text(path)
            fresh = with_footer(source)
            if fresh != source:
                path.write_text(fresh)
                changed.append(path)
        return changed

    def check(self, check: Callable[[str, str], tuple[str, str]], *, target: str | None = None,
              entries: Iterable[Entry] | None = None, update: bool = True,
              versions: Callable[[str], tuple[str, str]] | None = None) -> list[CheckOutcome]:
        """Re-run entries and move their statuses. ``check(source, target) -> (signature, detail)`` runs one
        file (``"flaky"`` when eager disagrees with itself); ``target`` overrides each entry's own target.
        ``versions(spec) -> (torch, python)`` of the interpreter a target runs in (default: asked of it); an
        entry whose ``requires`` that interpreter does not meet is not run (``REQUIRES_UNMET``)."""
        outcomes = []
        versions = versions or target_versions
        for entry in entries if entries is not None else self.select():
            path = self.root / entry.file
            spec = target or entry.target
            if target and _kind(entry.target) == "fault" != _kind(target):
                continue  # oracle self-tests only mean something on their own fault target
            if not path.exists():
                outcomes.append(CheckOutcome(entry.file, spec, "missing", entry.status, entry.status, False))
                continue
            torch_version, python_version = versions(spec)
            why = unmet(entry.requires, torch_version, python_version)
            if why:  # the bug is not expected there: nothing to learn about its status
                outcomes.append(CheckOutcome(entry.file, spec, REQUIRES_UNMET, entry.status, entry.status, False,
                                             why))
                continue
            observed, detail = check(read_program_text(path), spec)
            if observed in BROKEN_SIGNATURES:  # nothing was compared: no status moves on it
                outcomes.append(CheckOutcome(entry.file, spec, observed, entry.status, entry.status, False, detail))
                continue
            status, changed = next_status(entry, observed)
            if _kind(spec) != _kind(entry.target):
                # Another compiler (a torch bug checked on the engine): report, but the bug's status stays.
                status, changed = entry.status, False
            outcomes.append(CheckOutcome(entry.file, spec, observed, entry.status, status, changed, detail))
            if update and _kind(spec) == _kind(entry.target):
                entry.status = status
                entry.last_checked, entry.last_target = _today(), spec
                entry.last_signature, entry.last_torch = observed, torch_version
        return outcomes

    def stats(self) -> dict[str, dict[str, int]]:
        out: dict[str, dict[str, int]] = {"status": {}, "target": {}, "signature": {}}
        for e in self.entries.values():
            for key, value in (("status", e.status), ("target", e.target), ("signature", e.signature)):
                out[key][value] = out[key].get(value, 0) + 1
        return out


def oracle_check(runner) -> Callable[[str, str], tuple[str, str]]:
    """A ``Corpus.check`` callback running files through an ``oracle.Runner``."""

    def check(source: str, target: str) -> tuple[str, str]:
        report = runner.check(source, [target])
        verdict = report.verdicts[target]
        if report.flaky:
            return "flaky", verdict.detail or "eager runs disagree"
        return verdict.signature, verdict.detail

    return check
