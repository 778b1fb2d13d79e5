"""``generate_program(seed, index)``: one deterministic program per (seed, index, config)."""

from __future__ import annotations

import hashlib
from collections.abc import Sequence
from dataclasses import dataclass, field

from fuzz.program import ir
from fuzz.program._conjecture import draw_seeded, replay
from fuzz.program.features import GenerationConfig, extract
from fuzz.program.render import render
from oracle import FoundBy, set_header

__all__ = ["GeneratedProgram", "generate_program", "program_seed", "replay_program"]


@dataclass(frozen=True)
class GeneratedProgram:
    source: str
    features: frozenset[str]
    ir: ir.Program
    seed: int = 0
    index: int = 0
    choices: tuple[int, ...] = field(default=(), repr=False, compare=False)
    config: GenerationConfig | None = field(default=None, repr=False, compare=False)  # None: the catalog's weights


def program_seed(seed: int, index: int) -> int:
    """A 64-bit seed for program ``index`` of campaign ``seed`` (stable across machines and hash seeds)."""
    digest = hashlib.blake2b(f"ngb-fuzz:{seed}:{index}".encode(), digest_size=8).digest()
    return int.from_bytes(digest, "little")


def generate_program(seed: int, index: int, config: GenerationConfig | None = None) -> GeneratedProgram:
    from fuzz.program.strategies._programs import _programs_impl

    given, config = config, config or GenerationConfig()
    program, choices = draw_seeded(_programs_impl, program_seed(seed, index), config)
    features = extract(program)
    source = render(program, found_by=str(FoundBy.generated(seed, index)), features=features)
    if config.python is not None:  # the generator's Python knob: generate_program needs it to rebuild the program
        source = set_header(source, for_python=f"{config.python[0]}.{config.python[1]}")
    return GeneratedProgram(source=source, features=features, ir=program, seed=seed, index=index, choices=choices,
                            config=given)


def replay_program(choices: Sequence[int], config: GenerationConfig | None = None) -> ir.Program:
    """The IR that ``programs(config)`` draws from a recorded choice sequence (e.g. ``GeneratedProgram.choices``,
    or a shrunk version of it): the bridge from a generated program to Hypothesis's shrinker."""
    from fuzz.program.strategies import programs

    return replay(programs(config or GenerationConfig()), choices)
