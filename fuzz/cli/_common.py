"""Argument helpers shared by subcommands: budgets, durations, timeouts, worker counts, files, targets.

Every option is checked here, at the boundary, before any long work starts: a bad value is one line and exit 2.
"""

from __future__ import annotations

import argparse
import ast
import math
import os
import re
import sys
from pathlib import Path
from typing import TYPE_CHECKING

from . import UsageError

if TYPE_CHECKING:
    from fuzz.triage.known import KnownBugs

__all__ = ["parse_budget", "parse_duration", "parse_targets", "check_timeout", "check_workers", "read_program",
           "check_output_file", "add_workers_option", "WORKER_MB"]

_DURATION = re.compile(r"^(\d+(?:\.\d+)?)(s|m|h)$")
WORKER_MB = 500  # what one worker holds (torch imported, a program running), for the bound on --workers


def parse_duration(text: str, option: str = "duration") -> float:
    """'90s', '10m', '1.5h' -> seconds (> 0)."""
    match = _DURATION.match(text.strip())
    if not match:
        raise UsageError(f"bad {option} {text!r}; use e.g. 30s, 10m or 1h")
    seconds = float(match.group(1)) * {"s": 1, "m": 60, "h": 3600}[match.group(2)]
    if seconds <= 0:
        raise UsageError(f"{option} {text!r} must be more than 0")
    return seconds


def parse_budget(text: str) -> tuple[int | None, float | None]:
    """'500' -> (500 programs, None); '10m' -> (None, 600 seconds)."""
    text = text.strip()
    if text.isdigit():
        if int(text) < 1:
            raise UsageError("budget must be at least 1 program")
        return int(text), None
    if not _DURATION.match(text):
        raise UsageError(f"bad budget {text!r}; use a program count (500) or a duration (30s, 10m, 1h)")
    return None, parse_duration(text, "budget")


def check_timeout(seconds: float, option: str = "--timeout") -> float:
    if not (math.isfinite(seconds) and seconds > 0):
        raise UsageError(f"{option} {seconds} must be a finite number of seconds > 0")
    return seconds


def add_workers_option(parser: argparse.ArgumentParser, default: int | None, help: str) -> None:
    parser.add_argument("--workers", type=int, default=default, help=help)
    parser.add_argument("--oversubscribe", action="store_true",
                        help="allow more --workers than the cores and memory here hold")


def machine_workers() -> tuple[int, int, int | None]:
    """(bound, cores, available MB or None): workers this machine runs side by side."""
    try:
        cores = len(os.sched_getaffinity(0))
    except (AttributeError, OSError):
        cores = os.cpu_count() or 1
    available = None
    try:
        with open("/proc/meminfo") as f:
            for line in f:
                if line.startswith("MemAvailable:"):
                    available = int(line.split()[1]) // 1024
    except (OSError, ValueError):
        pass
    bound = cores if available is None else min(cores, available // WORKER_MB)
    return max(1, bound), cores, available


def default_workers() -> int:
    """Worker processes when ``--workers`` is not given: half the cores (the rest for the machine's other work),
    at least one and no more than its memory holds."""
    bound, cores, _ = machine_workers()
    return max(1, min(bound, cores // 2))


def check_workers(workers: int, oversubscribe: bool = False) -> int:
    if workers < 1:
        raise UsageError("--workers must be at least 1")
    bound, cores, available = machine_workers()
    if workers > bound and not oversubscribe:
        memory = f" and {available} MB of available memory (about {WORKER_MB} MB a worker)" if available else ""
        raise UsageError(f"--workers {workers} is more than this machine runs side by side: {cores} cores{memory}; "
                         f"use at most {bound}, or pass --oversubscribe")
    return workers


def read_program(path: str | Path) -> str:
    """The text of a program file; UsageError for a missing, unreadable, binary or non-UTF-8 file."""
    path = Path(path)
    if path.is_dir():
        raise UsageError(f"{path} is a directory; give a program file")
    if not path.is_file():
        raise UsageError(f"no such file: {path}")
    from oracle import read_program_text

    try:
        text = read_program_text(path)  # a BOM and CRLF line ends are read as the author meant them
    except OSError as exc:
        raise UsageError(f"cannot read {path}: {exc.strerror}") from None
    except UnicodeDecodeError:
        raise UsageError(f"{path} is not a program file: not UTF-8 text") from None
    if "\0" in text:
        raise UsageError(f"{path} is not a program file: it holds NUL bytes (a binary file?)")
    return text


def _written_for_newer(source: str) -> bool:
    """The program's ``for-python`` header names a newer Python than this one."""
    from oracle import header_fields

    written_for = header_fields(source).get("for-python", "")
    try:
        return tuple(int(v) for v in written_for.split(".")) > sys.version_info[:2]
    except ValueError:
        return False


def program_problem(source: str) -> str | None:
    """Why ``source`` cannot load as a program (syntax error, no top-level ``entry``), or None."""
    try:
        tree = ast.parse(source)
    except SyntaxError as exc:
        if _written_for_newer(source):  # the targets' interpreters parse it (the generator's python knob)
            return None
        return f"syntax error at line {exc.lineno}: {exc.msg}"
    from oracle import top_level_names

    if "entry" not in top_level_names(tree):
        return "it defines no entry at top level (see docs/program-format.md)"
    return None


def check_output_file(out: str) -> Path:
    """An output path that can be written: its directory exists and is writable, and it is no directory."""
    path = Path(out)
    if out.strip() == "":
        raise UsageError("--out is empty")
    if path.is_dir():
        raise UsageError(f"--out {out} is a directory; name a file")
    parent = path.parent if str(path.parent) else Path(".")
    if not parent.is_dir():
        raise UsageError(f"--out {out}: no such directory {parent}")
    if not os.access(parent, os.W_OK) or (path.exists() and not os.access(path, os.W_OK)):
        raise UsageError(f"--out {out}: not writable")
    return path


def parse_targets(specs: list[str] | None, default: str = "torch", check: bool = True) -> list[str]:
    """Canonical specs, validated (and, with ``check``, available here); UsageError on a bad one."""
    import oracle

    specs = specs or [default]
    try:
        if check:
            return oracle.resolve_targets(specs)
        return list(dict.fromkeys(oracle.parse_target(spec).spec for spec in specs))
    except oracle.TargetError as exc:
        raise UsageError(str(exc)) from None


def known_bugs(corpus: str) -> KnownBugs | None:
    """The known bugs of ``--corpus`` (None for 'none', or the default directory where there is none)."""
    from fuzz.corpus.manifest import CorpusError
    from fuzz.triage.known import KnownBugs

    if corpus.strip().lower() == "none" or (corpus == "corpus" and not Path(corpus).is_dir()):
        return None
    if not Path(corpus).is_dir():
        raise UsageError(f"--corpus {corpus}: no such directory")
    try:
        return KnownBugs.from_corpus(corpus)
    except CorpusError as exc:
        raise UsageError(str(exc)) from None
