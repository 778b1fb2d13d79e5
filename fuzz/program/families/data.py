"""Data-model constructs around breaks: dataclasses (frozen, defaults and factories, ``__post_init__``,
``replace``/``astuple``/``asdict``, ``slots=True``, ordering), ``typing.NamedTuple``, ``Enum``/``IntEnum``/
``IntFlag`` members and operators, properties with setters, descriptors with ``__set_name__``, ``__slots__``
classes, ``__getattr__``/``__getattribute__``, ``__init_subclass__``, an ABC with a concrete subclass, and
operator overloading on a class that wraps a tensor. The hole runs inside the user method the construct calls
(``__post_init__``, a setter, ``__get__``, ``__getattr__``, an operator, an enum or abstract method)."""

from __future__ import annotations

from fuzz.program.families._registry import Family, library_constructs

_FROZEN_DEFS = '''
@dataclasses.dataclass(frozen=True, order=True)
class _Key:
    name: str
    n: int = 0
    dims: tuple = ()
'''

_FROZEN = '''a{k} = _Key("{tag}", 1, tuple(x.shape))
b{k} = dataclasses.replace(a{k}, n=2)
table{k} = {a{k}: x * 0.5, b{k}: {hole}(x)}
try:
    a{k}.n = 3
except dataclasses.FrozenInstanceError:
    _effect("{tag}.frozen", True)
_effect("{tag}", (a{k} == b{k}, a{k} < b{k}, dataclasses.astuple(b{k}), dataclasses.asdict(a{k}),
                  _Key("{tag}", 2, tuple(x.shape)) in table{k}, [f.name for f in dataclasses.fields(a{k})]))
_effect("{tag}.key", b{k})
x = table{k}[_Key("{tag}", 2, tuple(x.shape))] * 0.5 + table{k}[a{k}] * 0.5'''

_POST_INIT_DEFS = '''
@dataclasses.dataclass
class _Rec:
    fn: object = dataclasses.field(repr=False, compare=False)
    value: object = dataclasses.field(repr=False, compare=False)
    scale: float = 0.5
    tags: list = dataclasses.field(default_factory=list)
    out: object = dataclasses.field(default=None, compare=False, repr=False)

    def __post_init__(self):
        self.out = self.fn(self.value) * self.scale
        self.tags.append(len(self.tags))
'''

_POST_INIT = '''r{k} = _Rec({hole}, x)
s{k} = _Rec(torch.neg, x, scale=0.25, tags=[7])
_effect("{tag}", (r{k}.tags, s{k}.tags, r{k}.scale, r{k} == s{k}, repr(s{k}),
                  [f.name for f in dataclasses.fields(_Rec) if f.compare]))
_effect("{tag}.rec", dataclasses.astuple(s{k})[2:4])
x = r{k}.out + s{k}.out * 0.5'''

_SLOTS_DC_DEFS = '''
@dataclasses.dataclass(slots=True, order=True)
class _Slotted:
    rank: int
    value: object = dataclasses.field(compare=False)
    note: str = "s"
'''

_SLOTS_DC = '''p{k} = _Slotted(2, {hole}(x))
q{k} = _Slotted(1, x * 0.5, note="q")
first{k} = min(p{k}, q{k})
q{k}.note = q{k}.note + "!"
_effect("{tag}", (first{k}.rank, q{k}.note, hasattr(p{k}, "__dict__"), _Slotted.__slots__))
_effect("{tag}.obj", q{k})
x = p{k}.value * 0.5 + first{k}.value * 0.5'''

_NT_DEFS = '''
class _Pair(typing.NamedTuple):
    left: object
    right: object
    weight: float = 0.5

    def mix(self):
        return self.left * self.weight + self.right * (1.0 - self.weight)
'''

_TYPED_NT = '''p{k} = _Pair({hole}(x), x * 0.5)
q{k} = p{k}._replace(weight=0.25)
_effect("{tag}", (p{k}.weight, q{k}._fields, len(q{k}), type(q{k}).__name__))
_effect("{tag}.nt", q{k})
x = q{k}.mix()'''

_ENUM_DEFS = '''
class _Color(enum.Enum):
    RED = 1
    GREEN = 2

    def apply(self, fn, v):
        return fn(v) * (0.5 if self is _Color.RED else 0.25)


class _Level(enum.IntEnum):
    LOW = 1
    HIGH = 3


class _Perm(enum.IntFlag):
    R = 1
    W = 2
    X = 4
'''

_ENUM = '''p{k} = _Perm.R | _Perm.W
c{k} = _Color(1 + {k} % 2)
_effect("{tag}", (c{k}, c{k}.name, c{k}.value, _Color["RED"] is _Color.RED, [m.name for m in _Color],
                  _Perm.W in p{k}, int(p{k} & _Perm.X), int(p{k} ^ _Perm.R), _Level.HIGH > 2, _Level.LOW + 1))
_effect("{tag}.members", [_Level.HIGH, _Perm.X, c{k}])
x = c{k}.apply({hole}, x) + x * (0.125 * int(_Level.LOW))'''

_PROP_DEFS = '''
class _Gauge:
    def __init__(self, fn):
        self.fn = fn
        self._level = None
        self.sets = 0

    @property
    def level(self):
        return self._level

    @level.setter
    def level(self, value):
        self.sets += 1
        self._level = self.fn(value) * 0.5

    @level.deleter
    def level(self):
        self._level = None
'''

_PROPERTY = '''g{k} = _Gauge({hole})
g{k}.level = x
y{k} = g{k}.level
del g{k}.level
_effect("{tag}", (g{k}.sets, g{k}.level is None, isinstance(type(g{k}).level, property)))
x = y{k} + x * 0.25'''

_DESC_DEFS = '''
class _Scaled:
    def __set_name__(self, owner, name):
        self.name = "_" + name
        self.owner = owner.__name__

    def __get__(self, obj, objtype=None):
        if obj is None:
            return self
        return obj.fn(getattr(obj, self.name)) * 0.5

    def __set__(self, obj, value):
        setattr(obj, self.name, value * 1.0)


class _WithDesc:
    weight = _Scaled()

    def __init__(self, fn):
        self.fn = fn
'''

_DESCRIPTOR = '''o{k} = _WithDesc({hole})
o{k}.weight = x
_effect("{tag}", (_WithDesc.weight.name, _WithDesc.weight.owner, "_weight" in vars(o{k})))
x = o{k}.weight + x * 0.25'''

_SLOTS_DEFS = '''
class _Slots:
    __slots__ = ("a", "b")

    def __init__(self, a, b):
        self.a = a
        self.b = b
'''

_SLOTS = '''s{k} = _Slots({hole}(x), 1)
s{k}.b += 1
try:
    s{k}.c = 3
except AttributeError:
    _effect("{tag}.noattr", True)
_effect("{tag}", (s{k}.b, hasattr(s{k}, "__dict__"), _Slots.__slots__))
_effect("{tag}.obj", s{k})
x = s{k}.a * 0.5 + x * 0.25'''

_GETATTR_DEFS = '''
class _Lazy:
    def __init__(self, fn, value):
        self.fn = fn
        self.value = value
        self.misses = []

    def __getattr__(self, name):
        self.misses.append(name)
        if name.startswith("scaled_"):
            return self.fn(self.value) * (int(name[7:]) * 0.125)
        raise AttributeError(name)


class _Audited:
    def __init__(self, value):
        self.value = value
        self.reads = 0

    def __getattribute__(self, name):
        if name == "value":
            object.__setattr__(self, "reads", object.__getattribute__(self, "reads") + 1)
        return object.__getattribute__(self, name)
'''

_GETATTR = '''l{k} = _Lazy({hole}, x)
y{k} = l{k}.scaled_4
a{k} = _Audited(x * 0.25)
z{k} = a{k}.value + a{k}.value
_effect("{tag}", (l{k}.misses, hasattr(l{k}, "other"), getattr(l{k}, "nope", 5), a{k}.reads))
x = y{k} + z{k} * 0.5'''

_SUBCLASS_DEFS = '''
class _Plugin:
    kinds = []

    def __init_subclass__(cls, scale=1.0, **kw):
        super().__init_subclass__(**kw)
        cls.scale = scale
        _Plugin.kinds.append(cls.__name__)

    def run(self, fn, v):
        return fn(v) * self.scale
'''

_INIT_SUBCLASS = '''class Half{k}(_Plugin, scale=0.5):
    pass
class Quarter{k}(Half{k}, scale=0.25):
    def run(self, fn, v):
        return super().run(fn, v) + v * 0.25
_effect("{tag}", (Half{k}.scale, Quarter{k}.scale, _Plugin.kinds[-2:], Quarter{k}.__mro__[1].__name__))
x = Quarter{k}().run({hole}, x)'''

_ABC_DEFS = '''
class _Shape(abc.ABC):
    @abc.abstractmethod
    def area(self, fn, v):
        ...

    def twice(self, fn, v):
        return self.area(fn, v) * 0.5


class _Square(_Shape):
    def area(self, fn, v):
        return fn(v) * 0.5
'''

_ABC = '''try:
    _Shape()
except TypeError as e{k}:
    _effect("{tag}.abstract", type(e{k}).__name__)
s{k} = _Square()
_effect("{tag}", (isinstance(s{k}, _Shape), issubclass(_Square, abc.ABC), sorted(_Shape.__abstractmethods__),
                  isinstance(_Shape, abc.ABCMeta)))
x = s{k}.twice({hole}, x) + x * 0.25'''

_WRAP_DEFS = '''
class _TW:
    def __init__(self, t):
        self.t = t

    def __add__(self, other):
        return _TW(self.t + (other.t if isinstance(other, _TW) else other))

    def __radd__(self, other):
        return _TW(other + self.t)

    def __mul__(self, other):
        return _TW(self.t * other)

    def __rmul__(self, other):
        return _TW(other * self.t)

    def __matmul__(self, other):
        return _TW(self.t @ other)

    def __getitem__(self, key):
        return (self.t, self.t * 0.5)[key]

    def __neg__(self):
        return _TW(-self.t)

    def __len__(self):
        return 2
'''

_OPERATORS = '''w{k} = _TW({hole}(x))
v{k} = 0.25 + w{k} * 0.5
u{k} = (0.5 * v{k} + _TW(x * 0.25)) @ torch.eye(x.shape[-1])
n{k} = -u{k}
_effect("{tag}", (type(v{k}).__name__, len(n{k}), sum([1, 2], 0)))
x = n{k}[1] * -1.0 + u{k}[0] * 0.25'''


_h = library_constructs("data")


FAMILY = Family(
    "data",
    "dataclasses, NamedTuple, enums, properties, descriptors, __slots__, attribute hooks, ABCs, operators",
    (
        _h("frozen_dataclass", 0.3, "a frozen, ordered dataclass used as dict keys; replace/astuple/asdict",
           _FROZEN, ("dataclasses",), keep=("tuple",), defs=_FROZEN_DEFS),
        _h("post_init", 0.4, "a dataclass with default_factory and field options whose __post_init__ runs "
           "the hole", _POST_INIT, ("dataclasses",), bound=lambda b, h: 0.5 * h + 0.25 * b, defs=_POST_INIT_DEFS),
        _h("slots_dataclass", 0.3, "a dataclass(slots=True, order=True) compared with min()", _SLOTS_DC,
           ("dataclasses",), keep=("min",), defs=_SLOTS_DC_DEFS),
        _h("typed_namedtuple", 0.3, "a typing.NamedTuple with a default and a method, _replace", _TYPED_NT,
           ("typing",), defs=_NT_DEFS),
        _h("enum", 0.4, "Enum/IntEnum/IntFlag members, lookups and flag operators; an enum method runs the hole",
           _ENUM, ("enum",), keep=("int",), bound=lambda b, h: 0.5 * h + 0.125 * b, defs=_ENUM_DEFS),
        _h("property", 0.3, "a property with a setter running the hole and a deleter", _PROPERTY,
           bound=lambda b, h: 0.5 * h + 0.25 * b, defs=_PROP_DEFS),
        _h("descriptor", 0.3, "a data descriptor with __set_name__/__get__/__set__, __get__ running the hole",
           _DESCRIPTOR, bound=lambda b, h: 0.5 * h + 0.25 * b, defs=_DESC_DEFS),
        _h("slots", 0.3, "a __slots__ class holding the hole's result; assigning an unknown attribute fails",
           _SLOTS, bound=lambda b, h: 0.5 * h + 0.25 * b, defs=_SLOTS_DEFS),
        _h("getattr", 0.3, "__getattr__ running the hole for a missing attribute; __getattribute__ counting",
           _GETATTR, bound=lambda b, h: 0.5 * h + 0.25 * b, defs=_GETATTR_DEFS),
        _h("init_subclass", 0.3, "__init_subclass__ with a class keyword; a local subclass runs the hole",
           _INIT_SUBCLASS, keep=("super",), bound=lambda b, h: 0.25 * h + 0.25 * b, defs=_SUBCLASS_DEFS),
        _h("abc", 0.3, "an abc.ABC with an abstract method; the concrete subclass runs the hole", _ABC,
           ("abc",), bound=lambda b, h: 0.25 * h + 0.25 * b, defs=_ABC_DEFS),
        _h("operators", 0.4, "__add__/__radd__/__mul__/__rmul__/__matmul__/__getitem__/__neg__ on a tensor "
           "wrapper", _OPERATORS, bound=lambda b, h: 0.5 * h + 0.5 * b + 0.5, defs=_WRAP_DEFS),
    ),
)
