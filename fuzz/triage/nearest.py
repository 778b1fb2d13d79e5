"""Which corpus bugs a NEW finding looks like: a hint for the person who triages it, never a verdict.

A finding is KNOWN only when its root cause is exactly a corpus entry's (``fuzz.triage.known``). A known bug in a
form not seen before (a key function one call deeper, ``extend`` where the entry has ``pop``) reduces to a shape
of its own and is NEW until a person adds it as a variant (``ngb-fuzz corpus add FILE --same-as ENTRY``). This
module finds the entries to compare it with first: programs are profiled by what they are made of (the names
and attributes they use, their string constants, their node kinds), after the same normalization as the root
cause's shape (observations, inputs and gates left out), weighted by how rare each is among the corpus's repros
(tf-idf), and compared by cosine. Constructs shared by few entries (``deque``, ``maxlen``, ``partial``,
``__getattr__``) weigh most; what every repro has (``torch``, ``entry``, ``graph_break``) next to nothing.

Measured with benchmarks/looks_like.py (each variant left out in turn, ranked against every other entry): of the
corpus's 12 variants, 9 have their own bug first and 2 third (two deque bugs, behind the corpus's other deque
entries); the two far ones are written so (the format bug's variant needs no break, the partial bug's passes
keywords) and look like nothing. Two campaign buckets triaged by hand as the generator-return-value bug and not in
the corpus had it first (0.49, 0.29). Rarity counts bugs, not repros: counted by repros, a bug's constructs stopped
being rare once it had a few variants, and the deque forms lost their hint. A program that shares only common
parts with every entry (arithmetic, a break, a call) is like none.
"""

from __future__ import annotations

import ast
import collections
import math
from collections.abc import Callable, Mapping

__all__ = ["COMMON", "LOOKS_LIKE_MIN", "RARE", "Profiles", "profile"]

# The least similarity worth showing (cosine of the tf-idf profiles): forms of one bug scored 0.31-0.94 against
# their entry, and the entry ranked first for a far form up to 0.49, so a hint is shown from 0.3 and is only that.
LOOKS_LIKE_MIN = 0.3
# A part found in more than this share of the bugs weighs nothing; a likeness needs a part shared with at most
# ``RARE`` of them (``deque``, ``.maxlen``, ``Yield``), not only arithmetic and calls every program has.
COMMON = 0.5
RARE = 0.1


def profile(source: str) -> collections.Counter[str]:
    """What ``source`` is made of, normalized as the root cause's shape is: names, attributes (``.maxlen``), string
    constants (``'a``, first 12 characters) and node kinds (``For``), with their counts. Empty when it does not
    parse."""
    from oracle import ProgramFile

    from .rootcause import _code, _Normalize, _ungated

    pf = ProgramFile.parse(source)
    try:
        tree = _Normalize().visit(_code(_ungated(ast.parse(pf.header + pf.code))))
    except SyntaxError:
        return collections.Counter()
    made: collections.Counter[str] = collections.Counter()
    for node in ast.walk(tree):
        if isinstance(node, ast.Attribute):
            made["." + node.attr] += 1
        elif isinstance(node, ast.Name):
            made[node.id] += 1
        elif isinstance(node, ast.Constant) and isinstance(node.value, str):
            made["'" + node.value[:12]] += 1
        made[type(node).__name__] += 1
    return made


class Profiles:
    """The profiles of a set of repros (``{name: source}``); ``looks_like(source)`` ranks them by similarity.

    ``bug_of(name)``: the bug a repro is a form of (a variant's parent); how rare a part is counts bugs, not repros,
    so a bug with many variants does not make its own constructs common (default: each repro its own bug)."""

    def __init__(self, sources: Mapping[str, str], bug_of: Callable[[str], str] | None = None):
        made = {name: profile(source) for name, source in sources.items()}
        bugs: dict[str, set[str]] = collections.defaultdict(set)  # part -> the bugs whose repros have it
        for name, parts in made.items():
            for part in parts:
                bugs[part].add(bug_of(name) if bug_of else name)
        total = len({bug_of(name) for name in made} if bug_of else made)
        # what most bugs have (``torch``, ``entry``, ``Return``) is no sign of any one: left out, so a program made
        # only of such parts (a trivial one) looks like nothing rather than like whatever shares its few parts
        self._idf = {part: math.log((total + 1) / (len(b) + 1)) if len(b) <= COMMON * total else 0.0
                     for part, b in bugs.items()}
        self._rare = math.log(total + 1)  # the weight of a part no repro has
        self._rare_idf = math.log((total + 1) / (RARE * total + 1))  # a part of at most RARE of the bugs
        self._vectors = {name: self._vector(parts) for name, parts in made.items()}
        self._norms = {name: math.sqrt(sum(w * w for w in v.values())) for name, v in self._vectors.items()}

    def __len__(self) -> int:
        return len(self._vectors)

    def _vector(self, parts: collections.Counter[str]) -> dict[str, float]:
        return {part: (1 + math.log(n)) * self._idf.get(part, self._rare) for part, n in parts.items()}

    def looks_like(self, source: str, top: int = 2, least: float = LOOKS_LIKE_MIN,
                   leave_out: str | None = None) -> list[tuple[str, float]]:
        """Up to ``top`` names of the repros most like ``source``, most alike first, with their similarity (0 to
        1), those at ``least`` only; ``leave_out``: a name not to rank (the source's own entry)."""
        mine = self._vector(profile(source))
        norm = math.sqrt(sum(w * w for w in mine.values()))
        rare = [part for part, w in mine.items() if w and self._idf.get(part, self._rare) >= self._rare_idf]
        if not norm:
            return []
        ranked = []
        for name, theirs in self._vectors.items():
            other = self._norms[name]
            if name == leave_out or not other:
                continue
            if not any(part in theirs for part in rare):
                continue  # shares only what many repros have: a likeness of style, not of a bug
            # rounded as shown, and kept by what is shown
            score = round(sum(w * theirs.get(part, 0.0) for part, w in mine.items()) / (norm * other), 2)
            if score >= least:
                ranked.append((name, score))
        return sorted(ranked, key=lambda item: -item[1])[:top]
