"""The state raising gives an exception, modeled as CPython 3.11 sets it, so that an exception is eager's
whenever it becomes real (at a break, a return, or as an eager op's operand).

- `__context__`: raising `exc` while `h` is handled sets `exc.__context__ = h` (not when `h` is None or
  `exc` itself), after cutting `exc` out of `h`'s context chain so no cycle forms (`_PyErr_SetObject`).
- `__cause__` / `__suppress_context__`: `raise exc from c` sets both before the context.
- `__traceback__`: each frame an exception is raised in, or propagates into from a callee, prepends one
  entry (the frame, its current instruction's offset and line: `PyTraceBack_Here`); RERAISE and a bare
  `raise` of the handled exception add none.

An exception made by traced code (`ExcVar`) holds that state in its fields; a real one (`ObjVar`) holds what
traced code changed in its attribute overlay, each change also a logged `setattr` replayed in program
order. Tracebacks the VM adds are `TracebackVar`s, rebuilt with stand-in frames (engine/_tracebacks.py).
"""

from __future__ import annotations

import types
import weakref
from typing import TYPE_CHECKING

from .._errors import Unsupported
from .._guards import AttrSrc, ConstSrc
from ._arith import is_same
from ._effects import SetAttrEffect
from ._iface import HIDDEN_CODES
from ._objects import is_plain_exception
from ._values import ConstVar, ExcVar, ObjVar, TracebackVar, TupleVar
from ._wrap import wrap

if TYPE_CHECKING:
    from ._frame import Frame
    from ._interp import VM
    from ._values import Var

STATE = ("__traceback__", "__context__", "__cause__", "__suppress_context__")
TB_ATTRS = ("tb_lineno", "tb_lasti", "tb_next")


def is_exception(v: Var) -> bool:
    return type(v) is ExcVar or (type(v) is ObjVar and isinstance(v.obj, BaseException))


def is_none(v: Var) -> bool:
    return type(v) is ConstVar and v.value is None


def get_state(vm: VM, exc: Var, name: str) -> Var:
    """`exc.<name>` for one of STATE, as traced code left it."""
    if type(exc) is ExcVar:
        if name == "__suppress_context__":
            return ConstVar(exc.suppress)
        return {"__traceback__": exc.tb, "__context__": exc.context, "__cause__": exc.cause}[name]
    if exc.attrs is not None and name in exc.attrs:
        return exc.attrs[name]

    src = exc.src if exc.src is not None else ConstSrc(exc.obj)
    return wrap(vm, getattr(exc.obj, name), AttrSrc(src, name))


def set_state(vm: VM, exc: Var, name: str, value: Var) -> None:
    """`exc.<name> = value` for one of STATE, done by the exception machinery (values already valid)."""
    if type(exc) is ExcVar:
        if name == "__suppress_context__":
            exc.suppress = bool(value.value)
        elif name == "__traceback__":
            exc.tb = value
        elif name == "__context__":
            exc.context = value
        else:
            exc.cause = value
        return
    if exc.attrs is None:
        exc.attrs = {}
    exc.attrs[name] = value
    vm.effects.append(SetAttrEffect(exc, name, value))


def tb_here(vm: VM, exc: Var, frame: Frame) -> None:
    """PyTraceBack_Here: `exc` is raised in, or propagates into, `frame` at its current instruction."""
    if frame.info.code in HIDDEN_CODES:
        return
    at = frame.call_index if frame.call_index >= 0 else frame.ip
    tb_entry(vm, exc, frame.info.code, frame.fglobals, frame.info.instrs[at].offset, frame)


def tb_entry(vm: VM, exc: Var, code: types.CodeType, fglobals: dict, offset: int, frame: object = None) -> None:
    """An entry for a frame of `code` at `offset` (`frame`: the VM frame, None for a library frame the VM
    models rather than runs, such as contextlib's __exit__)."""
    tb = TracebackVar(code, fglobals, offset, line_at(code, offset), get_state(vm, exc, "__traceback__"),
                      frame if frame is not None else object())
    set_state(vm, exc, "__traceback__", tb)


def chain_context(vm: VM, exc: Var) -> None:
    """Implicit chaining as `raise` does it: the handled exception becomes `exc.__context__`."""
    handled = vm.resolve(vm.cur_exc)
    if is_none(handled) or handled is exc or is_same(vm, handled, exc):
        return
    if not is_exception(handled):
        raise Unsupported("exc-context", "the exception being handled is not known")
    o, seen = handled, set()
    while id(o) not in seen:  # cut `exc` out of the handled exception's chain (no cycle)
        seen.add(id(o))
        ctx = vm.resolve(get_state(vm, o, "__context__"))
        if is_none(ctx) or not is_exception(ctx):
            break
        if ctx is exc or is_same(vm, ctx, exc):
            set_state(vm, o, "__context__", ConstVar(None))
            break
        o = ctx
    set_state(vm, exc, "__context__", handled)


def instance_of(vm: VM, v: Var) -> Var | None:
    """What `raise v` raises: an exception value, or a new instance of a plain exception class given as `v`;
    None when the VM cannot tell (an eager op then raises it, or CPython's TypeError)."""
    if is_exception(v):
        return v
    if type(v) is ObjVar and is_plain_exception(v.obj):
        return ExcVar(v.obj, ())
    return None


def raise_new(vm: VM, frame: Frame, exc: Var, cause: Var | None = None):
    """RAISE_VARARGS 1/2: cause, context, the raising frame's entry, unwind (the frame is unchanged if the
    VM cannot tell what is being handled: the raise is then an eager op)."""
    handled = vm.resolve(vm.cur_exc)
    if not (is_none(handled) or is_exception(handled)):
        raise Unsupported("exc-context", "the exception being handled is not known")
    if cause is not None:
        set_state(vm, exc, "__cause__", cause)
        set_state(vm, exc, "__suppress_context__", ConstVar(True))
    chain_context(vm, exc)
    tb_here(vm, exc, frame)
    return vm.raise_exc(exc)


def tb_attr(vm: VM, tb: TracebackVar, name: str) -> Var:
    """tb.tb_lineno / tb.tb_lasti / tb.tb_next of an entry the VM added (tb_frame makes it real)."""
    if name == "tb_next":
        return tb.next
    if name in ("tb_lineno", "tb_lasti"):
        return ConstVar(tb.lineno if name == "tb_lineno" else tb.lasti)
    raise Unsupported("attr", f"traceback.{name}")


def exc_attr(vm: VM, exc: Var, name: str) -> Var:
    """An attribute of an exception that traced code reads without making it real."""
    if name in STATE:
        return get_state(vm, exc, name)
    if type(exc) is ExcVar and name == "args":
        return TupleVar([ConstVar(a) for a in exc.args])
    raise Unsupported("attr", f"attribute {name} of an exception")


_LINES: weakref.WeakKeyDictionary[types.CodeType, dict[int, int]] = weakref.WeakKeyDictionary()


def line_at(code: types.CodeType, offset: int) -> int:
    """The line CPython puts in a traceback entry for the instruction at `offset` (-1: none)."""
    table = _LINES.get(code)
    if table is None:
        table = _LINES[code] = {}
        for start, end, line in code.co_lines():
            for off in range(start, end, 2):
                table[off] = -1 if line is None else line
    return table.get(offset, -1)
