"""Operators, attribute access and subscripts."""

from __future__ import annotations

import operator

from .._errors import Unsupported
from . import _version as V
from ._arith import binary, compare, contains, is_same, unary
from ._attrs import get_item, load_attr, store_attr, store_item
from ._calls import Inline
from ._opcodes import EagerSpec, handles
from ._values import NULL, ConstVar


def _eager(u, spec):
    if u.eager is None:
        u.eager = spec
    return u


@handles("BINARY_OP")
def _binary_op(vm, frame, ins):
    sym, fn = V.BINARY_OPS[ins.arg]
    a, b = vm.peek(2)
    try:
        r = binary(vm, fn, sym, a, b)
    except Unsupported as u:
        raise _eager(u, EagerSpec(fn, 2, label=sym)) from None
    vm.popn(2)
    frame.stack.append(r)
    frame.ip += 1


@handles("COMPARE_OP")
def _compare_op(vm, frame, ins):
    fn = V.COMPARE_OPS[ins.argval]
    a, b = vm.peek(2)
    try:
        r = compare(vm, fn, ins.argval, a, b)
    except Unsupported as u:
        raise _eager(u, EagerSpec(fn, 2, label=ins.argval)) from None
    vm.popn(2)
    frame.stack.append(r)
    frame.ip += 1


def _is_not(a, b):
    return a is not b


@handles("IS_OP")
def _is_op(vm, frame, ins):
    a, b = vm.peek(2)
    r = is_same(vm, a, b)
    if r is None:
        raise Unsupported("is", "`is` between values the trace cannot tell apart", "",
                          EagerSpec(_is_not if ins.arg else operator.is_, 2))
    vm.popn(2)
    frame.stack.append(ConstVar(r != bool(ins.arg)))
    frame.ip += 1


def _not_contains(a, b):
    return a not in b


def _contains(a, b):
    return a in b


@handles("CONTAINS_OP")
def _contains_op(vm, frame, ins):
    a, b = vm.peek(2)
    try:
        r = contains(vm, a, b)
    except Unsupported as u:
        raise _eager(u, EagerSpec(_not_contains if ins.arg else _contains, 2)) from None
    vm.popn(2)
    frame.stack.append(ConstVar(r.value != bool(ins.arg)))
    frame.ip += 1


@handles(*V.UNARY_OPS)
def _unary(vm, frame, ins):
    fn = V.UNARY_OPS[ins.opname]
    v = vm.peek(1)[0]
    try:
        r = unary(vm, fn, v)
    except Unsupported as u:
        raise _eager(u, EagerSpec(fn, 1)) from None
    frame.stack[-1] = r
    frame.ip += 1


def _getattr_adapter(name):
    def load_attr_eager(obj):
        return getattr(obj, name)

    return load_attr_eager


@handles("LOAD_ATTR")
def _load_attr(vm, frame, ins):
    v = vm.peek(1)[0]
    try:
        r = load_attr(vm, v, ins.argval)
    except Unsupported as u:
        raise _eager(u, EagerSpec(_getattr_adapter(ins.argval), 1, label="getattr")) from None
    if isinstance(r, Inline):  # a property getter runs as a frame; its result replaces the object
        frame.stack.pop()
        _push_frame(vm, frame, r)
        return
    frame.stack[-1] = r
    frame.ip += 1


def _push_frame(vm, frame, inline):
    frame.ip += 1
    frame.call_index = frame.ip - 1
    vm.frames.append(inline.frame)


def _method_adapter(name):
    def load_method_eager(obj):
        return [NULL_REAL, getattr(obj, name)]

    return load_method_eager


@handles("LOAD_METHOD")
def _load_method(vm, frame, ins):
    v = vm.peek(1)[0]
    try:
        r = load_attr(vm, v, ins.argval)
    except Unsupported as u:
        raise _eager(u, EagerSpec(_method_adapter(ins.argval), 1, resume="pushn", label="getattr")) from None
    if isinstance(r, Inline):
        frame.stack[-1] = NULL
        _push_frame(vm, frame, r)
        return
    frame.stack[-1] = NULL
    frame.stack.append(r)
    frame.ip += 1


def _setattr_adapter(name):
    def store_attr_eager(value, obj):
        setattr(obj, name, value)

    return store_attr_eager


@handles("STORE_ATTR")
def _store_attr(vm, frame, ins):
    val, obj = vm.peek(2)
    try:
        r = store_attr(vm, obj, ins.argval, val)
    except Unsupported as u:
        raise _eager(u, EagerSpec(_setattr_adapter(ins.argval), 2, resume="none", label="setattr")) from None
    vm.popn(2)
    if isinstance(r, Inline):
        _push_frame(vm, frame, r)
        return
    frame.ip += 1


@handles("DELETE_ATTR")
def _delete_attr(vm, frame, ins):
    name = ins.argval

    def delete_attr(obj):
        delattr(obj, name)

    raise Unsupported("delete-attr", "del of an attribute", "", EagerSpec(delete_attr, 1, resume="none"))


@handles("BINARY_SUBSCR")
def _binary_subscr(vm, frame, ins):
    c, k = vm.peek(2)
    try:
        r = get_item(vm, c, k)
    except Unsupported as u:
        raise _eager(u, EagerSpec(operator.getitem, 2, label="getitem")) from None
    vm.popn(2)
    if isinstance(r, Inline):
        _push_frame(vm, frame, r)
        return
    frame.stack.append(r)
    frame.ip += 1


def _store_subscr_eager(value, container, key):
    container[key] = value


@handles("STORE_SUBSCR")
def _store_subscr(vm, frame, ins):
    v, c, k = vm.peek(3)
    try:
        r = store_item(vm, c, k, v)
    except Unsupported as u:
        raise _eager(u, EagerSpec(_store_subscr_eager, 3, resume="none", label="setitem")) from None
    vm.popn(3)
    if isinstance(r, Inline):
        _push_frame(vm, frame, r)
        return
    frame.ip += 1


@handles("DELETE_SUBSCR")
def _delete_subscr(vm, frame, ins):
    raise Unsupported("delete-subscr", "del of an item", "", EagerSpec(operator.delitem, 2, resume="none"))


from .._runtime import NULL as NULL_REAL  # noqa: E402
