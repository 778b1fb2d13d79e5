"""The one place that touches Hypothesis internals: drawing from a strategy with a seeded ``random.Random``.

``ConjectureData`` is Hypothesis's per-example choice recorder. We use it outside a ``@given`` test so that
``generate_program(seed, index)`` is a pure function. Hypothesis's default provider sometimes replaces a draw by
a "local constant" harvested from whatever modules happen to be imported, which would make the same seed draw
different programs in different processes; ``_SeededProvider`` switches that off.
"""

from __future__ import annotations

import random
from typing import Any

from hypothesis.internal.conjecture.data import ConjectureData, StopTest
from hypothesis.internal.conjecture.providers import HypothesisProvider

__all__ = ["draw_seeded", "draw_int", "GenerationOverrun"]

_MAX_CHOICES = 200_000


class GenerationOverrun(RuntimeError):
    """The strategy asked for more choices than a program may use."""


class _SeededProvider(HypothesisProvider):
    def _maybe_draw_constant(self, *args: Any, **kwargs: Any) -> None:
        return None


def draw_seeded(strategy, seed: int) -> Any:
    """Draw one value from ``strategy`` with all randomness from ``random.Random(seed)``."""
    data = ConjectureData(random=random.Random(seed), provider=_SeededProvider, max_choices=_MAX_CHOICES)
    try:
        return data.draw(strategy)
    except StopTest as exc:  # only raised when the choice budget overruns
        raise GenerationOverrun(f"strategy used more than {_MAX_CHOICES} choices (seed {seed})") from exc


def draw_int(draw, lo: int, hi: int) -> int:
    """``draw(st.integers(lo, hi))`` without the strategy machinery (3x faster; same choice, same shrinking).

    Inside ``@composite`` the ``draw`` callable is ``ConjectureData.draw`` bound to the current data; its
    primitive ``draw_integer`` records one integer choice exactly as ``st.integers`` does.
    """
    data = getattr(draw, "__self__", None)
    if isinstance(data, ConjectureData):
        return data.draw_integer(lo, hi)
    from hypothesis import strategies as st

    return draw(st.integers(lo, hi))
