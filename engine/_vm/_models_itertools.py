"""Models of the lazy iterator builtins and `itertools` objects: `map`, `filter`, `itertools.islice`,
`chain`, `chain.from_iterable`, `count`, `accumulate`, `product`, `filterfalse`; and `enumerate()`/`zip()`
over iterators or generators and `reversed()` of a list (over sequences, `_iters.ZipView` views them).

Each is modeled as a generator written in Python (below) that does what the C object does, step for step
(which items it pulls from its inputs, and when), traced by the VM as any traced generator is: its steps
join the graph, a callback it calls is traced, and a break inside the callback -- at any depth, mid-way
through the iteration -- is resumed like a break in any traced generator. The generator stands for the
C object (`GenVar.pytype`: `type()`/`isinstance` answer `map`, `itertools.islice`...); wherever it would
have to become a real object (returned, stored, an attribute read, `send()`...) the trace restarts with its
construction run eagerly, so the program gets eager's own object. What the constructor checks at once
(`iter()` of each input, the arguments' types and ranges) is done at the call, as CPython does; any
argument these models do not know answers NotImplemented and the call runs eagerly.

A callback raising StopIteration is the one thing a generator cannot pass on (PEP 479 makes it a
RuntimeError): the models catch it and make the object eager instead (`_escape`: a restart with the
construction run eagerly); an object restored from a break, which no restart can make anew, yields the
exception marked instead, and its consumer meets it as it would from the C object. Their frames add no traceback entries (`_iface.HIDDEN_CODES`), as a C
object's call adds none.
"""

from __future__ import annotations

import itertools
import operator
from typing import TYPE_CHECKING, Any

from .._errors import Unsupported
from ._ending import Restart
from ._iface import HIDDEN_CODES, model
from ._values import ConstVar, EscapedVar, GenVar, TupleVar

if TYPE_CHECKING:
    from ._interp import VM
    from ._values import Var


# -- the Python forms (traced; each argument is already an iterator where the C object holds one) ----------

def _map1(fn, it):
    for x in it:
        stopped = None
        try:
            v = fn(x)
        except StopIteration as e:
            stopped = e
        yield v if stopped is None else _escape(stopped)


def _mapn(fn, its):
    while True:
        args = []
        for it in its:
            for x in it:
                args.append(x)
                break
            else:
                return
        stopped = None
        try:
            v = fn(*args)
        except StopIteration as e:
            stopped = e
        yield v if stopped is None else _escape(stopped)


def _filter(fn, it, want=True):
    """filter (``want``) and itertools.filterfalse (not ``want``)."""
    for x in it:
        stopped = None
        try:
            keep = x if fn is None else fn(x)
        except StopIteration as e:
            stopped = e
        if stopped is not None:
            yield _escape(stopped)
        elif bool(keep) is want:
            yield x


def _islice(it, start, stop, step):
    # CPython's islice_next: skip to the next index, stop (without pulling more) once `stop` items are read.
    nxt = start
    cnt = 0
    if stop is not None and cnt >= stop:
        return
    for x in it:
        cnt += 1
        if cnt - 1 == nxt:
            nxt += step
            if stop is not None and nxt > stop:
                nxt = stop
            yield x
        if stop is not None and cnt >= stop:
            return


def _chain(its):
    for src in its:
        for x in src:  # noqa: UP028 (chain forwards no send/throw, as `yield from` would)
            yield x


def _chain_from(outer):
    for src in outer:
        for x in src:  # noqa: UP028 (chain forwards no send/throw, as `yield from` would)
            yield x


def _count(start, step):
    n = start
    while True:
        yield n
        n += step


def _accumulate(it, func, has_initial, initial):
    if has_initial:
        total = initial
        yield total
    else:
        for total in it:
            yield total
            break
        else:
            return
    for x in it:
        stopped = None
        try:
            total = operator.add(total, x) if func is None else func(total, x)
        except StopIteration as e:
            stopped = e
        yield total if stopped is None else _escape(stopped)


def _product(pools):
    # CPython's product: the pools were read at construction; the last index turns fastest
    n = len(pools)
    for p in pools:
        if not p:
            return
    idx = [0] * n
    while True:
        out = []
        for j in range(n):
            out.append(pools[j][idx[j]])
        yield tuple(out)
        i = n - 1
        while i >= 0:
            idx[i] += 1
            if idx[i] < len(pools[i]):
                break
            idx[i] = 0
            i -= 1
        if i < 0:
            return


def _enumerate(it, n):
    for x in it:
        yield (n, x)
        n += 1


def _zip(its):
    if not its:
        return
    while True:
        items = []
        for it in its:
            for x in it:
                items.append(x)
                break
            else:
                return
        yield tuple(items)


def _reversed_list(lst):
    # CPython's listreviter: the live list, by index, from the end; a list that shrank below it ends it
    i = len(lst) - 1
    while 0 <= i < len(lst):
        yield lst[i]
        i -= 1


def _escape(exc: StopIteration) -> None:
    """Only its model runs (below): a callback raised StopIteration inside a modeled object."""
    raise AssertionError("engine: _escape must be modeled")


for _f in (_map1, _mapn, _filter, _islice, _chain, _chain_from, _count, _accumulate,
           _enumerate, _zip, _reversed_list, _product):
    HIDDEN_CODES.add(_f.__code__)


# -- the models -----------------------------------------------------------------------------------------

@model(_escape)
def _escape_model(vm: VM, args: list[Var], kwargs: dict[str, Var]) -> Any:
    """Made by this trace: the object is made eagerly instead (a restart). Restored from a break (no call
    of this trace made it): the generator form yields the exception marked, and its consumer meets the
    StopIteration as eager's meets it from the C object, which stays usable (`_generators.on_yield`)."""
    gen = vm.frames[-1].gen
    if type(gen) is GenVar and gen.call_no > 0:
        raise Restart(gen.call_no, "eager")
    if type(gen) is not GenVar or len(args) != 1 or kwargs:
        raise Unsupported("stop-iteration", "a callback raised StopIteration inside a modeled iterator")
    return EscapedVar(args[0])


def _make(vm: VM, impl: Any, pytype: type, args: list[Var]) -> Any:
    gen = vm.call(vm.wrap_fixed(impl), args, {})
    if type(gen) is not GenVar:
        return NotImplemented
    gen.pytype = pytype
    return gen


def _int_or_none(v: Var) -> bool:
    return type(v) is ConstVar and (v.value is None or type(v.value) is int)


@model(map)
def _map_model(vm: VM, args: list[Var], kwargs: dict[str, Var]) -> Any:
    if kwargs or len(args) < 2:
        return NotImplemented
    its = [vm.get_iter(a) for a in args[1:]]
    if len(its) == 1:
        return _make(vm, _map1, map, [args[0], its[0]])
    return _make(vm, _mapn, map, [args[0], TupleVar(its)])


def _filter_of(tp: type, want: bool) -> Any:
    def run(vm: VM, args: list[Var], kwargs: dict[str, Var]) -> Any:
        if kwargs or len(args) != 2:
            return NotImplemented
        return _make(vm, _filter, tp, [args[0], vm.get_iter(args[1]), ConstVar(want)])

    return run


model(filter)(_filter_of(filter, True))
model(itertools.filterfalse)(_filter_of(itertools.filterfalse, False))


@model(itertools.islice)
def _islice_model(vm: VM, args: list[Var], kwargs: dict[str, Var]) -> Any:
    if kwargs or not 2 <= len(args) <= 4 or not all(_int_or_none(a) for a in args[1:]):
        return NotImplemented
    bounds = [a.value for a in args[1:]]
    start, stop, step = (0, bounds[0], 1) if len(bounds) == 1 else (*bounds, 1)[:3]
    start = 0 if start is None else start
    step = 1 if step is None else step
    if start < 0 or (stop is not None and stop < 0) or step < 1:
        return NotImplemented  # CPython's ValueError, from the eager call
    it = vm.get_iter(args[0])
    return _make(vm, _islice, itertools.islice,
                 [it, ConstVar(start), ConstVar(stop), ConstVar(step)])


@model(itertools.chain)
def _chain_model(vm: VM, args: list[Var], kwargs: dict[str, Var]) -> Any:
    if kwargs:
        return NotImplemented
    # chain() calls iter() on each input only when it reaches it: the inputs are kept as they are.
    return _make(vm, _chain, itertools.chain, [TupleVar(list(args))])


@model(itertools.chain.from_iterable)
def _chain_from_model(vm: VM, args: list[Var], kwargs: dict[str, Var]) -> Any:
    if kwargs or len(args) != 1:
        return NotImplemented
    return _make(vm, _chain_from, itertools.chain, [vm.get_iter(args[0])])


@model(itertools.count)
def _count_model(vm: VM, args: list[Var], kwargs: dict[str, Var]) -> Any:
    if kwargs or len(args) > 2 or not all(type(v) is ConstVar and type(v.value) is int for v in args):
        return NotImplemented
    start, step = [*args, ConstVar(0), ConstVar(1)][:2] if not args else [*args, ConstVar(1)][:2]
    return _make(vm, _count, itertools.count, [start, step])


@model(itertools.accumulate)
def _accumulate_model(vm: VM, args: list[Var], kwargs: dict[str, Var]) -> Any:
    if not 1 <= len(args) <= 2 or set(kwargs) - {"func", "initial"} or (len(args) == 2 and "func" in kwargs):
        return NotImplemented
    func = args[1] if len(args) == 2 else kwargs.get("func", ConstVar(None))
    initial = kwargs.get("initial", ConstVar(None))
    has = not (type(initial) is ConstVar and initial.value is None)
    return _make(vm, _accumulate, itertools.accumulate,
                 [vm.get_iter(args[0]), func, ConstVar(has), initial])


@model(itertools.product)
def _product_model(vm: VM, args: list[Var], kwargs: dict[str, Var]) -> Any:
    repeat = kwargs.get("repeat", ConstVar(1))
    if set(kwargs) - {"repeat"} or type(repeat) is not ConstVar or type(repeat.value) is not int or \
            repeat.value < 0:
        return NotImplemented
    pools = [TupleVar(vm.seq_items(a)) for a in args] * repeat.value
    return _make(vm, _product, itertools.product, [TupleVar(pools)])


# -- fallbacks of the builtins' own models (_builtins.py: enumerate/zip over sequences are viewed live) -------

def enumerate_gen(vm: VM, arg: Var, start: int) -> Any:
    """enumerate() over an iterator or generator (not a sequence the VM views live)."""
    return _make(vm, _enumerate, enumerate, [vm.get_iter(arg), ConstVar(start)])


def zip_gen(vm: VM, args: list[Var]) -> Any:
    """zip() (not strict) over iterators or generators."""
    return _make(vm, _zip, zip, [TupleVar([vm.get_iter(a) for a in args])])


def reversed_list(vm: VM, lv: Var) -> Any:
    """reversed() of a list value: eager's iterator reads the live list at each step, as this one does."""
    return _make(vm, _reversed_list, type(reversed([])), [lv])
