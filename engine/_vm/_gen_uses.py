"""What the code ahead of a frame does with a generator its locals hold: whether a break may persist the
generator in the snapshot instead of making it real.

A generator made by traced code never becomes a real object (see _generators.py); once persisted at a
break, no later trace can make its creation eager either, so persisting one is right only if no later
segment can need it real. A local's value is followed through every instruction reachable from where
its frame resumes (exception edges included); each load of a local that may hold it must be one of the
uses the VM traces without making it real, with no eager op that could take it as an operand between
the load and the use:

    next(g), next(g, a)     LOAD_GLOBAL NULL+next, LOAD_FAST g, [a], PRECALL, CALL
    list(g), tuple(g)       LOAD_GLOBAL NULL+list/tuple, LOAD_FAST g, PRECALL 1, CALL 1
    g.send(...)             LOAD_FAST g, LOAD_METHOD send (then any arguments, and the call)
    for v in g              LOAD_FAST g, GET_ITER, FOR_ITER
    yield from g            LOAD_FAST g, GET_YIELD_FROM_ITER, LOAD_CONST None, SEND
    g is a, a is g          LOAD_FAST g, a, IS_OP / LOAD_x, LOAD_FAST g, IS_OP
    h = g                   LOAD_FAST g, STORE_FAST h (and h is followed too)
    g                       LOAD_FAST g, POP_TOP

where `a` is a constant or a local bound on every path to it (so loading it cannot fail while the
generator is on the stack; `send` is on the stack as its own value, which a break may persist). Anything else
(an attribute, `is`, any other call, a return, a container, a cell, a comprehension...) and the generator
is made real, as before. The builtins named must be the builtins: the caller resolves them now and
guards them; code ahead that stores those globals refuses.
"""

from __future__ import annotations

import weakref
from typing import TYPE_CHECKING

from . import _version as V
from ._code import successors

if TYPE_CHECKING:
    from ._code import CodeInfo

_CALLS1 = ("next", "list", "tuple")  # builtins called with the generator as the one argument
_Use = tuple[str, int]  # ("alias", local) / ("call", builtin name) / ("step", 0)


def uses_ahead(info: CodeInfo, at: int, held: frozenset[int]) -> frozenset[str] | None:
    """None if code reachable from instruction `at` may use what locals `held` hold in a way that needs it
    real; else the callables its uses call: builtins named as such (to be resolved as the builtins), and
    "send" for the method. Cached per code."""
    per = _CACHE.get(info)
    if per is None:
        per = _CACHE[info] = {}
    key = (at, held)
    if key not in per:
        per[key] = _uses_ahead(info, at, held)
    return per[key]


def returns_constants(info: CodeInfo) -> bool:
    """Every return of the code returns a constant (so next()'s StopIteration is one the VM can make)."""
    ins = info.instrs
    return all(i.opname == "RETURN_CONST" or (k > 0 and ins[k - 1].opname == "LOAD_CONST" and k not in _targets(info))
               for k, i in enumerate(ins) if i.opname in ("RETURN_VALUE", "RETURN_CONST"))


_CACHE: weakref.WeakKeyDictionary = weakref.WeakKeyDictionary()
_TARGETS: weakref.WeakKeyDictionary = weakref.WeakKeyDictionary()
_BOUND: weakref.WeakKeyDictionary = weakref.WeakKeyDictionary()


def _uses_ahead(info: CodeInfo, at: int, held: frozenset[int]) -> frozenset[str] | None:
    if held & info.cells:
        return None
    reach = _reachable(info, at)
    tainted = set(held)
    names: set[str] = set()
    changed = True
    while changed:  # aliases taint more locals: until nothing changes (then every load was checked)
        changed = False
        names.clear()
        for k in reach:
            ins = info.instrs[k]
            if ins.opname != "LOAD_FAST" or ins.arg not in tainted:
                continue
            use = _use(info, k, tainted)
            if use is None:
                return None
            what, x = use
            if what == "alias" and x not in tainted:
                if x in info.cells:
                    return None
                tainted.add(x)
                changed = True
            elif what == "call":
                names.add(x)
    for k in reach:
        ins = info.instrs[k]
        if ins.opname in ("STORE_GLOBAL", "DELETE_GLOBAL") and ins.argval in names - {"send"}:
            return None
    return frozenset(names)


def _use(info: CodeInfo, k: int, tainted: set[int]) -> _Use | None:
    """The use the load at `k` of a tainted local starts, if it is one the VM follows."""
    ins = info.instrs
    n = len(ins)

    def op(i: int, name: str, arg: object = None) -> bool:
        return i < n and ins[i].opname == name and (arg is None or ins[i].arg == arg)

    def plain(first: int, last: int) -> bool:  # no jump lands inside (the stack is the one assumed)
        targets = _targets(info)
        return not any(i in targets for i in range(first + 1, last + 1))

    def simple(i: int, other: bool = False) -> bool:  # a load that cannot fail (`other`: it may be it too)
        if op(i, "LOAD_CONST"):
            return True
        j = ins[i].arg if op(i, "LOAD_FAST") else None
        return j is not None and (other or j not in tainted) and j not in info.cells and \
            bool(_bound(info)[i] >> j & 1)

    if op(k + 1, "STORE_FAST") and plain(k, k + 1):
        return ("alias", ins[k + 1].arg)
    if op(k + 1, "POP_TOP") and plain(k, k + 1):
        return ("step", 0)
    if simple(k + 1, True) and op(k + 2, "IS_OP") and plain(k, k + 2):
        return ("step", 0)  # g is x (the VM tells: a generator it made is only itself)
    if k > 0 and (op(k - 1, "LOAD_CONST") or op(k - 1, "LOAD_FAST")) and op(k + 1, "IS_OP") and plain(k - 1, k + 1):
        return ("step", 0)  # x is g
    if op(k + 1, "GET_ITER") and op(k + 2, "FOR_ITER") and plain(k, k + 1):
        return ("step", 0)  # (FOR_ITER is the loop's own jump target)
    if op(k + 1, "GET_YIELD_FROM_ITER") and op(k + 2, "LOAD_CONST") and ins[k + 2].argval is None and \
            op(k + 3, "SEND") and plain(k, k + 2) and info.generator:
        return ("step", 0)
    if op(k + 1, "LOAD_METHOD") and ins[k + 1].argval == "send" and plain(k, k + 1):
        return ("call", "send")  # (only the method call consumes what LOAD_METHOD pushes)
    if k == 0 or not op(k - 1, "LOAD_GLOBAL") or not ins[k - 1].arg & 1 or not plain(k - 1, k):
        return None
    name = ins[k - 1].argval

    def call_at(i: int, argc: int) -> int:  # the index of the CALL of argc arguments at i (3.11: PRECALL first)
        for prefix in V.CALL_PREFIX:
            if not op(i, prefix, argc):
                return -1
            i += 1
        return i if op(i, "CALL", argc) else -1

    c = call_at(k + 1, 1)
    if name in _CALLS1 and c >= 0 and plain(k, c):
        return ("call", name)
    c = call_at(k + 2, 2)
    if name == "next" and simple(k + 1) and c >= 0 and plain(k, c):
        return ("call", name)
    return None


def _reachable(info: CodeInfo, at: int) -> list[int]:
    seen = {at}
    todo = [at]
    while todo:
        for s in successors(info, todo.pop()):
            if s not in seen:
                seen.add(s)
                todo.append(s)
    return sorted(seen)


def _targets(info: CodeInfo) -> frozenset[int]:
    """Instructions a jump or an exception handler lands on."""
    t = _TARGETS.get(info)
    if t is None:
        t = {ins.target for ins in info.instrs if ins.target is not None}
        t |= {h[0] for h in info.handlers if h is not None}
        t = _TARGETS[info] = frozenset(t)
    return t


def _bound(info: CodeInfo) -> list[int]:
    """bound[k]: the locals (bit mask) bound on every path to instruction k, before it runs: a forward
    must-analysis from the code's start (the arguments bound), exception edges included."""
    b = _BOUND.get(info)
    if b is not None:
        return b
    code = info.code
    nargs = code.co_argcount + code.co_kwonlyargcount + bool(code.co_flags & 4) + bool(code.co_flags & 8)
    n = len(info.instrs)
    every = (1 << info.nlocalsplus) - 1
    b = [every] * n
    b[0] = (1 << nargs) - 1
    todo = [0]
    while todo:
        k = todo.pop()
        ins = info.instrs[k]
        out = b[k]
        if ins.opname == "STORE_FAST":
            out |= 1 << ins.arg
        elif ins.opname == "DELETE_FAST":
            out &= ~(1 << ins.arg)
        h = info.handlers[k]
        for s in successors(info, k):
            new = b[s] & (b[k] if h is not None and s == h[0] else out)
            if new != b[s]:
                b[s] = new
                todo.append(s)
    _BOUND[info] = b
    return b
