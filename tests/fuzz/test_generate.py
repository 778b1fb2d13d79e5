"""generate_program: interface, determinism across processes and hash seeds, config validation."""

from __future__ import annotations

import hashlib
import os
import subprocess
import sys

import pytest

import fuzz
from fuzz.program.features import CATALOG, DERIVED, GenerationConfig
from fuzz.program.generate import GeneratedProgram, generate_program

_DIGEST = (
    "import hashlib, fuzz\n"
    "h = hashlib.sha256()\n"
    "for i in range(40):\n"
    "    h.update(fuzz.generate_program(7, i).source.encode())\n"
    "print(h.hexdigest())\n"
)


def _digest_in_subprocess(hash_seed: str) -> str:
    env = dict(os.environ, PYTHONHASHSEED=hash_seed)
    out = subprocess.run([sys.executable, "-c", _DIGEST], env=env, capture_output=True, text=True, check=True)
    return out.stdout.strip()


def test_same_bytes_across_processes_and_hash_seeds():
    here = hashlib.sha256()
    for i in range(40):
        here.update(generate_program(7, i).source.encode())
    assert _digest_in_subprocess("1") == _digest_in_subprocess("12345") == here.hexdigest()


def test_same_seed_same_program_different_index_different_program():
    a, b, c = generate_program(3, 5), generate_program(3, 5), generate_program(3, 6)
    assert isinstance(a, GeneratedProgram)
    assert a.source == b.source and a.ir == b.ir and a.features == b.features
    assert a.source != c.source


def test_reexported_from_fuzz():
    assert fuzz.generate_program is generate_program
    assert fuzz.GenerationConfig is GenerationConfig


def test_features_are_catalog_names():
    names = {f.name for f in CATALOG + DERIVED}
    for i in range(100):
        program = generate_program(0, i)
        assert program.features <= names
        assert "# features: " + " ".join(sorted(program.features)) in program.source


def test_program_contract():
    for i in range(30):
        src = generate_program(1, i).source
        assert src.startswith("# ngb-fuzz program\n")
        compile(src, "<p>", "exec")
        for needle in ("\nEFFECTS = []\n", "\ndef _effect(tag, value):", "\ndef entry(", "\ndef make_inputs(device"):
            assert needle in src


def test_weights_switch_features_off():
    config = GenerationConfig(weights={"ctx": 0, "break.graph_break": 0, "module.helper": 0})
    for i in range(60):
        tags = generate_program(0, i, config).features
        assert not any(t.startswith("ctx.") for t in tags), tags
        assert "break.graph_break" not in tags and "module.helper" not in tags


def test_max_depth_is_respected():
    config = GenerationConfig(max_depth=3)
    for i in range(60):
        program = generate_program(2, i, config)
        assert not {"depth.4-9", "depth.10+", "depth.30+"} & program.features


def test_config_validation():
    with pytest.raises(ValueError, match="unknown feature"):
        GenerationConfig(weights={"break.nope": 1})
    with pytest.raises(ValueError, match="max_depth"):
        GenerationConfig(max_depth=0)


def test_recorded_choices_replay_through_hypothesis():
    from fuzz.program.generate import replay_program

    for i in range(25):
        program = generate_program(4, i)
        assert replay_program(program.choices) == program.ir


def test_programs_strategy_works_under_given():
    from hypothesis import HealthCheck, given, settings

    from fuzz.program.render import render
    from fuzz.program.strategies import programs

    @settings(max_examples=10, deadline=None, suppress_health_check=list(HealthCheck), database=None)
    @given(programs(GenerationConfig(max_depth=5)))
    def check(program):
        compile(render(program), "<p>", "exec")

    check()
