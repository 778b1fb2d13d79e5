"""The interface models use: the VM's recursive operations, the result of a call, and the model registry.

A model of library code (a builtin, a container method, `collections.deque.append`, `Counter.__add__`...)
is one function registered here by what it models; it reaches the rest of the VM only through the `vm` it
is given (`vm.call(...)`, `vm.load_attr(...)`, `vm.get_iter(...)`...), never by importing VM modules. This
module imports nothing of the VM at run time, so any VM module may import it.

The recursive operations are the methods of `VMOps`, which the VM class inherits. Each is implemented in
one module (named in its docstring) and bound there with `@implements("name")`; `_vm/_handlers.py`
imports every implementing module, so they are all bound before a VM runs.
"""

from __future__ import annotations

import types
from collections.abc import Callable
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from .._guards import Src
    from ._frame import Frame
    from ._values import Var


class Inline:
    """A call the VM will trace as a new frame (`grad`: the mode to enter, for decorator-form grad mode).
    An operation that returns one leaves its caller to push the frame (`VM.push_frame`)."""

    __slots__ = ("frame", "grad")

    def __init__(self, frame: Frame, grad: bool | None = None) -> None:
        self.frame = frame
        self.grad = grad


class Raise(Exception):
    """A modeled call raises `exc` (an exception value made by traced code) in the calling frame: CALL
    raises it there (any other instruction that meets it runs eagerly, as for a gap in the VM)."""

    def __init__(self, exc: Var) -> None:
        super().__init__()
        self.exc = exc


# -- the VM's recursive operations ------------------------------------------------------------------------

def _unbound(name: str) -> Callable[..., Any]:
    def op(self: object, *args: object, **kwargs: object) -> Any:
        raise AssertionError(f"VM operation {name} is not bound (its module was not imported)")

    op.__name__ = op.__qualname__ = name
    op._unbound = True  # type: ignore[attr-defined]
    return op


class VMOps:
    """What a model may ask of the VM. Every operation may raise `Unsupported` (the instruction that led
    here then runs eagerly) and computes before it commits. Those that may run traced Python return an
    `Inline` when they do: the caller pushes that frame, and the operation's result is the frame's."""

    def call(self, fn: Var, args: list[Var], kwargs: dict[str, Var]) -> Var | Inline:
        """Call `fn`: modeled (a Var) or a frame to push (an Inline). (_calls.py)"""
        raise NotImplementedError

    def call_method(self, obj: Var, name: str, args: list[Var], kwargs: dict[str, Var]) -> Var | Inline:
        """`obj.name(*args, **kwargs)` for a tensor, list, dict, set or constant receiver. (_methods.py)"""
        raise NotImplementedError

    def call_dunder(self, obj: Var, name: str, args: list[Var], discard: bool = False) -> Var | Inline:
        """A user object's special method `name` looked up on its class and called. (_objects.py)"""
        raise NotImplementedError

    def load_attr(self, obj: Var, name: str) -> Var | Inline:
        """`obj.name`. (_attrs.py)"""
        raise NotImplementedError

    def store_attr(self, obj: Var, name: str, value: Var) -> Inline | None:
        """`obj.name = value`. (_attrs.py)"""
        raise NotImplementedError

    def get_item(self, container: Var, key: Var) -> Var | Inline:
        """`container[key]`. (_attrs.py)"""
        raise NotImplementedError

    def get_iter(self, v: Var) -> Var:
        """`iter(v)` for values whose iteration the VM models (no user `__iter__`). (_iters.py)"""
        raise NotImplementedError

    def iter_next(self, it: Var) -> Var | None:
        """The next item of an iterator value; None when it is exhausted. (_iters.py)"""
        raise NotImplementedError

    def binary(self, fn: Callable[..., Any], sym: str, a: Var, b: Var) -> Var | Inline:
        """A binary operator (`fn` the operator function, `sym` its symbol). (_arith.py)"""
        raise NotImplementedError

    def compare(self, fn: Callable[..., Any], sym: str, a: Var, b: Var) -> Var:
        """A comparison. (_arith.py)"""
        raise NotImplementedError

    def truth(self, v: Var) -> Var:
        """`bool(v)` as a constant. (_arith.py)"""
        raise NotImplementedError

    def wrap(self, value: Any, src: Src, fixed: bool = False) -> Var:
        """A real object read from `src` as a VM value (guarded). (_wrap.py)"""
        raise NotImplementedError

    def wrap_fixed(self, value: Any) -> Var:
        """A real object the trace itself holds (no source to re-read). (_wrap.py)"""
        raise NotImplementedError

    def seq_items(self, v: Var) -> list[Var]:
        """The items of a sequence-like value, in order (real containers read with guards). (_calls.py)"""
        raise NotImplementedError

    def list_items(self, lv: Var) -> list[Var]:
        """The tracked items of a list value (a real list is read, guarded, the first time). (_methods.py)"""
        raise NotImplementedError

    def dict_view(self, dv: Var) -> dict[object, Var]:
        """The tracked entries of a dict value (a real dict is read, guarded, the first time). (_methods.py)"""
        raise NotImplementedError

    def push_frame(self, caller: Frame, inline: Inline) -> None:
        """Push the frame of an inlined call made by the caller's current instruction (the VM's own)."""
        raise NotImplementedError


for _name, _fn in list(vars(VMOps).items()):
    if callable(_fn) and not _name.startswith("_") and _name != "push_frame":
        setattr(VMOps, _name, _unbound(_name))
del _name, _fn

OPERATIONS = frozenset(n for n, f in vars(VMOps).items() if getattr(f, "_unbound", False))


def implements(name: str) -> Callable[[Callable[..., Any]], Callable[..., Any]]:
    """Bind the decorated function `fn(vm, ...)` as the VM operation `name` (one implementation each)."""
    assert name in OPERATIONS, f"{name} is not a VM operation"

    def bind(fn: Callable[..., Any]) -> Callable[..., Any]:
        assert getattr(VMOps.__dict__[name], "_unbound", False), f"two implementations of {name}"
        setattr(VMOps, name, fn)
        return fn

    return bind


# -- the model registry -------------------------------------------------------------------------------------

# Codes of the Python forms that stand for C objects (_models_itertools): their frames add no traceback
# entry to an exception passing through, as the C object's call adds none.
HIDDEN_CODES: set[types.CodeType] = set()

# How a model family's own symbolic values become real in a segment's code: value class ->
# rebuild(emitter, v) -> expression (engine/_residual.py asks it after its own kinds).
REBUILDERS: dict[type, Callable[[Any, Any], str]] = {}

Model = Callable[..., Any]  # model(vm, args, kwargs) -> Var | Inline | NotImplemented
MODELS: dict[Any, Model] = {}


def model(*targets: Any) -> Callable[[Model], Model]:
    """Register the decorated `model(vm, args, kwargs)` as the VM's model of calls of each target: a
    builtin, a library function, a type (its construction), or a method as its class holds it
    (`collections.deque.append`, `collections.Counter.__add__`: `args[0]` is then the receiver); or
    `(VarClass, "name")`: the method `name` called on a symbolic value of a class of `_values.Var` a model
    family made (the receiver is `args[0]`; asked after the VM's own containers' methods).

    The model returns the call's result (a Var), an `Inline` (a frame to push), or NotImplemented when it
    cannot answer for these arguments (the VM goes on as without it: a builtin's call runs eagerly, a
    Python function is traced); it may raise `Unsupported` (the call then runs eagerly). It must compute
    before it commits (leave no effect behind when it gives up) and reach the VM only through `vm`. The
    policy table (`engine/_policy.py`) is asked first: a callable it marks EAGER or MODEL never gets here.
    """

    def register(fn: Model) -> Model:
        for t in targets:
            assert t not in MODELS, f"two models of {t!r}"
            MODELS[t] = fn
        return fn

    return register


def model_for(obj: Any) -> tuple[Model, Any] | None:
    """The registered model of calling `obj`, with the receiver to prepend to the arguments (None for a
    plain callable; the bound object for a bound method whose class's method is registered)."""
    try:
        m = MODELS.get(obj)
    except TypeError:  # unhashable
        return None
    if m is not None:
        return m, None
    self_ = getattr(obj, "__self__", None)
    name = getattr(obj, "__name__", None)
    if self_ is None or name is None or isinstance(self_, (type, types.ModuleType)):
        return None
    owner = getattr(type(self_), name, None)
    try:
        m = MODELS.get(owner)
    except TypeError:
        return None
    return (m, self_) if m is not None else None
