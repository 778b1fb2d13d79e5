"""The frame-reader guard sees every change that makes a load of a traced frame reach a frame reader.

A frame is traced only when no load it starts (a global, a cell, an argument, and the attribute chains after
them) reaches a reader of the calling frame; the guard that keeps that decision pins what each load read
(`_vm/_frame_readers._Pins`). Each case here compiles a frame whose load is harmless on the first calls, with
the reader's call after a break in that frame (depth 2), then changes one thing eager sees -- an instance
attribute, a class attribute, a base class, a module attribute, a cell, a bound method's function -- so that
the same load reaches `sys._getframe`. The warm call must see it: eager's frame name, never the engine's
error for a reader met in a resumed frame.
"""

from __future__ import annotations

import functools
import sys
import types
from collections.abc import Callable

import pytest
import torch

import engine

from .helpers import t

gb = torch._dynamo.graph_break
gf = sys._getframe


def harmless() -> None:
    return None


def _name(f: object) -> object:
    return f.f_code.co_name if isinstance(f, types.FrameType) else f


def _outer_of(inner: Callable) -> Callable:
    def outer(x, *extra):
        return inner(x * 2, *extra)

    return outer


# -- the cases: (function, its extra arguments at each call, switch to a reader, switch back) -----------------

def _no_args() -> tuple:
    return ()


class Holder:
    """`self.where` from an instance dict, or from the class when the instance has none."""

    where = staticmethod(harmless)

    def read_after(self, x):
        y = x + 1
        gb()
        return y * 2, _name(self.where())


def _instance_attr():
    h = Holder()
    return _outer_of(h.read_after), _no_args, lambda: setattr(h, "where", gf), lambda: None


def _class_attr():
    return (_outer_of(Holder().read_after), _no_args, lambda: setattr(Holder, "where", staticmethod(gf)),
            lambda: setattr(Holder, "where", staticmethod(harmless)))


class Base:
    where = staticmethod(harmless)


class Sub(Base):
    def read_after(self, x):
        y = x + 1
        gb()
        return y * 2, _name(self.where())


def _subclass_attr():
    return (_outer_of(Sub().read_after), _no_args, lambda: setattr(Sub, "where", staticmethod(gf)),
            lambda: delattr(Sub, "where"))


class ReaderBase:
    where = staticmethod(gf)


def _bases_swapped():
    return (_outer_of(Sub().read_after), _no_args, lambda: setattr(Sub, "__bases__", (ReaderBase,)),
            lambda: setattr(Sub, "__bases__", (Base,)))


class Meta(type):
    pass


class MetaHolder(metaclass=Meta):
    """A class with a metaclass: its lookups keep the walk, re-run at each call (`_Pins`' fallback)."""

    where = staticmethod(harmless)

    def read_after(self, x):
        y = x + 1
        gb()
        return y * 2, _name(self.where())


def _metaclass():
    return (_outer_of(MetaHolder().read_after), _no_args, lambda: setattr(MetaHolder, "where", staticmethod(gf)),
            lambda: setattr(MetaHolder, "where", staticmethod(harmless)))


_tools = types.ModuleType("ngb_pin_tools")
_tools.where = harmless


def module_attr_after(x):
    y = x + 1
    gb()
    return y * 2, _name(_tools.where())


def _module_attr():
    return (_outer_of(module_attr_after), _no_args, lambda: setattr(_tools, "where", gf),
            lambda: setattr(_tools, "where", harmless))


class PropModule(types.ModuleType):
    """A module of a ModuleType subclass, as torch.backends is."""


_sub_tools = PropModule("ngb_pin_sub_tools")
_sub_tools.where = harmless


def module_subclass_attr_after(x):
    y = x + 1
    gb()
    return y * 2, _name(_sub_tools.where())


def _module_subclass_attr():
    return (_outer_of(module_subclass_attr_after), _no_args, lambda: setattr(_sub_tools, "where", gf),
            lambda: setattr(_sub_tools, "where", harmless))


def _closure():
    reader = harmless

    def closure_after(x):
        y = x + 1
        gb()
        return y * 2, _name(reader())

    def switch(to):
        nonlocal reader
        reader = to

    return _outer_of(closure_after), _no_args, lambda: switch(gf), lambda: switch(harmless)


class Note(torch.nn.Module):
    """A plain attribute that is None on the first calls (not a reader, nothing to walk), then a reader."""

    def __init__(self) -> None:
        super().__init__()
        self.hook = None

    def forward(self, x):
        y = x + 1
        gb()
        h = self.hook
        return y * 2, _name(h() if h is not None else None)


def _module_instance_none():
    m = Note()
    return _outer_of(m), _no_args, lambda: setattr(m, "hook", gf), lambda: setattr(m, "hook", None)


class Method:
    def where(self):
        return None


def bound_after(x, method):
    y = x + 1
    gb()
    return y * 2, _name(method())


def _bound_method():
    # an argument made anew at every call (`m.where`): pinned by the function it wraps, not by identity
    m = Method()
    return (_outer_of(bound_after), lambda: (m.where,), lambda: setattr(m, "where", types.MethodType(gf, 0)),
            lambda: None)


def partial_after(x, reader):
    y = x + 1
    gb()
    return y * 2, _name(reader())


def _partial():
    state = {"reader": functools.partial(harmless)}
    return (_outer_of(partial_after), lambda: (state["reader"],),
            lambda: state.update(reader=functools.partial(gf)), lambda: None)


CASES = {"instance_attr": _instance_attr, "class_attr": _class_attr, "subclass_attr": _subclass_attr,
         "bases_swapped": _bases_swapped, "metaclass": _metaclass, "module_attr": _module_attr,
         "module_subclass_attr": _module_subclass_attr, "closure": _closure,
         "module_attr_none": _module_instance_none, "bound_method": _bound_method, "partial": _partial}


@pytest.mark.parametrize("case", list(CASES))
def test_a_load_that_comes_to_reach_a_reader_is_seen_at_the_next_call(case):
    fn, args, switch, back = CASES[case]()
    c = engine.compile(fn)
    try:
        for _ in range(2):  # the first call and a warm call: traced, harmless
            got, ref = c(t(3), *args()), fn(t(3), *args())
            assert torch.equal(got[0], ref[0]) and got[1] == ref[1] is None
        assert c.record.recompiles == 0
        switch()
        ref = fn(t(3), *args())
        got = c(t(3), *args())  # the warm path: must not run the traced frame (its reader comes after a break)
        assert torch.equal(got[0], ref[0]) and got[1] == ref[1] and ref[1] is not None, (got, ref)
    finally:
        back()
    got, ref = c(t(3), *args()), fn(t(3), *args())
    assert torch.equal(got[0], ref[0]) and got[1] == ref[1]


@torch._dynamo.disable
def _store_reader(m: torch.nn.Module) -> None:
    m.where = gf


class StoresAfterBreak(torch.nn.Module):
    """A reader stored on the module by an eager op (a break), then called in the resumed frame."""

    def forward(self, x):
        y = x * 2
        _store_reader(self)
        w = self.where
        return y + 1, _name(w())


def test_a_reader_stored_on_a_module_after_a_break_never_gives_a_wrong_answer():
    # When forward started, `self.where` was no reader: the pins held; the reader only exists after the
    # break, in a frame that no longer exists for real. The call fails naming the place (the documented
    # limit, engine/README.md), and from the next call on forward runs for real: eager's frame name.
    m = StoresAfterBreak()
    c = engine.compile(m)
    with pytest.raises(engine.EngineError, match=r"frame-introspection.*in StoresAfterBreak\.forward resumed"):
        c(t(3))
    for _ in range(2):
        got, ref = c(t(3)), m(t(3))
        assert torch.equal(got[0], ref[0]) and got[1] == ref[1] == "forward"
