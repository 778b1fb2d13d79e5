"""Exceptions and the program's caller: what a compiled function raises, and what it sees of an exception its
caller is handling (the conformance scenarios in test_conformance_exc.py cover exceptions inside it)."""

from __future__ import annotations

import os
import traceback

import torch

import engine

from .helpers import assert_compiled, t

_ENGINE = os.path.dirname(engine.__file__) + os.sep


def _frames(e: BaseException) -> list[tuple[str, int]]:
    """The traceback's (function, line) pairs, without the compiled function's own wrapper frame (which a
    compiled function adds, as torch.compile's does)."""
    return [(f.f_code.co_name, line) for f, line in traceback.walk_tb(e.__traceback__)
            if not f.f_code.co_filename.startswith(_ENGINE)]


def _call_while_handling(fn):
    try:
        raise IndexError("outer")
    except IndexError:
        try:
            fn(t(2))
        except Exception as e:
            return e
    return None


def _raises_new(x):
    y = x + 1
    raise KeyError(y.shape[0])


def _reraises(x):
    x = x + 1
    raise  # re-raises what the caller handles


def _break_then_raise_new(x):
    torch._dynamo.graph_break()
    raise KeyError("after break")


def test_raise_in_compiled_code_chains_the_callers_handled_exception():
    for fn in (_raises_new, _break_then_raise_new):
        ref = _call_while_handling(fn)
        c = engine.compile(fn)
        got = _call_while_handling(c)
        assert type(got) is type(ref) and got.args == ref.args
        assert repr(got.__context__) == repr(ref.__context__)
        assert _frames(got) == _frames(ref)
        assert_compiled(c, graphs=None if fn is _raises_new else 0)


def test_bare_raise_reraises_the_callers_handled_exception():
    ref = _call_while_handling(_reraises)
    c = engine.compile(_reraises)
    got = _call_while_handling(c)
    assert type(ref) is IndexError and type(got) is IndexError and got is not ref
    assert got.args == ref.args
    assert_compiled(c, graphs=1)


def test_traceback_stand_in_frames_read_as_the_users():
    def inner():
        raise ValueError("x")

    def f(x):
        try:
            inner()
        except ValueError as e:
            return x + 1, e

    c = engine.compile(f)
    (_, ref), (_, got) = f(t(2)), c(t(2))
    assert traceback.format_exception(got) == traceback.format_exception(ref)
    tb = got.__traceback__
    assert tb.tb_frame.f_code.co_name == "f" and tb.tb_next.tb_frame.f_code.co_qualname == inner.__qualname__
    assert tb.tb_frame.f_globals is f.__globals__
    assert_compiled(c, graphs=1)


_RELATIVE_IMPORT = """
import sys, traceback
sys.path.insert(0, sys.argv[1])
import torch
import engine

def bad(v):
    return int("x")  # an eager op that raises

def f(x):
    try:
        bad(x)
    except ValueError as e:
        return [fr.f_code.co_name for fr, _ in traceback.walk_tb(e.__traceback__)]

print(engine.compile(f)(torch.ones(1)), f(torch.ones(1)))
"""


def test_engine_frames_dropped_when_imported_through_a_relative_path(tmp_path):
    """Code objects name their file by the import path (`benchmarks/../engine/...` when a script adds its
    parent directory): the engine's own frames are dropped from an eager op's exception all the same."""
    import subprocess
    import sys

    script = tmp_path / "s.py"
    script.write_text(_RELATIVE_IMPORT)
    root = os.path.join(os.path.dirname(os.path.dirname(engine.__file__)), "benchmarks", "..")
    out = subprocess.run([sys.executable, str(script), root], capture_output=True, text=True, timeout=300)
    assert out.returncode == 0, out.stderr[-2000:]
    assert out.stdout.strip() == "['f', 'bad'] ['f', 'bad']", out.stdout
