# ngb-fuzz program
# signature: crash:TypeError@torch._dynamo.eval_frame:compile_wrapper
# target: torch
# found-by: ngb-fuzz run --seed 13 (program 50)
# features: break.data_if break.step_unsupported call.chain call.varargs class.super class.super_hierarchy class.super_setattr closure.nonlocal ctx.enable_grad ctx.no_grad ctx.user_class depth.4-9 flow.generator flow.recompile flow.tensor_loop flow.try_finally input.noncontiguous input.rank1 shape.step_break_stack shape.upper_ctx_break stack.binop stack.method stack.star_args
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


def f4(x):
    with torch.no_grad():
        if x.sum() > 0:
            torch._dynamo.step_unsupported()
            _effect("f4.4", torch.is_grad_enabled())
        else:
            x = torch.cos(x)
    o6 = _SupSetBefore("f4.6")
    o6.v = x
    p6 = _SupSetAfter("f4.6")
    p6.v = o6.v
    x = p6.v
    x = torch.sin(x)
    return x


def f3(*args):
    x = args[0]
    acc8 = x * 0.5
    def inner8(x):
        nonlocal acc8
        x = (x * 0.5).add(f4(x))
        x = torch.tanh(x)
        _effect("f3.11", torch.is_grad_enabled())
        x = x + T_MAIN
        acc8 = acc8 * 0.5 + x * 0.25
        return x
    x = inner8(x) * 0.5 + acc8 * 0.5
    x = torch.relu(x) - 0.5
    class Sub14(_Base):
        def scale(self, v):
            return super().scale(v) * 0.5
    x = Sub14().scale(x)
    x = x + T_MAIN
    return x


def f2(x):
    _effect("f2.16", x)
    x = x * G_SCALE + G_BIAS
    try:
        if x.sum() > 0:
            x = torch.clamp(x, -2.0, 2.0)
        else:
            x = x + T_MAIN
    finally:
        _effect("f2.18", x)
    acc22 = torch.zeros_like(x)
    for i22, r22 in enumerate(x.unbind(0)):
        acc22 = acc22 + r22
        x = torch.add(*[x * 0.5, f3(x)])
        x = torch.tanh(x)
        x = x * G_SCALE + G_BIAS
        x = torch.clamp(x, -3.0, 3.0)
        if i22 >= 1:
            break
    x = x * 0.5 + acc22 * 0.125
    x = torch.tanh(x)
    return x


def f1(x):
    _effect("f1.28", x)
    with torch.enable_grad():
        x = (x * 0.5).add(f2(x))
    class Sub31(_Base):
        def scale(self, v):
            return super().scale(v) * 0.5
    x = Sub31().scale(x)
    x = torch.tanh(x)
    return x


def entry(x):
    def gen33(x):
        global COUNTER
        with _Ctx("entry.34"):
            COUNTER = COUNTER + 1
            if COUNTER % 2 == 1:
                x = x + 1.0
            else:
                x = x * 0.5 + f1(x)
                _effect("entry.38", torch.is_grad_enabled())
            x = x + T_MAIN
        yield x
        return x * 0.5
    g33 = gen33(x)
    first33 = next(g33)
    try:
        next(g33)
    except StopIteration as stop33:
        x = first33 * 0.5 + stop33.value
    x = torch.sin(x)
    try:
        torch._dynamo.step_unsupported()
    finally:
        _effect("entry.41", x)
        x = x + 1.0
    c44 = _SupChild(x)
    x = c44.scale(c44.half)
    return {"out": x, "mean": x.mean()}


def make_inputs(device):
    g = torch.Generator().manual_seed(8772)
    x = torch.randn(4, 2, generator=g)[:, 0]
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
    # eager (see output); torch.compile raised TypeError (in torch._dynamo.eval_frame.compile_wrapper)
    print(f"eager:         {expected}\ntorch.compile: {actual}")
    same = actual.split(":")[0] == expected.split(":")[0]
    print(f"{'match' if same else 'MISMATCH'}: eager vs torch.compile(backend='eager'), torch {torch.__version__}")
    raise SystemExit(0 if same else 1)
