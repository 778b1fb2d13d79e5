"""Frames that may read themselves, decided before the frame is traced.

A call that reads its calling frame (`sys._getframe()`, `inspect.currentframe()`, `locals()`...) has no
eager form outside that frame. Before a break the VM can still run the frame for real instead (the trace
restarts with the call that made it eager), but once a break has happened while the frame was on the
stack, its effects up to the break are done and it cannot be re-run. So a frame that *may* call a reader
runs for real from its start: the bytecode scan of `_code.py` catches the readers called by their own name;
this module catches them under other names, by resolving what the frame's loads point to when the frame
starts -- globals and builtins, attributes of modules and classes reached from them, cells of the closure
and the arguments -- and guards that decision (one guard per frame: the same resolution re-run on the
segment's inputs). What stays unseen is a reader reached through a value computed inside the frame (a
return value, an item of a container, an attribute of an instance made there): see `engine/README.md`.
"""

from __future__ import annotations

import functools
import inspect
import types
import weakref
from dataclasses import dataclass

import torch

from . import _version as V
from ._values import UNREAD, BoundMethodVar, CellVar, FuncVar, LazyVar, ObjVar, Var

_MISSING = object()
_NO_SKIP: frozenset = frozenset()
_ATTR_OPS = ("LOAD_ATTR", "LOAD_METHOD")


@dataclass(frozen=True, slots=True)
class Probe:
    """The loads of one code object whose targets can be known when the frame starts, each with the
    attribute chain that follows it (`mod.sub.fn` -> ("sub", "fn"))."""

    globals: tuple[tuple[str, tuple[str, ...]], ...]
    cells: dict[int, tuple[tuple[str, ...], ...]]  # index into the closure -> chains
    args: dict[int, tuple[tuple[str, ...], ...]]  # argument's local index -> chains


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
    for k, ins in enumerate(instrs):
        chain = []
        j = k + 1
        while j < len(instrs) and instrs[j].opname in _ATTR_OPS:
            chain.append(instrs[j].argval)
            j += 1
        if ins.opname == "LOAD_GLOBAL":
            globs.add((ins.argval, tuple(chain)))
        elif ins.opname in ("LOAD_DEREF", "LOAD_CLOSURE") and ins.arg >= nlocals - nfree:
            cells.add((ins.arg - (nlocals - nfree), tuple(chain)))
        elif ins.opname == "LOAD_FAST" and ins.arg < nargs:
            args.add((ins.arg, tuple(chain)))
    return Probe(tuple(sorted(globs)), _by_index(cells), _by_index(args))


def _by_index(pairs):
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
    if isinstance(obj, torch.nn.Module):
        # Every frame of a model has `self` chains (`self.forward`, `self.weight`) walked at every warm call:
        # getattr_static's general machinery was over a third of a warm call. A module is a plain instance:
        # its __dict__, then its classes' dicts (what getattr_static finds, less data descriptors' precedence,
        # which changes no answer here: a property is no reader and ends the chain).
        v = obj.__dict__.get(name, _MISSING)
        if v is _MISSING:
            for klass in type(obj).__mro__:
                v = klass.__dict__.get(name, _MISSING)
                if v is not _MISSING:
                    break
        return v.__func__ if isinstance(v, (staticmethod, classmethod)) else v
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


def worst_reader(p: Probe, fglobals, fbuiltins, skip, cells, args) -> int:
    """The most costly reader a load of the probed code known at frame start resolves to (NONE, NAMESPACE,
    FRAME). `cells` and `args` are (index, real cell / real value) pairs; globals named in `skip` were stored
    by traced code. Also the guard that keeps a frame's decision true for a segment (it takes the probe, not
    the code: hashing a code object hashes its whole contents)."""
    worst = NONE
    for name, chain in p.globals:
        if name in skip:
            continue
        obj = fglobals.get(name, _MISSING)
        if obj is _MISSING:
            obj = fbuiltins.get(name, _MISSING)
        if obj is not _MISSING:
            k = _chain_kind(obj, chain)
            if k > worst:
                worst = k
    for k, cell in cells:
        value = _cell_value(cell)
        if value is not _MISSING:
            for chain in p.cells[k]:
                kind = _chain_kind(value, chain)
                if kind > worst:
                    worst = kind
    for k, value in args:
        if isinstance(value, _OPAQUE):  # the common case, a tensor: skip its chains
            continue
        for chain in p.args[k]:
            kind = _chain_kind(value, chain)
            if kind > worst:
                worst = kind
    return worst


def _real(vm, v):
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


def frame_reader(vm, fv: FuncVar, closure: list | None, localsplus: list) -> bool:
    """Whether the frame about to start (function `fv`, bound `localsplus`) must run for real because a load
    the probe resolves may reach a frame reader. A frame that may only read its namespace is traced and
    keeps every local across breaks instead. Adds the guard that keeps the answer true for the segment."""
    from ._ops_locals import cell_get

    code = fv.code
    if code in getattr(vm.ctx, "eager_codes", ()):
        return True
    p = probe(code)
    if not (p.globals or p.cells or p.args):
        return False
    fglobals = fv.fglobals
    fbuiltins = fglobals.get("__builtins__", __builtins__)
    if not isinstance(fbuiltins, dict):
        fbuiltins = fbuiltins.__dict__
    worst = NONE
    # globals stored by traced code earlier in the segment: their value is the trace's, not the dict's
    stored = {name: vm.gover[(id(fglobals), name)] for name, _ in p.globals if (id(fglobals), name) in vm.gover}
    for v in stored.values():
        worst = max(worst, reader_kind(_real(vm, v)[0]))
    skip = frozenset(stored) if stored else _NO_SKIP
    cells, cell_exprs = [], []
    for k in p.cells:
        c = closure[k] if closure is not None and k < len(closure) else None
        if type(c) is not CellVar:
            continue
        if c.real is not None and c.src is not None and not c.changed:
            cells.append((k, c.real))
            cell_exprs.append(f"({k}, {c.src.expr(vm.ns)})")
        else:  # a cell made or written by traced code: its current contents, known to the trace
            contents = c.contents
            if contents is UNREAD:
                contents = cell_get(vm, c) if c.src is not None else _cell_value(c.real)
            value = _real(vm, contents)[0] if isinstance(contents, Var) else contents
            if value is not _MISSING:
                worst = max(worst, *(_chain_kind(value, ch) for ch in p.cells[k]))
    args, arg_exprs = [], []
    for k in p.args:
        value, expr = _real(vm, localsplus[k]) if localsplus[k] is not None else (_MISSING, None)
        if value is _MISSING:
            continue
        args.append((k, value))
        if expr is not None:
            arg_exprs.append(f"({k}, {expr})")
    worst = max(worst, worst_reader(p, fglobals, fbuiltins, skip, cells, args))
    if worst == FRAME:
        return True
    if worst == NAMESPACE:
        vm.ctx.keep_locals.add(code)
    ns = vm.ns
    vm.guards.add(f"{ns.const(worst_reader, 'f')}({ns.const(p, 'probe')}, {ns.const(fglobals, 'G')}, "
                  f"{ns.const(fbuiltins, 'G')}, {ns.const(skip, 'k')}, ({''.join(e + ', ' for e in cell_exprs)}), "
                  f"({''.join(e + ', ' for e in arg_exprs)})) <= {worst}")
    return False


def keeps_locals(vm, code: types.CodeType) -> bool:
    """A frame of `code` may read its namespace: every bound local is kept across breaks, not only the live
    ones, so that locals()/vars()/dir() give eager's answer after a break too."""
    return code in getattr(vm.ctx, "keep_locals", ())
