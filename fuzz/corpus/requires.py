"""What a corpus entry needs to show its bug: versions of torch and Python.

Most bugs show on every torch and Python the corpus is checked with. Some show only on some: a regression of a
newer torch, a bug in bytecode only one Python version has. Such an entry carries ``requires``, clauses separated
by commas, each a name (``torch`` or ``python``) and a version specifier (PEP 440, as pip writes them)::

    torch>=2.15
    torch>=2.14,<2.16, python>=3.12

An interpreter whose versions do not meet the clauses is not expected to show the bug: ``corpus check`` leaves
the entry's status alone there (the outcome says why) and the pytest plugin skips it instead of expecting an
xfail. Campaigns still call a finding with its root cause KNOWN on any install: a bug already in the corpus is
not news where it does show.
"""

from __future__ import annotations

import re

from packaging.specifiers import InvalidSpecifier, SpecifierSet
from packaging.version import Version

from fuzz.errors import FuzzError

__all__ = ["NAMES", "RequiresError", "parse_requires", "unmet"]

NAMES = ("torch", "python")
_CLAUSE = re.compile(r"\s*(torch|python)\s*((?:[<>=!~]=?|===)\s*[\w.*+]+(?:\s*,\s*(?:[<>=!~]=?|===)\s*[\w.*+]+)*)\s*")


class RequiresError(FuzzError):
    """A ``requires`` text that is not a list of ``torch``/``python`` version clauses (one-line message)."""


def parse_requires(text: str) -> dict[str, SpecifierSet]:
    """``"torch>=2.15, python>=3.12"`` -> {"torch": SpecifierSet(">=2.15"), "python": SpecifierSet(">=3.12")}."""
    out: dict[str, SpecifierSet] = {}
    rest = text.strip()
    while rest:
        m = _CLAUSE.match(rest)
        if m is None:
            raise RequiresError(f"requires {text!r}: expected clauses like 'torch>=2.15' or 'python>=3.12' "
                                f"(names: {', '.join(NAMES)}), separated by commas")
        name, spec = m.group(1), m.group(2)
        try:
            specifier = SpecifierSet(spec.replace(" ", ""))
        except InvalidSpecifier:
            raise RequiresError(f"requires {text!r}: {spec!r} is not a version specifier") from None
        out[name] = out[name] & specifier if name in out else specifier
        rest = rest[m.end():]
        if rest and not rest.startswith(","):
            raise RequiresError(f"requires {text!r}: separate clauses with commas ('torch>=2.15, python>=3.12')")
        rest = rest[1:]
    return out


def unmet(text: str, torch_version: str, python_version: str) -> str:
    """'' when an interpreter with these versions meets ``text``, else which clause it misses (for the user)."""
    have = {"torch": torch_version.split("+")[0], "python": python_version}
    for name, specifier in parse_requires(text).items():
        if not specifier.contains(Version(have[name]), prereleases=True):
            return f"needs {name}{specifier}, this is {name} {have[name]}"
    return ""
