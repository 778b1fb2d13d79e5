"""Operators, attribute access and subscripts."""

from __future__ import annotations

import operator
from typing import TYPE_CHECKING

from .._errors import Unsupported
from .._runtime import NULL as NULL_REAL
from . import _version as V
from ._arith import binary, compare, contains, is_same, unary
from ._attrs import get_item, load_attr, store_attr, store_item
from ._iface import Inline
from ._models_py import delete_item
from ._opcodes import EagerSpec, Resume, handles
from ._values import NULL, ConstVar, GenVar, MethodVar

if TYPE_CHECKING:
    from ._code import Instr
    from ._frame import Frame
    from ._interp import VM


def _binary_op_eager(frame: Frame, ins: Instr) -> EagerSpec:
    sym, fn = V.BINARY_OPS[ins.arg]
    return EagerSpec(fn, 2, label=sym)


@handles("BINARY_OP", eager=_binary_op_eager)
def _binary_op(vm: VM, frame: Frame, ins: Instr) -> None:
    sym, fn = V.BINARY_OPS[ins.arg]
    a, b = vm.peek(2)
    r = binary(vm, fn, sym, a, b)
    vm.popn(2)
    frame.stack.append(r)
    frame.ip += 1


def _compare_op_eager(frame: Frame, ins: Instr) -> EagerSpec:
    return EagerSpec(V.COMPARE_OPS[ins.argval], 2, label=ins.argval)


@handles("COMPARE_OP", eager=_compare_op_eager)
def _compare_op(vm: VM, frame: Frame, ins: Instr) -> None:
    fn = V.COMPARE_OPS[ins.argval]
    a, b = vm.peek(2)
    r = compare(vm, fn, ins.argval, a, b)
    vm.popn(2)
    frame.stack.append(r)
    frame.ip += 1


def _is_not(a, b):
    return a is not b


def _is_op_eager(frame: Frame, ins: Instr) -> EagerSpec:
    return EagerSpec(_is_not if ins.arg else operator.is_, 2)


@handles("IS_OP", eager=_is_op_eager)
def _is_op(vm: VM, frame: Frame, ins: Instr) -> None:
    a, b = vm.peek(2)
    r = is_same(vm, a, b)
    if r is None:
        raise Unsupported("is", "`is` between values the trace cannot tell apart")
    vm.popn(2)
    frame.stack.append(ConstVar(r != bool(ins.arg)))
    frame.ip += 1


def _not_contains(a, b):
    return a not in b


def _contains(a, b):
    return a in b


def _contains_op_eager(frame: Frame, ins: Instr) -> EagerSpec:
    return EagerSpec(_not_contains if ins.arg else _contains, 2)


@handles("CONTAINS_OP", eager=_contains_op_eager)
def _contains_op(vm: VM, frame: Frame, ins: Instr) -> None:
    a, b = vm.peek(2)
    r = contains(vm, a, b)
    vm.popn(2)
    frame.stack.append(ConstVar(r.value != bool(ins.arg)))
    frame.ip += 1


def _unary_eager(frame: Frame, ins: Instr) -> EagerSpec:
    return EagerSpec(V.UNARY_OPS[ins.opname], 1)


@handles(*V.UNARY_OPS, eager=_unary_eager)
def _unary(vm: VM, frame: Frame, ins: Instr) -> None:
    fn = V.UNARY_OPS[ins.opname]
    v = vm.peek(1)[0]
    r = unary(vm, fn, v)
    frame.stack[-1] = r
    frame.ip += 1


def _load_attr_eager(frame: Frame, ins: Instr) -> EagerSpec:
    name = ins.argval

    def load_attr_eager(obj):
        return getattr(obj, name)

    return EagerSpec(load_attr_eager, 1, label="getattr")


@handles("LOAD_ATTR", eager=_load_attr_eager)
def _load_attr(vm: VM, frame: Frame, ins: Instr) -> None:
    v = vm.peek(1)[0]
    r = load_attr(vm, v, ins.argval)
    if isinstance(r, Inline):  # a property getter runs as a frame; its result replaces the object
        frame.stack.pop()
        vm.push_frame(frame, r)
        return
    frame.stack[-1] = r
    frame.ip += 1


def _load_method_eager(frame: Frame, ins: Instr) -> EagerSpec:
    name = ins.argval

    def load_method_eager(obj):
        return [NULL_REAL, getattr(obj, name)]

    return EagerSpec(load_method_eager, 1, resume=Resume.PUSHN, label="getattr")


@handles("LOAD_METHOD", eager=_load_method_eager)
def _load_method(vm: VM, frame: Frame, ins: Instr) -> None:
    v = vm.peek(1)[0]
    if type(v) is GenVar and ins.argval == "send" and v.pytype is None:
        # g.send(a) (_generators.step). Only LOAD_METHOD makes this value, and only its call consumes it
        # (`g.send` read as a value is eager: the generator is made real), so a break while the argument is
        # computed may persist it (engine/_snapshot.py).
        frame.stack[-1] = NULL
        frame.stack.append(MethodVar(v, "send"))
        frame.ip += 1
        return
    r = load_attr(vm, v, ins.argval)
    if isinstance(r, Inline):
        frame.stack[-1] = NULL
        vm.push_frame(frame, r)
        return
    frame.stack[-1] = NULL
    frame.stack.append(r)
    frame.ip += 1


def _store_attr_eager(frame: Frame, ins: Instr) -> EagerSpec:
    name = ins.argval

    def store_attr_eager(value, obj) -> None:
        setattr(obj, name, value)

    return EagerSpec(store_attr_eager, 2, resume=Resume.NONE, label="setattr")


@handles("STORE_ATTR", eager=_store_attr_eager)
def _store_attr(vm: VM, frame: Frame, ins: Instr) -> None:
    val, obj = vm.peek(2)
    r = store_attr(vm, obj, ins.argval, val)
    vm.popn(2)
    if isinstance(r, Inline):
        vm.push_frame(frame, r)
        return
    frame.ip += 1


def _delete_attr_eager(frame: Frame, ins: Instr) -> EagerSpec:
    name = ins.argval

    def delete_attr(obj) -> None:
        delattr(obj, name)

    return EagerSpec(delete_attr, 1, resume=Resume.NONE)


@handles("DELETE_ATTR", eager=_delete_attr_eager)
def _delete_attr(vm: VM, frame: Frame, ins: Instr) -> None:
    raise Unsupported("delete-attr", "del of an attribute")


def _binary_subscr_eager(frame: Frame, ins: Instr) -> EagerSpec:
    return EagerSpec(operator.getitem, 2, label="getitem")


@handles("BINARY_SUBSCR", eager=_binary_subscr_eager)
def _binary_subscr(vm: VM, frame: Frame, ins: Instr) -> None:
    c, k = vm.peek(2)
    r = get_item(vm, c, k)
    vm.popn(2)
    if isinstance(r, Inline):
        vm.push_frame(frame, r)
        return
    frame.stack.append(r)
    frame.ip += 1


def _setitem(value, container, key) -> None:
    container[key] = value


def _store_subscr_eager(frame: Frame, ins: Instr) -> EagerSpec:
    return EagerSpec(_setitem, 3, resume=Resume.NONE, label="setitem")


@handles("STORE_SUBSCR", eager=_store_subscr_eager)
def _store_subscr(vm: VM, frame: Frame, ins: Instr) -> None:
    v, c, k = vm.peek(3)
    r = store_item(vm, c, k, v)
    vm.popn(3)
    if isinstance(r, Inline):
        vm.push_frame(frame, r)
        return
    frame.ip += 1


def _delete_subscr_eager(frame: Frame, ins: Instr) -> EagerSpec:
    return EagerSpec(operator.delitem, 2, resume=Resume.NONE)


@handles("DELETE_SUBSCR", eager=_delete_subscr_eager)
def _delete_subscr(vm: VM, frame: Frame, ins: Instr) -> None:
    try:
        done = delete_item(vm, *vm.peek(2))
    except Unsupported:
        done = False
    if not done:
        raise Unsupported("delete-subscr", "del of an item", eager=_delete_subscr_eager(frame, ins))
    vm.popn(2)
    frame.ip += 1

