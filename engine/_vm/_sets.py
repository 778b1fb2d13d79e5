"""Sets of constants: built, mutated, queried and (when the order is known) iterated while tracing.

Set iteration order follows the hash table's layout, which depends on the whole history of the set (the
same elements added in another order, or after a removal, may iterate differently). A set made by traced
code keeps that history (`SetVar.ops`, one (method, args) per mutation): its model is built by the same
calls as eager's set, so it iterates in eager's order (for-loops too: `set_iter`), and it is rebuilt by
replaying them. A set that
existed before the segment is read with a guard on its (type-exact) elements; its order is not known, so
only order-free queries (`in`, `len`, truth, `sorted` of one kind of element) are traced and iterating it
runs eagerly; its mutations are replayed calls. Elements are constants only: the order of tensors or
objects hashed by identity could differ between eager and compiled runs.
"""

from __future__ import annotations

import math
from typing import TYPE_CHECKING

from .._errors import Unsupported
from ._effects import CallEffect
from ._values import ConstVar, IterVar, ListVar, SetVar, TupleVar

if TYPE_CHECKING:
    from .._guards import Src
    from ._interp import VM
    from ._values import Var

_SCALAR_KEYS = (int, float, bool, str, type(None))
# Mutations that keep the history exact; `pop` needs the order (traced sets only).
SET_METHODS = frozenset({"add", "discard", "remove", "update", "clear", "pop"})


def _is_key(value: object, nested: bool = True) -> bool:
    t = type(value)
    if t in _SCALAR_KEYS:
        return not (t is float and math.isnan(value))  # NaN is not equal to itself: membership by identity
    return nested and t is tuple and all(_is_key(x) for x in value)


def key_of(v: Var) -> object:
    """The constant a VM value is as a set element (Unsupported: not a constant we model)."""
    if type(v) is ConstVar and _is_key(v.value):
        return v.value
    if type(v) is TupleVar and v.pytype is tuple:
        k = tuple(key_of(x) for x in v.items)
        return k
    raise Unsupported("set", f"a {type(v).__name__} as a set element")


def _update_arg(vm: VM, v: Var) -> object:
    """What `set.update(v)` is replayed with: a tuple of the elements for the iterables CPython adds one by
    one; a constant frozenset itself (a `{"a", "b"}` display is BUILD_SET + SET_UPDATE of a frozenset
    constant), since a set argument is merged by its own table's layout and the same object reproduces
    it. Other sets and dicts are not modeled."""
    t = type(v)
    if t is ConstVar and type(v.value) is frozenset and all(_is_key(k) for k in v.value):
        return v.value
    if t is ConstVar and type(v.value) in (tuple, str, range) and all(_is_key(k) for k in v.value):
        return tuple(v.value)
    if t is TupleVar or (t is ListVar and v.real is None):  # (a real list's items would need guards)
        return tuple(key_of(x) for x in v.items)
    raise Unsupported("set", f"set.update from a {type(v).__name__}")


def _apply(sv: SetVar, name: str, args: tuple) -> object:
    out = getattr(sv.model, name)(*args)
    if sv.ops is not None:
        sv.ops.append((name, args))
    return out


def new_set(vm: VM, iterables: list[Var]) -> SetVar:
    """`{a, b}` / `set()` / `set(iterable)`: an empty set updated with each iterable's elements."""
    keys = [_update_arg(vm, v) for v in iterables]
    sv = SetVar(set(), [])
    for ks in keys:
        _apply(sv, "update", (ks,))
    return sv


def wrap_real_set(vm: VM, value: set, src: Src, fixed: bool) -> SetVar | None:
    """A real set read from `src`, guarded on its exact elements (types included: {1} == {1.0}); None when
    an element is not a scalar constant, or is a float zero (0.0 == -0.0: the guard could not tell the
    sign), and the set stays an opaque object."""
    if not all(_is_key(k, nested=False) and not (type(k) is float and k == 0.0) for k in value):
        return None
    e = src.expr(vm.ns)
    if not fixed:
        vm.guards.type_is(src, set)
    typed = frozenset((type(k), k) for k in value)
    vm.guards.add(f"len({e}) == {len(value)} and frozenset((type(k), k) for k in {e}) == "
                  f"{vm.ns.const(typed, 'S')}")
    return SetVar(set(value), None, real=value, src=src)


def set_method(vm: VM, sv: SetVar, name: str, args: list[Var], kwargs: dict[str, Var]) -> Var:
    if kwargs or name not in SET_METHODS:
        raise Unsupported("set", f"set.{name} is not modeled")
    if name in ("add", "discard", "remove") and len(args) == 1:
        k = key_of(args[0])
        if name == "remove" and k not in sv.model:
            raise Unsupported("set", "set.remove of a missing element (KeyError)")
        _mutate(vm, sv, name, (k,), [args[0]])
        return ConstVar(None)
    if name == "update":
        for a in args:
            _mutate(vm, sv, name, (_update_arg(vm, a),), [a])
        return ConstVar(None)
    if name == "clear" and not args:
        _mutate(vm, sv, name, (), [])
        return ConstVar(None)
    if name == "pop" and not args and sv.ops is not None and sv.model and not sv.iters:
        return ConstVar(_apply(sv, "pop", ()))
    raise Unsupported("set", f"set.{name} with these arguments")


def _mutate(vm: VM, sv: SetVar, name: str, args: tuple, arg_vars: list[Var]) -> None:
    if sv.iters:  # eager iterates the live table by position: the iterator is made real first (set_iter)
        raise Unsupported("set", "a set mutated while an iterator over it is alive")
    _apply(sv, name, args)
    if sv.real is not None:
        vm.effects.append(CallEffect(sv, name, arg_vars))


def set_items(sv: SetVar) -> list[Var]:
    """The elements in iteration order: known for a set made by traced code only."""
    if sv.ops is None:
        raise Unsupported("set", "the iteration order of a set that existed before the segment is not known")
    return [ConstVar(k) for k in sv.model]


def set_iter(sv: SetVar) -> IterVar:
    """iter(s) for a set made by traced code: its elements in the model's (eager's) order. While it is
    alive, mutating the set is an eager op, before which the iterator is rebuilt as a real iterator over
    the rebuilt set, advanced as far (same layout, same positions), so eager's semantics take over."""
    if sv.ops is None:
        raise Unsupported("set", "the iteration order of a set that existed before the segment is not known")
    it = IterVar(sv)
    sv.iters.add(it)
    return it


def sorted_set(sv: SetVar, reverse: bool) -> ListVar | None:
    """sorted(s): the order of the elements does not matter when they are of one kind (all numbers or all
    strings: a total order, no distinct equal elements); for a traced set the model's order is eager's."""
    kinds = {str if type(k) is str else float if type(k) in (int, float, bool) else None for k in sv.model}
    if sv.ops is None and (len(kinds) > 1 or None in kinds):
        return None
    try:
        out = sorted(sv.model, reverse=reverse)
    except Exception:
        return None
    return ListVar([ConstVar(k) for k in out])


def contains(sv: SetVar, item: Var) -> ConstVar:
    return ConstVar(key_of(item) in sv.model)
