"""Exceptions at run time: what the residual code and the runtime loop need so that an exception looks as
eager's would, whichever way it became real.

- A traceback entry of a VM frame (which never runs for real) gets a *stand-in frame*: a frame object whose
  code has the user code's name, qualified name, file, first line and line/position tables, so
  `traceback.format_exception`, `tb_lineno` and `tb_frame.f_code.co_name` read as eager's. It comes from an
  unstarted generator over a copy of the code whose only instruction that ever runs is RETURN_GENERATOR: no
  user code runs, and an unstarted generator does nothing when it is collected. (Its `f_locals` is empty
  and `f_back` None: eager's frame object itself cannot exist.)
- An eager op runs while the program handles the exception the VM says it handles (`call_handling`), so an
  exception it raises gets eager's `__context__` and `sys.exc_info()` inside it is eager's.
- An exception an eager op raised loses the engine's own frames (`strip_engine_frames`); the VM then adds
  the entries of the frames it unwinds through, as CPython does.
"""

from __future__ import annotations

import inspect
import opcode
import os
import sys
import types
import weakref
from collections.abc import Callable
from typing import Any

# the package's directory as its code objects name it (the import path, which may hold "..") and normalized
_ENGINE_DIRS = tuple(
    {os.path.dirname(__file__) + os.sep, os.path.dirname(os.path.abspath(__file__)) + os.sep}
)
_SEGMENT_FILE = "<engine segment"

_OFF = (inspect.CO_VARARGS | inspect.CO_VARKEYWORDS | inspect.CO_COROUTINE | inspect.CO_ASYNC_GENERATOR
        | inspect.CO_ITERABLE_COROUTINE)
_UNIT = bytes([opcode.opmap["NOP"], 0])
_STUBS: weakref.WeakKeyDictionary[types.CodeType, types.CodeType] = weakref.WeakKeyDictionary()


def _stub_code(code: types.CodeType) -> types.CodeType:
    stub = _STUBS.get(code)
    if stub is None:
        body = bytes([opcode.opmap["RETURN_GENERATOR"], 0]) + _UNIT * (len(code.co_code) // 2 - 1)
        stub = _STUBS[code] = code.replace(
            co_code=body, co_argcount=0, co_posonlyargcount=0, co_kwonlyargcount=0,
            co_flags=(code.co_flags & ~_OFF) | inspect.CO_GENERATOR)
    return stub


def stand_in_frame(code: types.CodeType, fglobals: dict[str, Any]) -> types.FrameType:
    """A frame object that reads as one of `code`'s (see the module docstring)."""
    closure = tuple(types.CellType() for _ in code.co_freevars) or None
    gen: types.GeneratorType[None, None, None] = types.FunctionType(_stub_code(code), fglobals, code.co_name,
                                                                    None, closure)()
    frame = gen.gi_frame  # the frame keeps itself alive; the generator may go
    assert frame is not None  # (an unstarted generator has its frame)
    return frame


def new_tb(tb_next: types.TracebackType | None, frame: types.FrameType, lasti: int,
           lineno: int) -> types.TracebackType:
    return types.TracebackType(tb_next, frame, lasti, lineno)


def _engine_code(code: types.CodeType) -> bool:
    f = code.co_filename
    return f.startswith(_ENGINE_DIRS) or f.startswith(_SEGMENT_FILE)


def strip_engine_frames(e: BaseException) -> None:
    """Drop the entries of the engine's own frames (the runtime loop, eager-op helpers, generated segments)
    from `e`'s traceback: eager has no such frames."""
    tb = e.__traceback__
    while tb is not None and _engine_code(tb.tb_frame.f_code):
        tb = tb.tb_next
    e.__traceback__ = tb
    while tb is not None:
        nxt = tb.tb_next
        while nxt is not None and _engine_code(nxt.tb_frame.f_code):
            nxt = nxt.tb_next
        if nxt is not tb.tb_next:
            tb.tb_next = nxt
        tb = nxt


def call_handling(handled: BaseException, fn: Callable[..., Any], args: Any) -> Any:
    """`fn(*args)` while `handled` is the exception being handled (what `sys.exc_info()` returns and what
    an exception raised inside gets as `__context__`). Raising it is the one way Python code has to make it
    the handled one; what that raise changes (its traceback, its context, a link of the caller's own
    chain cut by CPython's cycle check) is put back before `fn` runs."""
    if sys.exc_info()[1] is handled:  # the caller's own (env[0] at a function entry)
        return fn(*args)
    tb, ctx = handled.__traceback__, handled.__context__
    cut = None  # the link CPython cuts if `handled` is in the context chain of what the caller handles
    o, seen = sys.exc_info()[1], set()
    while o is not None and o is not handled and id(o) not in seen:
        seen.add(id(o))
        if o.__context__ is handled:
            cut = o
            break
        o = o.__context__
    try:
        raise handled
    except BaseException:
        handled.__traceback__ = tb
        handled.__context__ = ctx
        if cut is not None:
            cut.__context__ = handled
        return fn(*args)


__all__ = ["stand_in_frame", "new_tb", "strip_engine_frames", "call_handling"]
