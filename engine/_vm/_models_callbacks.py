"""Models of the builtins that call back into the program: `sorted(..., key=f)` and `min`/`max` with a
`key=`, a `default=`, or over a generator.

As for the lazy iterators (`_models_itertools`), each is a Python function that does what the C builtin
does, in the same order -- `sorted` makes its list, computes every key, then sorts; `max` keeps the first
item whose key compares greater (`min`: less) -- traced by the VM: the key function is traced, and a break
inside it, at any depth, resumes in the middle of the call. The sort itself (`_order`) is folded on
constant keys; on other keys it runs eagerly (the real function sorts the real keys as eager's sorted
would, comparisons and their errors included). Their frames add no traceback entries.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from .._errors import Unsupported
from ._iface import HIDDEN_CODES, model
from ._values import ConstVar, GenVar, ListVar, TupleVar

if TYPE_CHECKING:
    from ._interp import VM
    from ._values import Var


def _sorted(iterable, key, reverse):
    items = list(iterable)
    keys = items if key is None else [key(x) for x in items]
    return [items[i] for i in _order(keys, reverse)]


def _order(keys, reverse):
    return sorted(range(len(keys)), key=keys.__getitem__, reverse=reverse)


def _minmax(it, key, default, has_default, is_max):
    first = True
    best = best_k = None
    for x in it:
        k = x if key is None else key(x)
        if first:
            best, best_k, first = x, k, False
        elif (k > best_k) if is_max else (k < best_k):
            best, best_k = x, k
    if first:
        if has_default:
            return default
        return max(()) if is_max else min(())  # eager's ValueError, with its message
    return best


for _f in (_sorted, _order, _minmax):
    HIDDEN_CODES.add(_f.__code__)


@model(_order)
def _order_model(vm: VM, args: list[Var], kwargs: dict[str, Var]) -> Any:
    keys, rev = args if len(args) == 2 and not kwargs else (None, None)
    if type(keys) is not ListVar or type(rev) is not ConstVar or type(rev.value) is not bool:
        return NotImplemented
    vals = vm.list_items(keys)
    if not all(type(k) is ConstVar and type(k.value) in (int, float, str, bool) for k in vals) or \
            len({type(k.value) is str for k in vals}) > 1:
        raise Unsupported("builtin-raises", "sorting keys that are not constants of one kind")
    order = sorted(range(len(vals)), key=lambda i: vals[i].value, reverse=rev.value)
    return ListVar([ConstVar(i) for i in order])


def sorted_call(vm: VM, args: list[Var], kwargs: dict[str, Var]) -> Any:
    """sorted(iterable, *, key=None, reverse=False) traced (the builtin's fallback, _builtins._sorted)."""
    if len(args) != 1 or set(kwargs) - {"key", "reverse"}:
        return NotImplemented
    rev = kwargs.get("reverse", ConstVar(False))
    if type(rev) is not ConstVar or type(rev.value) is not bool:
        return NotImplemented
    return vm.call(vm.wrap_fixed(_sorted), [args[0], kwargs.get("key", ConstVar(None)), rev], {})


def minmax_call(vm: VM, is_max: bool, args: list[Var], kwargs: dict[str, Var]) -> Any:
    """min()/max() with key=/default= or over a generator, traced (the builtin's fallback)."""
    if not args or set(kwargs) - {"key", "default"} or (len(args) > 1 and "default" in kwargs):
        return NotImplemented
    if len(args) == 1 and not kwargs and type(args[0]) is not GenVar:
        return NotImplemented  # nothing to call back: the builtin's own model (or the eager call) decides
    it = args[0] if len(args) == 1 else TupleVar(list(args))
    default = kwargs.get("default", ConstVar(None))
    return vm.call(vm.wrap_fixed(_minmax), [vm.get_iter(it), kwargs.get("key", ConstVar(None)), default,
                                            ConstVar("default" in kwargs), ConstVar(is_max)], {})
