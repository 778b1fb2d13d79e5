"""Frames that may read themselves, decided before the frame is traced.

A call that reads its calling frame (`sys._getframe()`, `inspect.currentframe()`, `locals()`...) has no
eager form outside that frame. Before a break the VM can still run the frame for real instead (the trace
restarts with the call that made it eager), but once a break has happened while the frame was on the
stack, its effects up to the break are done and it cannot be re-run. So a frame that *may* call a reader
runs for real from its start: the bytecode scan of `_code.py` catches the readers called by their own name;
this module catches them under other names, by resolving what the frame's loads point to when the frame
starts -- globals and builtins, attributes of modules and classes reached from them, cells of the closure
and the arguments -- and guards that decision (`_Pins`: what each step of the resolution read is pinned,
in plain guard expressions shared with the segment's other guards). What stays unseen is a reader reached through a value computed inside the frame (a
return value, an item of a container, an attribute of an instance made there): see `engine/README.md`.
"""

from __future__ import annotations

import functools
import inspect
import types
import weakref
from dataclasses import dataclass
from typing import TYPE_CHECKING

import torch

from .._runtime import MISSING as _MISSING
from .._runtime import Missing
from . import _version as V
from ._ops_locals import cell_get
from ._values import UNREAD, BoundMethodVar, CellVar, FuncVar, LazyVar, ObjVar, Var

if TYPE_CHECKING:
    from .._guards import Namespace
    from ._interp import VM

_ATTR_OPS = ("LOAD_ATTR", "LOAD_METHOD")


@dataclass(frozen=True, slots=True)
class Probe:
    """The loads of one code object whose targets can be known when the frame starts, each with the
    attribute chain that follows it (`mod.sub.fn` -> ("sub", "fn"))."""

    globals: tuple[tuple[str, tuple[str, ...]], ...]
    cells: dict[int, tuple[tuple[str, ...], ...]]  # index into the closure -> chains
    args: dict[int, tuple[tuple[str, ...], ...]]  # argument's local index -> chains
    # a global every plain load of which is called at once -> the fewest positional arguments it gets
    argc: dict[str, int]


_PROBES: weakref.WeakKeyDictionary = weakref.WeakKeyDictionary()


def probe(code: types.CodeType) -> Probe:
    p = _PROBES.get(code)
    if p is None:
        p = _PROBES[code] = _scan(code)
    return p


def _scan(code: types.CodeType) -> Probe:
    instrs = V.instructions(code)
    nlocals = len(V.localsplus_names(code))
    nfree = len(code.co_freevars)
    nargs = code.co_argcount + code.co_kwonlyargcount
    globs, cells, args = set(), set(), set()
    argc: dict[str, int | None] = {}
    for k, ins in enumerate(instrs):
        chain = []
        j = k + 1
        while j < len(instrs) and instrs[j].opname in _ATTR_OPS:
            chain.append(instrs[j].argval)
            j += 1
        if ins.opname == "LOAD_GLOBAL":
            globs.add((ins.argval, tuple(chain)))
            if not chain:
                n, had = V.direct_call_argc(instrs, k), argc.get(ins.argval, -1)
                argc[ins.argval] = None if n is None or had is None else n if had == -1 else min(n, had)
        elif ins.opname in ("LOAD_DEREF", "LOAD_CLOSURE") and ins.arg >= nlocals - nfree:
            cells.add((ins.arg - (nlocals - nfree), tuple(chain)))
        elif V.opname(ins) == "LOAD_FAST" and ins.arg < nargs:  # (3.12's LOAD_FAST_CHECK too)
            args.add((ins.arg, tuple(chain)))
    return Probe(tuple(sorted(globs)), _by_index(cells), _by_index(args),
                 {k: n for k, n in argc.items() if n is not None})


def _by_index(pairs: set[tuple[int, tuple[str, ...]]]) -> dict[int, tuple[tuple[str, ...], ...]]:
    out: dict[int, list] = {}
    for k, chain in sorted(pairs):
        out.setdefault(k, []).append(chain)
    return {k: tuple(v) for k, v in out.items()}


NONE, NAMESPACE, FRAME = 0, 1, 2  # what a load may reach, in increasing order of cost

# Readers of the frame's namespace only: the VM builds their result from its own frame (see
# `_calls._frame_namespace`), also in a resumed frame when it kept every local (`keep_locals`).
_NAMESPACE_READERS = {locals, vars, dir, globals}


# Every frame reader (with an unknown argument count, those that read the frame only when called without
# some arguments count too, as in the name scan) -> its kind. A dict: the guard looks values up here.
_KINDS = {obj: NAMESPACE if obj in _NAMESPACE_READERS else FRAME
          for obj in (*V._FRAME_READERS, *V._FRAME_READERS_POSITIONAL)}


def reader_kind(obj: object) -> int:
    """FRAME when calling `obj` may read the calling frame itself, NAMESPACE when it reads only its
    namespace, else NONE."""
    t = type(obj)
    if t is functools.partial:
        obj = obj.func
    elif t is types.MethodType:
        obj = obj.__func__
    try:
        return _KINDS.get(obj, NONE)
    except TypeError:  # unhashable: no reader
        return NONE


def _static_attr(obj: object, name: str) -> object:
    """An attribute looked up without running code (no properties, no __getattr__)."""
    if type(obj) is types.ModuleType:
        return obj.__dict__.get(name, _MISSING)
    try:
        v = inspect.getattr_static(obj, name, _MISSING)
    except Exception:
        return _MISSING
    if isinstance(v, (staticmethod, classmethod)):
        v = v.__func__
    return v


# Values whose attributes are never looked at: no reader hides there (a reader stored as an attribute of
# one tensor instance is the one exception, left to the run-time check), and a guard over tensor arguments
# then costs one type test each.
_OPAQUE = (torch.Tensor, int, float, bool, str, bytes, type(None))
# The exact types a guard accepts as "opaque, or absent" with one set lookup (an isinstance over a tuple
# tries each type in turn, and a tensor type's instance check is slow): a value of another opaque type,
# a tensor subclass say, is pinned by its type instead.
_OPAQUE_TYPES = frozenset({torch.Tensor, torch.nn.Parameter, int, float, bool, str, bytes, type(None), Missing})


def _chain_kind(obj: object, chain: tuple[str, ...]) -> int:
    if isinstance(obj, _OPAQUE):
        return NONE
    kind = reader_kind(obj)
    for name in chain:
        if obj is _MISSING or kind == FRAME:
            break
        obj = _static_attr(obj, name)
        kind = max(kind, reader_kind(obj))
    return kind


def _cell_value(cell: object) -> object:
    try:
        return cell.cell_contents
    except (ValueError, AttributeError):
        return _MISSING


_CLASS_DICTS: weakref.WeakKeyDictionary = weakref.WeakKeyDictionary()


def _class_dict(c: type) -> types.MappingProxyType:
    """One mappingproxy per class (each `c.__dict__` makes a new one): a guard constant shared by name."""
    d = _CLASS_DICTS.get(c)
    if d is None:
        d = _CLASS_DICTS[c] = c.__dict__
    return d


class _Unpinnable(Exception):
    """A lookup whose answer depends on more than the dicts `_Pins` checks (a metaclass, a shadowed
    `__dict__`, a class attribute under an instance attribute of the same name)."""


_HEAPTYPE = 1 << 9  # Py_TPFLAGS_HEAPTYPE: a class made by a class statement; builtin types are immutable
# `x.__dict__` of an instance of a class with these runs no code of the program
_PLAIN_GETATTRIBUTE = (object.__getattribute__, types.ModuleType.__getattribute__)
_PINNED_BY_IDENTITY = (types.FunctionType, types.BuiltinFunctionType, types.ModuleType, type)


class _Pins:
    """The guard that keeps a frame's reader decision true for a segment, as plain guard expressions.

    It walks each probed load as `_chain_kind` does and pins what every step read: a value that is or may
    lead to a reader (function, builtin, module, class) by identity; a bound method or a partial by its type
    and the function it wraps (they are often made per call); any other instance by its type; an opaque
    value (a tensor, a number) by being opaque; and every dict the static lookup reads -- a globals or
    module dict, an instance `__dict__`, the dicts and the MRO of a class made by a class statement -- by
    the entry it found or by its absence. While the pins hold every load resolves to the same objects, so
    the decision holds. The expressions go through the segment's de-duplicated guard list: `G.get('F',
    _MISSING) is k` is the trace's own global guard too, and a class's dict is checked once for all its
    instances. A lookup `_Pins` cannot express (`_Unpinnable`) keeps the walk for its chain:
    `_chain_kind(start, chain) <= kind`, re-run at each call.

    Re-running the walk for every frame at every call (the guard this replaces) cost more than the graph
    on the models of benchmarks/models.py; pins are a few dict probes per frame, mostly shared.
    """

    def __init__(self, ns: Namespace) -> None:
        self.ns = ns
        self.exprs: list[str] = []
        self.unless: dict[str, str] = {}  # a pin -> the trace's own guard that implies it (Guards.add)

    def load(self, obj: object, x: str, chain: tuple[str, ...]) -> int:
        """The reader kind of a load: `obj`, read at run time by expression `x`, then its attribute chain."""
        mark = len(self.exprs)
        try:
            return self._walk(obj, x, chain)
        except _Unpinnable:
            del self.exprs[mark:]
            kind = _chain_kind(obj, chain)
            self.exprs.append(f"{self.ns.const(_chain_kind, 'f')}({x}, {chain!r}) <= {kind}")
            return kind

    def _walk(self, obj: object, x: str, chain: tuple[str, ...]) -> int:
        if obj is _MISSING:
            self.exprs.append(f"{x} is _MISSING")
            return NONE
        if isinstance(obj, _OPAQUE):
            if type(obj) in _OPAQUE_TYPES:
                self.exprs.append(f"type({x}) in {self.ns.const(_OPAQUE_TYPES, 'T')}")
            else:
                self.exprs.append(f"type({x}) is {self.ns.const(type(obj), 'T')}")
            return NONE
        x = self._value(obj, x)
        kind = reader_kind(obj)
        for i, name in enumerate(chain):
            if kind == FRAME:
                break
            obj, fx = self._attr(obj, x, name, i == len(chain) - 1)
            if fx is None:  # found in (or absent from) immutable dicts: fixed
                if obj is _MISSING:
                    break
                x = self.ns.const(obj, "k")
            elif obj is _MISSING:
                self.exprs.append(f"{fx} is _MISSING")
                break
            else:
                x = self._value(obj, fx)
            kind = max(kind, reader_kind(obj))
        return kind

    def _value(self, obj: object, x: str) -> str:
        """Pins a value read by `x`; returns the expression that reads it from now on."""
        ns, t = self.ns, type(obj)
        if t is types.MethodType or t is functools.partial:
            inner = "__func__" if t is types.MethodType else "func"
            self.exprs.append(f"type({x}) is {ns.const(t, 'T')} and {x}.{inner} is "
                              f"{ns.const(getattr(obj, inner), 'k')}")
            return x
        if isinstance(obj, _PINNED_BY_IDENTITY):
            k = ns.const(obj, "k")
            self.exprs.append(f"{x} is {k}")
            return k
        self.exprs.append(f"type({x}) is {ns.const(t, 'T')}")
        return x

    def _attr(self, obj: object, x: str, name: str, last: bool) -> tuple[object, str | None]:
        """`_static_attr(obj, name)` with pins on what it reads; `obj` is pinned and read by `x`. Returns
        the value and an expression that reads it (None: the value is fixed). The `last` attribute of a
        chain, when found in (or absent from) an instance dict only, is pinned by kind alone: a value set
        in forward (`self.note = x.sum()`) is absent when the first call starts and present at the next,
        and either way no reader."""
        if type(obj) is types.ModuleType:
            return obj.__dict__.get(name, _MISSING), f"{x}.__dict__.get({name!r}, _MISSING)"
        if isinstance(obj, type):
            if type(obj) is not type:
                raise _Unpinnable
            found, fx = self._class_lookup(obj, name)
            if found is _MISSING:  # then the metaclass, `type`: a builtin
                found, fx = type.__dict__.get(name, _MISSING), None
        else:
            klass = type(obj)
            found, fx = self._class_lookup(klass, name)
            shadow = inspect._shadowed_dict(klass)  # as getattr_static: ModuleType's own `__dict__` is a member
            if shadow is not inspect._sentinel and type(shadow) is not types.MemberDescriptorType:
                raise _Unpinnable
            try:
                d = object.__getattribute__(obj, "__dict__")
            except AttributeError:
                d = None
            if d is not None:
                if type(d) is not dict or klass.__getattribute__ not in _PLAIN_GETATTRIBUTE:
                    raise _Unpinnable
                v = d.get(name, _MISSING)
                if v is not _MISSING and found is not _MISSING:
                    raise _Unpinnable  # which wins depends on the class attribute's type
                if last and found is _MISSING and type(v) in _OPAQUE_TYPES:
                    pin = f"type({x}.__dict__.get({name!r}, _MISSING)) in {self.ns.const(_OPAQUE_TYPES, 'T')}"
                    self.exprs.append(pin)
                    if v is _MISSING:
                        self.unless[pin] = f"{name!r} not in {x}.__dict__"
                    return _MISSING, None
                if v is not _MISSING:
                    return v, f"{x}.__dict__.get({name!r}, _MISSING)"
                self.exprs.append(f"{name!r} not in {x}.__dict__")
        if isinstance(found, (staticmethod, classmethod)):
            return found.__func__, (f"{fx}.__func__" if fx is not None else None)
        return found, fx

    def _class_lookup(self, klass: type, name: str) -> tuple[object, str | None]:
        """`name` in the first dict of `klass`'s MRO that holds it, and an expression reading it (None when
        it is fixed: found in, or absent from, builtin classes only). Pins the MRO and the dicts before."""
        mro = klass.__mro__
        if any(type(c) is not type for c in mro):
            raise _Unpinnable  # a metaclass may shadow __dict__ or __mro__
        ns = self.ns
        if klass.__flags__ & _HEAPTYPE:
            self.exprs.append(f"{ns.const(klass, 'T')}.__mro__ is {ns.const(mro, 'k')}")
        for c in mro:
            heap = c.__flags__ & _HEAPTYPE
            if name in c.__dict__:
                return c.__dict__[name], (f"{ns.const(_class_dict(c), 'P')}.get({name!r}, _MISSING)" if heap else None)
            if heap:  # a class's mappingproxy is a live view of its dict, which the class keeps for life
                self.exprs.append(f"{name!r} not in {ns.const(_class_dict(c), 'P')}")
        return _MISSING, None


def _real(vm: VM, v: Var) -> tuple[object, str | None]:
    """(real object, source expression or None) of a VM value, or (_MISSING, None) when it has none."""
    if type(v) is LazyVar:
        return vm.env[v.index], f"env[{v.index}]"
    if type(v) is BoundMethodVar:
        return _real(vm, v.func)
    if type(v) in (ObjVar, FuncVar):
        obj = v.obj if type(v) is ObjVar else v.real
        if obj is None:
            return _MISSING, None
        return obj, (v.src.expr(vm.ns) if v.src is not None else None)
    return _MISSING, None


def frame_reader(vm: VM, fv: FuncVar, closure: list | None, localsplus: list) -> bool:
    """Whether the frame about to start (function `fv`, bound `localsplus`) must run for real because a load
    the probe resolves may reach a frame reader. A frame that may only read its namespace is traced and
    keeps every local across breaks instead. Adds the guards that keep the answer true for the segment."""
    code = fv.code
    if code in getattr(vm.ctx, "eager_codes", ()):
        return True
    p = probe(code)
    if not (p.globals or p.cells or p.args):
        return False
    pins = _Pins(vm.ns)
    worst = max(_globals_kind(vm, pins, p, fv.fglobals), _cells_kind(vm, pins, p, closure))
    for k, chains in p.args.items():
        value, expr = _real(vm, localsplus[k]) if localsplus[k] is not None else (_MISSING, None)
        if value is _MISSING:
            continue
        for chain in chains:  # a value with no source is of the trace's making: known now, not re-read
            worst = max(worst, _chain_kind(value, chain) if expr is None else pins.load(value, expr, chain))
    if worst == FRAME:
        return True
    if worst == NAMESPACE:
        vm.ctx.keep_locals.add(code)
    for e in pins.exprs:
        vm.guards.add(e, pins.unless.get(e))
    return False


def _globals_kind(vm: VM, pins: _Pins, p: Probe, fglobals: dict) -> int:
    """The worst reader the probed globals (and builtins) reach, their loads pinned."""
    fbuiltins = fglobals.get("__builtins__", __builtins__)
    if not isinstance(fbuiltins, dict):
        fbuiltins = fbuiltins.__dict__
    ns, worst = vm.ns, NONE
    for name, chain in p.globals:
        key = (id(fglobals), name)
        if key in vm.gover:  # stored by traced code earlier in the segment: the trace's value, not the dict's
            worst = max(worst, reader_kind(_real(vm, vm.gover[key])[0]))
            continue
        g = ns.const(fglobals, "G")
        if name in fglobals:
            obj, x = fglobals[name], f"{g}.get({name!r}, _MISSING)"
        else:
            pins.exprs.append(f"{name!r} not in {g}")
            obj, x = fbuiltins.get(name, _MISSING), f"{ns.const(fbuiltins, 'G')}.get({name!r}, _MISSING)"
        kind = pins.load(obj, x, chain)
        if kind == NAMESPACE and not chain and name in p.argc and _plain_call(obj, p.argc[name]):
            kind = NONE  # `vars(obj)`, `dir(obj)`: the reader pinned by identity, called with its argument
        worst = max(worst, kind)
    return worst


def _plain_call(obj: object, nargs: int) -> bool:
    """Calling `obj` (itself, not a wrapper) with `nargs` positional arguments reads no frame."""
    try:
        need = V._FRAME_READERS_POSITIONAL.get(obj)
    except TypeError:
        return False
    return need is not None and nargs >= need


def _cells_kind(vm: VM, pins: _Pins, p: Probe, closure: list | None) -> int:
    """The worst reader the probed closure cells reach: a real cell's loads pinned, the contents of one
    made or written by traced code known to the trace."""
    worst = NONE
    for k, chains in p.cells.items():
        c = closure[k] if closure is not None and k < len(closure) else None
        if type(c) is not CellVar:
            continue
        if c.real is not None and c.src is not None and not c.changed:
            x = f"{vm.ns.const(_cell_value, 'f')}({c.src.expr(vm.ns)})"
            for chain in chains:
                worst = max(worst, pins.load(_cell_value(c.real), x, chain))
            continue
        contents = c.contents
        if contents is UNREAD:
            contents = cell_get(vm, c) if c.src is not None else _cell_value(c.real)
        value = _real(vm, contents)[0] if isinstance(contents, Var) else contents
        if value is not _MISSING:
            worst = max(worst, *(_chain_kind(value, ch) for ch in chains))
    return worst


def keeps_locals(vm: VM, code: types.CodeType) -> bool:
    """A frame of `code` may read its namespace: every bound local is kept across breaks, not only the live
    ones, so that locals()/vars()/dir() give eager's answer after a break too."""
    return code in getattr(vm.ctx, "keep_locals", ())
