"""Instances of plain user classes created while tracing, and user-defined context managers."""

from __future__ import annotations

import contextlib
import inspect
import types
from typing import TYPE_CHECKING

import torch

from .._errors import FrameBound, Unsupported
from ._effects import SetAttrEffect
from ._iface import MODELS, Inline, implements
from ._opcodes import EagerSpec, raising
from ._ops_locals import cell_get
from ._torchops import skip_inline
from ._values import (
    DISCARD,
    EMPTY,
    BoundMethodVar,
    CellVar,
    CMVar,
    ConstVar,
    DictVar,
    ExcVar,
    FuncVar,
    GenVar,
    GradCtxVar,
    ListVar,
    NewObjVar,
    ObjVar,
    SetVar,
    SliceVar,
    SuperVar,
    TensorVar,
    TracebackVar,
    TupleVar,
    Var,
)
from ._wrap import wrap_fixed

if TYPE_CHECKING:
    from ._interp import VM
    from ._values import SuperVar

_HEAPTYPE = 1 << 9
_ABSENT = object()


def class_lookup(t: type, name: str) -> object:
    for k in t.__mro__:
        if name in k.__dict__:
            return k.__dict__[name]
    return _ABSENT


def is_plain_class(cls: type) -> bool:
    """Instances can be modeled as a class plus an attribute dict: no metaclass, __new__, __slots__,
    custom attribute hooks, builtin bases (other than object), exceptions, modules or tensors."""
    if type(cls) is not type or cls.__new__ is not object.__new__:
        return False
    if issubclass(cls, (BaseException, torch.nn.Module, torch.Tensor)):
        return False
    for k in cls.__mro__[:-1]:
        if not k.__flags__ & _HEAPTYPE or ("__slots__" in k.__dict__ and not _plain_slots(k)):
            return False
    setattr_ = class_lookup(cls, "__setattr__")
    return ((setattr_ is object.__setattr__ or user_function(setattr_))
            and cls.__getattribute__ is object.__getattribute__ and not hasattr(cls, "__getattr__"))


def _plain_slots(k: type) -> bool:
    """A class's `__slots__` are plain stores: each name is the class's own member descriptor (no
    `__dict__` slot, and none hidden by a class attribute of the same name)."""
    names = k.__dict__["__slots__"]
    names = (names,) if isinstance(names, str) else tuple(names)
    return all(type(n) is str and n != "__dict__" and (n == "__weakref__" or type(k.__dict__.get(n)) is
                                                       types.MemberDescriptorType) for n in names)


def slot_of(cls: type, name: str) -> bool:
    """`name` is a slot of instances of the plain class `cls` (a member descriptor found on its MRO)."""
    return type(class_lookup(cls, name)) is types.MemberDescriptorType


def has_instance_dict(cls: type) -> bool:
    """Instances of the plain class `cls` have a `__dict__` (some class of its MRO has no `__slots__`)."""
    return any("__slots__" not in k.__dict__ for k in cls.__mro__[:-1])


def is_data_descriptor(x: object) -> bool:
    """A class attribute that takes over stores (and loads) of its name on instances."""
    tx = type(x)
    return hasattr(tx, "__set__") or hasattr(tx, "__delete__")


def user_function(x: object) -> bool:
    return isinstance(x, types.FunctionType) and not skip_inline(x.__code__)


def new_object(vm: VM, cls: type, args: list[Var], kwargs: dict[str, Var]):
    """`cls(*args)`: a NewObjVar, with __init__ traced as a frame that returns the object."""
    init = class_lookup(cls, "__init__")
    obj = NewObjVar(cls)
    if init is object.__init__:
        if args or kwargs:
            raise Unsupported("new-object", f"{cls.__name__}() takes no arguments")
        return obj
    if not user_function(init):
        raise Unsupported("new-object", f"{cls.__name__}.__init__ is not a user function")
    res = vm.call(wrap_fixed(vm, init), [obj, *args], kwargs)
    if isinstance(res, Inline):
        res.frame.ret_override = obj
        return res
    return obj


def new_namedtuple(vm: VM, cls: type, args: list[Var], kwargs: dict[str, Var]) -> Var | None:
    """`Point(x, y=1)` for a namedtuple class (collections.namedtuple, typing.NamedTuple, subclasses that
    keep the generated __new__): the fields bound as that __new__ binds them (defaults included), as a
    tuple value of that type. None for anything else (an overridden __new__ or __init__, a metaclass)."""

    if type(cls) is not type or not issubclass(cls, tuple) or class_lookup(cls, "__init__") is not object.__init__:
        return None
    new = class_lookup(cls, "__new__")
    new = new.__func__ if isinstance(new, staticmethod) else new
    fields = getattr(cls, "_fields", None)
    owner = next((k for k in cls.__mro__ if "_fields" in k.__dict__), None)
    if owner is None or type(fields) is not tuple or not isinstance(new, types.FunctionType) \
            or new.__code__.co_filename != "<string>" or new.__qualname__ != f"{owner.__name__}.__new__":
        return None
    try:
        bound = inspect.signature(new).bind(cls, *args, **kwargs)
    except TypeError:
        return None  # the real call raises CPython's TypeError
    bound.apply_defaults()
    items = [bound.arguments[f] for f in fields]
    return TupleVar([x if isinstance(x, Var) else ConstVar(x) for x in items], cls)


def enter_user_ctx(vm: VM, ctx: Var, tp: type):
    """BEFORE_WITH on a user context manager: (exit bound method, result-or-Inline of __enter__)."""
    enter, exit_ = class_lookup(tp, "__enter__"), class_lookup(tp, "__exit__")
    if not (user_function(enter) and user_function(exit_)):
        raise Unsupported("with", f"with-block over a {tp.__name__}")
    exit_var = BoundMethodVar(ctx, wrap_fixed(vm, exit_))
    return exit_var, vm.call(BoundMethodVar(ctx, wrap_fixed(vm, enter)), [], {})


def python_type(vm: VM, v: Var):
    """The exact Python type of a VM value, when the trace knows it."""
    t = type(v)
    if t is ConstVar:
        return type(v.value)
    if t is TensorVar:
        return v.pytype
    if t is TupleVar:
        return v.pytype
    if t is ListVar:
        return list
    if t is DictVar:
        return dict
    if t is SetVar:
        return set
    if t is FuncVar:
        return type(lambda: 0)
    if t is ObjVar:
        return type(v.obj)
    if t is NewObjVar:
        return v.cls
    if t is ExcVar:
        return v.cls
    if t is TracebackVar:
        return types.TracebackType
    if t is GenVar:
        return v.pytype or types.GeneratorType
    family = getattr(t, "PYTYPE", None)  # a model family's own value (_models_collections.DequeVar...)
    if family is not None:
        return family
    if t is GradCtxVar:
        return v.torch_class()
    if t is CMVar:
        return contextlib._GeneratorContextManager
    if t is BoundMethodVar:
        return types.MethodType
    if t is CellVar:
        return types.CellType
    if t is SliceVar:
        return slice
    return None


def instance_type(v: Var) -> type | None:
    """The class of a user-object value (None for modules, classes and non-objects)."""
    if type(v) is NewObjVar:
        return v.cls
    if type(v) is ObjVar and not isinstance(v.obj, (type, types.ModuleType)):
        return type(v.obj)
    return None


_C_METHODS = (types.WrapperDescriptorType, types.MethodDescriptorType)


@implements("call_dunder")
def call_dunder(vm: VM, obj, name: str, args: list[Var], discard: bool = False):
    """obj.name(*args) for a user-defined special method, traced as a frame (Unsupported otherwise)."""
    tp = instance_type(obj)
    f = class_lookup(tp, name) if tp is not None else _ABSENT
    if not user_function(f):
        # a C class's special method with a registered model (_models_collections: `deque.__getitem__`)
        m = MODELS.get(f) if type(obj) is ObjVar and isinstance(f, _C_METHODS) else None
        res = m(vm, [obj, *args], {}) if m is not None else NotImplemented
        if res is not NotImplemented:
            return res
        raise Unsupported("dunder", f"{name} of a {type(obj).__name__} is not a user function")
    res = vm.call(BoundMethodVar(obj, wrap_fixed(vm, f)), args, {})
    if discard and isinstance(res, Inline):
        res.frame.ret_override = DISCARD
    return res


def object_setattr(vm: VM, obj, name: str, val: Var) -> None:
    """object.__setattr__(obj, name, val): store without the class's own __setattr__."""
    if type(obj) is NewObjVar:
        obj.attrs[name] = val
        return
    if obj.attrs is None:
        obj.attrs = {}
    obj.attrs[name] = val
    vm.effects.append(SetAttrEffect(obj, name, val, raw=True))


_EXC_HOOKS = ("__init__", "__new__", "__str__", "__repr__", "__setattr__", "__getattribute__", "__getattr__",
              "__init_subclass__")


def is_plain_exception(cls: object) -> bool:
    """An exception class whose construction from constants is pure: builtin ones, and user subclasses
    that customise nothing about construction, attributes or text."""
    if not (isinstance(cls, type) and issubclass(cls, Exception)):
        return False
    for k in cls.__mro__:
        if k.__module__ == "builtins":
            continue
        if any(h in k.__dict__ for h in _EXC_HOOKS) or type(k) is not type:
            return False
    return True


# The builtin slots `super().name` may reach that calling models: the base `__init__`, and the stores that
# bypass a subclass's own `__setattr__`/`__setitem__` (replayed as side effects, like any store).
_BASE_SLOTS = (object.__init__, object.__setattr__, dict.__setitem__)


def zero_arg_super(vm: VM):
    """super() with no arguments, as CPython 3.11 does it: the frame's local 0 and `__class__` cell.

    It reads the calling frame, so it has no eager form outside it: each way CPython fails is an eager op
    raising CPython's own error, and what cannot be modeled makes the whole frame run for real."""
    def fail(msg: str) -> Unsupported:  # the CALL's [NULL, super] items are dropped, then CPython's error is raised
        return Unsupported("super", msg, eager=EagerSpec(raising(RuntimeError, msg), 0, npop=2, label="super"))

    frame = vm.frames[-1]
    code = frame.info.code
    if code.co_argcount == 0:
        raise fail("super(): no arguments")
    first = frame.locals[0]
    first = vm.resolve(first) if first is not None else None
    if type(first) is CellVar and 0 in frame.info.cells:
        first = cell_get(vm, first)
    if first is None or first is EMPTY:
        raise fail("super(): arg[0] deleted")
    if "__class__" not in code.co_freevars:
        raise fail("super(): __class__ cell not found")
    cell = vm.resolve(frame.locals[frame.info.names.index("__class__", len(code.co_varnames))])
    cls = cell_get(vm, cell) if type(cell) is CellVar else None
    if cls is EMPTY:
        raise fail("super(): empty __class__ cell")
    if type(cls) is not ObjVar or not isinstance(cls.obj, type):
        raise FrameBound("super", "super() with a __class__ cell the VM does not know")
    return SuperVar(cls.obj, first)


def super_attr(vm: VM, sv: SuperVar, name: str):
    tp = python_type(vm, sv.self_var)
    if tp is None or sv.cls not in tp.__mro__:
        raise Unsupported("super", "super() over an unknown type")
    mro = tp.__mro__
    for k in mro[mro.index(sv.cls) + 1:]:
        if name in k.__dict__:
            x = k.__dict__[name]
            if isinstance(x, types.FunctionType):
                return BoundMethodVar(sv.self_var, wrap_fixed(vm, x))
            if x in _BASE_SLOTS:  # modeled when called (_calls.call_object): stores replayed as side effects
                return BoundMethodVar(sv.self_var, ObjVar(x, None))
            break
    raise Unsupported("super-attr", f"super().{name}")
