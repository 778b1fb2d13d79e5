"""with-blocks and exceptions: 3.11's exception table drives unwinding over the explicit frame stack."""

from __future__ import annotations

import types
from typing import TYPE_CHECKING

from .._errors import Unsupported
from .._guards import AttrSrc
from ._calls import Inline, call
from ._objects import enter_user_ctx, is_plain_exception
from ._opcodes import EagerSpec, Resume, handles
from ._regions import _region_of
from ._regions import enter as enter_region
from ._values import (
    BoundMethodVar,
    CMExitVar,
    CMVar,
    ConstVar,
    ExcVar,
    FuncVar,
    GradCtxVar,
    GradExitVar,
    NewObjVar,
    ObjVar,
    TbVar,
    TupleVar,
)

if TYPE_CHECKING:
    from ._code import Instr
    from ._ending import Ending
    from ._frame import Frame
    from ._interp import VM
    from ._values import Var


def is_exception(v: Var) -> bool:
    return type(v) is ExcVar or (type(v) is ObjVar and isinstance(v.obj, BaseException))


def _before_with(ctx):
    t = type(ctx)
    if not hasattr(t, "__enter__") or not hasattr(t, "__exit__"):
        raise TypeError(f"'{t.__name__}' object does not support the context manager protocol")
    exit_ = t.__exit__.__get__(ctx, t)
    return [exit_, t.__enter__(ctx)]


def _before_with_eager(frame: Frame, ins: Instr) -> EagerSpec:
    return EagerSpec(_before_with, 1, resume=Resume.PUSHN, label="enter")


@handles("BEFORE_WITH", eager=_before_with_eager)
def _before_with_h(vm: VM, frame: Frame, ins: Instr) -> None:
    ctx = vm.peek(1)[0]
    if type(ctx) is GradCtxVar:
        if ctx.prev is None:
            exit_ = GradExitVar(vm.grad)
            vm.set_grad(ctx.target)
        else:  # set_grad_enabled: __enter__ sets the mode again, __exit__ restores the mode before __init__
            exit_ = GradExitVar(ctx.prev)
            vm.set_grad(ctx.target)
        frame.stack[-1] = exit_
        frame.stack.append(ConstVar(None))
        frame.ip += 1
        return
    if type(ctx) is CMVar and not ctx.entered:
        from ._generators import drive

        value = drive(vm, ctx.gen)
        if value is not None:
            ctx.entered = True
            frame.stack[-1] = CMExitVar(ctx.gen)
            frame.stack.append(value)
            frame.ip += 1
            return
    region = enter_region(vm, ctx)
    try:
        if region is not None:
            exit_, res = region
        elif type(ctx) is NewObjVar:
            exit_, res = enter_user_ctx(vm, ctx, ctx.cls)
        elif type(ctx) is ObjVar and not isinstance(ctx.obj, (type, types.ModuleType)) and \
                type(ctx.obj).__getattribute__ is object.__getattribute__:
            exit_, res = enter_user_ctx(vm, ctx, type(ctx.obj))
        else:
            raise Unsupported("with", f"with-block over a {type(ctx).__name__}")
    except Unsupported as u:
        u.eager = _before_with_eager(frame, ins)
        raise
    frame.stack[-1] = exit_
    frame.ip += 1
    if isinstance(res, Inline):
        frame.call_index = frame.ip - 1
        vm.frames.append(res.frame)
    else:
        frame.stack.append(res)


def _with_except_start(exit_, lasti, prev, exc):
    return exit_(type(exc), exc, exc.__traceback__)


def _exc_parts(vm: VM, exc: Var):
    if type(exc) is ExcVar:
        raise Unsupported("exc", "an exception made while tracing has no traceback yet")
    if type(exc) is not ObjVar:
        raise Unsupported("exc", "exception value is not a real exception")
    tb = exc.obj.__traceback__
    src = exc.src
    tbv = ObjVar(tb, AttrSrc(src, "__traceback__")) if src is not None else ObjVar(tb, None)
    return [ObjVar(type(exc.obj), None), exc, tbv]


def _user_exit(exit_: Var) -> bool:
    """The exit of a user context manager (a traced `__exit__` method: see enter_user_ctx)."""
    return type(exit_) is BoundMethodVar and type(exit_.func) is FuncVar and exit_.func.real is not None


def _exit_with_made_exception(vm: VM, exit_: Var, exc: ExcVar) -> Inline:
    """A user `__exit__` traced with an exception made while tracing: its traceback is an opaque TbVar
    (the trace restarts with this call eager if the traceback must become real)."""
    tb = TbVar()
    res = call(vm, exit_, [ObjVar(exc.cls, None), exc, tb], {})
    if not isinstance(res, Inline):
        raise Unsupported("exc", "an exception made while tracing has no traceback yet")
    tb.call_no = res.frame.call_no
    return res


def _with_except_start_eager(frame: Frame, ins: Instr) -> EagerSpec:
    return EagerSpec(_with_except_start, 4, npop=0, label="exit")


@handles("WITH_EXCEPT_START", eager=_with_except_start_eager)
def _with_except_start_h(vm: VM, frame: Frame, ins: Instr) -> None:
    exit_, _lasti, _prev, exc = vm.peek(4)
    try:
        if type(exit_) is GradExitVar:
            res = call(vm, exit_, [], {})
        elif _region_of(vm, vm.resolve(exit_)) is not None:  # a no-op ignoring the exception: no traceback needed
            res = call(vm, vm.resolve(exit_), [ConstVar(None)] * 3, {})
        elif type(exc) is ExcVar and _user_exit(exit_):
            res = _exit_with_made_exception(vm, exit_, exc)
        else:
            res = call(vm, exit_, _exc_parts(vm, exc), {})
    except Unsupported as u:
        if u.eager is None:
            u.eager = _with_except_start_eager(frame, ins)
        raise
    frame.ip += 1
    if isinstance(res, Inline):
        frame.call_index = frame.ip - 1
        vm.frames.append(res.frame)
        if res.grad is not None:
            vm.set_grad(res.grad)
    else:
        frame.stack.append(res)


@handles("PUSH_EXC_INFO")
def _push_exc_info(vm: VM, frame: Frame, ins: Instr) -> None:
    exc = frame.stack.pop()
    frame.stack.append(vm.cur_exc)
    frame.stack.append(exc)
    vm.cur_exc = exc
    frame.ip += 1


@handles("POP_EXCEPT")
def _pop_except(vm: VM, frame: Frame, ins: Instr) -> None:
    vm.cur_exc = frame.stack.pop()
    frame.ip += 1


def _check_exc_match(exc, cls):
    return [exc, isinstance(exc, cls)]


def _check_exc_match_eager(frame: Frame, ins: Instr) -> EagerSpec:
    return EagerSpec(_check_exc_match, 2, resume=Resume.PUSHN)


@handles("CHECK_EXC_MATCH", eager=_check_exc_match_eager)
def _check_exc_match_h(vm: VM, frame: Frame, ins: Instr) -> None:
    exc, cls = vm.peek(2)
    if is_exception(exc):
        real_type = exc.cls if type(exc) is ExcVar else type(exc.obj)
        if type(cls) is ObjVar and isinstance(cls.obj, type):
            r = issubclass(real_type, cls.obj)
        elif type(cls) is TupleVar and all(type(c) is ObjVar and isinstance(c.obj, type) for c in cls.items):
            r = issubclass(real_type, tuple(c.obj for c in cls.items))
        else:
            r = None
        if r is not None:
            frame.stack[-1] = ConstVar(r)
            frame.ip += 1
            return
    raise Unsupported("exc-match", "except clause over unknown classes", eager=_check_exc_match_eager(frame, ins))


def _raise_eager(exc) -> None:
    raise exc


def _raise_from(exc, cause) -> None:
    raise exc from cause


def _reraise_none() -> None:
    raise RuntimeError("No active exception to reraise")


def _reraise_eager(frame: Frame, ins: Instr) -> EagerSpec:
    return EagerSpec(_raise_eager, 1, resume=Resume.NONE)


@handles("RERAISE", eager=_reraise_eager)
def _reraise(vm: VM, frame: Frame, ins: Instr) -> Ending | None:
    exc = vm.peek(1)[0]
    if not is_exception(exc):
        raise Unsupported("reraise", "re-raising an unknown value", eager=_reraise_eager(frame, ins))
    frame.stack.pop()
    return vm.raise_exc(exc)


def _raise_varargs_eager(frame: Frame, ins: Instr) -> EagerSpec:
    fn = (_reraise_none, _raise_eager, _raise_from)[ins.arg]
    return EagerSpec(fn, ins.arg, resume=Resume.NONE)


@handles("RAISE_VARARGS", eager=_raise_varargs_eager)
def _raise_varargs(vm: VM, frame: Frame, ins: Instr) -> Ending | None:
    if ins.arg == 0:
        exc = vm.resolve(vm.cur_exc)
        if is_exception(exc):
            return vm.raise_exc(exc)
        raise Unsupported("raise", "bare raise", eager=_raise_varargs_eager(frame, ins))
    if ins.arg == 1:
        exc = vm.peek(1)[0]
        if type(exc) is ObjVar and is_plain_exception(exc.obj):
            exc = ExcVar(exc.obj, ())  # `raise ValueError`: the class is instantiated
        if is_exception(exc):
            frame.stack.pop()
            return vm.raise_exc(exc)
        raise Unsupported("raise", "raise of a value made while tracing", eager=_raise_varargs_eager(frame, ins))
    raise Unsupported("raise", "raise ... from ...", eager=_raise_varargs_eager(frame, ins))
