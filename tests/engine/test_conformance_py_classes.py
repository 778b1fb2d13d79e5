"""Conformance, everyday Python (3/4): user classes and `match` around a tensor program -- `__slots__`
reads and writes, property setters, `Enum`/`IntFlag` members and operators, `__getattr__`, `ABCMeta`,
`__init_subclass__`, `dataclasses.replace`/`astuple`, namedtuple `_replace`/`_asdict`, dataclass instances
as dict keys, `__wrapped__`/`__doc__`, and functions with a `match` statement (every pattern kind) -- each
with a graph break in a called helper (depth >= 1)."""

from __future__ import annotations

import abc
import dataclasses
import enum
import functools
from collections import namedtuple

import pytest
import torch

from .conformance import Scenario, check_scenario, x1
from .helpers import t

gb = torch._dynamo.graph_break


def _brk(log, tag):
    log.append(tag)
    gb()


# --- __slots__ -----------------------------------------------------------------------------------------------

class Slotted:
    __slots__ = ("a", "b")

    def __init__(self, a):
        self.a = a

    def __eq__(self, other):
        return type(other) is Slotted and _slots(self) == _slots(other)


def _slots(o):
    return tuple(getattr(o, n, None) for n in Slotted.__slots__)


def slots_read_write(log, x):
    s = Slotted(x)
    s.b = s.a + 1
    _brk(log, hasattr(s, "b"))
    s.a = s.b * 2
    return s.a, s.b


def slots_input_mutated(log, x, s):
    s.b = 3
    _brk(log, s.b)
    s.a = s.a + s.b
    return x * s.a


def slots_missing_attribute(log, x):
    s = Slotted(x)
    _brk(log, "made")
    try:
        return s.b
    except AttributeError as e:
        return x, str(e)


# --- properties ----------------------------------------------------------------------------------------------

class Temperature:
    def __init__(self, c):
        self._c = c

    @property
    def celsius(self):
        return self._c

    @celsius.setter
    def celsius(self, v):
        if v < -273:
            raise ValueError("below absolute zero")
        self._c = v

    @property
    def scale(self):
        return self._c / 100


def property_setter(log, x):
    tmp = Temperature(20)
    tmp.celsius = 30
    _brk(log, tmp.celsius)
    tmp.celsius = tmp.celsius + 5
    return x * tmp.scale, tmp.celsius


def property_setter_raises(log, x):
    tmp = Temperature(1)
    _brk(log, "before")
    tmp.celsius = -300
    return x


class Gain:
    def __init__(self, log):
        self.log = log
        self._g = 1.0

    @property
    def gain(self):
        return self._g

    @gain.setter
    def gain(self, v):
        _brk(self.log, v)
        self._g = v


def property_setter_breaks(log, x):
    g = Gain(log)
    g.gain = 2.5
    return x * g.gain


# --- enums ---------------------------------------------------------------------------------------------------

class Mode(enum.Enum):
    TRAIN = "train"
    EVAL = "eval"


class Perm(enum.IntFlag):
    R = 4
    W = 2
    X = 1


class Level(enum.IntEnum):
    LOW = 1
    HIGH = 3


def enum_members(log, x, mode):
    _brk(log, mode.name)
    if mode is Mode.TRAIN:
        return x * 2, mode.value
    return x - 1, Mode("eval").name, Mode["TRAIN"].value


def enum_iteration(log, x):
    names = [m.name for m in Mode]
    _brk(log, names)
    return x + len(Mode), names, Mode.EVAL in Mode


def intflag_operators(log, x):
    p = Perm.R | Perm.W
    _brk(log, int(p))
    can_write = bool(p & Perm.W)
    return x * int(p), can_write, Perm.X in p, int(p ^ Perm.R), int(~Perm.X & 7)


def intenum_arithmetic(log, x):
    lv = Level.HIGH
    _brk(log, lv > Level.LOW)
    return x * (lv + 1), lv.name, lv == 3


# --- attribute hooks and metaclasses -------------------------------------------------------------------------

class Config:
    def __init__(self, **kw):
        self.values = kw

    def __getattr__(self, name):
        try:
            return self.values[name]
        except KeyError:
            raise AttributeError(name) from None


def getattr_fallback(log, x):
    cfg = Config(scale=3, shift=1)
    _brk(log, "cfg")
    return x * cfg.scale + cfg.shift, getattr(cfg, "missing", "default")


class LoggedAttrs:
    def __init__(self, log):
        self.log = log

    def __getattr__(self, name):
        _brk(self.log, name)
        return len(name)


def getattr_hook_breaks(log, x):
    o = LoggedAttrs(log)
    return x * o.abc, o.hello


class Shape(abc.ABC):
    @abc.abstractmethod
    def area(self, x): ...

    def twice(self, x):
        return 2 * self.area(x)


class Square(Shape):
    def area(self, x):
        _brk(self.log, "area")
        return x * x

    def __init__(self, log):
        self.log = log


def abcmeta_subclass(log, x):
    sq = Square(log)
    ok = isinstance(sq, Shape)
    return sq.twice(x), ok, issubclass(Square, Shape)


def abc_cannot_instantiate(log, x):
    _brk(log, "try")
    try:
        Shape()
    except TypeError as e:
        return x, "abstract" in str(e)
    return x * 0


class Layer:
    registry: dict = {}

    def __init_subclass__(cls, key=None, **kw):
        super().__init_subclass__(**kw)
        Layer.registry[key or cls.__name__] = cls


class Double(Layer, key="double"):
    def __call__(self, x, log):
        _brk(log, "double")
        return x * 2


class Negate(Layer):
    def __call__(self, x, log):
        return -x


def init_subclass_registry(log, x):
    out = x
    for key in ("double", "Negate"):
        out = Layer.registry[key]()(out, log)
    return out, sorted(Layer.registry)


# --- dataclasses and namedtuples -----------------------------------------------------------------------------

@dataclasses.dataclass
class Opts:
    lr: float = 0.1
    steps: int = 2
    tags: tuple = ()


@dataclasses.dataclass(frozen=True)
class Key:
    name: str
    idx: int


def dataclass_replace_astuple(log, x):
    o = Opts(lr=0.5)
    o2 = dataclasses.replace(o, steps=3)
    _brk(log, dataclasses.astuple(o2))
    return x * o2.lr * o2.steps, dataclasses.asdict(o2), o == o2


def dataclass_fields(log, x):
    names = [f.name for f in dataclasses.fields(Opts)]
    _brk(log, names)
    return x + len(names), names, dataclasses.is_dataclass(Opts())


def dataclass_input_mutated(log, x, o):
    o.steps += 1
    _brk(log, o.steps)
    o.tags = o.tags + ("seen",)
    return x * o.steps


def dataclass_dict_keys(log, x):
    cache = {Key("a", 1): x, Key("b", 2): x + 1}
    _brk(log, len(cache))
    cache[Key("a", 1)] = cache[Key("a", 1)] * 10
    return cache[Key("a", 1)], Key("b", 2) in cache, len({Key("a", 1), Key("a", 1)})


Pair = namedtuple("Pair", ["left", "right"])


def namedtuple_replace_asdict(log, x):
    p = Pair(x, 2)
    q = p._replace(right=5)
    _brk(log, q.right)
    return q.left * q.right, dict(q._asdict()), Pair._fields, Pair._make([1, 2])


def namedtuple_unpack_input(log, x, p):
    left, right = p
    _brk(log, right)
    return x * left + right, p._replace(left=0)


# --- function attributes -------------------------------------------------------------------------------------

def _logged(fn):
    @functools.wraps(fn)
    def inner(*args):
        return fn(*args)
    return inner


@_logged
def _scale(x):
    """Scales by three."""
    return x * 3


def wrapped_and_doc(log, x):
    raw = _scale.__wrapped__
    _brk(log, _scale.__name__)
    return raw(x), _scale.__doc__, _scale.__qualname__.split(".")[-1]


class Counter3:
    def __init__(self):
        self.n = 0

    def __call__(self, x, log):
        self.n += 1
        if self.n == 2:
            _brk(log, self.n)
        return x + self.n


def callable_object_state(log, x, c):
    return c(c(x, log), log), c.n


# --- match ---------------------------------------------------------------------------------------------------

def _route(cmd, x, log):
    match cmd:
        case {"op": "scale", "by": k}:
            _brk(log, k)
            return x * k
        case {"op": "shift", **rest}:
            return x + rest.get("by", 1)
        case ["add", a, b]:
            return x + a + b
        case ["many", *items]:
            _brk(log, len(items))
            return x + sum(items)
        case Pair(left=l, right=r) if r > 0:
            return x * l + r
        case Opts(lr, steps):
            return x * lr * steps
        case int(n) | float(n):
            return x + n
        case "noop" | None:
            return x
        case _:
            raise ValueError(f"unknown {cmd!r}")


def match_mapping(log, x):
    return _route({"op": "scale", "by": 3}, x, log), _route({"op": "shift", "by": 2, "extra": 0}, x, log)


def match_sequence(log, x):
    return _route(["add", 1, 2], x, log), _route(["many", 1, 2, 3], x, log)


def match_class(log, x):
    return _route(Pair(2, 1), x, log), _route(Opts(0.5, 4), x, log), _brk(log, "after")


def match_literals(log, x):
    a = _route(4, x, log)
    _brk(log, "mid")
    return a, _route(None, x, log), _route("noop", x, log)


def match_no_case(log, x):
    _brk(log, "before")
    return _route(("unknown", 1), x, log)


def match_tensor_shape(log, x):
    match x.shape:
        case (n,):
            _brk(log, n)
            return x.sum() * n
        case (n, m):
            return x.mean() + n * m
    return x


SCENARIOS = [
    Scenario(slots_read_write, x1, 2),
    Scenario(slots_input_mutated, lambda: (t(3), Slotted(2)), 1),
    Scenario(slots_missing_attribute, x1, 0),
    Scenario(property_setter, x1, 1),
    Scenario(property_setter_raises, x1, 0, raises=True),
    Scenario(property_setter_breaks, x1, 1),
    Scenario(enum_members, lambda: (t(3), Mode.TRAIN), 2, inputs2=lambda: (t(3), Mode.EVAL)),
    Scenario(enum_iteration, x1, 1),
    Scenario(intflag_operators, x1, 1),
    Scenario(intenum_arithmetic, x1, 1),
    Scenario(getattr_fallback, x1, 1),
    Scenario(getattr_hook_breaks, x1, 1),
    Scenario(abcmeta_subclass, x1, 1),
    Scenario(abc_cannot_instantiate, x1, 0),
    Scenario(init_subclass_registry, x1, 1),
    Scenario(dataclass_replace_astuple, x1, 1),
    Scenario(dataclass_fields, x1, 1),
    Scenario(dataclass_input_mutated, lambda: (t(3), Opts(steps=1)), 1),
    Scenario(dataclass_dict_keys, x1, 2),
    Scenario(namedtuple_replace_asdict, x1, 1),
    Scenario(namedtuple_unpack_input, lambda: (t(3), Pair(2, 3)), 1),
    Scenario(wrapped_and_doc, x1, 1),
    Scenario(callable_object_state, lambda: (t(3), Counter3()), 2),
    Scenario(match_mapping, x1, 1),
    Scenario(match_sequence, x1, 2),
    Scenario(match_class, x1, 1),
    Scenario(match_literals, x1, 1),
    Scenario(match_no_case, x1, 0, raises=True),
    Scenario(match_tensor_shape, x1, 2, inputs2=lambda: (t(2, 3),)),
]


@pytest.mark.parametrize("sc", SCENARIOS, ids=lambda sc: sc.name)
def test_py_classes(sc):
    check_scenario(sc)
