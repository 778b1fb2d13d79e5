"""Models of the standard library's containers.

A `collections.deque` made by traced code is a symbolic value (`DequeVar`: its items and `maxlen`), as
lists are: `append`/`appendleft`/`pop`/`popleft`/`extend`/`extendleft`/`rotate`/`clear`/`count`, `len()`,
truth, `d[i]`, `list(d)`/`tuple(d)` are traced on it, and it becomes the real deque (`deque(items,
maxlen)`) where it must (at a break, returned, stored, or for any operation not modeled here, such as
iterating it: eager's iterator checks for mutation, which the trace does not model). An operation that
would raise (popping an empty deque, an index out of range) runs eagerly on the real deque.

Reads of the standard library's containers -- `collections.deque`, `Counter`, `defaultdict`,
`OrderedDict` -- that exist as real objects (passed in, or made by an eager op before this point of the
segment): `d[k]` is read from the real container with guards (its length, or the key's presence, and the
item as any input is guarded), so it joins the trace instead of ending the segment with an eager op.

The container is as it was when the segment started: every mutation of one is an eager op (its methods
are not modeled), which ends the segment, so what the trace reads is what eager reads. A key a `Counter`
lacks is its `__missing__`'s 0 (guarded absent, on an exact Counter); a missing key of any other dict
subclass (a `defaultdict` inserts one) and any other index run eagerly.
"""

from __future__ import annotations

from collections import Counter, deque
from typing import TYPE_CHECKING, Any

from .._errors import Unsupported
from .._guards import ItemSrc
from ._iface import REBUILDERS, model
from ._values import ConstVar, ObjVar, Var

if TYPE_CHECKING:
    from ._interp import VM


class DequeVar(Var):
    """A deque made by traced code: its items (VM values, left to right) and maxlen (None: unbounded)."""

    __slots__ = ("items", "maxlen")
    PYTYPE = deque

    def __init__(self, items: list[Var], maxlen: int | None) -> None:
        self.maxlen = maxlen
        self.items = items[len(items) - maxlen:] if maxlen is not None and len(items) > maxlen else items


def _rebuild_deque(em: Any, v: DequeVar) -> str:
    e = em._named(v, "dq")
    items = "".join(em.expr(x) + ", " for x in v.items)
    em.body.append(f"{e} = {em.ns.const(deque, 'T')}(({items}), {v.maxlen!r})")
    return e


REBUILDERS[DequeVar] = _rebuild_deque


@model(deque)
def _deque_new(vm: VM, args: list[Var], kwargs: dict[str, Var]) -> Any:
    if set(kwargs) - {"iterable", "maxlen"} or len(args) + len(kwargs) > 2 or \
            (args and "iterable" in kwargs) or (len(args) == 2 and "maxlen" in kwargs):
        return NotImplemented
    it = args[0] if args else kwargs.get("iterable")
    ml = args[1] if len(args) == 2 else kwargs.get("maxlen", ConstVar(None))
    if type(ml) is not ConstVar or not (ml.value is None or (type(ml.value) is int and ml.value >= 0)):
        return NotImplemented
    items = vm.seq_items(it) if it is not None else []
    return DequeVar(items, ml.value)


def _method(name: str, nargs: int) -> Any:
    def register(fn: Any) -> Any:
        def run(vm: VM, args: list[Var], kwargs: dict[str, Var]) -> Any:
            if kwargs or len(args) != nargs + 1:
                return NotImplemented
            return fn(vm, *args)

        model((DequeVar, name))(run)
        return fn

    return register


def _bound(d: DequeVar, left: bool) -> None:
    if d.maxlen is not None and len(d.items) > d.maxlen:
        if left:
            del d.items[d.maxlen:]
        else:
            del d.items[:len(d.items) - d.maxlen]


@_method("append", 1)
def _append(vm: VM, d: DequeVar, x: Var) -> Var:
    d.items.append(x)
    _bound(d, False)
    return ConstVar(None)


@_method("appendleft", 1)
def _appendleft(vm: VM, d: DequeVar, x: Var) -> Var:
    d.items.insert(0, x)
    _bound(d, True)
    return ConstVar(None)


@_method("extend", 1)
def _extend(vm: VM, d: DequeVar, it: Var) -> Var:
    new = d.items if it is d else vm.seq_items(it)
    d.items.extend(list(new))
    _bound(d, False)
    return ConstVar(None)


@_method("extendleft", 1)
def _extendleft(vm: VM, d: DequeVar, it: Var) -> Var:
    new = list(d.items) if it is d else vm.seq_items(it)
    d.items[:0] = new[::-1]
    _bound(d, True)
    return ConstVar(None)


@_method("pop", 0)
def _pop(vm: VM, d: DequeVar) -> Var:
    if not d.items:
        raise Unsupported("deque", "pop from an empty deque")
    return d.items.pop()


@_method("popleft", 0)
def _popleft(vm: VM, d: DequeVar) -> Var:
    if not d.items:
        raise Unsupported("deque", "pop from an empty deque")
    return d.items.pop(0)


@_method("clear", 0)
def _clear(vm: VM, d: DequeVar) -> Var:
    d.items.clear()
    return ConstVar(None)


@_method("rotate", 1)
def _rotate(vm: VM, d: DequeVar, n: Var) -> Var:
    if type(n) is not ConstVar or type(n.value) is not int:
        raise Unsupported("deque", "deque.rotate by a non-constant")
    if d.items:
        k = n.value % len(d.items)
        d.items[:] = d.items[-k:] + d.items[:-k] if k else d.items
    return ConstVar(None)


@_method("count", 1)
def _count(vm: VM, d: DequeVar, x: Var) -> Var:
    if type(x) is not ConstVar or not all(type(y) is ConstVar for y in d.items):
        raise Unsupported("deque", "deque.count over values that are not constants")
    return ConstVar(sum(1 for y in d.items if y.value == x.value))


@_method("__len__", 0)
def _len(vm: VM, d: DequeVar) -> Var:
    return ConstVar(len(d.items))


@_method("__items__", 0)
def _items(vm: VM, d: DequeVar) -> list[Var]:
    return list(d.items)


@_method("__getitem__", 1)
def _getitem(vm: VM, d: DequeVar, k: Var) -> Any:
    if type(k) is not ConstVar or type(k.value) is not int or not -len(d.items) <= k.value < len(d.items):
        return NotImplemented
    return d.items[k.value]


def _real(v: Var) -> Any:
    return v.obj if type(v) is ObjVar and v.src is not None else None


@model(deque.__getitem__)
def _deque_getitem(vm: VM, args: list[Var], kwargs: dict[str, Var]) -> Any:
    if kwargs or len(args) != 2:
        return NotImplemented
    d, k = _real(args[0]), args[1]
    if type(d) is not deque or type(k) is not ConstVar or type(k.value) is not int or \
            not -len(d) <= k.value < len(d):
        return NotImplemented  # (an index out of range raises eager's IndexError, from the eager op)
    src = args[0].src
    vm.guards.length(src, len(d))
    return vm.wrap(d[k.value], ItemSrc(src, k.value))


@model(dict.__getitem__)
def _dict_sub_getitem(vm: VM, args: list[Var], kwargs: dict[str, Var]) -> Any:
    """`c[k]` of an instance of a dict subclass that does not override `__getitem__` (Counter,
    defaultdict, OrderedDict), by a constant key."""
    if kwargs or len(args) != 2:
        return NotImplemented
    d, k = _real(args[0]), args[1]
    if not isinstance(d, dict) or type(d) is dict or type(k) is not ConstVar or \
            type(k.value) not in (str, int, bool):
        return NotImplemented
    src = args[0].src
    e = src.expr(vm.ns)
    if k.value in d:
        vm.guards.add(f"{k.value!r} in {e}")
        return vm.wrap(d[k.value], ItemSrc(src, k.value))
    if type(d) is Counter and type(d).__missing__ is Counter.__missing__:
        vm.guards.add(f"{k.value!r} not in {e}")
        return ConstVar(0)
    return NotImplemented
