"""Residual code: each segment becomes a small generated Python function.

    guards -> graph -> real values rebuilt -> side effects replayed -> the env the next step needs

The source is readable on purpose: `engine.explain()` prints it, and it is the engine's answer to "what does
torch.compile(f)(x) mean" that the seed doc writes by hand.
"""

from __future__ import annotations

import re
import types
from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from . import _runtime as R
from . import _tracebacks
from ._faults import fault
from ._guards import GUARD_GLOBALS, ConstSrc, EnvSrc, guard_block, literal, read_block
from ._snapshot import not_real, snapshot
from ._vm._effects import CallEffect, CellEffect, GlobalEffect, SetAttrEffect, SetItemEffect
from ._vm._ending import EndKind, Restart
from ._vm._frame import FrameShape
from ._vm._iface import REBUILDERS
from ._vm._iters import DictPart, ZipView, reached_iters, zip_loop
from ._vm._members import MemberView, members_at
from ._vm._modes import made_real, real_ctx
from ._vm._objects import slot_of
from ._vm._values import (
    DISCARD,
    EMPTY,
    NULL,
    UNREAD,
    BoundMethodVar,
    CellVar,
    CMExitVar,
    CMVar,
    ConstVar,
    DictVar,
    DictViewVar,
    ExcVar,
    FuncVar,
    GenVar,
    GradCtxVar,
    GradExitVar,
    GradWrappedVar,
    IterVar,
    LazyVar,
    ListVar,
    MethodVar,
    ModeCtxVar,
    ModeExitVar,
    NewObjVar,
    ObjVar,
    SetVar,
    SliceVar,
    SuperVar,
    TensorVar,
    TracebackVar,
    TupleVar,
)

if TYPE_CHECKING:
    import torch.fx as fx

    from ._guards import Src
    from ._vm._ending import Ending
    from ._vm._interp import VM
    from ._vm._values import Var


def _dict_replace(d: dict[Any, Any], new: dict[Any, Any]) -> None:
    """Writes back a dict traced code mutated, keeping its entries where they are as eager's mutations
    would (a key that stays keeps its place, a removed one leaves its slot, new ones come after), so an
    iterator over it alive across the segment goes on as eager's does; where the order says a key was
    removed and added again, the dict is filled anew in that order."""
    now = list(dict.items(d))
    if len(now) == len(new) and all(k is k2 and v is v2 for (k, v), (k2, v2) in zip(now, new.items())):
        return
    keep = {id(k) for k in new}
    for k, _ in now:
        if id(k) not in keep:
            dict.__delitem__(d, k)
    dict.update(d, new)
    if list(dict.keys(d)) != list(new):
        dict.clear(d)
        dict.update(d, new)


def _new_object(cls: type) -> object:
    return object.__new__(cls)


def _cell_empty(c: types.CellType) -> bool:
    try:
        _ = c.cell_contents
    except ValueError:
        return True
    return False


RUNTIME_GLOBALS = dict(GUARD_GLOBALS)
RUNTIME_GLOBALS.update({
    "_MISS": R.MISS, "_NULL": R.NULL, "_DISCARD": R.DISCARD, "_EXHAUSTED": R.EXHAUSTED, "_iter_at": R.iter_at,
    "_reversed_at": R.reversed_at, "_position": R.position, "_drained": R.drained,
    "_DictIter": R.DictIter, "_ZipIter": R.ZipIter, "_dict_iter_at": R.dict_iter_at, "_grad_ctx": R.grad_ctx,
    "_members_at": members_at, "_mode_ctx": real_ctx, "_mode_made_real": made_real,
    "_GradModeExit": R.GradModeExit, "_GradCtx": R.GradCtx, "_new_cell": R.new_cell,
    "_make_function": R.make_function, "_set_grad": R.set_grad, "_MethodType": types.MethodType,
    "_dict_replace": _dict_replace, "_cell_empty": _cell_empty, "_FunctionType": types.FunctionType,
    "_new_object": _new_object, "_stand_in_frame": _tracebacks.stand_in_frame, "_new_tb": _tracebacks.new_tb,
})


class Emitter:
    """Generates the body of one segment from the VM's state at its end: real values for VM values.

    Owns the text being built (`pre`: sources read once; `body`: rebuilt values and replayed effects) and the
    graph outputs that body needs (`out_nodes`, in order). Invariants: each VM value is rebuilt at most once
    (`memo`, by identity, so aliasing is kept); a value that cannot become real (a traced generator) raises
    Restart rather than emitting anything wrong; effects are replayed in program order, before write-backs."""

    def __init__(self, vm: VM) -> None:
        self.vm = vm
        self.ns = vm.ns
        self.pre: list[str] = []
        self.body: list[str] = []
        self.memo: dict[object, str] = {}  # by id(value), or ("frame", id) for a traceback's frames
        self.src_memo: dict[int, str] = {}
        self.out_nodes: list[fx.Node] = []
        self.out_index: dict[fx.Node, int] = {}
        self.n = 0
        self.breaking = False  # the segment ends at a break (its frames go on in the next segment)
        self.hidden: set[int] | None = None  # dict iterators only their for-loop reaches (see _loop_only)

    def temp(self, prefix: str = "t") -> str:
        self.n += 1
        return f"{prefix}{self.n}"

    def src(self, src: Src) -> str:
        if isinstance(src, (EnvSrc, ConstSrc)):
            return src.expr(self.ns)
        e = self.src_memo.get(id(src))
        if e is None:
            e = self.temp("s")
            self.pre.append(f"{e} = {src.expr(self.ns)}")
            self.src_memo[id(src)] = e
        return e

    def node_out(self, node: fx.Node) -> str:
        k = self.out_index.get(node)
        if k is None:
            k = self.out_index[node] = len(self.out_nodes)
            self.out_nodes.append(node)
        return f"__o[{k}]"

    def expr(self, v: Var) -> str:
        t = type(v)
        if t is LazyVar:
            return f"env[{v.index}]"
        if t is ConstVar:
            return literal(self.ns, v.value)
        if v is NULL:
            return "_NULL"
        if v is DISCARD:
            return "_DISCARD"
        if t is TensorVar:
            if v.src is not None:
                return self.src(v.src)
            return self.node_out(v.node)
        if t is TupleVar:
            inner = ", ".join(self.expr(x) for x in v.items)
            tup = f"({inner},)" if v.items else "()"
            if v.pytype is not tuple:
                make = "._make" if hasattr(v.pytype, "_make") else ""  # namedtuple vs structseq
                return f"{self.ns.const(v.pytype, 'T')}{make}({tup})"
            return tup
        key = id(v)
        hit = self.memo.get(key)
        if hit is not None:
            return hit
        rebuild = _REBUILD.get(t) or REBUILDERS.get(t)
        if rebuild is None:
            raise AssertionError(f"cannot rebuild {t.__name__}")
        e = self.memo[key] = rebuild(self, v)
        return e

    def _named(self, v: Var, prefix: str = "t") -> str:
        """A fresh name for `v`, memoised before its parts are rebuilt (so a value reached again through
        its own parts is that same name)."""
        e = self.memo[id(v)] = self.temp(prefix)
        return e

    # -- rebuilders, one per value kind with an identity (see _REBUILD) -----------------------------------
    def _restart_gen(self, v: GenVar) -> str:  # a traced generator cannot become real: trace it eagerly
        raise Restart(v.call_no, "eager") if v.call_no > 0 else not_real()

    def _restart_cm(self, v: CMVar | CMExitVar) -> str:
        raise Restart(v.gen.call_no, "eager") if v.gen.call_no > 0 else not_real()

    def _obj(self, v: ObjVar) -> str:
        return self.src(v.src) if v.src is not None else self.ns.const(v.obj, "k")

    def _list(self, v: ListVar) -> str:
        if v.real is not None:
            return self.src(v.src)
        e = self._named(v)
        self.body.append(f"{e} = []")
        items = ", ".join(self.expr(x) for x in v.items)
        if v.items:
            self.body.append(f"{e}.extend(({items},))")
        return e

    def _set(self, v: SetVar) -> str:
        """A set made by traced code: the same calls that built eager's (so it iterates the same way)."""
        if v.real is not None:
            return self.src(v.src)
        e = self._named(v, "set")
        self.body.append(f"{e} = set()")
        for name, args in v.ops:
            self.body.append(f"{e}.{name}({''.join(literal(self.ns, a) + ', ' for a in args)})")
        return e

    def _dict(self, v: DictVar) -> str:
        if v.real is not None:
            return self.src(v.src)
        e = self._named(v)
        self.body.append(f"{e} = {{}}")
        for k, x in v.items.items():
            self.body.append(f"{e}[{literal(self.ns, k)}] = {self.expr(x)}")
        return e

    def _dict_view(self, v: DictViewVar) -> str:
        return f"{self.expr(v.dict_var)}.{v.kind}()"

    def _cell(self, v: CellVar) -> str:
        if v.real is not None:
            return self.src(v.src)
        e = self._named(v, "cell")
        self.body.append(f"{e} = _new_cell()")
        if v.contents is not EMPTY and v.contents is not UNREAD:
            self.body.append(f"{e}.cell_contents = {self.expr(v.contents)}")
        return e

    def _func(self, v: FuncVar) -> str:
        if v.real is not None:
            return self.src(v.src)
        e = self._named(v, "fn")
        d = self.expr(v.defaults) if v.defaults is not None else "None"
        kd = self.expr(v.kwdefaults) if v.kwdefaults is not None else "None"
        cl = "(" + "".join(self.expr(c) + ", " for c in v.closure) + ")" if v.closure else "None"
        self.body.append(f"{e} = _make_function({self.ns.const(v.code, 'code')}, "
                         f"{self.ns.const(v.fglobals, 'G')}, {v.name!r}, {d}, {kd}, {cl}, "
                         f"{v.qualname!r})")
        if v.annotations is not None:
            self.body.append(f"{e}.__annotations__ = dict(zip({self.expr(v.annotations)}[0::2], "
                             f"{self.expr(v.annotations)}[1::2]))")
        return e

    def _exc(self, v: ExcVar) -> str:
        """An exception made by traced code, with the state raising gave it (engine/_vm/_exceptions.py)."""
        e = self._named(v, "exc")
        args = "".join(literal(self.ns, a) + ", " for a in v.args)
        self.body.append(f"{e} = {self.ns.const(v.cls, 'T')}({args})")
        for name, x in (("__traceback__", v.tb), ("__context__", v.context), ("__cause__", v.cause)):
            if type(x) is not ConstVar or x.value is not None:
                self.body.append(f"{e}.{name} = {self.expr(x)}")
        if v.suppress or type(v.cause) is not ConstVar:  # setting __cause__ sets it too
            self.body.append(f"{e}.__suppress_context__ = {v.suppress!r}")
        return e

    def _tb(self, v: TracebackVar) -> str:
        """Traceback entries the VM added, innermost first rebuilt (a loop: a chain may be 1000 frames)."""
        chain: list[TracebackVar] = []
        x: Var = v
        while type(x) is TracebackVar and id(x) not in self.memo:
            chain.append(x)
            x = x.next
        tail = self.expr(x)
        for entry in reversed(chain):
            key = ("frame", id(entry.frame))
            fr = self.memo.get(key)
            if fr is None:
                fr = self.memo[key] = self.temp("fr")
                self.body.append(f"{fr} = _stand_in_frame({self.ns.const(entry.code, 'code')}, "
                                 f"{self.ns.const(entry.fglobals, 'G')})")
            name = self._named(entry, "tb")
            self.body.append(f"{name} = _new_tb({tail}, {fr}, {entry.lasti}, {entry.lineno})")
            tail = name
        return tail

    def _new_obj(self, v: NewObjVar) -> str:
        e = self._named(v, "obj")
        self.body.append(f"{e} = _new_object({self.ns.const(v.cls, 'T')})")
        for name, x in v.attrs.items():
            if slot_of(v.cls, name):
                self.body.append(f"object.__setattr__({e}, {name!r}, {self.expr(x)})")
            else:
                self.body.append(f"{e}.__dict__[{name!r}] = {self.expr(x)}")
        return e

    def _super(self, v: SuperVar) -> str:
        return f"super({self.ns.const(v.cls, 'T')}, {self.expr(v.self_var)})"

    def _slice(self, v: SliceVar) -> str:
        return f"slice({self.expr(v.start)}, {self.expr(v.stop)}, {self.expr(v.step)})"

    def _method(self, v: MethodVar) -> str:
        return f"({self.expr(v.self_var)}).{v.name}"

    def _bound_method(self, v: BoundMethodVar) -> str:
        return f"_MethodType({self.expr(v.func)}, {self.expr(v.self_var)})"

    def _iter(self, v: IterVar) -> str:
        if v.real is not None:
            return self.src(v.src)
        e = self._named(v, "it")
        if v.over is not None:  # over the live dict, as eager's (see _iters.dict_next)
            dv, kind, keys = v.over
            args = f"{self.expr(dv)}, {literal(self.ns, keys)}, {kind!r}, {v.index}"
            # eager's own (dict_keyiterator...), made over the dict as the segment leaves it; in a DictIter,
            # whose steps the next segment traces, where only its for-loop holds it
            make = "_DictIter" if self._loop_only(v) else "_dict_iter_at"
            self.body.append(_Late(e, f"{e} = {make}({args})"))
        elif zip_loop(v) and self._loop_only(v):  # a loop's own zip/enumerate: later segments trace its steps
            seqs = "".join(f"{self._seq(q)}, " for q in v.seq.seqs)
            self.body.append(f"{e} = _ZipIter(({seqs}), {v.seq.start!r}, {v.index})")
        elif type(v.seq) is SetVar:  # a real iterator over the set rebuilt by its history, advanced as far
            self.body.append(f"{e} = iter({self.expr(v.seq)})")
            if v.done:
                self.body.append(f"_drained({e})")
            elif v.index:
                self.body.append(f"for _ in range({v.index}): next({e})")
        elif v.rev is not None:  # eager's `reversed` object (a range_iterator for a range)
            self.body.append(f"{e} = _reversed_at({self._seq(v.rev)}, {v.index}, {v.done!r})")
        else:
            line = f"{e} = {self._iter_at(v.seq, v.index, v.done)}"
            self.body.append(_Late(e, line) if "_dict_iter_at(" in line else line)
        return e

    def _loop_only(self, v: IterVar) -> bool:
        """`v` is a dict iterator that only its for-loop's own stack slot holds, at a break: no program can
        see it, so the engine's DictIter may stand in (later segments trace its steps); any other dict
        iterator becomes eager's own."""
        if self.hidden is None:
            elsewhere, loops = reached_iters(self.vm) if self.breaking else ({}, {})
            self.hidden = {k for k in loops if k not in elsewhere}
        return id(v) in self.hidden

    def _iter_at(self, seq: object, index: int, done: bool = False) -> str:
        """Eager's own iterator over `seq` that has yielded `index` items (`done`: then raised
        StopIteration)."""
        if type(seq) is ZipView:  # enumerate()/zip(): each part has yielded `index` items too
            if seq.start is not None:
                return f"enumerate({self._iter_at(seq.seqs[0], index, done)}, {seq.start + index})"
            if not done:
                parts = [self._iter_at(s, index) for s in seq.seqs]
            elif seq.strict:  # (equal lengths: a strict zip checks every part ran out)
                parts = [self._iter_at(s, index, True) for s in seq.seqs]
            else:  # the parts before the one that ran out each gave one more item, which zip dropped
                parts = [
                    self._iter_at(s, index + (j < seq.cut), j == seq.cut) for j, s in enumerate(seq.seqs)
                ]
            return f"zip({', '.join(parts)}{', strict=True' if seq.strict else ''})"
        if type(seq) is DictPart:  # eager's own over the dict (an index past the keys: exhausted)
            return (f"_dict_iter_at({self.expr(seq.dict_var)}, {literal(self.ns, seq.keys)}, {seq.kind!r}, "
                    f"{len(seq.keys) + 1 if done else index})")
        if type(seq) is MemberView:  # the real generator, so the rest of the loop is eager's
            it = (f"_members_at({self.expr(seq.module)}, {seq.method!r}, {self.ns.const(seq.kwargs, 'kw')}, "
                  f"{index})")
            return f"_drained({it})" if done else it
        return f"_iter_at({self._seq(seq)}, {index}, {done!r})"

    def _grad_ctx(self, v: GradCtxVar) -> str:
        return f"_grad_ctx({v.target!r}, {v.prev!r})"

    def _mode_ctx(self, v: ModeCtxVar) -> str:  # made by traced code (the program's own is its ObjVar)
        e = self._named(v, "mode")
        self.body.append(f"{e} = _mode_made_real({v.kind!r}, {self.ns.const(v.args, 'k')}, "
                         f"{self.ns.const(v.prev, 'k')})")
        return e

    def _mode_exit(self, v: ModeExitVar) -> str:  # (entered again for real by enter_modes)
        return f"{self.expr(v.ctx.real or v.ctx)}.__exit__"

    def enter_modes(self) -> None:
        """The mode blocks still open at the segment's end, entered again for real (the graph closed them),
        outermost first, each under the grad mode it was entered in; the exits on the stack are theirs."""
        if not self.vm.modes:
            return
        for entry in self.vm.modes:
            ctx = entry.ctx
            if ctx.real is None:
                e = self.memo[id(ctx)] = self.temp("mode")
                self.body.append(f"{e} = _mode_ctx({ctx.kind!r}, {self.ns.const(ctx.args, 'k')})")
            else:
                e = self.expr(ctx.real)
            self.body.append(f"_set_grad({entry.grad_before!r})")
            self.body.append(f"{e}.__enter__()")
        self.body.append(f"_set_grad({self.vm.grad!r})")

    def _grad_exit(self, v: GradExitVar) -> str:
        return f"_GradModeExit({v.prev!r})"

    def _grad_wrapped(self, v: GradWrappedVar) -> str:  # torch's own decorated function, under that mode
        return f"_grad_ctx({v.target!r}, None)({self.expr(v.fn)})"

    def _seq(self, seq: Var) -> str:
        return self.expr(seq) if type(seq) is not ConstVar else self.ns.const(seq.value, "k")

    # -- side effects -----------------------------------------------------------------------------------
    def effects(self) -> None:
        for c in self.vm.writeback:  # steps the trace took over a loop's DictIter: before the dict changes
            if type(c) is IterVar and type(c.real) is R.DictIter and c.index != c.start:
                self.body.append(f"{self.expr(c)}.index = {c.index}")
        for eff in self.vm.effects:
            match eff:
                case CallEffect(target, name, args):
                    a = ", ".join(self.expr(x) for x in args)
                    self.body.append(f"{self.expr(target)}.{name}({a})")
                    if fault(self.vm.ctx, "replay-effect-twice"):
                        self.body.append(self.body[-1])
                case SetItemEffect(target, key, value, None):
                    self.body.append(f"{self.expr(target)}[{self.expr(key)}] = {self.expr(value)}")
                case SetItemEffect(target, key, value, via):
                    self.body.append(f"{self.ns.const(via, 'T')}.__setitem__({self.expr(target)}, "
                                     f"{self.expr(key)}, {self.expr(value)})")
                case SetAttrEffect(target, name, value, raw):
                    setter = "object.__setattr__" if raw else "setattr"
                    self.body.append(f"{setter}({self.expr(target)}, {name!r}, {self.expr(value)})")
                case GlobalEffect(target, name, value):
                    self.body.append(f"{self.ns.const(target, 'G')}[{name!r}] = {self.expr(value)}")
                case CellEffect(target, value):
                    if not fault(self.vm.ctx, "lose-cell-write"):
                        self.body.append(f"{self.expr(target)}.cell_contents = {self.expr(value)}")
                case _:
                    raise AssertionError(f"unknown effect {eff!r}")
        for c in self.vm.writeback:
            if type(c) is ListVar:
                items = ", ".join(self.expr(x) for x in c.items)
                self.body.append(f"{self.expr(c)}[:] = ({items}{',' if c.items else ''})")
            elif type(c) is DictVar:
                parts = ", ".join(f"{literal(self.ns, k)}: {self.expr(x)}" for k, x in c.items.items())
                self.body.append(f"_dict_replace({self.expr(c)}, {{{parts}}})")
            elif type(c) is IterVar and type(c.real) in R.POSITIONED_TYPES:
                if c.index != c.start or c.done:  # eager's own iterator: put where the trace left it
                    self.body.append(f"_position({self.expr(c)}, {c.index}, {c.done!r})")
            elif type(c) is IterVar and c.index != c.start and type(c.real) is not R.DictIter:
                self.body.append(f"{self.expr(c)}.index = {c.index}")


class _Late(str):
    """A body line that makes an iterator over a dict (`name`, see _runtime.dict_iter_at): placed as late as
    the lines reading it allow (`_place_late`), after the effects that bring the dict to the state the
    segment leaves it in."""

    name: str

    def __new__(cls, name: str, line: str) -> _Late:
        obj = super().__new__(cls, line)
        obj.name = name
        return obj


def _place_late(body: list[str]) -> list[str]:
    out: list[str] = []
    pending: list[_Late] = []
    for line in body:
        if isinstance(line, _Late):
            pending.append(line)
            continue
        if pending:
            due = [d for d in pending if re.search(rf"\b{d.name}\b", line)]
            out += due
            pending = [d for d in pending if d not in due]
        out.append(line)
    return out + pending


# How each value kind with an identity becomes real in the segment's body (Emitter.expr memoises the result).
_REBUILD: dict[type, Callable[[Emitter, Any], str]] = {
    GenVar: Emitter._restart_gen,
    CMVar: Emitter._restart_cm,
    CMExitVar: Emitter._restart_cm,
    TracebackVar: Emitter._tb,
    ObjVar: Emitter._obj,
    ListVar: Emitter._list,
    SetVar: Emitter._set,
    DictVar: Emitter._dict,
    DictViewVar: Emitter._dict_view,
    CellVar: Emitter._cell,
    FuncVar: Emitter._func,
    ExcVar: Emitter._exc,
    NewObjVar: Emitter._new_obj,
    SuperVar: Emitter._super,
    SliceVar: Emitter._slice,
    MethodVar: Emitter._method,
    BoundMethodVar: Emitter._bound_method,
    IterVar: Emitter._iter,
    GradCtxVar: Emitter._grad_ctx,
    GradExitVar: Emitter._grad_exit,
    GradWrappedVar: Emitter._grad_wrapped,
    ModeCtxVar: Emitter._mode_ctx,
    ModeExitVar: Emitter._mode_exit,
}


def generate(vm: VM, ending: Ending, env_len: int) -> tuple[str, Emitter, list[FrameShape] | None, bool]:
    """Source text, namespace and (for breaks) frame shapes of the segment ending in `ending`."""
    em = Emitter(vm)
    em.breaking = ending.kind is EndKind.BREAK
    em.enter_modes()
    shapes = None
    if ending.kind is EndKind.BREAK:
        env_exprs: list[str] = []
        step = ending.reason is not None and ending.reason.explanation.startswith("step_unsupported")
        shapes = snapshot(vm, em, env_exprs, ending.spec.nargs, step)
        tail = "return [" + ", ".join(env_exprs) + "]"
    else:
        tail = f"return {em.expr(ending.value)}"
    em.effects()
    guard = [f"len(env) == {env_len}"] + vm.guards.final()
    distinct = [s.expr(vm.ns) for s in vm.guards.distinct]
    if len(distinct) > 1:
        guard.append(f"len({{{', '.join(f'id({d})' for d in distinct)}}}) == {len(distinct)}")
    has_graph = vm.graph.n_ops > 0
    ins = [em.src(src) for src, _ in vm.graph.inputs] if has_graph else []
    lines = ["def __segment(env, check=True):", "    if check:", "        try:"]
    lines += guard_block(guard, "            ")
    lines += ["        except Exception:", "            return _MISS"]
    body = read_block(em.pre)
    if has_graph:
        body.append(f"__o = __graph({', '.join(ins)})")
    # From here on the inputs are held by locals only: inputs the segment dropped (a generator popped
    # after its loop, a temporary) are released now, as eager would have by this point.
    body.append("env.clear()")
    if vm.grad != vm.grad0 or vm.grad_set_in_graph:
        flip = ending.kind is EndKind.RETURN and vm.grad_set_in_graph and fault(vm.ctx, "leave-grad-changed")
        body.append(f"_set_grad({(vm.grad != flip)!r})")
    body += _place_late(em.body)
    body.append(tail)
    text = "\n".join(body)
    used = sorted({int(m) for m in _ENV_REF.findall(text)})
    if used:
        lines.append(
            "    " + ", ".join(f"e{i}" for i in used) + ", = " + ", ".join(f"env[{i}]" for i in used) + ","
        )
    lines += ["    " + _ENV_REF.sub(lambda m: f"e{m.group(1)}", b) for b in body]
    return "\n".join(lines) + "\n", em, shapes, has_graph


_ENV_REF = re.compile(r"\benv\[(\d+)\]")
