"""Methods of tensors, lists, dicts and immutable constants; reads and writes of real containers.

A real list/dict (one that existed before the segment) is read with guards on its contents; mutations either
replay as calls (while its contents were never read) or are tracked and written back at segment end.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING

from .._errors import Unsupported
from .._guards import EnvSrc, ItemSrc
from ._consts import is_const_value
from ._effects import CallEffect, Effect, SetItemEffect
from ._iface import MODELS, implements
from ._iters import iterated
from ._sets import set_method
from ._torchops import is_tensor_method
from ._values import (
    ConstVar,
    DictVar,
    DictViewVar,
    ListVar,
    ObjVar,
    SetVar,
    TensorVar,
    TupleVar,
)
from ._wrap import wrap

if TYPE_CHECKING:
    from ._interp import VM
    from ._values import Var


def key_of(v: Var) -> object:
    """The real hashable key a VM value stands for (constants and fixed objects only)."""
    if type(v) is ConstVar:
        return v.value
    if type(v) is TupleVar and all(type(x) is ConstVar for x in v.items):
        return tuple(x.value for x in v.items)
    raise Unsupported("dict-key", f"a {type(v).__name__} as a dict key")


def _replay_pending(vm: VM, c: ListVar | DictVar, apply: Callable[[Effect], None]) -> None:
    """A real container mutated by logged calls is read: its contents before the segment are read (guarded),
    the logged mutations are applied to them, and from then on it is tracked (and written back at the end,
    after the logged calls ran, so the final contents are the same either way)."""
    for eff in vm.effects:
        if eff.target is c:
            apply(eff)
    if c.pending:
        _touch(vm, c)


@implements("list_items")
def list_items(vm: VM, lv: ListVar):
    if lv.items is None:
        vm.guards.length(lv.src, len(lv.real))
        lv.items = [wrap(vm, x, ItemSrc(lv.src, k)) for k, x in enumerate(lv.real)]
        if lv.pending:
            def apply(eff: Effect) -> None:
                if isinstance(eff, SetItemEffect):
                    k = eff.key.value
                    if not -len(lv.items) <= k < len(lv.items):
                        raise Unsupported("list-setitem", "list index out of range")
                    lv.items[k] = eff.value
                elif not isinstance(eff, CallEffect):
                    raise AssertionError(f"a list cannot have a {type(eff).__name__}")
                elif eff.name == "append":
                    lv.items.append(eff.args[0])
                elif eff.name == "extend":
                    lv.items.extend(vm.seq_items(eff.args[0]))
                elif eff.name == "insert":
                    lv.items.insert(eff.args[0].value, eff.args[1])

            _replay_pending(vm, lv, apply)
    return lv.items


@implements("dict_view")
def dict_view(vm: VM, dv: DictVar):
    if dv.items is None:
        keys = tuple(dv.real)
        if not all(type(k) in (str, int, bool) for k in keys):
            raise Unsupported("dict-keys", "a real dict with non-constant keys")
        vm.guards.add(f"tuple({dv.src.expr(vm.ns)}) == {keys!r}")
        dv.items = {k: wrap(vm, dv.real[k], ItemSrc(dv.src, k)) for k in keys}
        if dv.pending:
            def apply(eff: Effect) -> None:
                assert isinstance(eff, SetItemEffect), eff  # the only effect a real dict is logged with
                dv.items[key_of(eff.key)] = eff.value

            _replay_pending(vm, dv, apply)
    return dv.items


def _touch(vm: VM, c: Var) -> None:
    """Before mutating a real container's tracked contents: make sure it is written back."""
    if c.real is not None and not c.changed:
        c.changed = True
        vm.writeback.append(c)


@implements("call_method")
def call_method(vm: VM, self_var: Var, name: str, args: list[Var], kwargs: dict[str, Var]):
    t = type(self_var)
    if t is TensorVar:
        if not is_tensor_method(name):
            raise Unsupported("tensor-method", f"Tensor.{name} is not traced")
        return vm.op("call_method", name, [self_var, *args], kwargs, vm.grad, name)
    if t is ListVar:
        return _list_method(vm, self_var, name, args, kwargs)
    if t is DictVar:
        return _dict_method(vm, self_var, name, args, kwargs)
    if t is SetVar:
        return set_method(vm, self_var, name, args, kwargs)
    if t is ConstVar or t is TupleVar:
        vals = [_const(a) for a in args]
        kvals = {k: _const(v) for k, v in kwargs.items()}
        recv = _const(self_var)
        try:
            out = getattr(recv, name)(*vals, **kvals)
        except Exception as e:
            raise Unsupported("const-method", f"{type(recv).__name__}.{name} raised {type(e).__name__}") from None
        if type(out) is list and all(is_const_value(x) for x in out):
            return ListVar([ConstVar(x) for x in out])  # str.split(): a new list (its receiver is immutable)
        if not is_const_value(out):
            raise Unsupported("const-method", f"{type(recv).__name__}.{name} result is not a constant")
        return ConstVar(out) if type(out) is not tuple else TupleVar([ConstVar(x) for x in out])
    model = MODELS.get((t, name))  # a method of a symbolic value class of a model family
    if model is not None:
        res = model(vm, [self_var, *args], kwargs)
        if res is not NotImplemented:
            return res
    raise Unsupported("method", f"{type(self_var).__name__}.{name}")


def _const(v: Var) -> object:
    if type(v) is ConstVar:
        return v.value
    if type(v) is TupleVar:
        return tuple(_const(x) for x in v.items)
    raise Unsupported("const-arg", "a non-constant argument to a constant's method")


_LIST_LOGGED = {"append", "extend", "insert"}


def _is_local(c: ListVar) -> bool:
    """A real container carried in the env (a local made real at a break) is tracked, not logged: its
    contents are cheap to guard, unlike a long-lived module-level list such as an effect log."""
    return isinstance(c.src, EnvSrc)


def _list_method(vm: VM, lv: ListVar, name: str, args: list[Var], kwargs: dict[str, Var]):
    if kwargs:
        raise Unsupported("list-method", f"list.{name} with keywords")
    if lv.real is not None and lv.items is None and name in _LIST_LOGGED and not _is_local(lv) and \
            (name != "insert" or (len(args) == 2 and type(args[0]) is ConstVar and type(args[0].value) is int)):
        if name == "extend":
            args = [ListVar(vm.seq_items(args[0]))]
        vm.effects.append(CallEffect(lv, name, list(args)))
        lv.pending += 1
        return ConstVar(None)

    if name in ("append", "extend", "insert", "pop", "clear", "reverse", "remove", "sort"):
        items = list_items(vm, lv)
        if name == "append" and len(args) == 1:
            _touch(vm, lv)
            items.append(args[0])
            return ConstVar(None)
        if name == "extend" and len(args) == 1:
            new = vm.seq_items(args[0])
            _touch(vm, lv)
            items.extend(new)
            return ConstVar(None)
        if name == "insert" and len(args) == 2 and type(args[0]) is ConstVar:
            _touch(vm, lv)
            items.insert(args[0].value, args[1])
            return ConstVar(None)
        if name == "pop" and len(args) <= 1 and items:
            k = args[0].value if args and type(args[0]) is ConstVar else -1
            if not isinstance(k, int) or not -len(items) <= k < len(items):
                raise Unsupported("list-pop", "list.pop index")
            _touch(vm, lv)
            return items.pop(k)
        if name == "clear" and not args:
            _touch(vm, lv)
            items.clear()
            return ConstVar(None)
        if name == "reverse" and not args:
            _touch(vm, lv)
            items.reverse()
            return ConstVar(None)
        raise Unsupported("list-method", f"list.{name} with these arguments")
    items = list_items(vm, lv)
    if name == "copy" and not args:
        return ListVar(list(items))
    if name in ("index", "count") and all(type(x) is ConstVar for x in items):
        vals = [_const(a) for a in args]
        try:
            return ConstVar(getattr([x.value for x in items], name)(*vals))
        except Exception:
            raise Unsupported("list-method", f"list.{name} raised") from None
    raise Unsupported("list-method", f"list.{name} is not modeled")


def _dict_method(vm: VM, dv: DictVar, name: str, args: list[Var], kwargs: dict[str, Var]):
    if dv.real is not None and dv.items is None and name in ("__setitem__",):
        raise AssertionError("setitem goes through setitem()")
    items = dict_view(vm, dv) if dv.real is not None else dv.items
    if name in ("keys", "values", "items") and not args:
        return DictViewVar(dv, name)
    if name == "get" and 1 <= len(args) <= 2:
        k = key_of(args[0])
        return items.get(k, args[1] if len(args) == 2 else ConstVar(None))
    if name == "copy" and not args:
        return DictVar(dict(items))
    if name == "setdefault" and 1 <= len(args) <= 2:
        k = key_of(args[0])
        if k not in items:
            _touch(vm, dv)
            items[k] = args[1] if len(args) == 2 else ConstVar(None)
        return items[k]
    if name == "pop" and 1 <= len(args) <= 2:
        k = key_of(args[0])
        if k in items:
            _no_iterator(vm, dv)
            _touch(vm, dv)
            return items.pop(k)
        if len(args) == 2:
            return args[1]
        raise Unsupported("dict-pop", "dict.pop of a missing key")
    if name == "update" and len(args) <= 1:
        new = {}
        if args:
            src = args[0]
            if type(src) is DictVar:
                new.update(dict_view(vm, src) if src.real is not None else src.items)
            else:
                for pair in vm.seq_items(src):
                    kv = vm.seq_items(pair)
                    if len(kv) != 2:
                        raise Unsupported("dict-update", "dict.update with a bad pair")
                    new[key_of(kv[0])] = kv[1]
        for k, v in kwargs.items():
            new[k] = v
        _touch(vm, dv)
        items.update(new)
        return ConstVar(None)
    if name == "clear" and not args:
        if items:
            _no_iterator(vm, dv)
        _touch(vm, dv)
        items.clear()
        return ConstVar(None)
    raise Unsupported("dict-method", f"dict.{name} is not modeled")


def _no_iterator(vm: VM, dv: DictVar) -> None:
    """A key leaves `dv`: an eager op if an iterator over it may still be stepped (_iters.iterated)."""
    if iterated(vm, dv):
        raise Unsupported("dict-iter", "a key removed from a dict an iterator over it is still iterating")


def set_item(vm: VM, container: Var, key: Var, value: Var) -> None:
    """container[key] = value for list/dict values (tensors are handled as graph ops by the caller)."""
    t = type(container)
    if t is ListVar:
        if type(key) is not ConstVar or type(key.value) is not int:
            raise Unsupported("list-setitem", "list index is not a constant int")
        if container.real is not None and container.items is None:
            vm.effects.append(SetItemEffect(container, key, value))
            container.pending += 1
            return
        items = list_items(vm, container)
        k = key.value
        if not -len(items) <= k < len(items):
            raise Unsupported("list-setitem", "list index out of range")
        _touch(vm, container)
        items[k] = value
        return
    if t is DictVar:
        k = key_of(key)
        if container.real is not None and container.items is None:
            vm.effects.append(SetItemEffect(container, key, value))
            container.pending += 1
            return
        items = dict_view(vm, container) if container.real is not None else container.items
        _touch(vm, container)
        items[k] = value
        return
    raise Unsupported("setitem", f"item assignment on {t.__name__}")


def dict_setitem(vm: VM, target: Var, key: Var, val: Var) -> bool:
    """`dict.__setitem__(target, key, val)` bypassing a subclass's own `__setitem__`: a plain dict value
    takes the store as `d[key] = val`; an instance of a dict subclass that existed before the segment
    gets a replayed store (its contents are never read while tracing: its dunders run eagerly). The key
    must be a constant that hashes for sure, so the store cannot fail later than it would eagerly.
    False: not modeled."""
    if type(key) is not ConstVar or type(key.value) not in (str, int, bool, float, type(None)):
        return False
    if type(target) is DictVar:
        set_item(vm, target, key, val)
        return True
    if type(target) is ObjVar and isinstance(target.obj, dict) and type(target.obj) is not dict:
        vm.effects.append(SetItemEffect(target, key, val, via=dict))
        return True
    return False
