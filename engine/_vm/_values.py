"""Symbolic values of the VM.

Each value knows what it stands for; values that exist as real objects before the segment starts carry a
*source* (how to re-read them at run time, see `engine._guards`), values created by traced code are rebuilt by
the residual code when they must become real (at a break or a return).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Literal

import torch

if TYPE_CHECKING:
    from .._guards import Src
    from ._frame import Frame

GenState = Literal["created", "suspended", "running", "done"]
# resumed by FOR_ITER in the caller / stepped by a builtin (drive) / a @contextmanager block's enter, normal
# exit, or exit by an exception thrown in (the caller gets the block's value or __exit__'s result)
# send: the delegate of `yield from`; collect: consumed by list()/tuple() as a frame (not a nested run);
# next: stepped by next(g[, default]) or g.send(v) as a frame above the call
GenMode = Literal["for", "drive", "send", "collect", "next", "enter", "exit", "throw"]
DictViewKind = Literal["keys", "values", "items"]  # the dict method that made the view


class Var:
    """Base of the VM's symbolic values (slotted, identity matters: one value per real object)."""

    __slots__ = ()


class NullVar(Var):
    """The NULL 3.11 pushes below a callable (LOAD_GLOBAL/LOAD_METHOD); one instance, `NULL`."""

    __slots__ = ()

    def __repr__(self) -> str:
        return "NULL"


NULL = NullVar()


class DiscardVar(Var):
    """A frame's ret_override meaning "push nothing": an inlined __setitem__/__setattr__."""

    __slots__ = ()


DISCARD = DiscardVar()  # as a frame's ret_override: the caller gets no value pushed


class EscapedVar(Var):
    """What a modeled C iterator's generator form yields when its callback raised StopIteration (`exc`): the
    consumer meets that exception as eager's meets it from the C object's `__next__` (see on_yield)."""

    __slots__ = ("exc",)

    def __init__(self, exc: Var) -> None:
        self.exc = exc


class LazyVar(Var):
    """An input of the segment (env slot) not looked at yet: passing it through costs no guard."""

    __slots__ = ("index",)

    def __init__(self, index) -> None:
        self.index = index


class ConstVar(Var):
    """An immutable Python value known while tracing (guarded where it was read from the env)."""

    __slots__ = ("value",)

    def __init__(self, value) -> None:
        self.value = value

    def __repr__(self) -> str:
        return f"Const({self.value!r})"


class TensorVar(Var):
    """A tensor: its graph node and fake tensor; `src` when it is a graph input re-read from a source."""

    __slots__ = ("node", "fake", "pytype", "src")

    def __init__(self, node, fake, pytype, src: Src | None = None) -> None:
        self.node = node
        self.fake = fake
        self.pytype = pytype
        self.src = src  # set when the tensor is a graph input read from a source


class TupleVar(Var):
    """A tuple (or namedtuple / structseq of `pytype`) of VM values; tuples have no identity worth keeping."""

    __slots__ = ("items", "pytype")

    def __init__(self, items, pytype=tuple) -> None:
        self.items = list(items)
        self.pytype = pytype


class ListVar(Var):
    """A list. `real` is None for a list built by traced code; otherwise the real list (read from `src`):
    `items` is None until its contents are read (guarded), `pending` counts mutations replayed as calls,
    `changed` means the contents are tracked and written back at the end of the segment."""

    __slots__ = ("items", "real", "src", "pending", "changed")

    def __init__(self, items, real=None, src: Src | None = None) -> None:
        self.items = items
        self.real = real
        self.src = src
        self.pending = 0
        self.changed = False


class DictVar(Var):
    """A dict: `real` None for one built by traced code, else the real dict (read from `src`); `items` is
    None until its contents are read (guarded); `pending`/`changed` as for ListVar."""

    __slots__ = ("items", "real", "src", "pending", "changed")

    def __init__(self, items, real=None, src: Src | None = None) -> None:
        self.items = items  # dict: real hashable key -> Var
        self.real = real
        self.src = src
        self.pending = 0
        self.changed = False


class SetVar(Var):
    """A set of constants (see _sets.py). `model` is a real set of the same elements; for a set made by
    traced code, `ops` is the (method, args) history that built it, so the model and the set rebuilt from
    it lay out (and iterate) exactly as eager's; a set that existed before the segment (`real`, `src`) has
    `ops` None: its iteration order is not known, its mutations are replayed calls."""

    __slots__ = ("model", "ops", "real", "src", "iters")

    def __init__(self, model: set, ops: list | None, real=None, src: Src | None = None) -> None:
        self.model = model
        self.ops = ops
        self.real = real
        self.src = src
        self.iters = set()  # IterVars over it not yet exhausted (a mutation then is an eager op)


class SliceVar(Var):
    """A slice of VM values."""

    __slots__ = ("start", "stop", "step")

    def __init__(self, start, stop, step) -> None:
        self.start, self.stop, self.step = start, stop, step


class FuncVar(Var):
    """A Python function: a real one (`real`, `src`) or one made by MAKE_FUNCTION while tracing."""

    __slots__ = ("real", "src", "code", "fglobals", "name", "qualname", "defaults", "kwdefaults", "closure",
                 "annotations")

    def __init__(self, code, fglobals, name, qualname, defaults=None, kwdefaults=None, closure=None,
                 annotations=None, real=None, src: Src | None = None) -> None:
        self.code = code
        self.fglobals = fglobals
        self.name = name
        self.qualname = qualname
        self.defaults = defaults  # TupleVar | None
        self.kwdefaults = kwdefaults  # DictVar | None
        self.closure = closure  # list[CellVar] | None
        self.annotations = annotations
        self.real = real
        self.src = src


EMPTY = object()  # an empty cell
UNREAD = object()  # a real cell whose contents were not read yet


class CellVar(Var):
    """A closure cell: a real one (`real`, `src`; contents UNREAD until read) or one made by traced code."""

    __slots__ = ("real", "src", "contents", "changed")

    def __init__(self, contents, real=None, src: Src | None = None) -> None:
        self.contents = contents
        self.real = real
        self.src = src
        self.changed = False


class ObjVar(Var):
    """A real object the VM does not model beyond identity/type: modules, classes, builtins, user objects."""

    __slots__ = ("obj", "src", "attrs")

    def __init__(self, obj, src: Src) -> None:
        self.obj = obj
        self.src = src
        self.attrs = None  # attribute overlay: name -> Var, for attributes stored by traced code

    def __repr__(self) -> str:
        return f"Obj({type(self.obj).__name__})"


class MethodVar(Var):
    """`x.name` where x is a tensor, container or constant: called through the method tables."""

    __slots__ = ("self_var", "name")

    def __init__(self, self_var, name) -> None:
        self.self_var = self_var
        self.name = name


class BoundMethodVar(Var):
    """A Python function bound to `self_var` (rebuilt as types.MethodType)."""

    __slots__ = ("self_var", "func")

    def __init__(self, self_var, func) -> None:
        self.self_var = self_var
        self.func = func


class IterVar(Var):
    """An iterator over a sequence value (TupleVar/ListVar items, a range constant, or a SetVar made by
    traced code, in its model's order) at `index` (the items it has yielded). Over a dict, `over` is (the
    DictVar, the view kind, its keys when the iterator was made): eager iterates the live dict (see
    _iters.dict_next). `done`: it has raised StopIteration (eager's list/tuple/str iterator then drops its
    sequence: a list that grows later yields nothing more). `rev`: made by `reversed(rev)` (`seq` holds the
    items in reverse), so it becomes real as eager's `reversed` object or range_iterator. `loop`: the frame,
    FOR_ITER index and stack slot of the for-loop that last stepped it (where it is the loop's own)."""

    __slots__ = ("seq", "index", "real", "src", "start", "over", "done", "rev", "loop")

    def __init__(self, seq, index=0, real=None, src: Src | None = None, rev: Var | None = None) -> None:
        self.seq = seq
        self.index = index
        self.start = index
        self.real = real
        self.src = src
        self.over: tuple[DictVar, DictViewKind, tuple] | None = None
        self.done = False
        self.rev = rev
        self.loop: tuple[Frame, int, int] | None = None


class GradCtxVar(Var):
    """torch.no_grad() / enable_grad() / set_grad_enabled(b): `prev` is set once the mode was applied (by
    set_grad_enabled, which applies it when made). Made real as that torch object (`torch_class`)."""

    __slots__ = ("target", "prev")

    def __init__(self, target, prev=None) -> None:
        self.target = target
        self.prev = prev

    def torch_class(self) -> type:
        if self.prev is not None:
            return torch.set_grad_enabled
        return torch.enable_grad if self.target else torch.no_grad


class GradExitVar(Var):
    """The __exit__ of a grad-mode block entered by traced code: calling it restores `prev`."""

    __slots__ = ("prev",)

    def __init__(self, prev) -> None:
        self.prev = prev


class GradWrappedVar(Var):
    """`torch.no_grad()(fn)`: calling it runs fn under the mode, like a with block around the call."""

    __slots__ = ("target", "fn")

    def __init__(self, target, fn) -> None:
        self.target = target
        self.fn = fn


class DictViewVar(Var):
    """d.keys() / d.values() / d.items() of a dict value."""

    __slots__ = ("dict_var", "kind")

    def __init__(self, dict_var: DictVar, kind: DictViewKind) -> None:
        self.dict_var = dict_var
        self.kind = kind


class NewObjVar(Var):
    """An instance of a plain user class created by traced code; rebuilt with cls.__new__ + __dict__."""

    __slots__ = ("cls", "attrs")

    def __init__(self, cls) -> None:
        self.cls = cls
        self.attrs = {}


class ExcVar(Var):
    """An exception instance made by traced code from constant arguments, with the state raising it gives
    (see _exceptions.py): `tb` (ConstVar(None) or a TracebackVar), `context` and `cause` (exception values
    or ConstVar(None)), `suppress` (`__suppress_context__`). Rebuilt as cls(*args) with that state set."""

    __slots__ = ("cls", "args", "tb", "context", "cause", "suppress")

    def __init__(self, cls, args) -> None:
        self.cls = cls
        self.args = args  # tuple of plain constants
        self.tb: Var = ConstVar(None)
        self.context: Var = ConstVar(None)
        self.cause: Var = ConstVar(None)
        self.suppress = False

    def real(self) -> BaseException:
        """An instance with the same type and args (for its text; not the program's object)."""
        return self.cls(*self.args)


class TracebackVar(Var):
    """One traceback entry the VM added: the frame `frame` (a VM frame, of `code` in `fglobals`) at byte
    offset `lasti`, line `lineno`, followed by `next` (ConstVar(None), a real traceback, or another
    TracebackVar). Rebuilt with a stand-in frame object (engine/_tracebacks.py)."""

    __slots__ = ("code", "fglobals", "lasti", "lineno", "next", "frame")

    def __init__(self, code, fglobals, lasti: int, lineno: int, next_: Var, frame: object) -> None:
        self.code = code
        self.fglobals = fglobals
        self.lasti = lasti
        self.lineno = lineno
        self.next = next_
        self.frame = frame


class GenVar(Var):
    """A generator created by traced code: its frame is suspended between steps. It never becomes a real
    object: if it must, the trace restarts with its creation as an eager call. Where only the VM's own
    frames can reach it (a @contextmanager block's exit, a for-loop's iterator, locals whose code ahead
    only steps it: see _gen_uses.py), a break persists its frame in the snapshot instead (see
    _generators.py); `call_no` is then -1 (no call of this trace made it)."""

    __slots__ = ("frame", "call_no", "state", "mode", "target", "cm", "thrown", "thrown_tb", "owner",
                 "for_at", "for_depth", "exc_state", "caller_exc", "acc", "acc_tuple", "default", "pytype")

    def __init__(self, frame: Frame, call_no, cm: bool = False) -> None:
        self.frame = frame
        self.call_no = call_no
        self.state: GenState = "created"
        self.mode: GenMode | None = None
        self.target: int | None = None  # FOR_ITER's jump target in the caller
        self.cm = cm  # the generator of a @contextmanager object
        self.thrown: Var | None = None  # mode "throw": the exception thrown in, and the traceback __exit__ got
        self.thrown_tb: Var | None = None
        self.owner: Frame | None = None  # mode "for": the frame whose loop iterates it, its FOR_ITER and stack depth there
        self.for_at = -1
        self.for_depth = -1
        self.exc_state: Var = ConstVar(None)  # the exception it handles while suspended (_generators)
        self.caller_exc: Var | None = None  # while it runs: the caller's handled exception, back on leaving
        self.acc: Var | None = None  # mode "collect": the list list()/tuple() is filling (`acc_tuple`: tuple())
        self.acc_tuple = False
        self.default: Var | None = None  # mode "next": next()'s default, what the call gives if it returns
        self.pytype: type | None = None  # the C iterator it stands for (`map`...: _models_itertools), if any


class SuperVar(Var):
    """Zero-argument super() inside a traced method: (the class of the method, the first argument)."""

    __slots__ = ("cls", "self_var")

    def __init__(self, cls, self_var) -> None:
        self.cls = cls
        self.self_var = self_var


class CMVar(Var):
    """A @contextlib.contextmanager object made by traced code, over a traced generator."""

    __slots__ = ("gen", "entered")

    def __init__(self, gen) -> None:
        self.gen = gen
        self.entered = False


class CMExitVar(Var):
    """The __exit__ of a traced @contextmanager block: a normal exit steps its generator once more."""

    __slots__ = ("gen",)

    def __init__(self, gen) -> None:
        self.gen = gen


class ModeCtxVar(Var):
    """`torch.autocast(...)` or `torch.inference_mode(mode)` made by traced code, or the program's own
    autocast object (`real`: its ObjVar, read from `src`: a decorator's). `args` are autocast's resolved (device,
    dtype, enabled, cache_enabled) or inference mode's (mode,); `prev` is the state entering it saved
    (autocast: enabled, dtype, cache_enabled; inference: True), None until entered (see _vm/_modes.py)."""

    __slots__ = ("kind", "args", "real", "src", "prev")

    def __init__(self, kind: str, args: tuple, real: object = None, src: Src | None = None) -> None:
        self.kind = kind
        self.args = args
        self.real = real
        self.src = src
        self.prev: tuple | None = None


class ModeExitVar(Var):
    """The `__exit__` of a mode block (`ctx`) that traced code entered and has not left yet."""

    __slots__ = ("ctx",)

    def __init__(self, ctx: ModeCtxVar) -> None:
        self.ctx = ctx
