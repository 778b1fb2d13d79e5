"""Feedback-driven generation weights: what ``ngb-fuzz run --bias`` does.

After every program the campaign tells :class:`Bias` the program's feature tags and what each target did. A
program is *interesting* when

- it opened a new bucket (a signature never seen on that target): its tags' weights are multiplied by 2;
- a target met a break reason it had not met before in this campaign: x1.5;
- a target's graph, break or recompile count went beyond the range seen on that target so far (after a warm-up
  of ``warmup`` programs, so the first programs do not all count as unusual): x1.25.

A program whose findings only repeat buckets already open is the opposite: its tags are lowered (x0.9 per such
program, down to ``1/cap``), so a campaign does not keep steering into a bug it has already reported. A tag's
boost (or cut) shrinks with how common it is: a tag every program carries is never changed. Multipliers are capped at ``cap`` and decay back toward 1 by ``decay`` per program (half-life about 70 programs
at 0.99), so a campaign leans toward what just paid off without forgetting the rest of the catalog. Derived
``shape.*`` tags are never boosted (they are not drawn). With workers in parallel, which weights a program was
drawn with depends on timing: a biased program is reproducible from its file (and from the ``weights`` header line
the campaign writes into repros), not from ``--seed`` alone.
"""

from __future__ import annotations

import collections
from collections.abc import Iterable, Mapping

from fuzz.program.features import CATALOG, GenerationConfig

__all__ = ["Bias", "NEW_BUCKET", "NEW_BREAK_REASON", "REPEAT", "UNUSUAL_COUNT", "weights_header"]

NEW_BUCKET, NEW_BREAK_REASON, UNUSUAL_COUNT = "new_bucket", "new_break_reason", "unusual_count"
REPEAT = "repeat"  # only findings in buckets already open
_FACTORS = {NEW_BUCKET: 2.0, NEW_BREAK_REASON: 1.5, UNUSUAL_COUNT: 1.25, REPEAT: 0.9}
_COUNTS = ("graphs", "breaks", "recompiles")
_DRAWN = frozenset(f.name for f in CATALOG)


class Bias:
    def __init__(self, base: GenerationConfig | None = None, *, cap: float = 8.0, decay: float = 0.99,
                 warmup: int = 30):
        if cap < 1 or not 0 < decay <= 1 or warmup < 0:
            raise ValueError("Bias needs cap >= 1, 0 < decay <= 1 and warmup >= 0")
        self.base = base or GenerationConfig()
        self.cap, self.decay, self.warmup = cap, decay, warmup
        self.multipliers: dict[str, float] = {}
        self.reasons: set[str] = set()  # "spec|reason"
        self.counts: dict[str, collections.Counter] = {}  # "spec|graphs" -> values seen
        self.seen: collections.Counter = collections.Counter()  # programs observed per spec
        self.events: collections.Counter = collections.Counter()  # why programs were interesting
        self.tags: collections.Counter = collections.Counter()  # programs per tag
        self.programs = 0

    # -- feedback ------------------------------------------------------------------------------------------
    def observe(self, tags: Iterable[str], stats: Mapping[str, Mapping], new_buckets: int = 0,
                repeats: int = 0) -> list[str]:
        """Take one program's outcome; returns why its weights moved (empty: they did not).

        ``stats``: per target spec, what the target reported (``graphs``, ``breaks``, ``recompiles``,
        ``break_reasons``); ``new_buckets``: how many buckets this program opened; ``repeats``: how many of its
        findings fell into buckets already open.
        """
        tags = set(tags) & _DRAWN
        self.programs += 1
        self.tags.update(tags)
        why = [NEW_BUCKET] if new_buckets else []
        for spec, figures in stats.items():
            for reason in figures.get("break_reasons", ()):
                key = f"{spec}|{reason}"
                if key not in self.reasons:
                    self.reasons.add(key)
                    if NEW_BREAK_REASON not in why:
                        why.append(NEW_BREAK_REASON)
            warm = self.seen[spec] >= self.warmup
            for name in _COUNTS:
                if name not in figures:
                    continue
                values = self.counts.setdefault(f"{spec}|{name}", collections.Counter())
                value = int(figures[name])
                outside = bool(values) and (value > max(values) or value < min(values))
                if warm and outside and UNUSUAL_COUNT not in why:
                    why.append(UNUSUAL_COUNT)
                values[value] += 1
            self.seen[spec] += 1
        if repeats and not why:
            why.append(REPEAT)
        self._decay()
        self.events.update(why)
        factor = max((_FACTORS[event] for event in why), default=1.0)
        if factor != 1.0:
            for tag in tags:
                # a tag most programs carry says little about this program's outcome: scale by rarity
                step = 1 + (factor - 1) * (1 - self.tags[tag] / self.programs)
                m = min(self.cap, max(1 / self.cap, self.multipliers.get(tag, 1.0) * step))
                if abs(m - 1) >= 0.01:
                    self.multipliers[tag] = m
        return why

    def _decay(self) -> None:
        for tag, m in list(self.multipliers.items()):
            m = 1 + (m - 1) * self.decay
            if abs(m - 1) < 0.01:
                del self.multipliers[tag]
            else:
                self.multipliers[tag] = m

    # -- what generation uses ------------------------------------------------------------------------------
    def boosts(self) -> dict[str, float]:
        """Tags whose weight is changed now, and by how much (rounded, largest first; below 1: lowered)."""
        ranked = sorted(self.multipliers.items(), key=lambda kv: (-kv[1], kv[0]))
        return {tag: round(m, 2) for tag, m in ranked}

    def config(self) -> GenerationConfig:
        """The generation config in force: the base weights times the current multipliers."""
        if not self.multipliers:
            return self.base
        weights = dict(self.base.weights)
        for tag, m in self.boosts().items():
            weights[tag] = round(self.base.weight(tag) * m, 4)
        return GenerationConfig(weights, self.base.max_depth, self.base.max_functions, self.base.python)

    # -- persistence (state.json) --------------------------------------------------------------------------
    def to_json(self) -> dict:
        return {
            "multipliers": self.multipliers, "reasons": sorted(self.reasons),
            "counts": {k: {str(v): n for v, n in c.items()} for k, c in self.counts.items()},
            "seen": dict(self.seen), "events": dict(self.events), "tags": dict(self.tags),
            "programs": self.programs,
        }

    def load_json(self, data: Mapping) -> None:
        self.multipliers = {k: float(v) for k, v in data.get("multipliers", {}).items() if k in _DRAWN}
        self.reasons = set(data.get("reasons", ()))
        self.counts = {k: collections.Counter({int(v): n for v, n in c.items()})
                       for k, c in data.get("counts", {}).items()}
        self.seen = collections.Counter(data.get("seen", {}))
        self.events = collections.Counter(data.get("events", {}))
        self.tags = collections.Counter(data.get("tags", {}))
        self.programs = int(data.get("programs", 0))


def weights_header(config: GenerationConfig) -> str | None:
    """The ``weights`` header line of a biased program: enough to regenerate it with ``generate_program``."""
    if not config.weights:
        return None
    return " ".join(f"{k}={v:g}" for k, v in sorted(config.weights.items()))
