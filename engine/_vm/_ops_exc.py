"""with-blocks and exceptions: 3.11's exception table drives unwinding over the explicit frame stack."""

from __future__ import annotations

import types
from typing import TYPE_CHECKING

from .._errors import Unsupported
from ._calls import call
from ._exceptions import get_state, instance_of, is_exception, is_none, raise_new
from ._generators import cm_enter, cm_exit, throw_pending
from ._modes import enter as enter_mode
from ._modes import program_ctx
from ._objects import enter_user_ctx
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
    ModeCtxVar,
    ModeExitVar,
    NewObjVar,
    ObjVar,
    TupleVar,
)

if TYPE_CHECKING:
    from ._code import Instr
    from ._ending import Ending
    from ._frame import Frame
    from ._interp import VM
    from ._values import Var


def _before_with(ctx):
    t = type(ctx)
    if not hasattr(t, "__enter__") or not hasattr(t, "__exit__"):
        raise TypeError(f"'{t.__name__}' object does not support the context manager protocol")
    exit_ = t.__exit__.__get__(ctx, t)
    return [exit_, t.__enter__(ctx)]


def _before_with_eager(frame: Frame, ins: Instr) -> EagerSpec:
    return EagerSpec(_before_with, 1, resume=Resume.PUSHN, label="enter")


@handles("BEFORE_WITH", eager=_before_with_eager, attach=False)
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
    mode = ctx if type(ctx) is ModeCtxVar else program_ctx(vm, ctx) if type(ctx) is ObjVar else None
    if mode is not None:
        try:
            exit_, res = enter_mode(vm, mode)
        except Unsupported as u:
            u.eager = _before_with_eager(frame, ins)
            raise
        frame.stack[-1] = exit_
        frame.stack.append(res)
        frame.ip += 1
        return
    if type(ctx) is CMVar and not ctx.entered:
        cm_enter(vm, frame, ctx.gen)
        ctx.entered = True
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
    vm.push_result(frame, res)


def _with_except_start(exit_, lasti, prev, exc):
    return exit_(type(exc), exc, exc.__traceback__)


def _exc_parts(vm: VM, exc: Var) -> list[Var]:
    """`__exit__`'s arguments for `exc`: its type, itself, its traceback as raising left it."""
    if not is_exception(exc):
        raise Unsupported("exc", "exception value is not a real exception")
    cls = exc.cls if type(exc) is ExcVar else type(exc.obj)
    return [ObjVar(cls, None), exc, get_state(vm, exc, "__traceback__")]


def _user_exit(exit_: Var) -> bool:
    """The exit of a user context manager (a traced `__exit__` method: see enter_user_ctx)."""
    return type(exit_) is BoundMethodVar and type(exit_.func) is FuncVar and exit_.func.real is not None


def _with_except_start_eager(frame: Frame, ins: Instr) -> EagerSpec:
    return EagerSpec(_with_except_start, 4, npop=0, label="exit")


@handles("WITH_EXCEPT_START", eager=_with_except_start_eager, attach=False)
def _with_except_start_h(vm: VM, frame: Frame, ins: Instr) -> None:
    exit_, _lasti, _prev, exc = vm.peek(4)
    if type(exit_) is CMExitVar and is_exception(exc) and exit_.gen.state == "suspended":
        gen_frame = cm_exit(vm, exit_.gen, exc, get_state(vm, exc, "__traceback__"))
        vm.push_frame(frame, gen_frame)
        return throw_pending(vm)
    try:
        if type(exit_) is GradExitVar or type(exit_) is ModeExitVar:
            res = call(vm, exit_, [], {})
        elif _region_of(vm, vm.resolve(exit_)) is not None:  # a no-op ignoring the exception: no traceback needed
            res = call(vm, vm.resolve(exit_), [ConstVar(None)] * 3, {})
        else:
            res = call(vm, exit_, _exc_parts(vm, exc), {})
    except Unsupported as u:
        if u.eager is None:
            u.eager = _with_except_start_eager(frame, ins)
        raise
    vm.push_result(frame, res)


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
    raise Unsupported("exc-match", "except clause over unknown classes")


def _raise_eager(exc) -> None:
    raise exc


def _raise_from(exc, cause) -> None:
    raise exc from cause


def _reraise_bare() -> None:
    raise  # the runtime runs eager ops while the exception the VM handles is handled (or none is)


def _reraise_kept(exc) -> None:
    """RERAISE for real: it sets no context (a Python `raise` would); the traceback entries of this frame
    are the engine's and are dropped (engine/_tracebacks.py)."""
    ctx = exc.__context__
    try:
        raise exc
    finally:
        exc.__context__ = ctx


def _reraise_eager(frame: Frame, ins: Instr) -> EagerSpec:
    return EagerSpec(_reraise_kept, 1, resume=Resume.NONE)


@handles("RERAISE", eager=_reraise_eager, attach=False)
def _reraise(vm: VM, frame: Frame, ins: Instr) -> Ending | None:
    exc = vm.peek(1)[0]
    if not is_exception(exc):
        raise Unsupported("reraise", "re-raising an unknown value", eager=_reraise_eager(frame, ins))
    frame.stack.pop()
    return vm.raise_exc(exc)


def _raise_varargs_eager(frame: Frame, ins: Instr) -> EagerSpec:
    fn = (_reraise_bare, _raise_eager, _raise_from)[ins.arg]
    return EagerSpec(fn, ins.arg, resume=Resume.NONE)


@handles("RAISE_VARARGS", eager=_raise_varargs_eager, attach=False)
def _raise_varargs(vm: VM, frame: Frame, ins: Instr) -> Ending | None:
    if ins.arg == 0:  # a bare raise re-raises the handled exception as it is: no context, no new entry
        exc = vm.resolve(vm.cur_exc)
        if is_exception(exc):
            return vm.raise_exc(exc)
        raise Unsupported("raise", "bare raise", eager=_raise_varargs_eager(frame, ins))
    args = vm.peek(ins.arg)
    exc = instance_of(vm, args[0])
    cause = None
    if ins.arg == 2:
        cause = args[1] if is_none(args[1]) else instance_of(vm, args[1])
    if exc is None or (ins.arg == 2 and cause is None):
        raise Unsupported("raise", "raise of a value the VM does not know as an exception",
                          eager=_raise_varargs_eager(frame, ins))
    return raise_new(vm, frame, exc, cause)  # unwinding drops the operands
