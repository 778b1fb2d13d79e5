"""The `match` statement's opcodes (CPython 3.11): MATCH_MAPPING, MATCH_SEQUENCE, GET_LEN, MATCH_KEYS,
COPY_DICT_WITHOUT_KEYS, MATCH_CLASS.

Traced where the subject's exact type is known (a dict, list, tuple or namedtuple, constant, tensor or user
object of the trace): the type tests are the type's flags, `len` and the keys of a dict built or read by the
trace are its items, and a class pattern against a class with the plain `isinstance` reads `__match_args__`
and the attributes as the VM reads attributes (guarded). Anything else is the instruction's eager form,
which runs CPython's own semantics: for MATCH_CLASS a small generated function whose one `case` is the
same class pattern, so errors (`__match_args__` not a tuple, too many positional sub-patterns) are eager's.
"""

from __future__ import annotations

import functools
from typing import TYPE_CHECKING, Any

from .._errors import Unsupported
from ._attrs import load_attr
from ._builtins import python_type
from ._methods import dict_view, list_items
from ._opcodes import EagerSpec, handles
from ._values import ConstVar, DictVar, ListVar, ObjVar, TupleVar, Var

if TYPE_CHECKING:
    from ._code import Instr
    from ._frame import Frame
    from ._interp import VM

_SEQUENCE, _MAPPING, _MATCH_SELF = 1 << 5, 1 << 6, 1 << 22  # Py_TPFLAGS_SEQUENCE, _MAPPING, _MATCH_SELF
_HEAPTYPE = 1 << 9


def _flag(flag: int):
    def test(subject: object) -> bool:
        return bool(type(subject).__flags__ & flag)
    test.__name__ = "is_mapping" if flag == _MAPPING else "is_sequence"
    return test


_is_mapping, _is_sequence = _flag(_MAPPING), _flag(_SEQUENCE)


def match_keys(subject: Any, keys: tuple) -> tuple | None:
    """MATCH_KEYS: the values of `keys` in the mapping (looked up with its `get`), None if one is missing."""
    if not keys:
        return ()
    get, dummy, seen, values = subject.get, object(), set(), []
    for key in keys:
        if key in seen:
            raise ValueError(f"mapping pattern checks duplicate key ({key!r})")
        seen.add(key)
        v = get(key, dummy)
        if v is dummy:
            return None
        values.append(v)
    return tuple(values)


def copy_dict_without_keys(subject: Any, keys: tuple) -> dict:
    rest: dict = {}
    rest.update(subject)
    for key in keys:
        del rest[key]
    return rest


@functools.lru_cache(maxsize=256)
def _class_matcher(count: int, names: tuple[str, ...]):
    """A function whose one case is `cls(p0, ..., name=k0, ...)`: CPython's MATCH_CLASS, run for real."""
    pos = [f"p{i}" for i in range(count)]
    kws = [f"{n}=k{i}" for i, n in enumerate(names)]
    out = pos + [f"k{i}" for i in range(len(names))]
    src = (f"def m(subject, cls):\n    match subject:\n        case cls({', '.join(pos + kws)}):\n"
           f"            return ({''.join(o + ', ' for o in out)})\n    return None\n")
    ns: dict = {}
    exec(compile(src, "<engine match_class>", "exec"), ns)
    return ns["m"]


def match_class(count: int):
    def run(subject: Any, cls: Any, names: tuple) -> tuple | None:
        return _class_matcher(count, names)(subject, cls)
    run.__name__ = "match_class"
    return run


def _type_test_eager(frame: Frame, ins: Instr) -> EagerSpec:
    return EagerSpec(_is_mapping if ins.opname == "MATCH_MAPPING" else _is_sequence, 1, npop=0)


@handles("MATCH_MAPPING", "MATCH_SEQUENCE", eager=_type_test_eager)
def _type_test(vm: VM, frame: Frame, ins: Instr) -> None:
    subject = vm.resolve(frame.stack[-1])
    tp = python_type(vm, subject)
    if tp is None:
        raise Unsupported("match", f"{ins.opname} on a value of unknown type", eager=_type_test_eager(frame, ins))
    flag = _MAPPING if ins.opname == "MATCH_MAPPING" else _SEQUENCE
    frame.stack.append(ConstVar(bool(tp.__flags__ & flag)))
    frame.ip += 1


@handles("GET_LEN", eager=lambda frame, ins: EagerSpec(len, 1, npop=0))
def _get_len(vm: VM, frame: Frame, ins: Instr) -> None:
    subject = vm.resolve(frame.stack[-1])
    try:
        n = _known_len(vm, subject)
    except Unsupported:
        n = None
    if n is None:
        raise Unsupported("match", "len() of a match subject the trace does not hold",
                          eager=EagerSpec(len, 1, npop=0))
    frame.stack.append(ConstVar(n))
    frame.ip += 1


def _known_len(vm: VM, v: Var) -> int | None:
    t = type(v)
    if t is TupleVar:
        return len(v.items)
    if t is ListVar and (v.real is None or type(v.real) is list):
        return len(list_items(vm, v))
    if t is DictVar and _plain_dict(v):
        return len(dict_view(vm, v))
    if t is ConstVar and type(v.value).__len__ in (str.__len__, bytes.__len__, tuple.__len__):
        return len(v.value)
    return None


def _plain_dict(v: DictVar) -> bool:
    return v.real is None or type(v.real) is dict


def _const_keys(v: Var) -> tuple | None:
    if type(v) is ConstVar and type(v.value) is tuple:
        return v.value
    if type(v) is TupleVar and all(type(i) is ConstVar for i in v.items):
        return tuple(i.value for i in v.items)
    return None


def _keys_eager(frame: Frame, ins: Instr) -> EagerSpec:
    if ins.opname == "MATCH_KEYS":
        return EagerSpec(match_keys, 2, npop=0)
    return EagerSpec(copy_dict_without_keys, 2, npop=1)


@handles("MATCH_KEYS", "COPY_DICT_WITHOUT_KEYS", eager=_keys_eager)
def _keys(vm: VM, frame: Frame, ins: Instr) -> None:
    subject, keys = (vm.resolve(v) for v in frame.stack[-2:])
    ks = _const_keys(keys)
    items = None
    if type(subject) is DictVar and _plain_dict(subject) and ks is not None and len(set(ks)) == len(ks) \
            and all(_hashable(k) for k in ks):
        try:
            items = dict_view(vm, subject)
        except Unsupported:
            items = None
    if items is None:
        raise Unsupported("match", f"{ins.opname} on a mapping the trace does not hold", eager=_keys_eager(frame, ins))
    if ins.opname == "MATCH_KEYS":
        found = ConstVar(None) if any(k not in items for k in ks) else TupleVar([items[k] for k in ks])
        frame.stack.append(found)
    else:
        if any(k not in items for k in ks):
            raise Unsupported("match", "COPY_DICT_WITHOUT_KEYS of a missing key", eager=_keys_eager(frame, ins))
        frame.stack[-1] = DictVar({k: v for k, v in items.items() if k not in ks})
    frame.ip += 1


def _hashable(k: object) -> bool:
    try:
        hash(k)
    except TypeError:
        return False
    return True


def _match_class_eager(frame: Frame, ins: Instr) -> EagerSpec:
    return EagerSpec(match_class(ins.arg), 3)


@handles("MATCH_CLASS", eager=_match_class_eager)
def _match_class(vm: VM, frame: Frame, ins: Instr) -> None:
    subject, cls_v, names_v = (vm.resolve(v) for v in frame.stack[-3:])
    try:
        r = _traced_match(vm, ins.arg, subject, cls_v, names_v)
    except Unsupported as u:
        if u.eager is None:
            u.eager = _match_class_eager(frame, ins)
        raise
    vm.popn(3)
    frame.stack.append(r)
    frame.ip += 1


def _no(why: str) -> Unsupported:
    return Unsupported("match", f"class pattern: {why}")


def _traced_match(vm: VM, count: int, subject: Var, cls_v: Var, names_v: Var) -> Var:
    cls = cls_v.obj if type(cls_v) is ObjVar else cls_v.value if type(cls_v) is ConstVar else None
    names = _const_keys(names_v)
    if not isinstance(cls, type) or names is None:
        raise _no("the class or the attribute names are not known")
    if type(cls).__instancecheck__ is not type.__instancecheck__:
        raise _no(f"{cls.__name__} has its own __instancecheck__")
    tp = python_type(vm, subject)
    if tp is None or any("__class__" in k.__dict__ for k in tp.__mro__[:-1]):
        raise _no("the subject's type is not known")
    if not issubclass(tp, cls):
        return ConstVar(None)
    out: list[Var] = []
    if count:
        if cls.__flags__ & _HEAPTYPE:
            margs = _const_keys(load_attr(vm, cls_v, "__match_args__"))  # guarded as any class attribute
            if margs is None:
                raise _no("__match_args__ is not a constant tuple")
        elif hasattr(cls, "__match_args__"):
            margs = cls.__match_args__
        elif cls.__flags__ & _MATCH_SELF and count == 1:
            margs = None
        else:
            raise _no("positional sub-patterns the class does not take")
        if margs is None:
            out.append(subject)
        else:
            if len(margs) < count or not all(type(n) is str for n in margs[:count]):
                raise _no("__match_args__ does not name every positional sub-pattern")
            names = (*margs[:count], *names)
    if len(set(names)) != len(names):
        raise _no("an attribute matched twice")
    for name in names:
        v = load_attr(vm, subject, name)
        if not isinstance(v, Var):
            raise _no(f"attribute {name} runs code")
        out.append(v)
    return TupleVar(out)
