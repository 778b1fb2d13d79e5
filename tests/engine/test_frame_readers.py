"""Frame readers reached under other names give eager's result before and after a break in their own frame.

A call that reads its calling frame has no eager form outside it; after a break the frame no longer exists
for real. The engine decides when a frame starts, from what its loads resolve to, whether the frame may call
such a reader (then it runs for real from its start) or may only read its namespace (then it keeps every
local across breaks). Each shape: the reader at depth 2 (outer -> mid -> inner), called before and after a
break in inner. The reader's answer (code name, line, names of the locals) is compared with eager's.
"""

from __future__ import annotations

import sys
import types
from inspect import currentframe as cf

import pytest
import torch

import engine

from .helpers import check, run_both, t

gb = torch._dynamo.graph_break
gf = sys._getframe
_loc = locals
_vars = vars
_tools = types.ModuleType("ngb_frame_tools")
_tools.where = sys._getframe


class _Tools:
    here = staticmethod(sys._getframe)


def x1():
    return (t(3),)


def _seen(f):
    return f.f_code.co_name, f.f_lineno, sorted(f.f_locals)


def global_alias_after(x):
    y = x + 1
    gb()
    return y * 2, _seen(gf())


def global_alias_before(x):
    y = x + 1
    s = _seen(gf())
    gb()
    return y * 2, s


def python_reader_after(x):  # inspect.currentframe is a Python function: it read the engine's frame
    y = x + 1
    gb()
    return y * 2, _seen(cf())


def python_reader_before(x):
    y = x + 1
    s = _seen(cf())
    gb()
    return y * 2, s


def module_attr_after(x):
    y = x + 1
    gb()
    return y * 2, _seen(_tools.where())


def class_attr_after(x):
    y = x + 1
    gb()
    return y * 2, _seen(_Tools.here())


def _closure_reader():
    r = sys._getframe

    def closure_after(x):
        y = x + 1
        gb()
        return y * 2, _seen(r())

    return closure_after


closure_after = _closure_reader()


def param_after(x, reader):
    y = x + 1
    gb()
    return y * 2, _seen(reader())


def locals_alias_after(x):
    y = x + 1
    z = y * 3  # noqa: F841  (dead after the break: still a local of the frame)
    gb()
    return y * 2, sorted(_loc()), sorted(_vars())


def _mid(inner, x, *extra):
    return inner(x * 2, *extra) if extra else inner(x * 2)


def _outer_of(inner, *extra):
    def outer(x):
        return _mid(inner, x + 1, *extra)

    outer.__name__ = f"outer_of_{inner.__name__}"
    return outer


SHAPES = [
    (global_alias_after, ()), (global_alias_before, ()), (python_reader_after, ()), (python_reader_before, ()),
    (module_attr_after, ()), (class_attr_after, ()), (closure_after, ()), (param_after, (sys._getframe,)),
    (locals_alias_after, ()),
]


@pytest.mark.parametrize("inner,extra", SHAPES, ids=[s[0].__name__ for s in SHAPES])
def test_reader_under_another_name_at_depth_two(inner, extra):
    check(_outer_of(inner, *extra), x1)


def test_a_frame_that_reads_its_namespace_is_traced_and_keeps_its_locals():
    out = engine.explain(_outer_of(locals_alias_after))(t(3))
    assert out.breaks[0].gb_id == "graph_break" and out.breaks[0].depth == 2, out.breaks
    assert not [b for b in out.breaks if b.gb_id.startswith("frame") or b.gb_id == "internal"], out.breaks
    assert out.result[1] == ["x", "y", "z"]


def test_root_frame_parameter_that_is_a_reader_runs_the_call_eagerly():
    c = engine.compile(param_after)
    eager = param_after(t(3), sys._getframe)
    out = c(t(3), sys._getframe)
    assert out[1] == eager[1] and c.record.eager_calls == 1


def harmless():
    return sys.modules[__name__].__dict__.get("_never", None)


_swap = harmless


def swapped_global_after(x):
    y = x + 1
    gb()
    return y * 2, _swap()


def test_a_global_that_becomes_a_reader_is_seen_by_the_guard():
    global _swap
    outer = _outer_of(swapped_global_after)
    c = engine.compile(outer)
    try:
        assert c(t(3))[1] is None
        _swap = gf
        got, ref = c(t(3))[1], outer(t(3))[1]
        assert got.f_code.co_name == ref.f_code.co_name == "swapped_global_after", (got, ref)
    finally:
        _swap = harmless


_READERS = {"frame": sys._getframe}


def _get_reader():  # traced: the reader is a value computed inside the frame that calls it
    return _READERS["frame"]


def return_value_after(x):
    y = x + 1
    gb()
    return y * 2, _seen(_get_reader()())


def return_value_before(x):
    y = x + 1
    s = _seen(_get_reader()())
    gb()
    return y * 2, s


def test_reader_as_a_return_value_before_the_break_restarts_the_frame_eagerly():
    run_both(_outer_of(return_value_before), x1, restarts=1)
    # classic mode compiles the callee on its own: its entry runs eagerly, once per call
    run_both(_outer_of(return_value_before), x1, nested=False, eager=2, restarts=None)


def test_reader_as_a_return_value_after_the_break_fails_once_then_runs_eagerly():
    # The one case left: the reader is known only after the break, when the frame's effects up to the
    # break are done. The call fails with an EngineError naming the place (never a wrong answer); from
    # the next call on the function runs for real from its start.
    outer = _outer_of(return_value_after)
    c = engine.compile(outer)
    with pytest.raises(engine.EngineError, match=r"frame-introspection.*test_frame_readers\.py:\d+, in "
                                                 r"return_value_after resumed after a break"):
        c(t(3))
    for _ in range(2):
        got, ref = c(t(3)), outer(t(3))
        assert torch.equal(got[0], ref[0]) and got[1] == ref[1]


class _Where(torch.nn.Module):
    """A reader stored on a module instance: `self.where()` after a break in forward."""

    def __init__(self):
        super().__init__()
        self.where = sys._getframe
        self.scale = torch.nn.Parameter(torch.tensor(2.0))

    def forward(self, x):
        y = x * self.scale
        gb()
        return y + 1, self.where().f_code.co_name


def test_a_reader_stored_on_a_module_instance_is_seen_when_the_frame_starts():
    torch.manual_seed(0)
    model = _Where()
    c = engine.compile(model)
    for _ in range(2):  # the first call and the warm path both give eager's answer, not an EngineError
        out, name = c(t(3))
        ref, ref_name = model(t(3))
        assert name == ref_name == "forward" and torch.equal(out, ref)
