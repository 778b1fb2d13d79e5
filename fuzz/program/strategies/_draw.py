"""Small drawing helpers shared by the construct strategies: bounded integers, uniform and weighted choice.

Weighted choice draws one bounded integer and bisects cumulative integer weights, so the shrinker moves every
choice toward the *first* option: list the simplest option first.
"""

from __future__ import annotations

from bisect import bisect_right
from collections.abc import Sequence
from functools import lru_cache
from typing import TypeVar

from fuzz.program._conjecture import draw_int

T = TypeVar("T")

__all__ = ["integer", "pick", "weighted", "chance"]


def integer(draw, lo: int, hi: int) -> int:
    """An integer in ``[lo, hi]`` (shrinks toward ``lo``)."""
    return lo + draw_int(draw, 0, hi - lo)


def pick(draw, values: Sequence[T]) -> T:
    """One of ``values`` uniformly (shrinks toward the first)."""
    return values[draw_int(draw, 0, len(values) - 1)] if len(values) > 1 else values[0]


def weighted(draw, options: Sequence[tuple[T, float]]) -> T:
    """Draw one of ``options`` (``(value, weight)`` pairs) with probability proportional to its weight."""
    cumulative, values, total = _table(tuple(options))
    if len(values) == 1:
        return values[0]
    return values[bisect_right(cumulative, draw_int(draw, 0, total - 1))]


@lru_cache(maxsize=4096)
def _table(options: tuple) -> tuple[tuple[int, ...], tuple, int]:
    cumulative: list[int] = []
    values: list = []
    total = 0
    for value, weight in options:
        w = int(round(weight * 100))
        if w <= 0:
            continue
        total += w
        cumulative.append(total)
        values.append(value)
    if not values:
        raise ValueError("weighted(): every option has weight 0")
    return tuple(cumulative), tuple(values), total


def chance(draw, p: float) -> bool:
    """True with probability ``p`` (in steps of 1/100); shrinks toward False."""
    if p <= 0:
        return False
    if p >= 1:
        return True
    return draw_int(draw, 0, 99) >= 100 - round(p * 100)
