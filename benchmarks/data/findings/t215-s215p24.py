# ngb-fuzz program
# signature: crash:InternalTorchDynamoError@torch._dynamo.source:_name_template
# target: torch:python=/work/venvs/t215/bin/python
# found-by: ngb-fuzz run --seed 215 (program 24)
# features: break.builtin break.data_if break.graph_break break.item break.print break.tolist call.callable call.chain call.kwargs call.lambda call.method call.varargs class.init class.local class.new class.property class.setitem class.str class.super class.super_hierarchy closure.nonlocal control.raise_context ctx.as_value ctx.autocast ctx.contextmanager ctx.contextmanager_disabled ctx.decorator ctx.enable_grad ctx.inference_mode ctx.nested_decorators ctx.no_grad ctx.set_grad_enabled ctx.user_class data.abc data.enum data.slots depth.30+ filler.hypothesmith flow.early_return flow.generator flow.recompile flow.try_except iter.iter_next nn.module raise.deliberate shape.cm_disable_init shape.decorator_ctx_break shape.upper_ctx_break side.global side.list stack.binop stack.call_arg stack.comprehension stack.conditional stack.dict_display stack.fstring stack.kwargs stack.list_display stack.method stack.plain stack.star_args stack.subscript stack.tuple_display stack.unpack stdlib.defaultdict stdlib.random_math strings.fstring
import contextlib
import abc
import collections
import enum
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


class _Seq:
    def __init__(self, fn, items):
        self.fn = fn
        self.items = items

    def __len__(self):
        return len(self.items)

    def __getitem__(self, i):
        if i >= len(self.items):
            raise IndexError(i)
        return self.fn(self.items[i])

    def __contains__(self, i):
        return 0 <= i < len(self.items)

    def __iter__(self):
        return _SeqIter(self)


class _SeqIter:
    def __init__(self, seq):
        self.seq = seq
        self.i = 0

    def __iter__(self):
        return self

    def __next__(self):
        if self.i >= len(self.seq):
            raise StopIteration
        self.i += 1
        return self.seq[self.i - 1]


class _Pair(tuple):
    def __new__(cls, a, b):
        _effect("pair.new", a.shape[0])
        return super().__new__(cls, (a, b))


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


class _Bag:
    def __init__(self, tag):
        self.tag = tag
        self.items = {}

    def __setitem__(self, key, value):
        _effect(self.tag + ".setitem", key)
        self.items[key] = value

    def __getitem__(self, key):
        return self.items[key]


class _Base:
    def scale(self, v):
        return v * 0.5 + 0.1


class _Deep(Exception):
    pass


class _Mid(Exception):
    pass


class _Mod(torch.nn.Module):
    def __init__(self):
        super().__init__()
        self.scale = torch.nn.Parameter(torch.full((), 0.5))

    def forward(self, x):
        # clone: x may be an inference tensor from an inference_mode block upstream
        return torch.tanh(x.clone() * self.scale + 0.1)


_MOD = _Mod()


class _Box:
    def __init__(self, value):
        self.value = value * 1.0


class _Prop:
    def __init__(self, value):
        self._value = value

    @property
    def half_value(self):
        return self._value * 0.5


class _Named:
    def __init__(self, tag, value):
        self.tag = tag
        self.value = value

    def __str__(self):
        return f"{self.tag}:{tuple(self.value.shape)}:{self.value.dtype}"


class _Slots:
    __slots__ = ("a", "b")

    def __init__(self, a, b):
        self.a = a
        self.b = b


class _Shape(abc.ABC):
    @abc.abstractmethod
    def area(self, fn, v):
        ...

    def twice(self, fn, v):
        return self.area(fn, v) * 0.5


class _Square(_Shape):
    def area(self, fn, v):
        return fn(v) * 0.5


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


def f83_impl(x):
    x = x * 0.75
    x = x * 0.5 + x.mean().item() * 0.5
    x = torch.clamp(x, -2.0, 2.0)
    return x


f83 = lambda x: 0.0 + f83_impl(x)


def f82(x):
    x = x * 0.5 + f83(x)
    c5 = _SupChild(x)
    x = c5.scale(c5.half)
    if x.dim() == 3:
        return torch.tanh(x)
    return x


def f81(**kw):
    x = kw["x"]
    acc7 = x * 0.5
    def inner7(x):
        nonlocal acc7
        flag8 = x.dim() == 2
        x = f82(x) if flag8 else x - 0.5
        x = torch.tanh((x @ x.transpose(-1, -2)) @ x * 0.05)
        x = x * G_SCALE + G_BIAS
        acc7 = acc7 * 0.5 + x * 0.25
        return x
    x = inner7(x) * 0.5 + acc7 * 0.5
    x = x + 1.5
    return x


def f80(**kw):
    x = kw["x"]
    acc12 = x * 0.5
    def inner12(x):
        nonlocal acc12
        with torch.no_grad():
            l14 = [x * 0.5, f81(x=x), x]
            x = l14[0] + l14[1] - l14[2] * 0.25
            x = torch.clamp(x, -2.0, 2.0)
        acc12 = acc12 * 0.5 + x * 0.25
        return x
    x = inner12(x) * 0.5 + acc12 * 0.5
    _effect("f80.16", str(_Named("f80.16", x)))
    return x


def f79(x):
    acc17 = x * 0.5
    def inner17(x):
        nonlocal acc17
        x = f80(x=x)
        _effect("f79.19", torch.is_grad_enabled())
        acc17 = acc17 * 0.5 + x * 0.25
        return x
    x = inner17(x) * 0.5 + acc17 * 0.5
    x = torch.clamp(x, -2.0, 2.0)
    return x


def f78(x):
    with _Ctx("f78.21"):
        x = (x * 0.5).add(f79(x))
        _effect("f78.23", torch.is_grad_enabled())
    x = torch.clamp(x, -2.0, 2.0)
    return x


class C77:
    def __init__(self, scale):
        self.scale = scale

    def run(self, x):
        x = (x * 0.5).add(f78(x))
        x = torch.tanh(x)
        return x


def f76(x, cm):
    global COUNTER
    COUNTER = COUNTER + 1
    if COUNTER % 2 == 1:
        l28 = [x * 0.5, C77(0.5).run(x), x]
        x = l28[0] + l28[1] - l28[2] * 0.25
        rng29 = random.Random(29)
        order29 = list(range(4))
        rng29.shuffle(order29)
        w29 = round(rng29.uniform(0.25, 0.75), 3)
        _effect("f76.29", (order29, w29, rng29.randrange(10), rng29.choice("abc")))
        _effect("f76.29.math", (math.gcd(12, 8 + 29), math.prod(x.shape), math.isqrt(x.numel()), math.floor(2.5),
                               math.comb(5, 2), round(math.sqrt(2.0), 3)))
        x = x * w29 + math.sin(0.5) * 0.1
    else:
        x = x + T_MAIN
    x = x * 0.5 + x.new_tensor(x.mean(dim=0).tolist()) * 0.5
    with cm:
        _effect("f76.33", torch.is_grad_enabled())
        x = x + 0.25
    x = torch.sin(x)
    return x


def f75_impl(x):
    with torch.no_grad():
        cm37 = torch.no_grad()
        x = f76(x, cm37)
        def filler38():
            def AJ():
            
                def A():
                    pass
        filler38()
    x = x - 1.5
    x = torch.tanh(x)
    return x


f75 = lambda x: 0.0 + f75_impl(x)


def f74(x):
    x = _MOD(x)
    acc42 = x * 0.5
    def inner42(x):
        nonlocal acc42
        d43 = {"a": x, "b": f75(x)}
        x = d43["a"] * 0.5 + d43["b"]
        x = x * G_SCALE + G_BIAS
        acc42 = acc42 * 0.5 + x * 0.25
        return x
    x = inner42(x) * 0.5 + acc42 * 0.5
    x = torch.cos(x)
    return x


def f73(x):
    def hole46(x):
        acc47 = x * 0.5
        def inner47(x):
            nonlocal acc47
            x = f74(x)
            _effect("f73.49", torch.is_grad_enabled())
            x = x * G_SCALE + G_BIAS
            acc47 = acc47 * 0.5 + x * 0.25
            return x
        x = inner47(x) * 0.5 + acc47 * 0.5
        return x
    y46 = hole46(x)
    s46 = f"{tuple(y46.shape)!r:>14}|{y46.dtype}|{y46.numel():#06x}|{'ok'!s:^6}|{y46.dim()!a}|{y46.ndim:+d}"
    _effect("f73.46", s46)
    _effect("f73.46.sum", f"{float(y46.abs().sum()) >= 0.0}:{y46.shape[-1]:03d}")
    x = y46 * (0.5 if s46.strip().startswith("(") else 0.25)
    x = torch.sin(x)
    return x


def f72(x):
    global COUNTER
    COUNTER = COUNTER + 1
    x = x + COUNTER * 0.01
    COUNTER = COUNTER + 1
    if COUNTER % 2 == 1:
        x = x + 1.0
    else:
        x = (x * 0.5).add(f73(x))
        _effect("f72.56", torch.is_grad_enabled())
    x = torch.cos(x)
    return x


def f71(x):
    acc58 = x * 0.5
    def inner58(x):
        nonlocal acc58
        x = x * 0.5 + f72(x)
        acc58 = acc58 * 0.5 + x * 0.25
        return x
    x = inner58(x) * 0.5 + acc58 * 0.5
    return x


def f70(x):
    a60, *r60 = [x, f71(x), x * 0.5]
    x = a60 * 0.25 + r60[0] + r60[1] * 0.25
    _effect("f70.61", x)
    x = torch.tanh(x)
    return x


def f69(x):
    x = f70(x)
    x = x * x * 0.25
    x = torch.tanh((x @ x.transpose(-1, -2)) @ x * 0.05)
    return x


def f68(x):
    x = x.abs() * 0.5
    l67 = [x * 0.5, f69(x), x]
    x = l67[0] + l67[1] - l67[2] * 0.25
    x = torch.tanh(x)
    return x


def f67(x, cm):
    t69 = (x, f68(x))
    x = t69[0] * 0.5 + t69[1]
    _effect("f67.70", x)
    torch._dynamo.graph_break()
    with cm:
        _effect("f67.73", torch.is_grad_enabled())
        x = _Prop(x).half_value
    return x


@torch.inference_mode()
@torch.enable_grad()
def f66(x, cm):
    c75 = _SupChild(x)
    x = c75.scale(c75.half)
    def gen76(x):
        cm77 = _Ctx("f66.77.cm")
        a77, *r77 = [x, f67(x, cm77), x * 0.5]
        x = a77 * 0.25 + r77[0] + r77[1] * 0.25
        yield x
        yield x * 0.5
    vals76 = list(gen76(x))
    x = vals76[0] * 0.5 + vals76[1]
    print("ngb f66.78")
    with cm:
        _effect("f66.80", torch.is_grad_enabled())
        _effect("f66.81", x)
    x = torch.cos(x)
    return x


def f65(*args):
    x = args[0]
    def gen83(x):
        cm84 = torch.inference_mode()
        x = f66(x, cm84)
        _effect("f65.85", torch.is_grad_enabled())
        yield x
        yield x * 0.5
    vals83 = list(gen83(x))
    x = vals83[0] * 0.5 + vals83[1]
    x = torch.clamp(x, -2.0, 2.0)
    return x


@torch.no_grad()
def f64(**kw):
    x = kw["x"]
    with torch.inference_mode():
        x = (x * 0.5).add(f65(x))
    x = torch.clamp(x, -2.0, 2.0)
    return x


@torch.inference_mode()
def f63(x):
    box90 = []
    s90 = f"f63.90:{x.shape[0]}:{_keep(box90, f64(x=x))}"
    _effect("f63.90", s90)
    x = box90[0]
    x = torch.tanh(x)
    return x


@torch.no_grad()
@_cm_disabled("f62.deco1")
def f62(*args):
    x = args[0]
    _effect("f62.92", x)
    x = f63(x)
    x = torch.tanh(x)
    return x


def f61(x):
    if x.sum() > 0:
        _effect("f61.96", x)
    else:
        x = x * 0.5 + x.mean().item() * 0.5
    x = f62(x)
    if x.dim() == 3:
        return torch.tanh(x)
    x = torch.clamp(x, -3.0, 3.0)
    return x


def f60(**kw):
    x = kw["x"]
    x = (x * 0.5).add(f61(x))
    x = torch.clamp(x, -3.0, 3.0)
    return x


@torch.enable_grad()
def f59(x):
    with torch.set_grad_enabled(False):
        a104, *r104 = [x, f60(x=x), x * 0.5]
        x = a104 * 0.25 + r104[0] + r104[1] * 0.25
        _effect("f59.105", x)
    x = torch.clamp(x, -1.0, 1.0)
    return x


def f58_impl(x):
    x = f59(x)
    x = torch.tanh(x)
    return x


f58 = lambda x: 0.0 + f58_impl(x)


def f57(x):
    x = torch.sin(x)
    l110 = [x * 0.5, f58(x), x]
    x = l110[0] + l110[1] - l110[2] * 0.25
    x = torch.cos(x)
    return x


def f56(x):
    p112 = _Pair(x, x * 0.5)
    x = p112[0] * 0.5 + p112[1]
    def hole113(x):
        flag114 = x.dim() == 2
        x = f57(x) if flag114 else x - 0.5
        _effect("f56.115", torch.is_grad_enabled())
        return x
    try:
        _Shape()
    except TypeError as e113:
        _effect("f56.113.abstract", type(e113).__name__)
    s113 = _Square()
    _effect("f56.113", (isinstance(s113, _Shape), issubclass(_Square, abc.ABC), sorted(_Shape.__abstractmethods__),
                      isinstance(_Shape, abc.ABCMeta)))
    x = s113.twice(hole113, x) + x * 0.25
    return x


def f55(x):
    x = torch.add(x * 0.5, f56(x))
    x = torch.sin(x)
    return x


def f54(x):
    x = torch.add(*[x * 0.5, f55(x)])
    x = torch.tanh((x @ x.transpose(-1, -2)) @ x * 0.05)
    return x


def f53(*args):
    x = args[0]
    x = x + 0.5
    with _cm("f53.121"):
        x = torch.add(x * 0.5, f54(x))
        x = _MOD(x)
    return x


def f52(x):
    x = (x * 0.5).add(f53(x))
    x = torch.sigmoid(x)
    return x


def f51(x):
    x = _MOD(x)
    x = f52(x)
    x = torch.tanh(x)
    return x


class C50:
    def __init__(self, scale):
        self.scale = scale

    def __call__(self, x):
        def hole129(x):
            x = torch.enable_grad()(f51)(x)
            return x
        s129 = _Slots(hole129(x), 1)
        s129.b += 1
        try:
            s129.c = 3
        except AttributeError:
            _effect("f50.129.noattr", True)
        _effect("f50.129", (s129.b, hasattr(s129, "__dict__"), _Slots.__slots__))
        _effect("f50.129.obj", s129)
        x = s129.a * 0.5 + x * 0.25
        return x


def f49(x):
    x = torch.tanh(x)
    d132 = {"a": x, "b": C50(0.5)(x)}
    x = d132["a"] * 0.5 + d132["b"]
    x = torch.tanh(x)
    return x


def f48(x):
    l134 = [x * 0.5, f49(x), x]
    x = l134[0] + l134[1] - l134[2] * 0.25
    x = x + 1.0
    if x.sum() > 0:
        x = torch.clamp(x, -3.0, 3.0)
    else:
        obj138 = _Box(x)
        x = obj138.value * 0.5 + 0.1
    return x


def f47(x):
    def gen139(x):
        x = f48(x)
        yield x
        yield x * 0.5
    vals139 = list(gen139(x))
    x = vals139[0] * 0.5 + vals139[1]
    x = torch.sigmoid(x)
    return x


def f46(x):
    _effect("f46.142", str(_Named("f46.142", x)))
    t143 = (x, f47(x))
    x = t143[0] * 0.5 + t143[1]
    x = torch.tanh(x)
    return x


def f45(x):
    acc145 = x * 0.5
    def inner145(x):
        nonlocal acc145
        box146 = []
        x = (x * 0.5, x)[_keep(box146, f46(x))] + box146[0]
        acc145 = acc145 * 0.5 + x * 0.25
        return x
    x = inner145(x) * 0.5 + acc145 * 0.5
    return x


def f44(x):
    _effect("f44.147", torch.is_grad_enabled())
    def gen148(x):
        x = f45(x)
        _effect("f44.150", torch.is_grad_enabled())
        yield x
        yield x * 0.5
    vals148 = list(gen148(x))
    x = vals148[0] * 0.5 + vals148[1]
    x = torch.sin(x)
    return x


def f43_impl(x):
    x = torch.cos(x)
    l153 = [x * 0.5, f44(x), x]
    x = l153[0] + l153[1] - l153[2] * 0.25
    x = torch.clamp(x, -1.0, 1.0)
    return x


f43 = lambda x: 0.0 + f43_impl(x)


def f42_impl(x):
    acc155 = x * 0.5
    def inner155(x):
        nonlocal acc155
        d156 = {"a": x, "b": f43(x)}
        x = d156["a"] * 0.5 + d156["b"]
        x = x + T_MAIN
        acc155 = acc155 * 0.5 + x * 0.25
        return x
    x = inner155(x) * 0.5 + acc155 * 0.5
    _effect("f42.158", x)
    x = torch.tanh(x)
    return x


f42 = lambda x: 0.0 + f42_impl(x)


def f41(x):
    global COUNTER
    COUNTER = COUNTER + 1
    if COUNTER % 2 == 1:
        class Local161:
            scale = 0.5
        
            def apply(self, v):
                return v * self.scale
        x = Local161().apply(x) + 0.25
    else:
        x = f42(x)
    x = torch.tanh(x)
    return x


def f40(x):
    with torch.autocast("cpu", dtype=torch.bfloat16):
        flag165 = x.dim() == 2
        x = f41(x) if flag165 else x - 0.5
    x = torch.tanh(x)
    return x


def f39(x):
    LOG.append(x * 0.5)
    t168 = (x, f40(x))
    x = t168[0] * 0.5 + t168[1]
    x = torch.clamp(x, -1.0, 1.0)
    return x


def f38(x):
    x = torch.clamp(x, -2.0, 2.0)
    t171 = (x, f39(x))
    x = t171[0] * 0.5 + t171[1]
    x = torch.sin(x)
    return x


def f37(x):
    with _cm("f37.173"):
        def hole174(x):
            x = torch.add(x * 0.5, f38(x))
            x = torch.clamp(x, -1.0, 1.0)
            return x
        made174 = []
        def make174():
            made174.append(len(made174))
            return hole174(x * 0.5)
        dd174 = collections.defaultdict(make174)
        y174 = dd174["a"] + dd174["a"] * 0.5
        dd174["b"] = y174 * 0.25
        _effect("f37.174", (made174, list(dd174), "c" in dd174, dd174.default_factory is make174))
        _effect("f37.174.dd", dd174)
        x = y174 * 0.5
    return x


def f36_impl(x):
    global COUNTER
    COUNTER = COUNTER + 1
    x = x + COUNTER * 0.01
    if x.sum() > 0:
        x = x * 0.5 + x.sum(dim=-1, keepdim=True) * 0.1
    else:
        x = torch.enable_grad()(f37)(x)
        x = torch.tanh(x)
        x = x + 0.5
    x = torch.tanh(x)
    return x


f36 = lambda x: 0.0 + f36_impl(x)


def f35(x):
    x = f36(x)
    x = torch.clamp(x, -3.0, 3.0)
    return x


def f34(x):
    x = f35(x)
    x = torch.clamp(x, -3.0, 3.0)
    p188 = _Pair(x, x * 0.5)
    x = p188[0] * 0.5 + p188[1]
    return x


def f33(*args):
    x = args[0]
    box189 = []
    s189 = f"f33.189:{x.shape[0]}:{_keep(box189, f34(x))}"
    _effect("f33.189", s189)
    x = box189[0]
    x = torch.tanh(x)
    _effect("f33.191", x)
    return x


def f32(x):
    with torch.no_grad():
        x = torch.add(*[x * 0.5, f33(x)])
        x = torch.tanh(x)
    class Sub195(_Base):
        def scale(self, v):
            return super().scale(v) * 0.5
    x = Sub195().scale(x)
    return x


class C31:
    def __init__(self, scale):
        self.scale = scale

    def __call__(self, x):
        x = torch.add(**{"input": x * 0.5, "other": f32(x)})
        x = x * 0.75 - 0.25
        x = torch.tanh(x)
        return x


@_Ctx("f30.deco0")
def f30(x):
    global COUNTER
    COUNTER = COUNTER + 1
    if COUNTER % 2 == 1:
        _effect("f30.200", x)
    else:
        box201 = []
        s201 = f"f30.201:{x.shape[0]}:{_keep(box201, C31(0.5)(x))}"
        _effect("f30.201", s201)
        x = box201[0]
    x = torch.sigmoid(x)
    return x


def f29(x):
    x = x * 0.5 + f30(x)
    x = torch.sigmoid(x)
    return x


def f28(x):
    global COUNTER
    x = x + 0.25
    if x.sum() > 0:
        _effect("f28.207", torch.is_grad_enabled())
    else:
        d208 = {"a": x, "b": f29(x)}
        x = d208["a"] * 0.5 + d208["b"]
        COUNTER = COUNTER + 1
        x = x + COUNTER * 0.01
    x = torch.tanh(x)
    return x


@torch.no_grad()
@_Ctx("f27.deco1")
def f27(x):
    acc211 = x * 0.5
    def inner211(x):
        nonlocal acc211
        x = _Ctx("f27.212.deco")(f28)(x)
        _effect("f27.213", torch.is_grad_enabled())
        acc211 = acc211 * 0.5 + x * 0.25
        return x
    x = inner211(x) * 0.5 + acc211 * 0.5
    x = _Prop(x).half_value
    return x


def f26(*args):
    x = args[0]
    x = f27(x)
    x = torch.clamp(x, -3.0, 3.0)
    return x


def f25(x):
    box217 = []
    x = (x * 0.5, x)[_keep(box217, f26(x))] + box217[0]
    if x.dim() == 3:
        return torch.tanh(x)
    x = torch.sin(x)
    return x


@_Ctx("f24.deco0")
def f24(x):
    with torch.set_grad_enabled(False):
        x = torch.add(x * 0.5, f25(x))
        _effect("f24.222", torch.is_grad_enabled())
    x = torch.tanh((x @ x.transpose(-1, -2)) @ x * 0.05)
    return x


def f23(x):
    x = torch.tanh(x)
    x = f24(x)
    x = torch.tanh(x)
    return x


class C22:
    def __init__(self, scale):
        self.scale = scale

    def run(self, x):
        x = (x * 0.5).add(f23(x))
        x = torch.tanh(x)
        return x


def f21(x):
    t229 = (x, C22(0.5).run(x))
    x = t229[0] * 0.5 + t229[1]
    x = _Prop(x).half_value
    return x


def f20_impl(x):
    if x.sum() > 0:
        bag232 = _Bag("f20.232")
        bag232["a"] = x
        x = bag232["a"] * 0.5
    else:
        x = x * 0.5 + f21(x)
    obj234 = _Box(x)
    x = obj234.value * 0.5 + 0.1
    return x


f20 = lambda x: 0.0 + f20_impl(x)


def f19(x):
    acc235 = x * 0.5
    def inner235(x):
        nonlocal acc235
        x = f20(x)
        acc235 = acc235 * 0.5 + x * 0.25
        return x
    x = inner235(x) * 0.5 + acc235 * 0.5
    return x


def f18(x):
    x = torch.add(**{"input": x * 0.5, "other": f19(x)})
    x = torch.sin(x)
    return x


def f17(x):
    x = _MOD(x)
    torch._dynamo.graph_break()
    x = f18(x)
    x = torch.sigmoid(x)
    return x


def f16(**kw):
    x = kw["x"]
    if x.sum() > 0:
        with torch.no_grad():
            flag245 = x.dim() == 2
            x = f17(x) if flag245 else x - 0.5
            x = torch.tanh(x)
            _effect("f16.247", torch.is_grad_enabled())
    else:
        x = x.abs() * 0.5
    if x.dim() == 3:
        return torch.tanh(x)
    x = torch.clamp(x, -2.0, 2.0)
    return x


@_cm("f15.deco0")
@_cm_disabled("f15.deco1")
def f15(x):
    _effect("f15.251", torch.is_autocast_enabled("cpu"))
    x = f16(x=x)
    x = torch.tanh((x @ x.transpose(-1, -2)) @ x * 0.05)
    return x


def f14(x):
    x = x * 0.5 + f15(x)
    x = torch.tanh((x @ x.transpose(-1, -2)) @ x * 0.05)
    x = x * 1.25
    return x


def f13(x):
    def hole257(x):
        box258 = []
        x = (x * 0.5, x)[_keep(box258, f14(x))] + box258[0]
        x = torch.clamp(x, -3.0, 3.0)
        x = x * G_SCALE + G_BIAS
        return x
    box257 = []
    def deep257(t):
        box257.append(hole257(t))
        raise _Deep("missing257")
    def mid257(t):
        try:
            deep257(t)
        except _Deep:
            raise _Mid("mid257")
    try:
        mid257(x)
    except _Mid as e257:
        c257 = e257.__context__
        _effect("f13.257", (type(c257).__name__, str(c257), e257.__cause__ is None, e257.__suppress_context__))
    x = box257[0] * 0.5
    x = x + 1.0
    return x


@torch.no_grad()
@_cm("f12.deco1")
def f12_impl(x):
    def gen262(x):
        x = (x * 0.5).add(f13(x))
        x = torch.sigmoid(x)
        class Sub265(_Base):
            def scale(self, v):
                return super().scale(v) * 0.5
        x = Sub265().scale(x)
        yield x
        _effect("f12.262.never", 0)
        yield x
    g262 = gen262(x)
    x = next(g262)
    x = x * G_SCALE + G_BIAS
    return x


f12 = lambda x: 0.0 + f12_impl(x)


def f11(**kw):
    x = kw["x"]
    a267, *r267 = [x, f12(x), x * 0.5]
    x = a267 * 0.25 + r267[0] + r267[1] * 0.25
    x = torch.cos(x)
    return x


def f10(x):
    x = torch.add(x * 0.5, f11(x=x))
    x = torch.sigmoid(x)
    return x


class C9:
    def __init__(self, scale):
        self.scale = scale

    def run(self, x):
        bag271 = _Bag("f9.271")
        bag271["a"] = x
        x = bag271["a"] * 0.5
        t272 = (x, f10(x))
        x = t272[0] * 0.5 + t272[1]
        x = torch.tanh(x)
        return x


def f8(*args):
    x = args[0]
    x = C9(0.5).run(x)
    x = torch.sigmoid(x)
    x = x - 1.0
    return x


@torch.no_grad()
def f7(*args):
    x = args[0]
    x = torch.add(*[x * 0.5, f8(x)])
    x = torch.tanh(x)
    return x


def f6(**kw):
    x = kw["x"]
    _effect("f6.279", x)
    t280 = (x, f7(x))
    x = t280[0] * 0.5 + t280[1]
    x = torch.clamp(x, -3.0, 3.0)
    return x


def f5(x, cm):
    def hole282(x):
        x = torch.add(*[x * 0.5, f6(x=x)])
        x = torch.sigmoid(x)
        _effect("f5.285", torch.is_grad_enabled())
        return x
    p282 = _Perm.R | _Perm.W
    c282 = _Color(1 + 282 % 2)
    _effect("f5.282", (c282, c282.name, c282.value, _Color["RED"] is _Color.RED, [m.name for m in _Color],
                      _Perm.W in p282, int(p282 & _Perm.X), int(p282 ^ _Perm.R), _Level.HIGH > 2, _Level.LOW + 1))
    _effect("f5.282.members", [_Level.HIGH, _Perm.X, c282])
    x = c282.apply(hole282, x) + x * (0.125 * int(_Level.LOW))
    x = x + (zlib.crc32(b"f5.286") % 7) * 0.01
    with cm:
        _effect("f5.288", torch.is_grad_enabled())
        x = x - 0.25
    return x


def f4(x):
    def hole290(x):
        cm291 = _cm("f4.291.cm")
        x = x * 0.5 + f5(x, cm291)
        x = torch.sin(x)
        return x
    made290 = []
    def make290():
        made290.append(len(made290))
        return hole290(x * 0.5)
    dd290 = collections.defaultdict(make290)
    y290 = dd290["a"] + dd290["a"] * 0.5
    dd290["b"] = y290 * 0.25
    _effect("f4.290", (made290, list(dd290), "c" in dd290, dd290.default_factory is make290))
    _effect("f4.290.dd", dd290)
    x = y290 * 0.5
    return x


def f3_impl(x):
    try:
        def gen294(x):
            x = f4(x)
            x = torch.sin(x)
            _effect("f3.297", torch.is_grad_enabled())
            yield x
            return x * 0.5
        g294 = gen294(x)
        first294 = next(g294)
        try:
            next(g294)
        except StopIteration as stop294:
            x = first294 * 0.5 + stop294.value
        _effect("f3.298", torch.is_grad_enabled())
        raise ValueError("ngb deliberate ngb f3.299")
    except ValueError as e293:
        _effect("f3.293", str(e293))
        p300 = _Pair(x, x * 0.5)
        x = p300[0] * 0.5 + p300[1]
    return x


f3 = lambda x: 0.0 + f3_impl(x)


def f2(x):
    v301 = [f3(x + c301) for c301 in (0.0, 0.5)]
    x = v301[0] * 0.5 + v301[1] * 0.5
    x = torch.clamp(x, -3.0, 3.0)
    return x


def f1(x):
    x = x + T_MAIN
    x = torch.add(*[x * 0.5, f2(x)])
    x = torch.cos(x)
    return x


def entry(x):
    def hole306(x):
        x = f1(x)
        return x
    it306 = iter(_Seq(hole306, [x, x * 0.5, x * 0.25]))
    first306 = next(it306)
    rest306 = list(it306)
    _effect("entry.306", len(rest306))
    x = first306 * 0.5 + rest306[-1] * 0.5
    x = torch.sin(x)
    return x


def make_inputs(device):
    g = torch.Generator().manual_seed(855)
    x = torch.randn(4, 2, generator=g)
    return (x.to(device),)


# ---- ngb-fuzz standalone check (generated; do not edit below) ----
if __name__ == "__main__":
    torch._dynamo.config.nested_graph_breaks = True
    def outcome(fn):  # 'returned', or the type (a group's member types, the cause's) and message raised
        try:
            fn(*make_inputs("cpu"))
        except Exception as e:
            members = [type(m).__name__ for m in getattr(e, "exceptions", ())]
            cause = "" if e.__cause__ is None else f" from {type(e.__cause__).__name__}"
            return f"{type(e).__name__}{members if members else ''}{cause}: {str(e)[:200]}"
        return "returned"

    expected, actual = outcome(entry), outcome(torch.compile(entry, backend="eager"))
    # eager (see output); torch.compile raised InternalTorchDynamoError (in torch._dynamo.source._name_template)
    print(f"eager:         {expected}\ntorch.compile: {actual}")
    same = actual.split(":")[0] == expected.split(":")[0]
    print(f"{'match' if same else 'MISMATCH'}: eager vs torch.compile(backend='eager'), torch {torch.__version__}")
    raise SystemExit(0 if same else 1)
