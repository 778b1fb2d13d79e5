"""Break ids: every id the engine raises is in the one table, with a meaning and a hint."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

import engine
from engine._reasons import REASONS

ENGINE = Path(engine.__file__).parent


def _raised_ids() -> dict[str, str]:
    """Every literal break id in an `Unsupported(...)`/`FrameBound(...)` call of the engine's sources (both
    branches of a conditional id included), with where it is."""
    out = {}
    for path in sorted(ENGINE.rglob("*.py")):
        for node in ast.walk(ast.parse(path.read_text())):
            if isinstance(node, ast.Call) and getattr(node.func, "id", None) in ("Unsupported", "FrameBound"):
                first = node.args[0]
                consts = [first] if isinstance(first, ast.Constant) else [first.body, first.orelse]
                for c in consts:
                    assert isinstance(c, ast.Constant), f"{path}:{node.lineno}: break id is not a literal"
                    out.setdefault(c.value, f"{path.name}:{node.lineno}")
    return out


def test_every_raised_id_is_in_the_table():
    ids = _raised_ids()
    assert len(ids) > 80  # the scan sees the engine's sites
    missing = {i: w for i, w in ids.items() if i not in REASONS}
    assert not missing, missing
    assert all(r.hint and r.meaning for r in REASONS.values())


def test_unknown_id_is_an_error_and_hints_come_from_the_table():
    with pytest.raises(KeyError):
        engine.Unsupported("no-such-break", "x")
    assert engine.Unsupported("set", "x").hint == REASONS["set"].hint
    assert engine.Unsupported("set", "x", "a hint of its own").hint == "a hint of its own"


def test_break_records_carry_the_table_hint():
    import torch

    def fn(x):
        y = x + 1
        torch._dynamo.graph_break()
        return {y}, y  # a set of tensors: not modeled

    out = engine.explain(fn)(torch.ones(2))
    assert [b.gb_id for b in out.breaks] == ["graph_break", "set"]
    assert out.breaks[1].hint == REASONS["set"].hint
