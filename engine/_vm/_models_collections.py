"""Models of reading the standard library's containers -- `collections.deque`, `Counter`, `defaultdict`,
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

from .._guards import ItemSrc
from ._iface import model
from ._values import ConstVar, ObjVar

if TYPE_CHECKING:
    from ._interp import VM
    from ._values import Var


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
