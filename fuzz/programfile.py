"""Reading and writing the header of a program file (docs/program-format.md).

The header is the leading block of ``# key: value`` comment lines after ``# ngb-fuzz program``; it says what a
repro is (signature, target, how it was found, its feature tags) without being part of the program.
"""

from __future__ import annotations

import re

__all__ = ["HEADER_FIRST_LINE", "header_fields", "set_header", "slug"]

HEADER_FIRST_LINE = "# ngb-fuzz program"
_FIELD = re.compile(r"^# ([a-z][a-z-]*): ?(.*)$")


def _split(source: str) -> tuple[list[str], list[str]]:
    """(header lines, body lines); header lines are the leading comment block."""
    lines = source.splitlines()
    end = 0
    while end < len(lines) and lines[end].startswith("#"):
        end += 1
    return lines[:end], lines[end:]


def header_fields(source: str) -> dict[str, str]:
    head, _ = _split(source)
    return {m.group(1): m.group(2).strip() for line in head if (m := _FIELD.match(line))}


def set_header(source: str, **fields: str) -> str:
    """Return ``source`` with header fields set (``found_by`` writes ``found-by``); other lines kept."""
    head, body = _split(source)
    wanted = {k.replace("_", "-"): str(v) for k, v in fields.items() if v is not None}
    kept = [line for line in head
            if line != HEADER_FIRST_LINE and not ((m := _FIELD.match(line)) and m.group(1) in wanted)]
    order = ("signature", "target", "found-by", "features")
    new = [f"# {k}: {wanted[k]}" for k in sorted(wanted, key=lambda k: (order.index(k) if k in order else 9, k))]
    return "\n".join([HEADER_FIRST_LINE, *new, *kept, *body]) + "\n"


def slug(text: str, limit: int = 60) -> str:
    """A file-name-safe rendering of a signature or target spec."""
    return re.sub(r"[^A-Za-z0-9._-]+", "_", text).strip("_")[:limit] or "x"
