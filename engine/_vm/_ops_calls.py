"""Calls, function creation, returns and imports."""

from __future__ import annotations

import builtins
import types
from typing import TYPE_CHECKING

from .. import _runtime as R
from .._errors import FrameBound, Unsupported
from . import _version as V
from ._calls import call, seq_items
from ._exceptions import raise_new
from ._generators import on_yield, send, send_eager
from ._iface import Inline, Raise
from ._iters import get_iter
from ._methods import dict_view
from ._opcodes import EagerSpec, handles
from ._values import NULL, DictVar, FuncVar, GenVar, ObjVar, TupleVar

if TYPE_CHECKING:
    from ._code import Instr
    from ._ending import Ending
    from ._frame import Frame
    from ._interp import VM
    from ._values import Var


def call_adapter(kw_names, classic_ctx=None):
    """Runs a CALL for real from its stack items [NULL|callable, callable|self, *args]."""
    nkw = len(kw_names)

    def eager_call(*items):
        if items[0] is R.NULL:
            fn, args = items[1], items[2:]
        else:
            fn, args = items[0], items[1:]
        if nkw:
            kwargs = dict(zip(kw_names, args[len(args) - nkw:]))
            args = args[:len(args) - nkw]
        else:
            kwargs = {}
        if classic_ctx is not None:
            fn = classic_ctx.classic_callee(fn)
        return fn(*args, **kwargs)

    return eager_call


def _commit_call(vm: VM, frame: Frame, res: Var | Inline, npop: int) -> None:
    vm.popn(npop)
    frame.kw_names = None
    vm.push_result(frame, res)


@handles("KW_NAMES")
def _kw_names(vm: VM, frame: Frame, ins: Instr) -> None:
    frame.kw_names = ins.argval if isinstance(ins.argval, tuple) else frame.info.code.co_consts[ins.arg]
    frame.ip += 1


def _reads_frame(frame: Frame, nitems: int) -> bool:
    """The callable of the top `nitems` stack items ([NULL|callable, callable|self, ...]) reads the
    calling frame. Only a known object is looked at: anything else keeps the call as its eager form."""
    items = frame.stack[len(frame.stack) - nitems:]
    fn = items[1] if items[0] is NULL else items[0]
    if type(fn) is FuncVar:  # a reader written in Python (inspect.currentframe)
        return fn.real is not None and V.reads_calling_frame(fn.real, 0)
    if type(fn) is not ObjVar:
        return False
    return fn.obj is super or V.reads_calling_frame(fn.obj, 0)


def _call_eager(frame: Frame, ins: Instr, classic_ctx=None) -> EagerSpec:
    return EagerSpec(call_adapter(frame.kw_names or (), classic_ctx), ins.arg + 2, label="call")


def _call_eager_form(frame: Frame, ins: Instr) -> EagerSpec | None:
    # A call that reads the calling frame (zero-argument super(), locals()...) has no eager form outside it.
    return None if _reads_frame(frame, ins.arg + 2) else _call_eager(frame, ins)


@handles("CALL", eager=_call_eager_form, attach=False)
def _call(vm: VM, frame: Frame, ins: Instr) -> Ending | None:
    argc = ins.arg
    items = vm.peek(argc + 2)
    kw = frame.kw_names or ()
    if items[0] is NULL:
        fn, args = items[1], items[2:]
    else:
        fn, args = items[0], items[1:]
    nkw = len(kw)
    pos = args[:len(args) - nkw]
    kwargs = dict(zip(kw, args[len(args) - nkw:]))
    try:
        res = call(vm, fn, pos, kwargs)
    except Unsupported as u:
        if u.eager is None and not isinstance(u, FrameBound):
            u.eager = _call_eager(frame, ins, vm.ctx if u.classic else None)
        raise
    except Raise as r:  # (unwinding drops the call's stack items)
        try:
            ending = raise_new(vm, frame, r.exc)
        except Unsupported as u:
            u.eager = u.eager or _call_eager(frame, ins)
            raise
        frame.kw_names = None
        return ending
    _commit_call(vm, frame, res, argc + 2)


def _call_ex(null, fn, args, kwargs=None):
    return fn(*args, **(kwargs or {}))


def _call_ex_classic(ctx):
    def eager_call_ex(null, fn, args, kwargs=None):
        return ctx.classic_callee(fn)(*args, **(kwargs or {}))

    return eager_call_ex


def _call_ex_eager(frame: Frame, ins: Instr, classic_ctx=None) -> EagerSpec:
    adapter = _call_ex if classic_ctx is None else _call_ex_classic(classic_ctx)
    return EagerSpec(adapter, 4 if ins.arg & 1 else 3, label="call")


def _call_ex_eager_form(frame: Frame, ins: Instr) -> EagerSpec | None:
    return None if _reads_frame(frame, 4 if ins.arg & 1 else 3) else _call_ex_eager(frame, ins)


@handles("CALL_FUNCTION_EX", eager=_call_ex_eager_form, attach=False)
def _call_function_ex(vm: VM, frame: Frame, ins: Instr) -> None:
    n = 4 if ins.arg & 1 else 3
    items = vm.peek(n)
    fn, argv = items[1], items[2]
    kwv = items[3] if n == 4 else None
    try:
        if type(argv) is not TupleVar:
            args = seq_items(vm, argv)
        else:
            args = argv.items
        kwargs = {}
        if kwv is not None:
            if type(kwv) is not DictVar:
                raise Unsupported("call-ex", "**kwargs is not a dict")
            d = dict_view(vm, kwv) if kwv.real is not None else kwv.items
            if not all(type(k) is str for k in d):
                raise Unsupported("call-ex", "**kwargs keys are not strings")
            kwargs = dict(d)
        res = call(vm, fn, list(args), kwargs)
    except Unsupported as u:
        if u.eager is None and not isinstance(u, FrameBound):
            u.eager = _call_ex_eager(frame, ins, vm.ctx if u.classic else None)
        raise
    _commit_call(vm, frame, res, n)


@handles("MAKE_FUNCTION")
def _make_function(vm: VM, frame: Frame, ins: Instr) -> None:
    flags = ins.arg
    present = [name for name, bit in V.MAKE_FUNCTION_FLAGS if flags & bit]
    items = vm.peek(len(present) + 1)
    code = items[-1].value
    parts = dict(zip(present, items[:-1]))
    closure = parts.get("closure")
    fn = FuncVar(code, frame.fglobals, code.co_name, code.co_qualname,
                 defaults=parts.get("defaults"), kwdefaults=parts.get("kwdefaults"),
                 closure=list(closure.items) if closure is not None else None,
                 annotations=parts.get("annotations"))
    vm.popn(len(present) + 1)
    frame.stack.append(fn)
    frame.ip += 1


@handles("RETURN_VALUE")
def _return_value(vm: VM, frame: Frame, ins: Instr) -> Ending | None:
    value = frame.stack.pop()
    return vm.return_value(value)


def _import_name_eager(frame: Frame, ins: Instr) -> EagerSpec:
    g, name = frame.fglobals, ins.argval

    def import_name(level, fromlist):
        return builtins.__import__(name, g, None, fromlist, level)

    return EagerSpec(import_name, 2)


@handles("IMPORT_NAME", eager=_import_name_eager)
def _import_name(vm: VM, frame: Frame, ins: Instr) -> None:
    raise Unsupported("import", f"import {ins.argval}")


def _import_from_eager(frame: Frame, ins: Instr) -> EagerSpec:
    name = ins.argval

    def import_from(module):
        return getattr(module, name)

    return EagerSpec(import_from, 1, npop=0)


@handles("IMPORT_FROM", eager=_import_from_eager)
def _import_from(vm: VM, frame: Frame, ins: Instr) -> None:
    raise Unsupported("import", f"from-import {ins.argval}")


def _yield_from_iter(v):
    return v if isinstance(v, types.GeneratorType) else iter(v)


def _get_yield_from_iter_eager(frame: Frame, ins: Instr) -> EagerSpec:
    return EagerSpec(_yield_from_iter, 1, label="iter")


@handles("GET_YIELD_FROM_ITER", eager=_get_yield_from_iter_eager)
def _get_yield_from_iter(vm: VM, frame: Frame, ins: Instr) -> None:
    """`yield from v`: a traced generator is its own iterator; anything else is iter(v)."""
    v = vm.peek(1)[0]
    if type(v) is not GenVar:
        frame.stack[-1] = get_iter(vm, v)
    frame.ip += 1


def _send_eager(frame: Frame, ins: Instr) -> EagerSpec:
    return send_eager(frame, ins)


@handles("SEND", eager=_send_eager, attach=False)
def _send(vm: VM, frame: Frame, ins: Instr) -> None:
    send(vm, frame, ins)


@handles("YIELD_VALUE")
def _yield_value(vm: VM, frame: Frame, ins: Instr) -> Ending | None:
    value = vm.pop()
    return on_yield(vm, frame, value)
