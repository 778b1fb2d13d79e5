"""Building and unpacking tuples, lists, dicts, sets, slices and strings."""

from __future__ import annotations

from typing import TYPE_CHECKING

import torch

from .._errors import Unsupported
from ._calls import seq_items
from ._methods import _touch, call_method, dict_view, key_of, list_items
from ._opcodes import EagerSpec, Resume, handles
from ._sets import new_set, set_method
from ._values import ConstVar, DictVar, ListVar, SetVar, SliceVar, TupleVar, Var

if TYPE_CHECKING:
    from ._code import Instr
    from ._frame import Frame
    from ._interp import VM


@handles("BUILD_TUPLE")
def _build_tuple(vm: VM, frame: Frame, ins: Instr) -> None:
    items = vm.peek(ins.arg) if ins.arg else []
    vm.popn(ins.arg)
    frame.stack.append(TupleVar(items))
    frame.ip += 1


@handles("BUILD_LIST")
def _build_list(vm: VM, frame: Frame, ins: Instr) -> None:
    items = vm.peek(ins.arg) if ins.arg else []
    vm.popn(ins.arg)
    frame.stack.append(ListVar(items))
    frame.ip += 1


def _build_set(*items):
    return set(items)


def _build_set_eager(frame: Frame, ins: Instr) -> EagerSpec:
    return EagerSpec(_build_set, ins.arg, label="set")


@handles("BUILD_SET", eager=_build_set_eager)
def _build_set_h(vm: VM, frame: Frame, ins: Instr) -> None:
    sv = new_set(vm, [TupleVar(vm.peek(ins.arg))] if ins.arg else [])
    vm.popn(ins.arg)
    frame.stack.append(sv)
    frame.ip += 1


def _set_call(vm: VM, frame: Frame, ins: Instr, name: str) -> None:
    """SET_ADD / SET_UPDATE: the method call on the set below the top `ins.arg` items."""
    target = vm.resolve(frame.stack[-1 - ins.arg])
    if type(target) is not SetVar:
        raise Unsupported("set", f"{ins.opname} on an unknown set")
    set_method(vm, target, name, [vm.peek(1)[0]], {})
    frame.stack.pop()
    frame.ip += 1


def _build_map_real(*items):
    return dict(zip(items[0::2], items[1::2]))


def _build_map_eager(frame: Frame, ins: Instr) -> EagerSpec:
    return EagerSpec(_build_map_real, 2 * ins.arg)


def _dict_from(keys, values):
    return {key_of(k): v for k, v in zip(keys, values)}


@handles("BUILD_MAP", eager=_build_map_eager)
def _build_map(vm: VM, frame: Frame, ins: Instr) -> None:
    n = ins.arg
    items = vm.peek(2 * n) if n else []
    d = _dict_from(items[0::2], items[1::2])
    vm.popn(2 * n)
    frame.stack.append(DictVar(d))
    frame.ip += 1


def _const_key_map(*items):
    return dict(zip(items[-1], items[:-1]))


def _build_const_key_map_eager(frame: Frame, ins: Instr) -> EagerSpec:
    return EagerSpec(_const_key_map, ins.arg + 1)


@handles("BUILD_CONST_KEY_MAP", eager=_build_const_key_map_eager)
def _build_const_key_map(vm: VM, frame: Frame, ins: Instr) -> None:
    n = ins.arg
    items = vm.peek(n + 1)
    keys = items[-1]
    d = _dict_from([ConstVar(k) for k in keys.value], items[:-1])
    vm.popn(n + 1)
    frame.stack.append(DictVar(d))
    frame.ip += 1


@handles("BUILD_SLICE")
def _build_slice(vm: VM, frame: Frame, ins: Instr) -> None:
    items = vm.peek(ins.arg)
    if ins.arg == 2:
        items.append(ConstVar(None))
    vm.popn(ins.arg)
    frame.stack.append(SliceVar(*items))
    frame.ip += 1


def _join(*parts):
    return "".join(parts)


def _build_string_eager(frame: Frame, ins: Instr) -> EagerSpec:
    return EagerSpec(_join, ins.arg)


@handles("BUILD_STRING", eager=_build_string_eager)
def _build_string(vm: VM, frame: Frame, ins: Instr) -> None:
    items = vm.peek(ins.arg) if ins.arg else []
    if not all(type(x) is ConstVar and type(x.value) is str for x in items):
        raise Unsupported("build-string", "f-string of non-constant parts")
    vm.popn(ins.arg)
    frame.stack.append(ConstVar("".join(x.value for x in items)))
    frame.ip += 1


_CONVERSIONS = {0: None, 1: str, 2: repr, 3: ascii}


def _format_adapter(conv, has_spec):
    def format_value(value: object, spec: str = "") -> str:
        if conv is not None:
            value = conv(value)
        return format(value, spec)

    return format_value


_SCALARS = (int, float, str, bool, type(None))
_FORMATTABLE = _SCALARS + (tuple, torch.Size)


def _plain_const(v: Var) -> Var:
    """A tuple of scalar constants (e.g. `tuple(x.shape)`) formats like the constant tuple it is; so does a
    static shape (`x.shape`: shapes are static, so its text is known while tracing)."""
    if type(v) is TupleVar and v.pytype in (tuple, torch.Size) and all(
            type(x) is ConstVar and type(x.value) in _SCALARS for x in v.items):
        return ConstVar(v.pytype(x.value for x in v.items))
    return v


def _format_value_eager(frame: Frame, ins: Instr) -> EagerSpec:
    has_spec = bool(ins.arg & 4)
    return EagerSpec(_format_adapter(_CONVERSIONS[ins.arg & 3], has_spec), 2 if has_spec else 1, label="format")


@handles("FORMAT_VALUE", eager=_format_value_eager)
def _format_value(vm: VM, frame: Frame, ins: Instr) -> None:
    conv = _CONVERSIONS[ins.arg & 3]
    has_spec = bool(ins.arg & 4)
    n = 2 if has_spec else 1
    items = [_plain_const(x) for x in vm.peek(n)]
    if all(type(x) is ConstVar for x in items) and type(items[0].value) in _FORMATTABLE:
        out = _format_adapter(conv, has_spec)(*[x.value for x in items])
        vm.popn(n)
        frame.stack.append(ConstVar(out))
        frame.ip += 1
        return
    raise Unsupported("format", "formatting a non-constant value")


def _list_append_eager(frame: Frame, ins: Instr) -> EagerSpec:
    return EagerSpec(_append_at(ins.arg), ins.arg + 1, npop=1, resume=Resume.NONE)


@handles("LIST_APPEND", eager=_list_append_eager)
def _list_append(vm: VM, frame: Frame, ins: Instr) -> None:
    lst = vm.resolve(frame.stack[-1 - ins.arg])
    v = vm.peek(1)[0]
    if type(lst) is not ListVar:
        raise Unsupported("list-append", "LIST_APPEND on an unknown value")
    if lst.real is None:
        lst.items.append(v)
    else:  # a comprehension's list made real by a break inside the comprehension
        call_method(vm, lst, "append", [v], {})
    frame.stack.pop()
    frame.ip += 1


def _append_at(depth):
    def list_append(target, *rest) -> None:
        target.append(rest[-1])

    return list_append


def _set_add(target, *rest) -> None:
    target.add(rest[-1])


def _map_add(target, *rest) -> None:
    target[rest[-2]] = rest[-1]


def _set_add_eager(frame: Frame, ins: Instr) -> EagerSpec:
    return EagerSpec(_set_add, ins.arg + 1, npop=1, resume=Resume.NONE)


@handles("SET_ADD", eager=_set_add_eager)
def _set_add_h(vm: VM, frame: Frame, ins: Instr) -> None:
    _set_call(vm, frame, ins, "add")


def _map_add_eager(frame: Frame, ins: Instr) -> EagerSpec:
    return EagerSpec(_map_add, ins.arg + 2, npop=2, resume=Resume.NONE)


@handles("MAP_ADD", eager=_map_add_eager, attach=False)
def _map_add_h(vm: VM, frame: Frame, ins: Instr) -> None:
    d = vm.resolve(frame.stack[-2 - ins.arg])
    k, v = vm.peek(2)
    if type(d) is DictVar and d.real is None:
        d.items[key_of(k)] = v
        vm.popn(2)
        frame.ip += 1
        return
    raise Unsupported("map-add", "MAP_ADD on an unknown dict", eager=_map_add_eager(frame, ins))


def _extend(target, *rest) -> None:
    target.extend(rest[-1])


def _set_update(target, *rest) -> None:
    target.update(rest[-1])


def _list_extend_eager(frame: Frame, ins: Instr) -> EagerSpec:
    return EagerSpec(_extend, ins.arg + 1, npop=1, resume=Resume.NONE)


@handles("LIST_EXTEND", eager=_list_extend_eager)
def _list_extend(vm: VM, frame: Frame, ins: Instr) -> None:
    lst = vm.resolve(frame.stack[-1 - ins.arg])
    v = vm.peek(1)[0]
    if type(lst) is not ListVar:
        raise Unsupported("list-extend", "LIST_EXTEND on an unknown list")
    items = seq_items(vm, v)
    if lst.real is not None:  # the display's list was made real by a break inside the display
        call_method(vm, lst, "extend", [ListVar(items)], {})
        items = None
    if items is not None:
        lst.items.extend(items)
    frame.stack.pop()
    frame.ip += 1


def _set_update_eager(frame: Frame, ins: Instr) -> EagerSpec:
    return EagerSpec(_set_update, ins.arg + 1, npop=1, resume=Resume.NONE)


@handles("SET_UPDATE", eager=_set_update_eager)
def _set_update_h(vm: VM, frame: Frame, ins: Instr) -> None:
    _set_call(vm, frame, ins, "update")


def _dict_update_adapter(merge):
    def dict_update(target, *rest) -> None:
        other = rest[-1]
        if merge:
            for k in other:
                if k in target:
                    raise TypeError(f"got multiple values for keyword argument '{k}'")
        target.update(other)

    return dict_update


def _dict_update_eager(frame: Frame, ins: Instr) -> EagerSpec:
    return EagerSpec(_dict_update_adapter(ins.opname == "DICT_MERGE"), ins.arg + 1, npop=1, resume=Resume.NONE)


@handles("DICT_UPDATE", "DICT_MERGE", eager=_dict_update_eager)
def _dict_update(vm: VM, frame: Frame, ins: Instr) -> None:
    d = vm.resolve(frame.stack[-1 - ins.arg])
    v = vm.peek(1)[0]
    if type(d) is not DictVar or type(v) is not DictVar:
        raise Unsupported("dict-update", "DICT_UPDATE on unknown dicts")
    other = dict_view(vm, v) if v.real is not None else v.items
    target = dict_view(vm, d) if d.real is not None else d.items
    if not all(type(k) is str for k in other) and ins.opname == "DICT_MERGE":
        raise Unsupported("dict-merge", "non-string keyword names")
    if ins.opname == "DICT_MERGE" and any(k in target for k in other):
        raise Unsupported("dict-merge", "duplicate keyword argument")
    if d.real is not None:
        _touch(vm, d)
    target.update(other)
    frame.stack.pop()
    frame.ip += 1


def _list_to_tuple_eager(frame: Frame, ins: Instr) -> EagerSpec:
    return EagerSpec(tuple, 1)


@handles("LIST_TO_TUPLE", eager=_list_to_tuple_eager, attach=False)
def _list_to_tuple(vm: VM, frame: Frame, ins: Instr) -> None:
    v = vm.peek(1)[0]
    if type(v) is not ListVar:
        raise Unsupported("list-to-tuple", "LIST_TO_TUPLE on an unknown value", eager=_list_to_tuple_eager(frame, ins))
    items = list_items(vm, v)
    frame.stack[-1] = TupleVar(items)
    frame.ip += 1


def _unpack_adapter(n):
    def unpack_sequence(seq):
        items = list(seq) if not isinstance(seq, (tuple, list)) else seq
        if len(items) != n:
            if len(items) > n:
                raise ValueError(f"too many values to unpack (expected {n})")
            raise ValueError(f"not enough values to unpack (expected {n}, got {len(items)})")
        return list(reversed(items))

    return unpack_sequence


def _unpack_sequence_eager(frame: Frame, ins: Instr) -> EagerSpec:
    return EagerSpec(_unpack_adapter(ins.arg), 1, resume=Resume.PUSHN, label="unpack")


@handles("UNPACK_SEQUENCE", eager=_unpack_sequence_eager)
def _unpack_sequence(vm: VM, frame: Frame, ins: Instr) -> None:
    v = vm.peek(1)[0]
    items = seq_items(vm, v)
    if len(items) != ins.arg:
        raise Unsupported("unpack", "unpacking a sequence of the wrong length")
    frame.stack.pop()
    frame.stack.extend(reversed(items))
    frame.ip += 1


def _unpack_ex_adapter(before, after):
    def unpack_ex(seq):
        items = list(seq)
        if len(items) < before + after:
            raise ValueError(f"not enough values to unpack (expected at least {before + after}, "
                             f"got {len(items)})")
        mid = items[before:len(items) - after]
        out = items[:before] + [mid] + items[len(items) - after:]
        return list(reversed(out))

    return unpack_ex


def _unpack_ex_eager(frame: Frame, ins: Instr) -> EagerSpec:
    return EagerSpec(_unpack_ex_adapter(ins.arg & 0xFF, ins.arg >> 8), 1, resume=Resume.PUSHN, label="unpack")


@handles("UNPACK_EX", eager=_unpack_ex_eager)
def _unpack_ex(vm: VM, frame: Frame, ins: Instr) -> None:
    before, after = ins.arg & 0xFF, ins.arg >> 8
    v = vm.peek(1)[0]
    items = seq_items(vm, v)
    if len(items) < before + after:
        raise Unsupported("unpack", "not enough values")
    out = items[:before] + [ListVar(items[before:len(items) - after])] + items[len(items) - after:]
    frame.stack.pop()
    frame.stack.extend(reversed(out))
    frame.ip += 1
