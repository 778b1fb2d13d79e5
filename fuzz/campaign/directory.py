"""A campaign's directory on disk: its lock, its state (a snapshot plus an append-only journal), its files.

- ``lock`` holds the PID of the one ``ngb-fuzz run`` working in the directory, under ``fcntl.flock``: a second
  run is refused, naming that PID; the lock of a process that died is free again (the kernel drops it), and
  the next run takes it over and says so.
- ``journal.jsonl`` gets one line per completed program and per bucket event, appended and flushed as it
  happens: the cost of recording a program does not grow with the campaign.
- ``state.json`` is a compact snapshot (counters, buckets, completed programs as index ranges), replaced
  atomically now and then and at the end; each journal line carries a sequence number, and the snapshot the
  last one it holds, so a journal line is applied exactly once whatever moment a run was killed at.
- Repro files are written atomically and never overwritten: a number already in use by any file here gets the
  next free number (never two files with one number). ``fuzz.campaign.files`` checks them against the state.

Anything unreadable is one line saying what to do; a write that fails (disk full, read-only) is a
``StorageError`` naming the file: what is on disk stays a consistent state to resume from.
"""

from __future__ import annotations

import errno
import json
import os
import re
from collections.abc import Callable, Iterable, Iterator
from pathlib import Path
from typing import Any, TextIO

from fuzz.errors import FuzzError

try:
    import fcntl
except ImportError:  # pragma: no cover - not on POSIX: one campaign per directory is then up to the user
    fcntl = None  # type: ignore[assignment]  # (the module where it exists, None where it does not)

__all__ = ["CampaignDir", "CampaignError", "StorageError", "IndexSet", "STATE_VERSION"]

STATE_VERSION = 2
SNAPSHOT, JOURNAL, LOCK = "state.json", "journal.jsonl", "lock"
_FRESH_START = (
    "move state.json and journal.jsonl away to start afresh there (repro files are kept and never "
    "overwritten: a bucket found again takes its old file back), or use another --out"
)


class CampaignError(FuzzError):
    """A campaign that cannot start or go on (one-line message)."""


class StorageError(CampaignError):
    """Writing the campaign's state or files failed (disk full, read-only, ...); the state on disk is
    intact."""


def _os_reason(exc: OSError) -> str:
    return exc.strerror or errno.errorcode.get(exc.errno or 0, str(exc))


class IndexSet:
    """Program indices done: all of ``[0, floor)`` plus a set above it, so it stays small in a long campaign
    (indices complete nearly in order; only those finishing ahead of a slower one sit in the set)."""

    def __init__(self, indices: Iterable[int] = ()) -> None:
        self.floor = 0
        self.above: set[int] = set()
        for index in indices:
            self.add(index)

    def add(self, index: int) -> None:
        if index >= self.floor:
            self.above.add(index)
            while self.floor in self.above:
                self.above.remove(self.floor)
                self.floor += 1

    def __contains__(self, index: int) -> bool:
        return index < self.floor or index in self.above

    def __len__(self) -> int:
        return self.floor + len(self.above)

    def __iter__(self) -> Iterator[int]:
        yield from range(self.floor)
        yield from sorted(self.above)

    def to_json(self) -> dict[str, Any]:
        return {"below": self.floor, "also": sorted(self.above)}

    @classmethod
    def from_json(cls, data: dict[str, Any] | list[int]) -> IndexSet:
        if isinstance(data, list):  # state version 1: every completed index
            return cls(int(i) for i in data)
        done = cls(int(i) for i in data["also"])
        done.floor = max(done.floor, int(data["below"]))
        done.above = {i for i in done.above if i >= done.floor}
        return done


class CampaignDir:
    """The directory of one campaign, locked for this process until ``close()``."""

    def __init__(self, out: Path | str, *, on_notice: Callable[[str], None] | None = None) -> None:
        self._lock_fd: int | None = None
        self._journal: TextIO | None = None
        # names write_text() wrote by this process (what output may name as written)
        self.written: set[str] = set()
        self.seq = 0
        if str(out).strip() == "":
            raise CampaignError("--out is empty; name a campaign directory")
        self.root = Path(out)
        self._notice = on_notice or (lambda message: None)
        if self.root.exists() and not self.root.is_dir():
            raise CampaignError(f"{self.root} is not a directory; --out needs a directory")
        try:
            self.root.mkdir(parents=True, exist_ok=True)
        except OSError as exc:
            raise CampaignError(f"cannot create {self.root}: {_os_reason(exc)}") from None
        self._acquire_lock()

    def notice(self, message: str) -> None:
        """Tell the user something about the directory (a lock taken over, a file restored)."""
        self._notice(message)

    # -- the lock --------------------------------------------------------------------------------------------
    def _acquire_lock(self) -> None:
        path = self.root / LOCK
        try:
            fd = os.open(path, os.O_RDWR | os.O_CREAT, 0o644)
        except OSError as exc:
            raise CampaignError(f"cannot write in {self.root}: {_os_reason(exc)}") from None
        holder = os.pread(fd, 64, 0).decode("ascii", "replace").strip()
        if fcntl is not None:
            try:
                fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
            except BlockingIOError:
                os.close(fd)
                raise CampaignError(
                    f"{self.root} is in use by another ngb-fuzz run (PID {holder or '?'}); wait for "
                    "it to end or use another --out"
                ) from None
        if holder.isdigit() and int(holder) != os.getpid():
            self._notice(f"taking over the lock of {self.root} from PID {holder}, which is no longer running")
        try:
            os.ftruncate(fd, 0)
            os.pwrite(fd, f"{os.getpid()}\n".encode(), 0)
        except OSError as exc:
            os.close(fd)
            raise CampaignError(f"cannot write in {self.root}: {_os_reason(exc)}") from None
        self._lock_fd = fd

    def __del__(self) -> None:
        self.close()  # an abandoned campaign (an exception before run()) must not keep its directory locked

    def close(self) -> None:
        """Release the lock (the lock file stays: a later run reads whose it was)."""
        if self._journal is not None:
            try:
                self._journal.close()
            except OSError:
                pass
            self._journal = None
        if self._lock_fd is not None:
            try:
                os.ftruncate(self._lock_fd, 0)
            except OSError:
                pass
            os.close(self._lock_fd)  # closing drops the flock
            self._lock_fd = None

    # -- reading the state -----------------------------------------------------------------------------------
    def load(self, identity: dict[str, Any]) -> tuple[dict[str, Any] | None, list[dict[str, Any]]]:
        """(snapshot or None for a fresh campaign, journal records to apply after it, in order)."""
        snapshot_path, journal_path = self.root / SNAPSHOT, self.root / JOURNAL
        for stale in self.root.glob("*.tmp"):
            stale.unlink(missing_ok=True)  # a write interrupted before its rename: never part of the state
        if not snapshot_path.exists():
            if journal_path.exists() and journal_path.stat().st_size:
                raise CampaignError(f"{journal_path} has no {SNAPSHOT} beside it; {_FRESH_START}")
            return None, []
        snapshot = self._read_snapshot(snapshot_path)
        if snapshot["identity"] != identity:
            raise CampaignError(
                f"{self.root} holds another campaign ({snapshot['identity']}); use a new --out directory"
            )
        self.seq = int(snapshot.get("seq", 0))
        records = [r for r in self._read_journal(journal_path) if r["n"] > self.seq]
        if records:
            self.seq = records[-1]["n"]
        return snapshot, records

    def _read_snapshot(self, path: Path) -> dict[str, Any]:
        try:
            data = json.loads(path.read_bytes().decode("utf-8"))
        except (ValueError, UnicodeDecodeError) as exc:
            raise CampaignError(
                f"{path} is unreadable ({type(exc).__name__}: {str(exc)[:80]}); {_FRESH_START}"
            ) from None
        except OSError as exc:
            raise CampaignError(f"cannot read {path}: {_os_reason(exc)}") from None
        if not isinstance(data, dict):
            raise CampaignError(
                f"{path} is not a campaign state (a JSON {type(data).__name__}); {_FRESH_START}"
            )
        if data.get("version") not in (1, STATE_VERSION):
            raise CampaignError(f"{path} has state version {data.get('version')!r}, this ngb-fuzz reads "
                                f"{STATE_VERSION}; {_FRESH_START}")
        missing = [
            k
            for k in ("identity", "completed", "verdicts", "features", "seconds", "buckets")
            if k not in data
        ]
        if missing:
            raise CampaignError(
                f"{path} is not a complete campaign state (no {', '.join(missing)}); {_FRESH_START}"
            )
        return data

    def _read_journal(self, path: Path) -> list[dict[str, Any]]:
        if not path.exists():
            return []
        data = path.read_bytes()
        lines = data.split(b"\n")
        records: list[dict[str, Any]] = []
        good_end = 0
        for number, line in enumerate(lines):
            last = number == len(lines) - 1
            if not line.strip():
                good_end += len(line) + (0 if last else 1)
                continue
            try:
                record = json.loads(line.decode("utf-8"))
                if not isinstance(record, dict) or not isinstance(record.get("n"), int):
                    raise ValueError("not a journal record")
            except (ValueError, UnicodeDecodeError):
                if last or all(not rest.strip() for rest in lines[number + 1:]):
                    break  # the line being written when the run was killed (or the disk filled): dropped
                raise CampaignError(f"{path} is corrupt at line {number + 1}; {_FRESH_START}") from None
            if last:
                break  # complete JSON but no newline: written only in part? it is dropped like a torn line
            records.append(record)
            good_end += len(line) + 1
        if good_end < len(data):
            try:
                with open(path, "r+b") as f:
                    f.truncate(good_end)
            except OSError as exc:
                raise StorageError(f"cannot repair {path}: {_os_reason(exc)}") from None
        return records

    # -- writing ---------------------------------------------------------------------------------------------
    def append(self, record: dict[str, Any]) -> dict[str, Any]:
        """Journal one record (a sequence number is added); StorageError if it cannot be written."""
        self.seq += 1
        record = {"n": self.seq, **record}
        line = json.dumps(record, separators=(",", ":"), sort_keys=True, default=str) + "\n"
        path = self.root / JOURNAL
        try:
            if self._journal is None:
                self._journal = open(path, "a", encoding="utf-8")  # noqa: SIM115 - kept open for the campaign
            self._journal.write(line)
            self._journal.flush()
        except OSError as exc:
            self.seq -= 1
            self._drop_journal_handle()
            raise StorageError(
                f"cannot write {path}: {_os_reason(exc)}; the state on disk is intact: free space "
                "or fix permissions, then run the same command again to resume"
            ) from None
        return record

    def _drop_journal_handle(self) -> None:
        journal, self._journal = self._journal, None
        if journal is not None:
            try:
                # may fail again (the buffered part of the line): that part is never read back
                journal.close()
            except OSError:
                pass

    def write_snapshot(self, snapshot: dict[str, Any]) -> None:
        """Replace ``state.json`` atomically; the journal lines it covers are then dropped."""
        self.write_json(SNAPSHOT, {"version": STATE_VERSION, "seq": self.seq, **snapshot})
        try:
            if self._journal is not None:
                self._journal.truncate(0)
            elif (self.root / JOURNAL).exists():
                os.truncate(self.root / JOURNAL, 0)
        except OSError:
            pass  # the snapshot's sequence number already says these lines are applied

    def write_json(self, name: str, data: dict[str, Any]) -> None:
        self.write_text(name, json.dumps(data, indent=1, sort_keys=True, default=str))

    def write_text(self, name: str, text: str) -> None:
        """Write a file of the campaign atomically (a temp file renamed over it)."""
        path = self.root / name
        tmp = path.with_name(path.name + ".tmp")
        try:
            with open(tmp, "w", encoding="utf-8") as f:
                f.write(text)
            os.replace(tmp, path)
            self.written.add(name)
        except OSError as exc:
            try:
                tmp.unlink(missing_ok=True)
            except OSError:
                pass
            raise StorageError(
                f"cannot write {path}: {_os_reason(exc)}; the state on disk is intact: free space "
                "or fix permissions, then run the same command again to resume"
            ) from None

    def free_name(self, name: str, taken: Iterable[str] = ()) -> str:
        """``name`` (``NNN-rest.py``) or, when its number is in use (by a name in ``taken`` or any file here,
        whatever its rest), the next free number: never two files with one number."""
        match = re.match(r"^(\d+)-(.*)$", name)
        number, rest = (int(match.group(1)), match.group(2)) if match else (1, name)
        used = {int(n.split("-", 1)[0]) for n in [*taken, *(p.name for p in self.root.glob("[0-9]*-*"))]
                if n.split("-", 1)[0].isdigit()}
        while number in used:
            number += 1
        return f"{number:03d}-{rest}"
