"""Call depth: buckets of the longest call path below entry (parts ``lo``..``hi`` frames; the last bucket takes
every longer path too). The strategies draw a bucket, then a depth in it."""

from __future__ import annotations

from fuzz.program.families._registry import Construct, Family, Piece


def _depth(name: str, weight: float, description: str, lo: int, hi: int) -> Construct:
    return Construct(f"depth.{name}", weight, description,
                     pieces=(Piece("depth", name, parts=(("lo", str(lo)), ("hi", str(hi)))),))


FAMILY = Family(
    "depth",
    "the longest call path below entry",
    (
        _depth("1", 1.5, "longest call path has 1 frame below entry", 1, 1),
        _depth("2-3", 3, "longest call path of 2-3 frames", 2, 3),
        _depth("4-9", 3, "longest call path of 4-9 frames", 4, 9),
        _depth("10+", 1.2, "longest call path of 10-29 frames", 10, 29),
        _depth("30+", 0.4, "longest call path of 30-100 frames", 30, 100),
    ),
)
