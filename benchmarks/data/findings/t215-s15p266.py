# ngb-fuzz program
# signature: mismatch:value:requires_grad
# target: torch:python=/work/venvs/t215/bin/python
# found-by: ngb-fuzz run --seed 15 (program 266)
# features: break.attr_store break.builtin break.data_if break.disable break.graph_break break.step_unsupported call.callable call.kwargs call.method call.recursion call.tree call.varargs class.str class.super_hierarchy closure.nonlocal ctx.as_value ctx.contextmanager_disabled ctx.decorator ctx.enable_grad ctx.nested_decorators ctx.no_grad ctx.user_class depth.10+ flow.generator flow.loop flow.tensor_loop flow.try_except flow.try_finally input.requires_grad nn.module raise.deliberate shape.cm_disable_init shape.decorator_ctx_break shape.step_break_stack shape.upper_ctx_break side.dict side.global stack.call_arg stack.comprehension stack.dict_display stack.fstring stack.list_display stack.plain stack.star_args stack.subscript stack.tuple_display
import contextlib
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


class _State:
    def __init__(self):
        self.calls = 0


STATE = _State()


class _Box:
    def __init__(self, value):
        self.value = value * 1.0


class _Tracked:
    def __init__(self, tag):
        object.__setattr__(self, "tag", tag)

    def __setattr__(self, name, value):
        _effect(self.tag + ".set." + name, value)
        object.__setattr__(self, name, value * 1.0)


class _Bag:
    def __init__(self, tag):
        self.tag = tag
        self.items = {}

    def __setitem__(self, key, value):
        _effect(self.tag + ".setitem", key)
        self.items[key] = value

    def __getitem__(self, key):
        return self.items[key]


class _Prop:
    def __init__(self, value):
        self._value = value

    @property
    def half_value(self):
        return self._value * 0.5


class _Pair(tuple):
    def __new__(cls, a, b):
        _effect("pair.new", a.shape[0])
        return super().__new__(cls, (a, b))


class _Named:
    def __init__(self, tag, value):
        self.tag = tag
        self.value = value

    def __str__(self):
        return f"{self.tag}:{tuple(self.value.shape)}:{self.value.dtype}"


class _Base:
    def scale(self, v):
        return v * 0.5 + 0.1


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


class _SupDict(dict):
    def __setitem__(self, key, value):
        torch._dynamo.graph_break()
        super().__setitem__(key, value * 0.5)

    def __getitem__(self, key):
        value = super().__getitem__(key)
        torch._dynamo.graph_break()
        return value + 0.25


class _SupList(list):
    def append(self, value):
        super().append(value * 0.5)
        torch._dynamo.graph_break()
        super().append(len(self))


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


class _Mod(torch.nn.Module):
    def __init__(self):
        super().__init__()
        self.scale = torch.nn.Parameter(torch.full((), 0.5))

    def forward(self, x):
        # clone: x may be an inference tensor from an inference_mode block upstream
        return torch.tanh(x.clone() * self.scale + 0.1)


_MOD = _Mod()


@torch.enable_grad()
@_Ctx("f14.deco1")
def f14(x, n):
    if x.sum() > 0:
        x = torch.relu(x) - 0.5
    else:
        x = x - 1.0
    _effect("f14.4", str(_Named("f14.4", x)))
    if n > 0:
        x = f14(x, n - 1)
    return x


def f13(x):
    x = x * 1.25
    x = _ngb_disabled(x)
    return x


def f12(x):
    try:
        with torch.no_grad():
            with _cm_disabled("f12.10"):
                x = _ngb_disabled(x)
        _effect("f12.12", torch.is_grad_enabled())
    finally:
        _effect("f12.8", x)
    return x


def f11(*args):
    x = args[0]
    x = _MOD(x)
    try:
        torch._dynamo.step_unsupported()
        _effect("f11.16", torch.is_grad_enabled())
        raise ValueError("ngb deliberate ngb f11.17")
    except ValueError as e14:
        _effect("f11.14", str(e14))
        _effect("f11.18", x)
    x = _MOD(x)
    return x


def f10(x):
    x = x * 2.0
    box21 = []
    x = (x * 0.5, x)[_keep(box21, f11(x))] + box21[0]
    x = torch.cos(x)
    return x


class C9:
    def __init__(self, scale):
        self.scale = scale

    def __call__(self, x):
        x = x * 0.5
        _effect("f9.24", torch.is_grad_enabled())
        box25 = []
        s25 = f"f9.25:{x.shape[0]}:{_keep(box25, f10(x))}"
        _effect("f9.25", s25)
        x = box25[0]
        x = torch.sin(x)
        return x


def f8(x, cm):
    global COUNTER
    x = _MOD(x)
    c28 = _SupChild(x)
    x = c28.scale(c28.half)
    _effect("f8.29", x)
    x = f14(x, 2)
    i31 = 0
    while True:
        i31 += 1
        x = torch.add(x * 0.5, C9(0.5)(x))
        x = torch.sin(x)
        if i31 >= 3:
            break
    torch._dynamo.step_unsupported()
    with cm:
        _effect("f8.36", torch.is_grad_enabled())
        COUNTER = COUNTER + 1
        x = x + COUNTER * 0.01
    return x


def f7(x):
    acc38 = x * 0.5
    def inner38(x):
        nonlocal acc38
        cm39 = torch.enable_grad()
        x = f8(x, cm39)
        x = torch.sin(x)
        _effect("f7.41", torch.is_grad_enabled())
        x = x * G_SCALE + G_BIAS
        acc38 = acc38 * 0.5 + x * 0.25
        return x
    x = inner38(x) * 0.5 + acc38 * 0.5
    def gen43(x):
        torch._dynamo.graph_break()
        yield x
        _effect("f7.43.never", 0)
        yield x
    g43 = gen43(x)
    x = next(g43)
    x = x * 2.0
    _effect("f7.46", x)
    x = torch.tanh((x @ x.transpose(-1, -2)) @ x * 0.05)
    return x


def f6(*args):
    x = args[0]
    x = x + 0.25
    x = f13(x)
    v50 = [f7(x + c50) for c50 in (0.0, 0.5)]
    x = v50[0] * 0.5 + v50[1] * 0.5
    x = torch.tanh(x)
    _effect("f6.52", torch.is_grad_enabled())
    _effect("f6.53", x)
    return x


@torch.no_grad()
def f5(x):
    try:
        t55 = (x, f6(x))
        x = t55[0] * 0.5 + t55[1]
        raise ValueError("ngb deliberate ngb f5.56")
    except ValueError as e54:
        _effect("f5.54", str(e54))
    x = x + 0.25
    x = x - 0.25
    x = torch.tanh(x)
    return x


def f4(x, cm):
    x = torch.clamp(x, -1.0, 1.0)
    acc61 = x * 0.5
    def inner61(x):
        nonlocal acc61
        x = torch.add(*[x * 0.5, f5(x)])
        acc61 = acc61 * 0.5 + x * 0.25
        return x
    x = inner61(x) * 0.5 + acc61 * 0.5
    y63 = x * 1.0
    y63.ngb_note = 0.5
    x = y63 * y63.ngb_note
    with cm:
        _effect("f4.65", torch.is_grad_enabled())
        TABLE["f4.66"] = x * 0.25
    return x


def f3(x, cm):
    acc67 = x * 0.5
    def inner67(x):
        nonlocal acc67
        cm68 = torch.no_grad()
        t68 = (x, f4(x, cm68))
        x = t68[0] * 0.5 + t68[1]
        _effect("f3.69", torch.is_grad_enabled())
        x = torch.tanh(x)
        x = x + T_MAIN
        acc67 = acc67 * 0.5 + x * 0.25
        return x
    x = inner67(x) * 0.5 + acc67 * 0.5
    x = x + 0.5
    torch._dynamo.step_unsupported()
    with cm:
        _effect("f3.75", torch.is_grad_enabled())
        _effect("f3.76", torch.is_grad_enabled())
    return x


class C2:
    def __init__(self, scale):
        self.scale = scale

    def run(self, x):
        TABLE["f2.77"] = x * 0.25
        x = x * G_SCALE + G_BIAS
        _effect("f2.79", torch.is_grad_enabled())
        acc80 = torch.zeros_like(x)
        for r80 in x:
            acc80 = acc80 + r80
            x = torch.add(x * 0.5, f12(x))
            x = torch.tanh((x @ x.transpose(-1, -2)) @ x * 0.05)
            x = torch.clamp(x, -2.0, 2.0)
        x = x * 0.5 + acc80 * 0.125
        with _cm_disabled("f2.84"):
            cm85 = torch.autocast("cpu", dtype=torch.bfloat16)
            d85 = {"a": x, "b": f3(x, cm85)}
            x = d85["a"] * 0.5 + d85["b"]
        with _cm_disabled("f2.86"):
            x = x + (zlib.crc32(b"f2.87") % 7) * 0.01
        x = torch.tanh(x)
        return x


def f1(**kw):
    x = kw["x"]
    d89 = {"a": x, "b": C2(0.5).run(x)}
    x = d89["a"] * 0.5 + d89["b"]
    _effect("f1.90", str(_Named("f1.90", x)))
    x = torch.sin(x)
    return x


def entry(x):
    l92 = [x * 0.5, f1(x=x), x]
    x = l92[0] + l92[1] - l92[2] * 0.25
    x = torch.cos(x)
    return x


def make_inputs(device):
    g = torch.Generator().manual_seed(8594)
    x = torch.randn(3, 3, generator=g)
    return (x.to(device).requires_grad_(),)


# ---- ngb-fuzz standalone check (generated; do not edit below) ----
if __name__ == "__main__":
    torch._dynamo.config.nested_graph_breaks = True
    def equal(a, b):  # same types and shapes, tensors equal elementwise (NaN equal to NaN), objects by fields
        if isinstance(a, torch.Tensor) and isinstance(b, torch.Tensor):
            return (a.dtype, a.shape, a.requires_grad) == (b.dtype, b.shape, b.requires_grad) and bool(((a == b) | (a != a) & (b != b)).all())
        if isinstance(a, (list, tuple, dict)) and type(a) is type(b) and len(a) == len(b):
            return all(map(equal, a, b)) if not isinstance(a, dict) else all(equal(a[k], b.get(k)) for k in a)
        if hasattr(a, "__dict__") and type(a) is type(b):
            return equal(vars(a), vars(b))
        return type(a) is type(b) and (a == b or a != a and b != b)

    expected = entry(*make_inputs("cpu"))
    actual = torch.compile(entry, backend="eager")(*make_inputs("cpu"))
    # eager and torch.compile return different values (mismatch:value:requires_grad)
    print(f"eager:         {expected!r}\ntorch.compile: {actual!r}")
    same = equal(actual, expected)
    print(f"{'match' if same else 'MISMATCH'}: eager vs torch.compile(backend='eager'), torch {torch.__version__}")
    raise SystemExit(0 if same else 1)
