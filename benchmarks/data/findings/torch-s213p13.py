# ngb-fuzz program
# signature: mismatch:effects:value
# target: torch
# found-by: ngb-fuzz run --seed 213 (program 13)
# features: break.builtin break.data_if break.disable break.graph_break break.print break.tolist call.callable call.kwargs call.lambda call.method call.tree call.varargs class.init class.local class.new class.property class.setattr class.setitem class.str class.super class.super_dict class.super_hierarchy closure.nonlocal control.match_class ctx.as_value ctx.autocast ctx.contextmanager ctx.contextmanager_disabled ctx.decorator ctx.disable_ngb ctx.enable_grad ctx.nested_decorators ctx.no_grad ctx.set_grad_enabled ctx.user_class data.getattr data.property depth.30+ filler.hypothesmith flow.early_return flow.generator flow.recompile flow.tensor_loop flow.try_except flow.try_finally input.other_sizes input.rank1 iter.min_values nn.module raise.deliberate shape.cm_disable_init shape.decorator_ctx_break shape.upper_ctx_break side.attr side.dict side.global side.list stack.binop stack.call_arg stack.comprehension stack.conditional stack.dict_display stack.fstring stack.kwargs stack.list_display stack.method stack.plain stack.star_args stack.subscript stack.tuple_display stack.unpack stdlib.random_math torchapi.forward_hooks
import contextlib
import math
import random
import types
import zlib

import torch

EFFECTS = []


def _effect(tag, value):
    if isinstance(value, torch.Tensor):
        value = value.detach().clone()
    EFFECTS.append((tag, value))


LOG = []
TABLE = {}
COUNTER = 0
G_SCALE = 0.75
G_BIAS = 0.125
T_MAIN = torch.tensor(0.25)


def _keep(box, value):
    box.append(value)
    return 0


@torch._dynamo.disable
def _ngb_disabled(x):
    _effect("disabled", x.shape[0])
    return x * 0.5 + 0.25


class _Ctx(contextlib.ContextDecorator):
    def __init__(self, tag):
        self.tag = tag

    def __enter__(self):
        _effect(self.tag + ".enter", torch.is_grad_enabled())
        return self

    def __exit__(self, *exc):
        _effect(self.tag + ".exit", exc[0] is not None)
        return False


@contextlib.contextmanager
def _cm(tag):
    _effect(tag + ".enter", torch.is_grad_enabled())
    try:
        yield
    finally:
        _effect(tag + ".exit", torch.is_grad_enabled())


@contextlib.contextmanager
@torch._disable_dynamo(recursive=False)
def _cm_disabled(tag):
    _effect(tag + ".enter", torch.is_grad_enabled())
    yield
    _effect(tag + ".exit", torch.is_grad_enabled())


class _Mod(torch.nn.Module):
    def __init__(self):
        super().__init__()
        self.scale = torch.nn.Parameter(torch.full((), 0.5))

    def forward(self, x):
        # clone: x may be an inference tensor from an inference_mode block upstream
        return torch.tanh(x.clone() * self.scale + 0.1)


_MOD = _Mod()


class _Named:
    def __init__(self, tag, value):
        self.tag = tag
        self.value = value

    def __str__(self):
        return f"{self.tag}:{tuple(self.value.shape)}:{self.value.dtype}"


class _Pt:
    __match_args__ = ("a", "n")

    def __init__(self, a, n):
        self.a = a
        self.n = n


class _Pair(tuple):
    def __new__(cls, a, b):
        _effect("pair.new", a.shape[0])
        return super().__new__(cls, (a, b))


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


class _SupDict(dict):
    def __setitem__(self, key, value):
        torch._dynamo.graph_break()
        super().__setitem__(key, value * 0.5)

    def __getitem__(self, key):
        value = super().__getitem__(key)
        torch._dynamo.graph_break()
        return value + 0.25


class _Tracked:
    def __init__(self, tag):
        object.__setattr__(self, "tag", tag)

    def __setattr__(self, name, value):
        _effect(self.tag + ".set." + name, value)
        object.__setattr__(self, name, value * 1.0)


class _Prop:
    def __init__(self, value):
        self._value = value

    @property
    def half_value(self):
        return self._value * 0.5


class _Box:
    def __init__(self, value):
        self.value = value * 1.0


class _Bag:
    def __init__(self, tag):
        self.tag = tag
        self.items = {}

    def __setitem__(self, key, value):
        _effect(self.tag + ".setitem", key)
        self.items[key] = value

    def __getitem__(self, key):
        return self.items[key]


class _State:
    def __init__(self):
        self.calls = 0


STATE = _State()


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


class _HookMod(torch.nn.Module):
    def __init__(self, fn):
        super().__init__()
        self.fn = fn

    def forward(self, x):
        return self.fn(x * 1.0) * 0.5


class _Base:
    def scale(self, v):
        return v * 0.5 + 0.1


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


def f72(x):
    _effect("f72.1", x)
    x = _ngb_disabled(x)
    return x


@_Ctx("f71.deco0")
@_Ctx("f71.deco1")
def f71(x):
    global COUNTER
    x = x * 2.0
    COUNTER = COUNTER + 1
    if COUNTER % 2 == 1:
        _effect("f71.5", x.sum())
    else:
        x = _ngb_disabled(x)
        _effect("f71.7", x)
    x = torch.clamp(x, -3.0, 3.0)
    return x


def f70(x):
    _effect("f70.9", x)
    x = f71(x)
    if x.dim() == 1:
        return torch.tanh(x)
    x = torch.sin(x)
    return x


def f69(x):
    a13, *r13 = [x, f70(x), x * 0.5]
    x = a13 * 0.25 + r13[0] + r13[1] * 0.25
    x = torch.sin(x)
    return x


def f68(x):
    with torch.autocast("cpu", dtype=torch.bfloat16):
        box16 = []
        x = (x * 0.5, x)[_keep(box16, f69(x))] + box16[0]
        bag17 = _Bag("f68.17")
        bag17["a"] = x
        x = bag17["a"] * 0.5
    x = x.abs() * 0.5
    return x


def f67(x):
    class Sub19(_Base):
        def scale(self, v):
            return super().scale(v) * 0.5
    x = Sub19().scale(x)
    try:
        x = f68(x)
        TABLE["f67.22"] = x * 0.25
        raise ValueError("ngb deliberate ngb f67.23")
    except ValueError as e20:
        _effect("f67.20", str(e20))
        TABLE["f67.24"] = x * 0.25
    x = torch.tanh(torch.outer(x, x) @ x * 0.05)
    return x


def f66(x):
    acc26 = x * 0.5
    def inner26(x):
        nonlocal acc26
        box27 = []
        s27 = f"f66.27:{x.shape[0]}:{_keep(box27, f67(x))}"
        _effect("f66.27", s27)
        x = box27[0]
        acc26 = acc26 * 0.5 + x * 0.25
        return x
    x = inner26(x) * 0.5 + acc26 * 0.5
    x = torch.sin(x)
    return x


@_cm_disabled("f65.deco0")
@torch.no_grad()
def f65(x):
    rng29 = random.Random(29)
    order29 = list(range(4))
    rng29.shuffle(order29)
    w29 = round(rng29.uniform(0.25, 0.75), 3)
    _effect("f65.29", (order29, w29, rng29.randrange(10), rng29.choice("abc")))
    _effect("f65.29.math", (math.gcd(12, 8 + 29), math.prod(x.shape), math.isqrt(x.numel()), math.floor(2.5),
                           math.comb(5, 2), round(math.sqrt(2.0), 3)))
    x = x * w29 + math.sin(0.5) * 0.1
    try:
        x = torch.add(x * 0.5, f66(x))
        _effect("f65.32", torch.is_grad_enabled())
        raise ValueError("ngb deliberate ngb f65.33")
    except ValueError as e30:
        _effect("f65.30", str(e30))
        x = x + T_MAIN
    x = torch.sin(x)
    return x


def f64(x):
    x = f65(x)
    x = torch.tanh(torch.outer(x, x) @ x * 0.05)
    return x


@torch.no_grad()
def f63(*args):
    x = args[0]
    acc38 = x * 0.5
    def inner38(x):
        nonlocal acc38
        t39 = (x, f64(x))
        x = t39[0] * 0.5 + t39[1]
        _effect("f63.40", torch.is_grad_enabled())
        acc38 = acc38 * 0.5 + x * 0.25
        return x
    x = inner38(x) * 0.5 + acc38 * 0.5
    x = torch.tanh(x)
    return x


def f62(x):
    d42 = {"a": x, "b": f63(x)}
    x = d42["a"] * 0.5 + d42["b"]
    x = torch.tanh(x)
    return x


def f61(x):
    x = torch.add(*[x * 0.5, f62(x)])
    _effect("f61.45", torch.is_grad_enabled())
    x = torch.clamp(x, -1.0, 1.0)
    return x


def f60(x):
    a47, *r47 = [x, f61(x), x * 0.5]
    x = a47 * 0.25 + r47[0] + r47[1] * 0.25
    x = x * 1.25
    x = torch.tanh(x)
    return x


def f59(x):
    def hole50(x):
        x = x * 0.5 + f60(x)
        return x
    g50 = _Gauge(hole50)
    g50.level = x
    y50 = g50.level
    del g50.level
    _effect("f59.50", (g50.sets, g50.level is None, isinstance(type(g50).level, property)))
    x = y50 + x * 0.25
    return x


def f58(x):
    try:
        x = x * 0.5 + f59(x)
        x = x + T_MAIN
        raise ValueError("ngb deliberate ngb f58.55")
    except ValueError as e52:
        _effect("f58.52", str(e52))
    class Sub56(_Base):
        def scale(self, v):
            return super().scale(v) * 0.5
    x = Sub56().scale(x)
    return x


def f57(x):
    d57 = _SupDict()
    d57["f57.57"] = x
    x = d57["f57.57"] * 0.5
    box58 = []
    s58 = f"f57.58:{x.shape[0]}:{_keep(box58, f58(x))}"
    _effect("f57.58", s58)
    x = box58[0]
    x = torch.sigmoid(x)
    return x


def f56(x):
    x = (x * 0.5).add(f57(x))
    x = torch.add(x * 0.5, f72(x))
    x = torch.tanh(x)
    _effect("f56.63", torch.is_inference_mode_enabled())
    return x


def f55(x):
    _effect("f55.64", x)
    def gen65(x):
        box66 = []
        s66 = f"f55.66:{x.shape[0]}:{_keep(box66, f56(x))}"
        _effect("f55.66", s66)
        x = box66[0]
        yield x
        yield x * 0.5
    vals65 = list(gen65(x))
    x = vals65[0] * 0.5 + vals65[1]
    x = torch.cos(x)
    return x


def f54(x):
    def gen68(x):
        d69 = {"a": x, "b": f55(x)}
        x = d69["a"] * 0.5 + d69["b"]
        _effect("f54.70", torch.is_grad_enabled())
        yield x
        yield x * 0.5
    vals68 = list(gen68(x))
    x = vals68[0] * 0.5 + vals68[1]
    x = torch.sin(x)
    x = torch.tanh(x)
    return x


class C53:
    def __init__(self, scale):
        self.scale = scale

    def run(self, x):
        _effect("f53.73", x.sum())
        x = f54(x)
        x = torch.tanh(x)
        return x


def f52(x):
    def hole76(x):
        acc77 = x * 0.5
        def inner77(x):
            nonlocal acc77
            x = _ngb_disabled(x)
            _effect("f52.79", torch.is_grad_enabled())
            x = x * G_SCALE + G_BIAS
            acc77 = acc77 * 0.5 + x * 0.25
            return x
        x = inner77(x) * 0.5 + acc77 * 0.5
        return x
    m76 = _HookMod(hole76)
    def pre76(mod, args):
        _effect("f52.76.pre", tuple(args[0].shape))
        return (args[0] * 0.5,)
    def post76(mod, args, out):
        _effect("f52.76.post", out.sum())
        return out + 0.25
    h76 = (m76.register_forward_pre_hook(pre76), m76.register_forward_hook(post76))
    x = m76(x)
    for r76 in h76:
        r76.remove()
    _effect("f52.76.removed", len(m76._forward_hooks) + len(m76._forward_pre_hooks))
    def gen81(x):
        t82 = (x, C53(0.5).run(x))
        x = t82[0] * 0.5 + t82[1]
        _effect("f52.83", torch.is_grad_enabled())
        yield x
        return x * 0.5
    g81 = gen81(x)
    first81 = next(g81)
    try:
        next(g81)
    except StopIteration as stop81:
        x = first81 * 0.5 + stop81.value
    x = torch.cos(x)
    return x


@torch._dynamo.disable_nested_graph_breaks
def f51(x):
    x = f52(x)
    x = torch.clamp(x, -3.0, 3.0)
    return x


def f50(x):
    x = x * 0.5
    d88 = {"a": x, "b": f51(x)}
    x = d88["a"] * 0.5 + d88["b"]
    x = torch.sigmoid(x)
    return x


def f49_impl(x):
    c90 = _SupChild(x)
    x = c90.scale(c90.half)
    x = torch.add(**{"input": x * 0.5, "other": f50(x)})
    x = torch.sin(x)
    return x


f49 = lambda x: 0.0 + f49_impl(x)


def f48(*args):
    x = args[0]
    LOG.append(x * 0.5)
    x = f49(x)
    x = torch.sin(x)
    return x


class C47:
    def __init__(self, scale):
        self.scale = scale

    def run(self, x):
        x = (x * 0.5).add(f48(x))
        x = torch.tanh(x)
        return x


def f46(x):
    box98 = []
    x = (x * 0.5, x)[_keep(box98, C47(0.5).run(x))] + box98[0]
    x = _Prop(x).half_value
    return x


@_Ctx("f45.deco0")
@_Ctx("f45.deco1")
def f45(x):
    TABLE["f45.100"] = x * 0.25
    flag101 = x.dim() == 1
    x = f46(x) if flag101 else x - 0.5
    x = torch.cos(x)
    return x


def f44(x):
    x = torch.sin(x)
    with _cm("f44.104"):
        flag105 = x.dim() == 1
        x = f45(x) if flag105 else x - 0.5
        _effect("f44.106", torch.is_grad_enabled())
    x = torch.sin(x)
    return x


def f43(x):
    x = (x * 0.5).add(f44(x))
    x = torch.clamp(x, -3.0, 3.0)
    return x


def f42(**kw):
    x = kw["x"]
    x = torch.clamp(x, -2.0, 2.0)
    with _cm("f42.111"):
        d112 = {"a": x, "b": f43(x)}
        x = d112["a"] * 0.5 + d112["b"]
    x = torch.sigmoid(x)
    return x


def f41(x, cm):
    def gen114(x):
        x = torch.add(*[x * 0.5, f42(x=x)])
        x = torch.sigmoid(x)
        yield x
        yield x * 0.5
    vals114 = list(gen114(x))
    x = vals114[0] * 0.5 + vals114[1]
    STATE.calls = STATE.calls + 1
    x = x + STATE.calls * 0.01
    x = x + (zlib.crc32(b"f41.118") % 7) * 0.01
    with cm:
        _effect("f41.120", torch.is_grad_enabled())
        x = torch.cos(x)
    return x


def f40(x):
    with torch.set_grad_enabled(False):
        cm123 = torch.enable_grad()
        x = f41(x, cm123)
        x = torch.sigmoid(x)
    return x


def f39(x):
    x = x.abs() * 0.5
    try:
        t127 = (x, f40(x))
        x = t127[0] * 0.5 + t127[1]
        _effect("f39.128", torch.is_grad_enabled())
        raise ValueError("ngb deliberate ngb f39.129")
    except ValueError as e126:
        _effect("f39.126", str(e126))
        bag130 = _Bag("f39.130")
        bag130["a"] = x
        x = bag130["a"] * 0.5
    return x


def f38(x):
    try:
        x = torch.add(x * 0.5, f39(x))
        x = torch.cos(x)
    finally:
        _effect("f38.131", x)
    return x


def f37(x):
    global COUNTER
    COUNTER = COUNTER + 1
    if COUNTER % 2 == 1:
        x = torch.tanh(x)
    else:
        x = f38(x)
        x = torch.sigmoid(x)
        _effect("f37.138", torch.is_grad_enabled())
    _effect("f37.139", x)
    return x


def f36(x):
    x = torch.add(x * 0.5, f37(x))
    x = torch.sigmoid(x)
    obj142 = _Box(x)
    x = obj142.value * 0.5 + 0.1
    return x


def f35(x, cm):
    x = f36(x)
    x = torch.cos(x)
    if x.sum() > 0:
        x = x * 0.5 + x.new_tensor(x.mean(dim=0).tolist()) * 0.5
    else:
        x = x * 1.5
    if x.sum() > 0:
        x = x - 1.5
    else:
        def filler150():
            def A():
            
                def A():
                    pass
        filler150()
    with cm:
        _effect("f35.152", torch.is_grad_enabled())
        x = _Prop(x).half_value
    return x


def f34(**kw):
    x = kw["x"]
    x = x + 0.25
    cm155 = torch.no_grad()
    t155 = (x, f35(x, cm155))
    x = t155[0] * 0.5 + t155[1]
    x = torch.tanh(x)
    return x


class C33:
    def __init__(self, scale):
        self.scale = scale

    def run(self, x):
        def hole157(x):
            d158 = {"a": x, "b": f34(x=x)}
            x = d158["a"] * 0.5 + d158["b"]
            x = torch.clamp(x, -1.0, 1.0)
            _effect("f33.160", torch.is_grad_enabled())
            return x
        l157 = _Lazy(hole157, x)
        y157 = l157.scaled_4
        a157 = _Audited(x * 0.25)
        z157 = a157.value + a157.value
        _effect("f33.157", (l157.misses, hasattr(l157, "other"), getattr(l157, "nope", 5), a157.reads))
        x = y157 + z157 * 0.5
        x = torch.cos(x)
        return x


def f32(x, cm):
    x = x + 1.5
    with _cm("f32.163"):
        t164 = (x, C33(0.5).run(x))
        x = t164[0] * 0.5 + t164[1]
        x = torch.tanh(x)
        _effect("f32.166", torch.is_grad_enabled())
    torch._dynamo.graph_break()
    with cm:
        _effect("f32.169", torch.is_grad_enabled())
        x = torch.tanh(torch.outer(x, x) @ x * 0.05)
    return x


def f31(x):
    def gen171(x):
        def hole172(x):
            global COUNTER
            COUNTER = COUNTER + 1
            if COUNTER % 2 == 1:
                cm174 = _cm("f31.174.cm")
                x = x * 0.5 + f32(x, cm174)
                _effect("f31.175", torch.is_grad_enabled())
            else:
                _effect("f31.176", x)
            return x
        y172 = hole172(x)
        lo172 = min(y172.sum(), x.sum())
        _effect("f31.172", lo172)
        x = y172 * 0.5 + x * 0.25
        yield x
        yield x * 0.5
    vals171 = list(gen171(x))
    x = vals171[0] * 0.5 + vals171[1]
    x = torch.tanh(x)
    return x


class C30:
    def __init__(self, scale):
        self.scale = scale

    def run(self, x):
        x = _Ctx("f30.178.deco")(f31)(x)
        _effect("f30.179", torch.is_inference_mode_enabled())
        x = torch.clamp(x, -1.0, 1.0)
        return x


@_cm_disabled("f29.deco0")
@torch.no_grad()
def f29(x):
    box181 = []
    x = (x * 0.5, x)[_keep(box181, C30(0.5).run(x))] + box181[0]
    _effect("f29.182", x)
    x = torch.tanh(x)
    return x


def f28(x, cm):
    with torch.no_grad():
        x = _Ctx("f28.185.deco")(f29)(x)
    obj186 = _Tracked("f28.186")
    obj186.v = x
    x = obj186.v * 0.5
    if x.sum() > 0:
        x = x * 0.5 - 0.25
    else:
        x = x - x.mean()
    with cm:
        _effect("f28.191", torch.is_grad_enabled())
        obj192 = _Tracked("f28.192")
        obj192.v = x
        x = obj192.v * 0.5
    return x


def f27(x):
    acc193 = x * 0.5
    def inner193(x):
        nonlocal acc193
        cm194 = torch.no_grad()
        t194 = (x, f28(x, cm194))
        x = t194[0] * 0.5 + t194[1]
        _effect("f27.195", torch.is_grad_enabled())
        acc193 = acc193 * 0.5 + x * 0.25
        return x
    x = inner193(x) * 0.5 + acc193 * 0.5
    return x


def f26(x):
    try:
        x = (x * 0.5).add(f27(x))
        x = torch.tanh(x)
        raise ValueError("ngb deliberate ngb f26.199")
    except ValueError as e196:
        _effect("f26.196", str(e196))
        x = torch.clamp(x, -2.0, 2.0)
    return x


def f25(x):
    d201 = _SupDict()
    d201["f25.201"] = x
    x = d201["f25.201"] * 0.5
    def hole202(x):
        box203 = []
        s203 = f"f25.203:{x.shape[0]}:{_keep(box203, f26(x))}"
        _effect("f25.203", s203)
        x = box203[0]
        return x
    l202 = _Lazy(hole202, x)
    y202 = l202.scaled_4
    a202 = _Audited(x * 0.25)
    z202 = a202.value + a202.value
    _effect("f25.202", (l202.misses, hasattr(l202, "other"), getattr(l202, "nope", 5), a202.reads))
    x = y202 + z202 * 0.5
    return x


def f24(x):
    x = f25(x)
    x = torch.clamp(x, -3.0, 3.0)
    return x


def f23(x):
    if x.sum() > 0:
        def hole207(x):
            x = torch.no_grad()(f24)(x)
            _effect("f23.209", torch.is_grad_enabled())
            return x
        l207 = _Lazy(hole207, x)
        y207 = l207.scaled_4
        a207 = _Audited(x * 0.25)
        z207 = a207.value + a207.value
        _effect("f23.207", (l207.misses, hasattr(l207, "other"), getattr(l207, "nope", 5), a207.reads))
        x = y207 + z207 * 0.5
        _effect("f23.210", torch.is_grad_enabled())
    else:
        x = torch.sin(x)
    x = torch.sin(x)
    return x


def f22(x):
    with torch.no_grad():
        t214 = (x, f23(x))
        x = t214[0] * 0.5 + t214[1]
        _effect("f22.215", torch.is_grad_enabled())
    x = torch.cos(x)
    return x


def f21(x):
    flag217 = x.dim() == 1
    x = f22(x) if flag217 else x - 0.5
    TABLE["f21.218"] = x * 0.25
    x = torch.clamp(x, -3.0, 3.0)
    return x


def f20(x):
    acc220 = x * 0.5
    def inner220(x):
        nonlocal acc220
        x = torch.inference_mode()(f21)(x)
        acc220 = acc220 * 0.5 + x * 0.25
        return x
    x = inner220(x) * 0.5 + acc220 * 0.5
    p222 = _Pair(x, x * 0.5)
    x = p222[0] * 0.5 + p222[1]
    return x


@_cm("f19.deco0")
@torch.enable_grad()
def f19(x):
    x = (x * 0.5).add(f20(x))
    x = torch.tanh(x)
    return x


def f18(x):
    x = torch.tanh(x)
    if x.sum() > 0:
        _effect("f18.227", x)
    else:
        t228 = (x, f19(x))
        x = t228[0] * 0.5 + t228[1]
        class Local229:
            scale = 0.5
        
            def apply(self, v):
                return v * self.scale
        x = Local229().apply(x) + 0.25
    return x


def f17(x, cm):
    acc230 = x * 0.5
    def inner230(x):
        nonlocal acc230
        a231, *r231 = [x, f18(x), x * 0.5]
        x = a231 * 0.25 + r231[0] + r231[1] * 0.25
        x = torch.tanh(x)
        _effect("f17.233", torch.is_grad_enabled())
        x = x * G_SCALE + G_BIAS
        acc230 = acc230 * 0.5 + x * 0.25
        return x
    x = inner230(x) * 0.5 + acc230 * 0.5
    x = x * 0.5 + x.new_tensor(x.mean(dim=0).tolist()) * 0.5
    with cm:
        _effect("f17.237", torch.is_grad_enabled())
        _effect("f17.238", x)
    return x


def f16(x, cm):
    global COUNTER
    try:
        cm240 = torch.autocast("cpu", dtype=torch.bfloat16)
        x = (x * 0.5).add(f17(x, cm240))
        x = torch.clamp(x, -1.0, 1.0)
        _effect("f16.242", torch.is_grad_enabled())
    finally:
        _effect("f16.239", x)
    print("ngb f16.243")
    with cm:
        _effect("f16.245", torch.is_grad_enabled())
        COUNTER = COUNTER + 1
        x = x + COUNTER * 0.01
    return x


@torch._dynamo.disable_nested_graph_breaks
def f15(*args):
    x = args[0]
    with torch.enable_grad():
        cm248 = torch.enable_grad()
        d248 = {"a": x, "b": f16(x, cm248)}
        x = d248["a"] * 0.5 + d248["b"]
        x = torch.sin(x)
    return x


def f14(x):
    t250 = (x, f15(x))
    x = t250[0] * 0.5 + t250[1]
    x = torch.clamp(x, -3.0, 3.0)
    return x


def f13(*args):
    x = args[0]
    _effect("f13.252", str(_Named("f13.252", x)))
    with torch.autocast("cpu", dtype=torch.bfloat16):
        with torch.no_grad():
            x = torch.add(x * 0.5, f14(x))
            _effect("f13.256", torch.is_grad_enabled())
    x = torch.tanh(x)
    return x


class C12:
    def __init__(self, scale):
        self.scale = scale

    def __call__(self, x):
        if x.sum() > 0:
            _effect("f12.259", torch.is_inference_mode_enabled())
        else:
            l260 = [x * 0.5, f13(x), x]
            x = l260[0] + l260[1] - l260[2] * 0.25
            _effect("f12.261", torch.is_grad_enabled())
        _effect("f12.262", x)
        x = torch.tanh(x)
        return x


class C11:
    def __init__(self, scale):
        self.scale = scale

    def run(self, x):
        LOG.append(x * 0.5)
        acc265 = x * 0.5
        def inner265(x):
            nonlocal acc265
            x = torch.add(x * 0.5, C12(0.5)(x))
            acc265 = acc265 * 0.5 + x * 0.25
            return x
        x = inner265(x) * 0.5 + acc265 * 0.5
        x = torch.sin(x)
        return x


def f10(x, cm):
    global COUNTER
    COUNTER = COUNTER + 1
    x = x + COUNTER * 0.01
    l269 = [x * 0.5, C11(0.5).run(x), x]
    x = l269[0] + l269[1] - l269[2] * 0.25
    if x.sum() > 0:
        x = torch.tanh(torch.outer(x, x) @ x * 0.05)
    else:
        x = torch.clamp(x, -1.0, 1.0)
    with cm:
        _effect("f10.274", torch.is_grad_enabled())
        x = torch.tanh(torch.outer(x, x) @ x * 0.05)
    return x


def f9(x):
    cm276 = torch.no_grad()
    x = torch.add(x * 0.5, f10(x, cm276))
    x = torch.clamp(x, -2.0, 2.0)
    return x


def f8(x):
    with _Ctx("f8.278"):
        d279 = {"a": x, "b": f9(x)}
        x = d279["a"] * 0.5 + d279["b"]
        x = torch.cos(x)
    return x


def f7(x):
    with torch.no_grad():
        x = _ngb_disabled(x)
        _effect("f7.283", torch.is_grad_enabled())
    if x.sum() > 0:
        acc285 = x * 0.5
        def inner285(x):
            nonlocal acc285
            x = torch.add(x * 0.5, f8(x))
            _effect("f7.287", torch.is_grad_enabled())
            acc285 = acc285 * 0.5 + x * 0.25
            return x
        x = inner285(x) * 0.5 + acc285 * 0.5
        _effect("f7.288", torch.is_grad_enabled())
    else:
        x = torch.relu(x) - 0.5
    x = torch.tanh(x)
    return x


def f6(x):
    x = torch.clamp(x, -3.0, 3.0)
    def hole292(x):
        x = f7(x)
        return x
    match _Pt(x, x.shape[-1]):
        case _Pt(t292, 0):
            x = t292
        case _Pt(a=t292, n=n292) if n292 > 3:
            _effect("f6.292", ("wide", n292))
            x = hole292(t292 * 0.5)
        case _Pt(t292, n292):
            _effect("f6.292", ("narrow", n292))
            x = hole292(t292) * 0.5
    x = torch.clamp(x, -1.0, 1.0)
    return x


def f5(**kw):
    x = kw["x"]
    l295 = [x * 0.5, f6(x), x]
    x = l295[0] + l295[1] - l295[2] * 0.25
    x = torch.cos(x)
    return x


def f4_impl(x):
    x = x - 1.5
    with _cm("f4.298"):
        acc299 = torch.zeros_like(x)
        for r299 in x:
            acc299 = acc299 + r299
            v300 = [f5(x=x + c300) for c300 in (0.0, 0.5)]
            x = v300[0] * 0.5 + v300[1] * 0.5
            rng301 = random.Random(301)
            order301 = list(range(4))
            rng301.shuffle(order301)
            w301 = round(rng301.uniform(0.25, 0.75), 3)
            _effect("f4.301", (order301, w301, rng301.randrange(10), rng301.choice("abc")))
            _effect("f4.301.math", (math.gcd(12, 8 + 301), math.prod(x.shape), math.isqrt(x.numel()), math.floor(2.5),
                                   math.comb(5, 2), round(math.sqrt(2.0), 3)))
            x = x * w301 + math.sin(0.5) * 0.1
            x = torch.clamp(x, -3.0, 3.0)
        x = x * 0.5 + acc299 * 0.125
    return x


f4 = lambda x: 0.0 + f4_impl(x)


def f3(x):
    with torch.set_grad_enabled(True):
        with _Ctx("f3.304"):
            x = x * 0.5 + f4(x)
            _effect("f3.306", torch.is_grad_enabled())
    x = torch.cos(x)
    return x


def f2(x):
    try:
        l309 = [x * 0.5, f3(x), x]
        x = l309[0] + l309[1] - l309[2] * 0.25
        raise ValueError("ngb deliberate ngb f2.310")
    except ValueError as e308:
        _effect("f2.308", str(e308))
    x = x + 0.5
    x = torch.sigmoid(x)
    return x


def f1(x):
    _effect("f1.313", str(_Named("f1.313", x)))
    try:
        x = f2(x)
        _effect("f1.316", torch.is_grad_enabled())
        raise ValueError("ngb deliberate ngb f1.317")
    except ValueError as e314:
        _effect("f1.314", str(e314))
    x = torch.tanh(torch.outer(x, x) @ x * 0.05)
    return x


def entry(x):
    x = _MOD(x)
    with torch.enable_grad():
        x = x * 0.5 + f1(x)
        _effect("entry.322", torch.is_grad_enabled())
    x = torch.clamp(x, -1.0, 1.0)
    return x


def make_inputs(device, size=0):  # size=1: every dimension of another size (a third call)
    g = torch.Generator().manual_seed(6603)
    cols = 4 if size == 0 else 3
    x = torch.randn(cols, generator=g)
    return (x.to(device),)


# ---- ngb-fuzz standalone check (generated; do not edit below) ----
if __name__ == "__main__":
    import contextlib

    torch._dynamo.config.nested_graph_breaks = True
    def equal(a, b):  # same types and shapes, tensors equal elementwise, objects by fields, NaN equal to NaN
        if isinstance(a, torch.Tensor) and isinstance(b, torch.Tensor):
            return (a.dtype, a.shape, a.requires_grad) == (b.dtype, b.shape, b.requires_grad) and bool(((a == b) | (a != a) & (b != b)).all())
        if isinstance(a, (list, tuple, dict)) and type(a) is type(b) and len(a) == len(b):
            return all(map(equal, a, b)) if not isinstance(a, dict) else all(equal(a[k], b.get(k)) for k in a)
        if hasattr(a, "__dict__") and type(a) is type(b):
            return equal(vars(a), vars(b))
        return type(a) is type(b) and (a == b or a != a and b != b)

    with contextlib.suppress(Exception):  # eager raises here too; what it leaves behind is compared
        entry(*make_inputs("cpu"))
    expected, EFFECTS[:] = EFFECTS[:], []
    with contextlib.suppress(Exception):  # eager raises here too; what it leaves behind is compared
        torch.compile(entry, backend="eager")(*make_inputs("cpu"))
    # the program's side effects (EFFECTS) differ between eager and torch.compile (mismatch:effects:value)
    print(f"eager:         {expected}\ntorch.compile: {EFFECTS}")
    same = equal(EFFECTS, expected)
    print(f"{'match' if same else 'MISMATCH'}: eager vs torch.compile(backend='eager'), torch {torch.__version__}")
    raise SystemExit(0 if same else 1)
