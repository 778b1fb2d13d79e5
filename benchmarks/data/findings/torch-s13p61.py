# ngb-fuzz program
# signature: crash:AssertionError@torch._dynamo.resume_execution:generate_based_on_original_code_object
# target: torch
# found-by: ngb-fuzz run --seed 13 (program 61)
# features: break.data_if break.graph_break break.step_unsupported break.tolist call.callable call.lambda call.method call.tree call.varargs class.local class.new class.property class.setattr class.super class.super_dict class.super_hierarchy class.super_list class.super_setattr closure.nonlocal ctx.contextmanager ctx.contextmanager_disabled ctx.decorator ctx.enable_grad ctx.nested_decorators ctx.no_grad ctx.user_class depth.10+ flow.early_return flow.generator flow.loop flow.recompile flow.tensor_loop flow.try_finally nn.module shape.cm_disable_init shape.decorator_ctx_break shape.step_break_stack shape.upper_ctx_break side.global stack.binop stack.call_arg stack.dict_display stack.fstring stack.kwargs stack.method stack.plain stack.star_args stack.subscript stack.tuple_display stack.unpack
import contextlib
import types

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


def f16(*args):
    global COUNTER
    x = args[0]
    x = x - 1.5
    if x.sum() > 0:
        COUNTER = COUNTER + 1
        x = x + COUNTER * 0.01
    else:
        torch._dynamo.step_unsupported()
    obj5 = _Tracked("f16.5")
    obj5.v = x
    x = obj5.v * 0.5
    return x


@_Ctx("f15.deco0")
@_Ctx("f15.deco1")
def f15(x):
    with _Ctx("f15.6"):
        x = x * 0.5 + f16(x)
    x = torch.tanh(x)
    return x


def f14(x):
    if x.sum() > 0:
        x = x * 1.25
    else:
        x = torch.tanh((x @ x.transpose(-1, -2)) @ x * 0.05)
    _effect("f14.12", x)
    x = torch.tanh(x)
    return x


def f13(x):
    if x.dim() == 2:
        return torch.tanh(x)
    x = x * 0.75
    d16 = {"a": x, "b": f14(x)}
    x = d16["a"] * 0.5 + d16["b"]
    x = _MOD(x)
    x = x + 0.5
    return x


def f12(x):
    if x.dim() == 3:
        return torch.tanh(x)
    try:
        x = torch.add(*[x * 0.5, f13(x)])
    finally:
        _effect("f12.20", x)
    x = torch.sigmoid(x)
    return x


def f11_impl(x):
    global COUNTER
    COUNTER = COUNTER + 1
    if COUNTER % 2 == 1:
        x = torch.add(x * 0.5, f12(x))
        _effect("f11.25", torch.is_grad_enabled())
    else:
        x = x + 0.25
    _effect("f11.27", x)
    x = torch.sigmoid(x)
    return x


f11 = lambda x: 0.0 + f11_impl(x)


def f10(x):
    t29 = (x, f11(x))
    x = t29[0] * 0.5 + t29[1]
    x = torch.sin(x)
    return x


def f9(x):
    for i31 in range(3):
        a32, *r32 = [x, f10(x), x * 0.5]
        x = a32 * 0.25 + r32[0] + r32[1] * 0.25
        _effect("f9.33", torch.is_grad_enabled())
        x = torch.tanh(x)
    x = _Prop(x).half_value
    x = x * 1.25 - 0.25
    class Sub37(_Base):
        def scale(self, v):
            return super().scale(v) * 0.5
    x = Sub37().scale(x)
    return x


class C8:
    def __init__(self, scale):
        self.scale = scale

    def __call__(self, x):
        global COUNTER
        class Local38:
            scale = 0.5
        
            def apply(self, v):
                return v * self.scale
        x = Local38().apply(x) + 0.25
        _effect("f8.39", torch.is_grad_enabled())
        if x.sum() > 0:
            d41 = _SupDict()
            d41["f8.41"] = x
            x = d41["f8.41"] * 0.5
        else:
            x = torch.add(**{"input": x * 0.5, "other": f9(x)})
            COUNTER = COUNTER + 1
            x = x + COUNTER * 0.01
        x = torch.tanh(x)
        return x


def f7(x):
    acc45 = x * 0.5
    def inner45(x):
        nonlocal acc45
        x = torch.add(x * 0.5, C8(0.5)(x))
        x = x * G_SCALE + G_BIAS
        acc45 = acc45 * 0.5 + x * 0.25
        return x
    x = inner45(x) * 0.5 + acc45 * 0.5
    x = x - 0.25
    x = torch.clamp(x, -1.0, 1.0)
    box50 = []
    x = (x * 0.5, x)[_keep(box50, f15(x))] + box50[0]
    x = torch.tanh(x)
    return x


def f6(x):
    acc52 = x * 0.5
    def inner52(x):
        nonlocal acc52
        torch._dynamo.step_unsupported()
        _effect("f6.54", torch.is_grad_enabled())
        acc52 = acc52 * 0.5 + x * 0.25
        return x
    x = inner52(x) * 0.5 + acc52 * 0.5
    with _cm("f6.55"):
        acc56 = torch.zeros_like(x)
        for r56 in x:
            acc56 = acc56 + r56
            t57 = (x, f7(x))
            x = t57[0] * 0.5 + t57[1]
            _effect("f6.58", x.sum())
            x = torch.tanh((x @ x.transpose(-1, -2)) @ x * 0.05)
            if r56.sum() > 0:
                break
        x = x * 0.5 + acc56 * 0.125
        _effect("f6.60", x)
    x = x + 1.0
    x = torch.relu(x) - 0.5
    l63 = _SupList()
    l63.append(x)
    x = l63[0] + l63[1] * 0.01
    return x


class C5:
    def __init__(self, scale):
        self.scale = scale

    def run(self, x):
        x = x + 1.5
        box65 = []
        s65 = f"f5.65:{x.shape[0]}:{_keep(box65, f6(x))}"
        _effect("f5.65", s65)
        x = box65[0]
        x = torch.sin(x)
        torch._dynamo.graph_break()
        return x


@torch.no_grad()
@torch.enable_grad()
def f4(x):
    x = x * 0.5 + x.new_tensor(x.mean(dim=0).tolist()) * 0.5
    with _cm_disabled("f4.69"):
        x = (x * 0.5).add(C5(0.5).run(x))
    x = torch.clamp(x, -1.0, 1.0)
    return x


def f3(x):
    x = torch.sin(x)
    if x.sum() > 0:
        _effect("f3.74", x.sum())
    else:
        x = f4(x)
    x = x + T_MAIN
    c77 = _SupChild(x)
    x = c77.scale(c77.half)
    return x


def f2(x):
    x = x - x.mean()
    def gen79(x):
        box80 = []
        s80 = f"f2.80:{x.shape[0]}:{_keep(box80, f3(x))}"
        _effect("f2.80", s80)
        x = box80[0]
        yield x
        yield x * 0.5
    vals79 = list(gen79(x))
    x = vals79[0] * 0.5 + vals79[1]
    x = torch.tanh((x @ x.transpose(-1, -2)) @ x * 0.05)
    return x


def f1(x):
    x = torch.tanh(x)
    o83 = _SupSetBefore("f1.83")
    o83.v = x
    p83 = _SupSetAfter("f1.83")
    p83.v = o83.v
    x = p83.v
    acc84 = x * 0.5
    def inner84(x):
        nonlocal acc84
        x = x * 0.5 + f2(x)
        x = x * G_SCALE + G_BIAS
        acc84 = acc84 * 0.5 + x * 0.25
        return x
    x = inner84(x) * 0.5 + acc84 * 0.5
    p87 = _Pair(x, x * 0.5)
    x = p87[0] * 0.5 + p87[1]
    x = torch.sigmoid(x)
    return x


def entry(x):
    _effect("entry.89", x)
    x = f1(x)
    x = torch.cos(x)
    return {"out": x, "mean": x.mean()}


def make_inputs(device):
    g = torch.Generator().manual_seed(9985)
    x = torch.randn(2, 3, generator=g)
    return (x.to(device),)


# ---- ngb-fuzz standalone check (generated; do not edit below) ----
if __name__ == "__main__":
    torch._dynamo.config.nested_graph_breaks = True
    def outcome(fn):  # 'returned', or the type and message of what the call raised
        try:
            fn(*make_inputs("cpu"))
        except Exception as e:
            return f"{type(e).__name__}: {str(e)[:200]}"
        return "returned"

    expected, actual = outcome(entry), outcome(torch.compile(entry, backend="eager"))
    # eager (see output); torch.compile raised AssertionError (in torch._dynamo.resume_execution.generate_based_on_original_code_object)
    print(f"eager:         {expected}\ntorch.compile: {actual}")
    same = actual.split(":")[0] == expected.split(":")[0]
    print(f"{'match' if same else 'MISMATCH'}: eager vs torch.compile(backend='eager'), torch {torch.__version__}")
    raise SystemExit(0 if same else 1)
