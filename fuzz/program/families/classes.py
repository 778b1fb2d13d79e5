"""User classes used around breaks: constructors, custom ``__setattr__``/``__setitem__``, properties, a tuple
subclass with ``__new__``, ``__str__``, local classes, and ``super()`` with graph breaks before and after it."""

from __future__ import annotations

from fuzz.program.families._registry import Construct, Family

_BOX = '''
class _Box:
    def __init__(self, value):
        self.value = value * 1.0
'''
_TRACKED = '''
class _Tracked:
    def __init__(self, tag):
        object.__setattr__(self, "tag", tag)

    def __setattr__(self, name, value):
        _effect(self.tag + ".set." + name, value)
        object.__setattr__(self, name, value * 1.0)
'''
_BAG = '''
class _Bag:
    def __init__(self, tag):
        self.tag = tag
        self.items = {}

    def __setitem__(self, key, value):
        _effect(self.tag + ".setitem", key)
        self.items[key] = value

    def __getitem__(self, key):
        return self.items[key]
'''
_PROP = '''
class _Prop:
    def __init__(self, value):
        self._value = value

    @property
    def half_value(self):
        return self._value * 0.5
'''
_PAIR = '''
class _Pair(tuple):
    def __new__(cls, a, b):
        _effect("pair.new", a.shape[0])
        return super().__new__(cls, (a, b))
'''
_NAMED = '''
class _Named:
    def __init__(self, tag, value):
        self.tag = tag
        self.value = value

    def __str__(self):
        return f"{self.tag}:{tuple(self.value.shape)}:{self.value.dtype}"
'''
_BASE = '''
class _Base:
    def scale(self, v):
        return v * 0.5 + 0.1
'''
_SUP_SET = '''
class _SupSetBefore:
    def __init__(self, tag):
        super().__setattr__("tag", tag)

    def __setattr__(self, name, value):
        torch._dynamo.graph_break()
        _effect(self.tag + ".sset." + name, value)
        super().__setattr__(name, value * 1.0)


class _SupSetAfter(_SupSetBefore):
    def __setattr__(self, name, value):
        super().__setattr__(name, value * 0.5)
        torch._dynamo.graph_break()
'''
_SUP_DICT = '''
class _SupDict(dict):
    def __setitem__(self, key, value):
        torch._dynamo.graph_break()
        super().__setitem__(key, value * 0.5)

    def __getitem__(self, key):
        value = super().__getitem__(key)
        torch._dynamo.graph_break()
        return value + 0.25
'''
_SUP_LIST = '''
class _SupList(list):
    def append(self, value):
        super().append(value * 0.5)
        torch._dynamo.graph_break()
        super().append(len(self))
'''
_SUP_HIERARCHY = '''
class _SupBase:
    def __init__(self, value):
        self.value = value * 0.5

    def scale(self, v):
        return v * 0.5

    @property
    def half(self):
        return self.value * 0.5


class _SupChild(_SupBase):
    def __init__(self, value):
        torch._dynamo.graph_break()
        super().__init__(value)
        self.extra = 0.25

    def scale(self, v):
        w = super().scale(v)
        torch._dynamo.graph_break()
        return w + super().scale(self.extra)

    @property
    def half(self):
        torch._dynamo.graph_break()
        return super().half + self.extra
'''
_LOCAL = '''class Local{k}:
    scale = 0.5

    def apply(self, v):
        return v * self.scale
x = Local{k}().apply(x) + 0.25'''
_SUPER = '''class Sub{k}(_Base):
    def scale(self, v):
        return super().scale(v) * 0.5
x = Sub{k}().scale(x)'''


def _c(kind: str, weight: float, description: str, template: str, bound, defs: str = "") -> Construct:
    return Construct(f"class.{kind}", weight, description, template, bound=bound, defs=defs.lstrip("\n"))


FAMILY = Family(
    "class",
    "user classes built and used around breaks (dunder methods, properties, super())",
    (
        _c("init", 0.4, "a class with __init__ built inside the program",
           "obj{k} = _Box(x)\nx = obj{k}.value * 0.5 + 0.1", lambda b, _: 0.5 * b + 0.1, _BOX),
        _c("setattr", 0.3, "a class with a custom __setattr__",
           'obj{k} = _Tracked("{tag}")\nobj{k}.v = x\nx = obj{k}.v * 0.5', lambda b, _: 0.5 * b, _TRACKED),
        _c("setitem", 0.3, "a class with __setitem__",
           'bag{k} = _Bag("{tag}")\nbag{k}["a"] = x\nx = bag{k}["a"] * 0.5', lambda b, _: 0.5 * b, _BAG),
        _c("property", 0.3, "a class with a property", "x = _Prop(x).half_value", lambda b, _: 0.5 * b, _PROP),
        _c("new", 0.3, "a tuple subclass with __new__",
           "p{k} = _Pair(x, x * 0.5)\nx = p{k}[0] * 0.5 + p{k}[1]", lambda b, _: b, _PAIR),
        _c("str", 0.3, "a class with __str__ formatted into the effect log",
           '_effect("{tag}", str(_Named("{tag}", x)))', lambda b, _: b, _NAMED),
        _c("local", 0.3, "a class defined inside a generated function", _LOCAL, lambda b, _: 0.5 * b + 0.25),
        _c("super", 0.3, "a local subclass calling super()", _SUPER, lambda b, _: 0.25 * b + 0.05, _BASE),
        _c("super_setattr", 0.3, "__setattr__ calling super().__setattr__ after / before a graph break",
           'o{k} = _SupSetBefore("{tag}")\no{k}.v = x\np{k} = _SupSetAfter("{tag}")\np{k}.v = o{k}.v\nx = p{k}.v',
           lambda b, _: 0.5 * b, _SUP_SET),
        _c("super_dict", 0.3, "a dict subclass whose __setitem__/__getitem__ break around super()",
           'd{k} = _SupDict()\nd{k}["{tag}"] = x\nx = d{k}["{tag}"] * 0.5', lambda b, _: 0.25 * b + 0.125,
           _SUP_DICT),
        _c("super_list", 0.3, "a list subclass whose append calls super().append around a break",
           "l{k} = _SupList()\nl{k}.append(x)\nx = l{k}[0] + l{k}[1] * 0.01", lambda b, _: 0.5 * b + 0.01,
           _SUP_LIST),
        _c("super_hierarchy", 0.3, "super() in __init__, a method and a property, breaks before and after",
           "c{k} = _SupChild(x)\nx = c{k}.scale(c{k}.half)", lambda b, _: 0.125 * b + 0.25, _SUP_HIERARCHY),
    ),
)
