"""``generate_program(seed, index)``: one deterministic program per (seed, index, config)."""

from __future__ import annotations

import hashlib
from dataclasses import dataclass
from functools import lru_cache

from fuzz import ir
from fuzz._conjecture import draw_seeded
from fuzz.features import GenerationConfig, extract
from fuzz.render import render

__all__ = ["GeneratedProgram", "generate_program", "program_seed"]


@dataclass(frozen=True)
class GeneratedProgram:
    source: str
    features: frozenset[str]
    ir: ir.Program
    seed: int = 0
    index: int = 0


def program_seed(seed: int, index: int) -> int:
    """A 64-bit seed for program ``index`` of campaign ``seed`` (stable across machines and hash seeds)."""
    digest = hashlib.blake2b(f"ngb-fuzz:{seed}:{index}".encode(), digest_size=8).digest()
    return int.from_bytes(digest, "little")


@lru_cache(maxsize=64)
def _strategy(key: tuple):
    from fuzz.strategies import programs

    weights, max_depth, max_functions = key
    return programs(GenerationConfig(dict(weights), max_depth, max_functions))


def generate_program(seed: int, index: int, config: GenerationConfig | None = None) -> GeneratedProgram:
    config = config or GenerationConfig()
    program = draw_seeded(_strategy(config.key()), program_seed(seed, index))
    source = render(program, found_by=f"ngb-fuzz run --seed {seed} (program {index})")
    return GeneratedProgram(source=source, features=extract(program), ir=program, seed=seed, index=index)
