"""The member generators of nn.Module: `parameters()`, `named_modules()`, `children()`... as live views.

In torch these are generators built with `yield from`, which the VM does not trace; run eagerly, each one
became a break plus an opaque iterator that every later loop step broke on again (`zip(ema.parameters(),
net.parameters())`, `for m in self.modules()`, and torch's own `train()`, `apply()`, `requires_grad_()`).

A call becomes an `IterVar` over a `MemberView`: the member list is recomputed from the VM's view of the
module tree (its `_modules` / `_parameters` / `_buffers` dicts, keys guarded) at every step, so a loop that
replaces a member it has not reached yet sees the new one, as eager's lazy generator does. When the list
changes length, or the iterator must become real (a break inside the loop), the real generator is made and
advanced to the same position (`members_at`), which then behaves exactly as eager's.
"""

from __future__ import annotations

import inspect
from typing import TYPE_CHECKING, Any

import torch

from .._errors import Unsupported
from .._guards import AttrSrc, ConstSrc
from ._consts import key_var
from ._values import ConstVar, DictVar, IterVar, ObjVar, TupleVar, Var

if TYPE_CHECKING:
    from ._interp import VM

_M = torch.nn.Module
# The generator methods modeled, and the Module methods they reach (none may be overridden in the tree).
METHODS = ("parameters", "named_parameters", "buffers", "named_buffers", "children", "named_children",
           "modules", "named_modules")
_REACHED = {name: getattr(_M, name) for name in (*METHODS, "_named_members")}


class MemberView:
    """`module.<method>(**kwargs)`'s items, recomputed from the VM's module tree (lives in IterVar.seq)."""

    __slots__ = ("module", "method", "kwargs", "length")

    def __init__(self, module: ObjVar, method: str, kwargs: dict[str, Any]) -> None:
        self.module = module
        self.method = method
        self.kwargs = kwargs  # constants, bound to the method's own parameter names
        self.length = -1  # the first computed length: a change means eager's dicts changed size mid-loop

    def items(self, vm: VM) -> list[Var]:
        out = _compute(vm, self.module, self.method, self.kwargs)
        if out is None:
            raise Unsupported("module-members", f"Module.{self.method}() over a module tree with an override")
        if self.length < 0:
            self.length = len(out)
        elif len(out) != self.length:
            raise Unsupported("module-members", f"the module tree changed size during Module.{self.method}()")
        return out


class MembersIter:
    """A MemberView iterator made real: the real generator of `Module.<method>(module, **kwargs)` and how many
    items it yielded. Setting `index` forward advances the generator (the residual code's write-back of a
    loop the VM ran), and `wrap` turns it back into an IterVar over a MemberView when a segment reads it."""

    __slots__ = ("module", "method", "kwargs", "_gen", "_index")

    def __init__(self, module: torch.nn.Module, method: str, kwargs: dict[str, Any]) -> None:
        self.module = module
        self.method = method
        self.kwargs = kwargs
        self._gen = getattr(_M, method)(module, **kwargs)
        self._index = 0

    def __iter__(self) -> MembersIter:
        return self

    def __next__(self) -> Any:
        x = next(self._gen)
        self._index += 1
        return x

    @property
    def index(self) -> int:
        return self._index

    @index.setter
    def index(self, k: int) -> None:
        while self._index < k:
            next(self)


def members_at(module: torch.nn.Module, method: str, kwargs: dict[str, Any], index: int) -> MembersIter:
    """The real generator, advanced by `index` items (what a MemberView iterator is when it becomes real)."""
    it = MembersIter(module, method, kwargs)
    it.index = index
    return it


def members_model(vm: VM, fv: Var, args: list[Var], kwargs: dict[str, Var]) -> Var | None:
    """`Module.parameters(m, ...)` and the other METHODS: an iterator over a MemberView, or None (traced
    as usual) for arguments it does not model (a `memo` set, non-constant flags, an override in the tree)."""
    fn = fv.real
    method = fn.__name__
    if not args or type(args[0]) is not ObjVar or not isinstance(args[0].obj, _M):
        return None
    if any(type(a) is not ConstVar for a in (*args[1:], *kwargs.values())):
        return None
    try:
        bound = inspect.signature(fn).bind(args[0].obj, *(a.value for a in args[1:]),
                                           **{k: v.value for k, v in kwargs.items()})
    except TypeError:
        return None  # eager raises it: the traced call does too
    consts = {k: v for k, v in bound.arguments.items() if k != "self"}
    if consts.get("memo") is not None:
        return None
    if _compute(vm, args[0], method, consts) is None:
        return None
    return IterVar(MemberView(args[0], method, consts))


def _store(vm: VM, m: ObjVar, store: str) -> dict[str, Var]:
    """The VM's view of `m.<store>` (a real dict read with its keys guarded, with traced stores applied)."""
    d = m.obj.__dict__.get(store)
    if type(d) is not dict:
        raise Unsupported("module-members", f"{type(m.obj).__name__}.{store} is not a dict")
    dv = vm.wrap(d, AttrSrc(m.src or ConstSrc(m.obj), store))
    assert type(dv) is DictVar
    return vm.dict_view(dv)


def _plain_tree(m: ObjVar) -> bool:
    tp = type(m.obj)
    return all(getattr(tp, name, None) is fn for name, fn in _REACHED.items())


def _named_modules(vm: VM, m: ObjVar, prefix: str, dedupe: bool, memo: set[int], out: list) -> bool:
    if not _plain_tree(m):
        return False
    if id(m.obj) in memo:
        return True
    if dedupe:
        memo.add(id(m.obj))
    out.append((prefix, m))
    for name, sub in _store(vm, m, "_modules").items():
        if type(sub) is ConstVar and sub.value is None:
            continue
        if type(sub) is not ObjVar or not isinstance(sub.obj, _M):
            return False
        if not _named_modules(vm, sub, prefix + ("." if prefix else "") + name, dedupe, memo, out):
            return False
    return True


def _compute(vm: VM, m: ObjVar, method: str, kw: dict[str, Any]) -> list[Var] | None:
    """The items `Module.<method>(m, **kw)` yields, as VM values; None where an override could change them."""
    if method in ("children", "named_children"):
        if not _plain_tree(m):
            return None
        seen = set()
        out = []
        for name, sub in _store(vm, m, "_modules").items():
            if type(sub) is ConstVar and sub.value is None:
                continue
            if type(sub) is not ObjVar:
                return None
            if id(sub.obj) not in seen:
                seen.add(id(sub.obj))
                out.append(TupleVar([ConstVar(name), sub]) if method == "named_children" else sub)
        return out
    dedupe = kw.get("remove_duplicate", True)
    if method in ("modules", "named_modules"):
        mods = []
        if not _named_modules(vm, m, kw.get("prefix", ""), dedupe, set(), mods):
            return None
        return [TupleVar([ConstVar(p), x]) if method == "named_modules" else x for p, x in mods]
    prefix = kw.get("prefix", "")
    if kw.get("recurse", True):
        mods = []
        if not _named_modules(vm, m, prefix, dedupe, set(), mods):
            return None
    else:
        if not _plain_tree(m):
            return None
        mods = [(prefix, m)]
    store = "_parameters" if method in ("parameters", "named_parameters") else "_buffers"
    seen = set()
    out = []
    for mp, sub in mods:
        for k, v in _store(vm, sub, store).items():
            if type(v) is ConstVar and v.value is None:
                continue
            if id(v) in seen:
                continue
            if dedupe:
                seen.add(id(v))
            out.append(TupleVar([ConstVar(mp + ("." if mp else "") + k), v]) if method.startswith("named")
                       else v)
    return out


# -- the containers' own iteration and indexing -------------------------------------------------------------

# Container classes whose __iter__ is `iter(self._modules.values())` (or `.keys()` for ModuleDict), and whose
# int __getitem__ is the idx-th value (Sequential walks the values with islice, which the VM does not trace).
_ITER_VALUES = {torch.nn.ModuleList.__iter__, torch.nn.Sequential.__iter__, torch.nn.ParameterList.__iter__}
_ITER_KEYS = {torch.nn.ModuleDict.__iter__}
_GETITEM_BY_INDEX = {torch.nn.ModuleList.__getitem__, torch.nn.Sequential.__getitem__,
                     torch.nn.ParameterList.__getitem__}


def container_items(vm: VM, v: ObjVar, reverse: bool = False) -> list[Var] | None:
    """What iterating a ModuleList/Sequential/ModuleDict yields (the VM's view of its `_modules`), or None.
    `reverse`: for reversed(), which (no __reversed__) indexes 0..len-1: the same values for ModuleList and
    Sequential; ModuleDict's __getitem__ takes names, so eager raises there (None: that runs eagerly)."""
    tp = type(v.obj)
    it = getattr(tp, "__iter__", None)
    if it not in _ITER_VALUES and (reverse or it not in _ITER_KEYS):
        return None
    if reverse and (hasattr(tp, "__reversed__") or tp.__getitem__ not in _GETITEM_BY_INDEX):
        return None
    if it is torch.nn.ParameterList.__iter__:
        return _parameter_list_items(vm, v)
    items = _store(vm, v, "_modules")
    return list(items.values()) if it in _ITER_VALUES else [key_var(k) for k in items]


def _parameter_list_items(vm: VM, v: ObjVar) -> list[Var] | None:
    """A ParameterList iterates self[i] for i < self._size, and self[i] is getattr(self, str(i))."""
    tp = type(v.obj)
    size = v.obj.__dict__.get("_size")
    if tp.__getitem__ is not torch.nn.ParameterList.__getitem__ or tp.__len__ is not torch.nn.ParameterList.__len__ \
            or type(size) is not int:
        return None
    vm.guards.const(AttrSrc(v.src or ConstSrc(v.obj), "_size"), size)
    items = [vm.load_attr(v, str(i)) for i in range(size)]
    return items if all(isinstance(x, Var) for x in items) else None


def sequential_item(vm: VM, v: ObjVar, k: Var) -> Var | None:
    """`seq[i]` on an nn.Sequential with a constant int in range: its i-th submodule, or None (traced)."""
    if getattr(type(v.obj), "__getitem__", None) is not torch.nn.Sequential.__getitem__ \
            or type(k) is not ConstVar or type(k.value) is not int:
        return None
    values = list(_store(vm, v, "_modules").values())
    return values[k.value] if -len(values) <= k.value < len(values) else None
