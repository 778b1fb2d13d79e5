"""The one place that touches Hypothesis internals: drawing programs deterministically from a seed.

``generate_program(seed, index)`` must be a pure function, fast (hundreds of programs per second) and
replayable by Hypothesis's shrinker. The strategies draw every decision through :func:`draw_int`, so two drawing
back ends give the same IR for the same choice sequence:

- :class:`RecordingData` -- a minimal stand-in for ``ConjectureData`` that draws each integer from a seeded
  ``random.Random`` and records it. Generation uses it: about 10x cheaper per draw than Hypothesis's machinery.
- ``ConjectureData`` -- inside ``@given``/the shrinker, or via :func:`replay` from a recorded choice sequence.

Hypothesis's own provider sometimes substitutes a "local constant" harvested from whatever modules happen to be
imported, which would make the same seed differ between processes; :class:`_SeededProvider` switches that off for
the ``ConjectureData`` path.
"""

from __future__ import annotations

import random
from typing import Any

from hypothesis.internal.conjecture.data import ConjectureData, StopTest
from hypothesis.internal.conjecture.providers import HypothesisProvider

__all__ = ["RecordingData", "draw_int", "draw_seeded", "replay", "GenerationOverrun"]

_MAX_CHOICES = 200_000


class GenerationOverrun(RuntimeError):
    """The strategy asked for more choices than a program may use."""


class _SeededProvider(HypothesisProvider):
    def _maybe_draw_constant(self, *args: Any, **kwargs: Any) -> None:
        return None


class RecordingData:
    """Draws bounded integers from ``random.Random(seed)`` and records them as a Hypothesis choice sequence."""

    __slots__ = ("_random", "choices")

    def __init__(self, seed: int):
        self._random = random.Random(seed)
        self.choices: list[int] = []

    def draw_integer(self, min_value: int, max_value: int) -> int:
        if len(self.choices) >= _MAX_CHOICES:
            raise GenerationOverrun(f"strategy used more than {_MAX_CHOICES} choices")
        value = min_value + self._random.randrange(max_value - min_value + 1)
        self.choices.append(value)
        return value

    def draw(self, strategy) -> Any:
        raise TypeError("RecordingData draws integers only; call the strategy's _impl function directly")


def draw_int(draw, lo: int, hi: int) -> int:
    """One integer choice in ``[lo, hi]`` (shrinks toward ``lo``).

    ``draw`` is what ``@composite`` passes (``ConjectureData.draw``) or ``RecordingData.draw``; either way its
    ``__self__`` records the choice with ``draw_integer``, exactly as ``st.integers(lo, hi)`` would.
    """
    data = getattr(draw, "__self__", None)
    if isinstance(data, RecordingData | ConjectureData):
        return data.draw_integer(lo, hi)
    from hypothesis import strategies as st

    return draw(st.integers(lo, hi))


def draw_seeded(impl, seed: int, *args: Any) -> tuple[Any, tuple[int, ...]]:
    """Run ``impl(draw, *args)`` (a composite's body) with choices from ``random.Random(seed)``.

    Returns the value and the recorded choice sequence (replayable with :func:`replay`).
    """
    data = RecordingData(seed)
    return impl(data.draw, *args), tuple(data.choices)


def replay(strategy, choices) -> Any:
    """Draw from ``strategy`` with Hypothesis's ``ConjectureData`` following a recorded choice sequence."""
    data = ConjectureData.for_choices(tuple(choices), provider=_SeededProvider)
    try:
        return data.draw(strategy)
    except StopTest as exc:
        raise GenerationOverrun("the choice sequence ran out before the strategy finished") from exc
