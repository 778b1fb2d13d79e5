"""Iteration: GET_ITER / FOR_ITER / next() over sequence values at a known position."""

from __future__ import annotations

import gc
from typing import TYPE_CHECKING

from .. import _runtime as R
from .._errors import Unsupported
from ._consts import key_var
from ._frame import Frame
from ._iface import implements
from ._members import MemberView, container_items
from ._sets import set_iter
from ._values import (
    CellVar,
    ConstVar,
    DictVar,
    DictViewVar,
    GenVar,
    IterVar,
    LazyVar,
    ListVar,
    ObjVar,
    SetVar,
    TensorVar,
    TupleVar,
)

if TYPE_CHECKING:
    from ._interp import VM
    from ._values import Var


def view_items(vm: VM, v: Var) -> list[Var]:
    """The items a dict view (`keys()`, `values()`, `items()`) yields, in the dict's order."""
    d = vm.dict_view(v.dict_var)
    if v.kind == "keys":
        return [key_var(k) for k in d]
    if v.kind == "values":
        return list(d.values())
    return [TupleVar([key_var(k), x]) for k, x in d.items()]


@implements("get_iter")
def get_iter(vm: VM, v: Var) -> Var:
    """`iter(v)` in the VM (`vm.get_iter`) for values whose iteration it models: an iterator or generator is
    its own; a tuple, list, tuple/range/str/bytes constant, tensor (its rows) or set gives an IterVar over
    its items; a dict or dict view one over its keys (values, items) that records the keys as they are, and
    is listed in `vm.dict_iters` so that a change of the dict while it may still be stepped is handled as
    eager's iterator sees it (`iterated`). A user `__iter__` is not handled here; any other value raises
    Unsupported (a graph break)."""
    t = type(v)
    if t is IterVar or t is GenVar:
        return v
    if t is TupleVar:
        return IterVar(v)
    if t is ListVar:
        vm.list_items(v)
        return IterVar(v)
    if t is ConstVar and isinstance(v.value, (tuple, range, str, bytes)):
        return IterVar(v)
    if t is ConstVar and type(v.value) is frozenset:  # (`for k in {1, 2}` iterates a frozenset constant)
        return IterVar(ConstVar(tuple(v.value)))  # immutable: its own order, fixed
    if t is DictVar or t is DictViewVar:
        it = IterVar(TupleVar(vm.seq_items(v)))
        dv = v if t is DictVar else v.dict_var
        it.over = (dv, "keys" if t is DictVar else v.kind, tuple(_dict_items(vm, dv)))
        vm.dict_iters.append(it)
        return it
    if t is TensorVar:
        return IterVar(TupleVar(vm.seq_items(v)))
    if t is SetVar:
        return set_iter(v)
    raise Unsupported("iter", f"iterating a {type(v).__name__}")


class ZipView:
    """The live element sequence of enumerate()/zip() over sequences (not a VM value: lives in IterVar.seq).
    Elements are recomputed at each step, so a list mutated inside the loop is seen as eagerly."""

    __slots__ = ("seqs", "start", "strict", "cut")

    def __init__(self, seqs: list, start: int | None, strict: bool = False) -> None:
        self.seqs = seqs
        self.start = start  # enumerate's start; None for zip
        self.strict = strict  # zip(..., strict=True): unequal lengths raise (eagerly, at that step)
        self.cut = 0  # once exhausted: the part that ran out (zip stepped the parts before it once more)


class DictPart:
    """A dict (its keys, values or items) as enumerate()/zip() view it: live, as eager's dict iterator --
    a change of its keys since it was made makes the step an eager op (over eager's own iterator, see
    _runtime.dict_iter_at), values are read as they are now."""

    __slots__ = ("dict_var", "kind", "keys")

    def __init__(self, dict_var: DictVar, kind: str, keys: tuple) -> None:
        self.dict_var, self.kind, self.keys = dict_var, kind, keys

    def items(self, vm: VM) -> list:
        d = _dict_items(vm, self.dict_var)
        if tuple(d) != self.keys:
            raise Unsupported("dict-iter", "a dict's keys changed while enumerate/zip iterate it")
        if self.kind == "keys":
            return [key_var(k) for k in self.keys]
        if self.kind == "values":
            return [d[k] for k in self.keys]
        return [TupleVar([key_var(k), d[k]]) for k in self.keys]


def as_sequence(vm: VM, v: Var):
    """A value enumerate()/zip() can view live; iterators are refused (their exact consumption matters)."""
    t = type(v)
    if t in (TupleVar, ListVar) or (t is ConstVar and isinstance(v.value, (tuple, range, str, bytes))):
        if t is ListVar:
            vm.list_items(v)
        return v
    if t is DictVar or t is DictViewVar:
        dv = v if t is DictVar else v.dict_var
        part = DictPart(dv, "keys" if t is DictVar else v.kind, tuple(_dict_items(vm, dv)))
        vm.dict_iters.append(part)
        return part
    if t is TensorVar:
        return TupleVar(vm.seq_items(v))
    if t is ObjVar:
        items = container_items(vm, v)
        if items is not None:  # a ModuleList/Sequential/ModuleDict: its submodules (or names)
            return TupleVar(items)
    if t is IterVar and type(v.seq) in (MemberView, ZipView) and v.index == 0 and not _held(vm, v):
        return v.seq  # a fresh `m.parameters()` / zip(...) only this call consumes: its items, viewed live
    raise Unsupported("zip-iterator", f"enumerate/zip over a {t.__name__}")


def _held(vm: VM, it: IterVar) -> bool:
    """Whether the program can reach `it` other than through the call consuming it (its arguments are still
    on the operand stack, once each): a local, a cell, a container or an object attribute."""
    seen = set()
    count = 0
    todo = [x for f in vm.frames for x in (*f.locals, *f.stack)]
    for eff in vm.effects:  # stored into a real container or object by a logged mutation
        todo.extend(getattr(eff, "args", None) or (getattr(eff, "value", None),))
    while todo:
        x = todo.pop()
        if x is it:
            count += 1
            continue
        if x is None or id(x) in seen:
            continue
        seen.add(id(x))
        t = type(x)
        if t in (TupleVar, ListVar):
            todo.extend(x.items or ())
        elif t is DictVar:
            todo.extend((x.items or {}).values())
        elif t is IterVar:
            todo.append(x.seq)
        elif t is ZipView:
            todo.extend(x.seqs)
        elif getattr(x, "attrs", None):
            todo.extend(x.attrs.values())
        elif t is CellVar:
            todo.append(x.contents)
        elif t is GenVar:
            todo.extend((*x.frame.locals, *x.frame.stack))
    return count > 1


def _element(vm: VM, seq, k):
    items = _length_and_get(vm, seq)
    return ConstVar(items[k]) if type(seq) is ConstVar else items[k]


def _length_and_get(vm: VM, seq):
    t = type(seq)
    if t is ZipView:
        lengths = {len(_length_and_get(vm, s)) for s in seq.seqs}
        if seq.strict and len(lengths) > 1:
            raise Unsupported("zip-strict", "zip(strict=True) over sequences of different lengths")
        n = min(lengths, default=0)
        out = []
        for k in range(n):
            parts = [_element(vm, s, k) for s in seq.seqs]
            if seq.start is not None:
                parts.insert(0, ConstVar(seq.start + k))
            out.append(TupleVar(parts))
        return out
    if t is TupleVar:
        return seq.items
    if t is ListVar:
        return vm.list_items(seq)
    if t is ConstVar:
        return seq.value
    if t is DictViewVar:
        return view_items(vm, seq)
    if t is SetVar:
        return [ConstVar(k) for k in seq.model]
    if t is MemberView or t is DictPart:
        return seq.items(vm)
    raise Unsupported("iter", "iterator over an unknown sequence")


def _dict_items(vm: VM, dv: DictVar) -> dict:
    return vm.dict_view(dv) if dv.real is not None else dv.items


def dict_next(vm: VM, it: IterVar):
    """next() of an iterator over a dict, as dict_keyiterator, while the dict's keys are those it was made
    over (else the step is an eager op over eager's own iterator, which raises eager's RuntimeError or goes
    on as eager's does, see engine/_runtime.dict_iter_at); values are read live. An index past the keys
    means it raised StopIteration (it does forever after)."""
    dv, kind, keys = it.over
    k = it.index
    if k > len(keys):
        return None
    items = _dict_items(vm, dv)
    if tuple(items) != keys:
        raise Unsupported("dict-iter", "a dict's keys changed while an iterator over it is alive")
    _log(vm, it)
    it.index = k + 1
    if k == len(keys):
        return None
    key = keys[k]
    if kind == "keys":
        return it.seq.items[k]
    if kind == "values":
        return items[key]

    return TupleVar([key_var(key), items[key]])


@implements("iter_next")
def iter_next(vm: VM, it: Var):
    """The next element value, or None when the iterator is exhausted."""
    if it.done:
        if type(it.seq) is ZipView:  # zip steps the parts ahead of the one that ran out again: eager's
            raise Unsupported("zip-exhausted", "next() on an exhausted enumerate/zip iterator")
        return None
    if it.over is not None:
        return dict_next(vm, it)
    items = _length_and_get(vm, it.seq)
    k = it.index
    if k >= len(items):
        if type(it.seq) is SetVar:
            it.seq.iters.discard(it)
        _log(vm, it)
        it.done = True
        if type(it.seq) is ZipView:
            _mark_cut(vm, it.seq, k)
        return None
    _log(vm, it)
    it.index = k + 1
    v = items[k]
    return ConstVar(v) if type(it.seq) is ConstVar else v


def _log(vm: VM, it: IterVar) -> None:
    """Keeps the iterator's state before this instruction, restored if it ends up running eagerly."""
    log = vm.iter_log
    if it not in log:
        log[it] = (it.index, it.done)


def _mark_cut(vm: VM, view: ZipView, k: int) -> None:
    """Records which part of an enumerate()/zip() ran out at step `k` (a zip takes one more item from the
    parts before it; a strict zip of equal lengths exhausts them all)."""
    for j, part in enumerate(view.seqs):
        if len(_length_and_get(vm, part)) <= k:
            view.cut = j
            if type(part) is ZipView:
                _mark_cut(vm, part, k)
            return


def iter_remaining(vm: VM, v: Var):
    if type(v) is not IterVar:
        raise Unsupported("iter", f"iterating a {type(v).__name__}")
    return drain(iter_next, vm, v)


def drain(step, vm: VM, v: Var) -> list:
    """Every item ``step(vm, v)`` gives until it answers None (the iterator is exhausted)."""
    out = []
    while (x := step(vm, v)) is not None:
        out.append(x)
    return out


def iterated(vm: VM, dv: DictVar) -> bool:
    """Whether an iterator over dict `dv` that has not run out may still be stepped (the program or a
    for-loop reaches it; a real one the segment got in its env: a loop's DictIter, or eager's own held by a
    local). Removing a key then is an eager op: eager's iterator goes on over the dict's entries as they
    are laid out, which only the real dict reproduces (_methods._dict_method)."""
    if dv.real is not None:
        for k, x in enumerate(vm.env):
            if type(x) is R.DictIter and x.dict is dv.real:
                vm.resolve(LazyVar(k))  # (an IterVar in vm.dict_iters, or opaque if it is broken)
            elif type(x).__name__ in _DICT_ITERS and type(x).__module__ == "builtins" and \
                    any(y is dv.real for y in gc.get_referents(x)):
                return True  # (one that ran out has dropped its dict)
    mine = [x for x in vm.dict_iters if (x.over[0] if type(x) is IterVar else x.dict_var) is dv]
    if not mine:
        return False
    elsewhere, loops = reached_iters(vm)
    live = {**elsewhere, **loops}
    for x in mine:
        if type(x) is IterVar:
            if id(x) in live and x.index <= len(x.over[2]):
                return True
        elif any(not it.done and _has_part(it.seq, x) for it in live.values() if type(it.seq) is ZipView):
            return True
    return False


_DICT_ITERS = ("dict_keyiterator", "dict_valueiterator", "dict_itemiterator")


def _has_part(view: ZipView, part: DictPart) -> bool:
    return any(s is part or (type(s) is ZipView and _has_part(s, part)) for s in view.seqs)


def zip_loop(it: IterVar) -> bool:
    """A zip()/enumerate() over lists, tuples and constant sequences, not exhausted: as a for-loop's own
    iterator at a break it becomes `_runtime.ZipIter`, whose steps later segments trace."""
    z = it.seq
    return type(z) is ZipView and not z.strict and not it.done and all(
        type(q) in (TupleVar, ListVar) or (type(q) is ConstVar and type(q.value) in (tuple, range, str))
        for q in z.seqs)


def reached_iters(vm: VM) -> tuple[dict[int, IterVar], dict[int, IterVar]]:
    """The iterator values the VM's state reaches: (those reached other than as a for-loop's own stack slot,
    the dict iterators and `zip_loop` ones made by traced code in such a slot -- the loop `loop` recorded, still running). Every
    value's parts are followed (frames' locals and stacks, generators' frames, effects, written-back
    containers, stored globals): conservative, anything found elsewhere counts."""
    reached: dict[int, IterVar] = {}
    loops: dict[int, IterVar] = {}
    seen: set[int] = set()
    todo: list[object] = [vm.cur_exc, *vm.effects, *vm.writeback, *vm.gover.values(), *vm.frames]
    while todo:
        x = todo.pop()
        if x is None or id(x) in seen:
            continue
        t = type(x)
        if t in (list, tuple, set, frozenset):
            todo.extend(x)
            continue
        if t is dict:
            todo.extend(x.values())
            continue
        if not t.__module__.startswith("engine.") or not hasattr(t, "__slots__"):
            continue
        seen.add(id(x))
        if t is IterVar:
            reached[id(x)] = x
        if t is not Frame:
            todo.extend(getattr(x, n, None) for c in t.__mro__ for n in getattr(c, "__slots__", ()))
            continue
        at = x.call_index if x.call_index >= 0 else x.ip
        for k, y in enumerate(x.stack):
            if type(y) is IterVar and (y.over is not None or zip_loop(y)) and y.real is None and y.loop is not None \
                    and \
                    y.loop[0] is x and y.loop[2] == k and y.loop[1] <= at < x.info.instrs[y.loop[1]].target:
                loops[id(y)] = y
                todo.extend(getattr(y, n, None) for n in IterVar.__slots__)  # its parts, not the slot's
            else:
                todo.append(y)
        todo += [*x.locals, x.ret_override, x.gen, x.namespace]
    return reached, loops
