"""The construct registry: every construct family of the generator, one module each.

Adding a construct is one :class:`Construct` in its family's module (and that module's tests); adding a family is
one module here listed in ``_MODULES``. The strategies, renderer, feature catalog, feature extraction, reducer and
root-cause grouping read everything about constructs from this registry (see :mod:`fuzz.program.families._registry`).
"""

from __future__ import annotations

import importlib
from functools import cache
from types import MappingProxyType

from fuzz.program.families._registry import (
    SLOTS,
    Construct,
    Family,
    Kit,
    Piece,
    RenderKit,
    WiringError,
    check_construct,
    check_family,
    check_piece,
    defined_names,
)

__all__ = [
    "SLOTS",
    "Construct",
    "Family",
    "Kit",
    "Piece",
    "RenderKit",
    "WiringError",
    "FAMILIES",
    "CONSTRUCTS",
    "check_construct",
    "check_family",
    "check_piece",
    "check_pieces",
    "parts",
    "piece",
    "pieces",
    "read",
    "reader",
    "tag",
    "construct",
    "defined_names",
    "hosting",
    "plain",
    "keep_names",
]

# The family modules, in catalog order. Where a slot is drawn, its pieces are options in this order (then each
# family's declaration order), and draws shrink toward the first: keep the simplest first.
_MODULES = ("stack", "ctx", "call", "depth", "closure", "breaks", "module", "flow", "grad", "inputs", "raises",
            "filler", "side", "classes", "nn", "iteration", "stdlib", "strings", "data", "control", "torchapi")


def _load() -> tuple[Family, ...]:
    out = []
    for name in _MODULES:
        family = importlib.import_module(f"fuzz.program.families.{name}").FAMILY
        check_family(family)
        out.append(family)
    check_pieces(out)
    return tuple(out)


def check_pieces(fams) -> None:
    """Raise :class:`WiringError` where two pieces fill the same kind of one slot."""
    seen: dict[tuple[str, str], str] = {}
    for f in fams:
        for c in f.constructs:
            for p in c.pieces:
                other = seen.setdefault((p.slot, p.kind), c.name)
                if other != c.name or sum(q.slot == p.slot and q.kind == p.kind for q in c.pieces) > 1:
                    raise WiringError(f"{c.name!r}: kind {p.kind!r} of slot {p.slot!r} is declared by {other!r} too")


FAMILIES: tuple[Family, ...] = _load()
CONSTRUCTS: MappingProxyType[str, Construct] = MappingProxyType(
    {c.name: c for f in FAMILIES for c in f.constructs}
)


def construct(name: str) -> Construct:
    try:
        return CONSTRUCTS[name]
    except KeyError:
        raise KeyError(f"unknown construct {name!r}; `ngb-fuzz features` lists them") from None


@cache
def pieces(slot: str) -> tuple[tuple[Construct, Piece], ...]:
    """Every ``(construct, piece)`` filling ``slot``, in registry order (the order the strategies draw them in)."""
    if slot not in SLOTS:
        raise KeyError(f"unknown slot {slot!r}")
    return tuple((c, p) for c in CONSTRUCTS.values() if c.available() for p in c.pieces if p.slot == slot)


@cache
def _by_kind() -> dict[tuple[str, str], tuple[Construct, Piece]]:
    return {(p.slot, p.kind): (c, p) for c in CONSTRUCTS.values() for p in c.pieces}


def piece(slot: str, kind: str) -> Piece:
    """The piece of kind ``kind`` of ``slot`` (``piece("break", "print")``)."""
    try:
        return _by_kind()[slot, kind][1]
    except KeyError:
        raise KeyError(f"no construct declares kind {kind!r} of slot {slot!r}") from None


def tag(slot: str, kind: str) -> str:
    """The feature tag of the construct whose piece is kind ``kind`` of ``slot``."""
    try:
        return _by_kind()[slot, kind][0].name
    except KeyError:
        raise KeyError(f"no construct declares kind {kind!r} of slot {slot!r}") from None


@cache
def _readers() -> tuple[tuple[Construct, Piece], ...]:
    return tuple((c, p) for c in CONSTRUCTS.values() for p in c.pieces if p.reads is not None)


def read(stmt) -> str | None:
    """The tag of the construct whose piece ``stmt`` (an IR statement of a record of its own: a loop, a ``try``,
    a closure ...) is, by the pieces' ``reads``; None where no piece reads it."""
    return next((c.name for c, p in _readers() if p.reads(stmt)), None)


def reader(stmt) -> Piece:
    """The piece that reads ``stmt`` (and renders it)."""
    for _, p in _readers():
        if p.reads(stmt):
            return p
    raise KeyError(f"no construct of the registry reads {stmt!r}")


@cache
def parts(slot: str, name: str) -> tuple[tuple[Piece, str], ...]:
    """``(piece, value)`` for every piece of ``slot`` with part ``name`` (the calls that break, the states torch
    managers set)."""
    return tuple((p, p.part(name)) for _, p in pieces(slot) if p.part(name))


@cache
def hosting(python: tuple[int, int] | None = None) -> tuple[Construct, ...]:
    """Constructs with a hole, available to programs for Python ``python`` (None: this interpreter)."""
    return tuple(c for c in CONSTRUCTS.values() if c.hosts and c.available(python))


@cache
def plain(python: tuple[int, int] | None = None) -> tuple[Construct, ...]:
    """Constructs without a hole, available to programs for Python ``python`` (None: this interpreter)."""
    return tuple(c for c in CONSTRUCTS.values() if c.template and not c.hosts and c.available(python))


@cache
def keep_names() -> frozenset[str]:
    """Identifiers every construct asks root-cause shapes to keep (library names such as ``sorted``)."""
    out: set[str] = set()
    for c in CONSTRUCTS.values():
        out |= c.keep_names
    return frozenset(out)
