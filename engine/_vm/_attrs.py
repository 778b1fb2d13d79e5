"""Attribute and subscript access on VM values."""

from __future__ import annotations

import functools
import operator
import types
from typing import TYPE_CHECKING

import torch

from .._errors import Unsupported
from .._guards import AttrSrc, ConstSrc, ItemSrc, Src
from ._consts import is_const_value
from ._effects import SetAttrEffect
from ._exceptions import STATE, exc_attr, get_state, tb_attr
from ._graph_ops import graph_fn
from ._iface import MODELS, implements
from ._members import sequential_item
from ._methods import dict_view, key_of, list_items, set_item
from ._models_py import clear_grad, tensor_grad
from ._objects import (
    call_dunder,
    has_instance_dict,
    instance_type,
    is_data_descriptor,
    slot_of,
    super_attr,
    user_function,
)
from ._sets import SET_METHODS
from ._torchops import TENSOR_ATTRS_CONST, TENSOR_ATTRS_GRAPH, is_tensor_method
from ._values import (
    BoundMethodVar,
    ConstVar,
    DictVar,
    ExcVar,
    FuncVar,
    ListVar,
    MethodVar,
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
from ._wrap import wrap, wrap_fixed

if TYPE_CHECKING:
    from ._iface import Inline
    from ._interp import VM

_LIST_METHODS = {n for n in dir(list) if not n.startswith("_")}
_DICT_METHODS = {n for n in dir(dict) if not n.startswith("_")}


def _src(v: ObjVar) -> Src:
    return v.src if v.src is not None else ConstSrc(v.obj)


def _no_custom_getattr(t: type) -> bool:
    return t.__getattribute__ is object.__getattribute__ and not hasattr(t, "__getattr__")


def _user_slot(tp: type, name: str, cls_attr: object) -> bool:
    """`name` is a `__slots__` entry of a user class (its member descriptor, with the default lookup)."""
    return type(cls_attr) is types.MemberDescriptorType and bool(tp.__flags__ & _HEAPTYPE) and \
        tp.__getattribute__ is object.__getattribute__ and slot_of(tp, name)


_HEAPTYPE = 1 << 9


def _class_lookup(t: type, name: str) -> object:
    for k in t.__mro__:
        if name in k.__dict__:
            return k.__dict__[name]
    return _ABSENT


_ABSENT = object()


@implements("load_attr")
def load_attr(vm: VM, v: Var, name: str) -> Var | Inline:
    """`v.name` in the VM (`vm.load_attr`), dispatched on the kind of value. A tensor's metadata is a
    constant, its other attributes a graph op or a method bound for a later call; a constant's attribute is
    read for real; a named tuple's field is its item; a modelled container method is a MethodVar; a program
    object's attribute follows Python's lookup (`_obj_attr`: instance attributes, then the class, where a
    user property's getter is called through the VM and a method binds). Anything else raises Unsupported:
    a graph break at this instruction, never a guess."""
    t = type(v)
    if t is TensorVar:
        if name in TENSOR_ATTRS_CONST:
            return ConstVar(getattr(v.fake, name))
        if name in TENSOR_ATTRS_GRAPH:
            return graph_fn(vm, getattr, [v, ConstVar(name)], f"getattr {name}")
        if is_tensor_method(name) or callable(getattr(torch.Tensor, name, None)):
            return MethodVar(v, name)  # a refused method breaks at its call, not here
        if name == "grad":
            g = tensor_grad(vm, v)
            if g is not None:
                return g
        raise Unsupported("tensor-attr", f"Tensor.{name} is not traced")
    if t is ConstVar:
        try:
            x = getattr(v.value, name)
        except AttributeError:
            raise Unsupported("attr-missing", f"{type(v.value).__name__} has no attribute {name}") from None
        if is_const_value(x):
            return ConstVar(x)
        if callable(x):
            return MethodVar(v, name)
        raise Unsupported("const-attr", f"attribute {name} of a constant")
    if t is TupleVar:
        fields = getattr(v.pytype, "_fields", None) or getattr(v.pytype, "__match_args__", None)
        if fields and name in fields:
            return v.items[fields.index(name)]
        if name in ("count", "index"):
            return MethodVar(v, name)
        if v.pytype is not tuple and hasattr(v.pytype, "_fields"):
            meth = _class_lookup(v.pytype, name)  # a method of a (typing.)NamedTuple class, written by the user
            if user_function(meth) or (isinstance(meth, property) and user_function(meth.fget)) or (
                    meth is not _ABSENT and not hasattr(type(meth), "__get__")):  # _fields: a class constant
                return _instance_class_attr(vm, v, v.pytype, name, meth)
    if t is ListVar and name in _LIST_METHODS:
        return MethodVar(v, name)
    if t is DictVar and name in _DICT_METHODS:
        return MethodVar(v, name)
    if t is SetVar and name in SET_METHODS:
        return MethodVar(v, name)
    if (t, name) in MODELS:  # a method a model family registered for its symbolic values (_iface.model)
        return MethodVar(v, name)
    if t is FuncVar and name in ("__name__", "__qualname__"):
        return ConstVar(getattr(v, name.strip("_")))
    if t is BoundMethodVar and name in ("__self__", "__func__"):
        return v.self_var if name == "__self__" else v.func
    if t is ObjVar:
        if name in STATE and isinstance(v.obj, BaseException):
            return get_state(vm, v, name)
        return _obj_attr(vm, v, name)
    if t is NewObjVar:
        return _new_obj_attr(vm, v, name)
    if t is SuperVar:
        return super_attr(vm, v, name)
    if t is ExcVar:
        return exc_attr(vm, v, name)
    if t is TracebackVar:
        return tb_attr(vm, v, name)
    raise Unsupported("attr", f"attribute {name} of a {t.__name__}")


def _obj_attr(vm: VM, v: Var, name: str):
    if v.attrs is not None and name in v.attrs:
        return v.attrs[name]
    obj = v.obj
    if isinstance(obj, types.ModuleType):
        try:
            x = getattr(obj, name)
        except AttributeError:
            raise Unsupported("attr-missing", f"module {obj.__name__} has no {name}") from None
        src = AttrSrc(_src(v), name)
        if obj.__name__ == "torch" or obj.__name__.startswith("torch."):
            return wrap_fixed(vm, x)  # torch itself is not monkeypatched by programs
        if is_const_value(x) or isinstance(x, torch.Tensor):
            return wrap(vm, x, src)
        vm.guards.add(f"{src.expr(vm.ns)} is {vm.ns.const(x, 'k')}")
        return wrap_fixed(vm, x)
    if isinstance(obj, type):
        x = _class_lookup(obj, name)
        if isinstance(x, types.FunctionType) and not _custom_meta(obj):
            vm.guards.add(f"{AttrSrc(_src(v), name).expr(vm.ns)} is {vm.ns.const(x, 'k')}")
            return wrap_fixed(vm, x)
        try:
            x = getattr(obj, name)
        except AttributeError:
            raise Unsupported("attr-missing", f"class {obj.__name__} has no {name}") from None
        return wrap(vm, x, AttrSrc(_src(v), name))
    tp = type(obj)
    if name == "__class__" and tp.__getattribute__ is object.__getattribute__ \
            and _class_lookup(tp, "__class__") is object.__dict__["__class__"]:
        vm.guards.type_is(_src(v), tp)  # self.__class__(...) in torch's container slicing
        return wrap_fixed(vm, tp)
    if isinstance(obj, torch.nn.Module) and tp.__getattribute__ is object.__getattribute__:
        return _module_attr(vm, v, obj, tp, name)
    # A Python `__getattr__` (with the default `__getattribute__`) is called, traced, when the normal
    # lookup finds nothing: not in the instance's dict (guarded), not on the class (pinned).
    if tp is functools.partial and name in ("func", "args", "keywords"):  # read-only members: guarded reads
        return wrap(vm, getattr(obj, name), AttrSrc(_src(v), name))
    fallback = tp.__getattribute__ is object.__getattribute__ and user_function(_class_lookup(tp, "__getattr__"))
    if not _no_custom_getattr(tp) and not fallback:
        raise Unsupported("custom-getattr", f"{tp.__name__} customizes attribute access")
    cls_attr = _class_lookup(tp, name)
    if _user_slot(tp, name, cls_attr):  # a slot of a user class: read (guarded) as an attribute is
        try:
            x = getattr(obj, name)
        except AttributeError:
            raise Unsupported("slot-unset", f"{tp.__name__}.{name}: a slot with no value") from None
        return wrap(vm, x, AttrSrc(_src(v), name))
    if cls_attr is not _ABSENT and is_data_descriptor(cls_attr):
        return _instance_class_attr(vm, v, tp, name, cls_attr)
    d = getattr(obj, "__dict__", None)
    src = _src(v)
    if d is not None and name in d:
        return wrap(vm, d[name], AttrSrc(src, name))
    if d is not None:
        vm.guards.add(f"{name!r} not in {src.expr(vm.ns)}.__dict__")
    if fallback and cls_attr is _ABSENT and d is not None:
        return call_dunder(vm, v, "__getattr__", [ConstVar(name)])
    if fallback and cls_attr is _ABSENT:
        raise Unsupported("custom-getattr", f"{tp.__name__}.__getattr__ on an object without a __dict__")
    return _instance_class_attr(vm, v, tp, name, cls_attr)


_MODULE_STORES = ("_parameters", "_buffers", "_modules")


def _module_attr(vm: VM, v: ObjVar, obj: torch.nn.Module, tp: type, name: str) -> Var:
    """nn.Module attributes: instance dict, then parameters/buffers/submodules (Module.__getattr__),
    then the class."""
    cls_attr = _class_lookup(tp, name)
    if cls_attr is not _ABSENT and is_data_descriptor(cls_attr):
        return _instance_class_attr(vm, v, tp, name, cls_attr)
    d = obj.__dict__
    src = _src(v)
    if name in d:
        return wrap(vm, d[name], AttrSrc(src, name))
    vm.guards.add(f"{name!r} not in {src.expr(vm.ns)}.__dict__")
    for store in _MODULE_STORES:  # read from the store itself: Module.__getattr__ is a Python call
        real = d.get(store, ())
        dv = vm.memo.get(id(real))
        if type(dv) is DictVar and (dv.pending or dv.items is not None):
            items = dict_view(vm, dv)  # traced code stored into it (a register_parameter): read that
            if name in items:
                return items[name]
        elif name in real:
            return wrap(vm, real[name], ItemSrc(AttrSrc(src, store), name))
    if cls_attr is _ABSENT:
        raise Unsupported("attr-missing", f"{tp.__name__} has no attribute {name}")
    for store in _MODULE_STORES:
        vm.guards.add(f"{name!r} not in {src.expr(vm.ns)}.{store}")
    return _instance_class_attr(vm, v, tp, name, cls_attr)


def _instance_class_attr(vm: VM, v: Var, tp: type, name: str, cls_attr):
    """An attribute found on the class of an instance (not in its __dict__)."""
    if isinstance(cls_attr, property) and user_function(cls_attr.fget):
        return vm.call(wrap_fixed(vm, cls_attr.fget), [v], {})
    if cls_attr is not _ABSENT and is_data_descriptor(cls_attr):
        raise Unsupported("descriptor", f"{tp.__name__}.{name} is a property/descriptor")
    if isinstance(cls_attr, types.FunctionType):
        return BoundMethodVar(v, wrap_fixed(vm, cls_attr))
    if isinstance(cls_attr, staticmethod):
        return wrap_fixed(vm, cls_attr.__func__)
    if isinstance(cls_attr, classmethod):
        return BoundMethodVar(ObjVar(tp, None), wrap_fixed(vm, cls_attr.__func__))
    if cls_attr is not _ABSENT and not hasattr(type(cls_attr), "__get__"):
        return wrap(vm, cls_attr, AttrSrc(ConstSrc(tp), name))
    raise Unsupported("attr", f"{tp.__name__}.{name}")


def _new_obj_attr(vm: VM, v: Var, name: str):
    cls_attr = _class_lookup(v.cls, name)
    if type(cls_attr) is types.MemberDescriptorType and slot_of(v.cls, name):
        if name in v.attrs:  # a slot traced code stored (an unset one raises eager's AttributeError)
            return v.attrs[name]
        raise Unsupported("slot-unset", f"{v.cls.__name__}.{name}: a slot with no value")
    if cls_attr is not _ABSENT and is_data_descriptor(cls_attr):
        return _instance_class_attr(vm, v, v.cls, name, cls_attr)
    if name in v.attrs:
        return v.attrs[name]
    if name == "__class__":
        return ObjVar(v.cls, None)
    return _instance_class_attr(vm, v, v.cls, name, cls_attr)


def _custom_meta(cls: type) -> bool:
    return type(cls) is not type


@implements("store_attr")
def store_attr(vm: VM, obj, name: str, val: Var):
    """Returns an Inline when a user-defined __setattr__ runs as a frame."""
    tp = instance_type(obj)
    if tp is not None and _class_lookup(tp, "__setattr__") is not object.__setattr__:
        return call_dunder(vm, obj, "__setattr__", [ConstVar(name), val], discard=True)
    if type(obj) is NewObjVar:
        cls_attr = _class_lookup(obj.cls, name)
        if type(cls_attr) is types.MemberDescriptorType and slot_of(obj.cls, name):
            obj.attrs[name] = val  # a slot: a plain store (made real by object.__setattr__)
            return
        if cls_attr is _ABSENT and not has_instance_dict(obj.cls):
            raise Unsupported("store-attr", f"{obj.cls.__name__} has no slot {name} and no __dict__")
        if cls_attr is not _ABSENT and is_data_descriptor(cls_attr):
            raise Unsupported("store-attr", f"{obj.cls.__name__}.{name} is a descriptor")
        obj.attrs[name] = val
        return
    if type(obj) is TensorVar and name == "grad" and clear_grad(vm, obj, val):
        return
    if type(obj) is not ObjVar:
        raise Unsupported("store-attr", f"setting an attribute of a {type(obj).__name__}")
    real = obj.obj
    tp = type(real)
    if isinstance(real, types.ModuleType):
        vm.gover[(id(real.__dict__), name)] = val
    elif tp.__setattr__ is object.__setattr__ and _user_slot(tp, name, _class_lookup(tp, name)):
        pass  # a slot of a user class: a replayed store (object.__setattr__ stores through the slot)
    elif isinstance(real, type) or tp.__setattr__ is not object.__setattr__ or not hasattr(real, "__dict__"):
        raise Unsupported("store-attr", f"setting {tp.__name__}.{name}")
    else:
        cls_attr = _class_lookup(tp, name)
        if cls_attr is not _ABSENT and is_data_descriptor(cls_attr):
            raise Unsupported("store-attr", f"{tp.__name__}.{name} is a descriptor")
    if obj.attrs is None:
        obj.attrs = {}
    obj.attrs[name] = val
    vm.effects.append(SetAttrEffect(obj, name, val))


@implements("get_item")
def get_item(vm: VM, c: Var, k):
    t = type(c)
    tp = instance_type(c)
    if tp is not None and isinstance(c.obj if t is ObjVar else None, tuple) and \
            _class_lookup(tp, "__getitem__") is tuple.__getitem__ and type(k) is ConstVar and \
            type(k.value) is int and -len(c.obj) <= k.value < len(c.obj):
        src = _src(c)  # an instance of a tuple subclass: its items are fixed, read them guarded
        vm.guards.length(src, len(c.obj))
        return wrap(vm, c.obj[k.value], ItemSrc(src, k.value))
    if t is ObjVar and isinstance(c.obj, torch.nn.Sequential):
        item = sequential_item(vm, c, k)
        if item is not None:
            return item
    if tp is not None:
        return call_dunder(vm, c, "__getitem__", [k])
    if t is TensorVar:
        return graph_fn(vm, operator.getitem, [c, k], "getitem")
    if t in (TupleVar, ListVar) or (t is ConstVar and isinstance(c.value, (tuple, str, range, bytes))):
        items = c.items if t is TupleVar else list_items(vm, c) if t is ListVar else None
        if type(k) is ConstVar and type(k.value) in (int, bool):
            if items is None:
                return _fold_getitem(c.value, k.value)
            n = len(items)
            if not -n <= k.value < n:
                raise Unsupported("index-error", "index out of range")
            return items[k.value]
        if type(k) is SliceVar and all(type(x) is ConstVar for x in (k.start, k.stop, k.step)):
            s = slice(k.start.value, k.stop.value, k.step.value)
            if items is None:
                return _fold_getitem(c.value, s)
            return TupleVar(items[s], c.pytype if c.pytype is tuple else tuple) if t is TupleVar \
                else ListVar(items[s])
        raise Unsupported("subscript", "sequence index is not a constant")
    if t is DictVar:
        items = dict_view(vm, c) if c.real is not None else c.items
        key = key_of(k)
        if key not in items:
            raise Unsupported("key-error", "missing dict key")
        return items[key]
    family = MODELS.get((t, "__getitem__"))  # a model family's own container value (_iface.model)
    if family is not None:
        res = family(vm, [c, k], {})
        if res is not NotImplemented:
            return res
    raise Unsupported("subscript", f"subscript of a {t.__name__}")


def _fold_getitem(value: object, key: object) -> ConstVar:
    try:
        out = value[key]
    except Exception:
        raise Unsupported("subscript-raises", "subscript raised") from None
    if not is_const_value(out):
        raise Unsupported("subscript", "subscript result is not a constant")
    return ConstVar(out)


def store_item(vm: VM, c: Var, k, v: Var):
    if instance_type(c) is not None:
        return call_dunder(vm, c, "__setitem__", [k, v], discard=True)
    if type(c) is TensorVar:
        graph_fn(vm, operator.setitem, [c, k, v], "setitem")
        return
    set_item(vm, c, k, v)

