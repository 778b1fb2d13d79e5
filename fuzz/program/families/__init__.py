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
    Construct,
    Family,
    WiringError,
    check_construct,
    check_family,
    defined_names,
)

__all__ = [
    "Construct",
    "Family",
    "WiringError",
    "FAMILIES",
    "CONSTRUCTS",
    "check_construct",
    "check_family",
    "construct",
    "defined_names",
    "hosting",
    "plain",
    "keep_names",
]

# The family modules, in catalog order.
_MODULES = ("side", "classes", "nn", "iteration", "stdlib", "strings", "data", "control", "torchapi")


def _load() -> tuple[Family, ...]:
    out = []
    for name in _MODULES:
        family = importlib.import_module(f"fuzz.program.families.{name}").FAMILY
        check_family(family)
        out.append(family)
    return tuple(out)


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
def hosting() -> tuple[Construct, ...]:
    """Constructs with a hole, available on this Python."""
    return tuple(c for c in CONSTRUCTS.values() if c.hosts and c.available())


@cache
def plain() -> tuple[Construct, ...]:
    """Constructs without a hole, available on this Python."""
    return tuple(c for c in CONSTRUCTS.values() if not c.hosts and c.available())


@cache
def keep_names() -> frozenset[str]:
    """Identifiers every construct asks root-cause shapes to keep (library names such as ``sorted``)."""
    out: set[str] = set()
    for c in CONSTRUCTS.values():
        out |= c.keep_names
    return frozenset(out)
