# ngb-fuzz program
# signature: mismatch:effects:value
# target: torch
# found-by: ngb-fuzz run --seed 13 (program 29)
# features: break.data_if break.disable break.graph_break break.tolist call.chain class.local closure.nonlocal ctx.as_value ctx.no_grad ctx.set_grad_enabled depth.2-3 flow.recompile flow.try_finally shape.upper_ctx_break side.attr side.global stack.dict_display stack.kwargs stack.star_args
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


def f3(x, cm):
    acc1 = x * 0.5
    def inner1(x):
        nonlocal acc1
        if x.sum() > 0:
            x = x + 1.5
        else:
            x = torch.tanh(x)
        _effect("f3.5", torch.is_grad_enabled())
        x = torch.clamp(x, -1.0, 1.0)
        x = x * G_SCALE + G_BIAS
        acc1 = acc1 * 0.5 + x * 0.25
        return x
    x = inner1(x) * 0.5 + acc1 * 0.5
    class Local8:
        scale = 0.5
    
        def apply(self, v):
            return v * self.scale
    x = Local8().apply(x) + 0.25
    torch._dynamo.graph_break()
    with cm:
        _effect("f3.11", torch.is_grad_enabled())
        STATE.calls = STATE.calls + 1
        x = x + STATE.calls * 0.01
    return x


def f2(x):
    with torch.no_grad():
        cm14 = torch.enable_grad()
        x = torch.add(**{"input": x * 0.5, "other": f3(x, cm14)})
    _effect("f2.15", x)
    x = torch.sin(x)
    x = torch.cos(x)
    x = x * 0.5 + x.new_tensor(x.mean(dim=0).tolist()) * 0.5
    return x


def f1(x):
    _effect("f1.19", torch.is_grad_enabled())
    acc20 = x * 0.5
    def inner20(x):
        nonlocal acc20
        x = torch.add(*[x * 0.5, f2(x)])
        _effect("f1.22", torch.is_grad_enabled())
        acc20 = acc20 * 0.5 + x * 0.25
        return x
    x = inner20(x) * 0.5 + acc20 * 0.5
    x = torch.cos(x)
    return x


def entry(x):
    global COUNTER
    COUNTER = COUNTER + 1
    if COUNTER % 2 == 1:
        x = _ngb_disabled(x)
    else:
        COUNTER = COUNTER + 1
        x = x + COUNTER * 0.01
    with torch.no_grad():
        with torch.set_grad_enabled(False):
            try:
                d30 = {"a": x, "b": f1(x)}
                x = d30["a"] * 0.5 + d30["b"]
            finally:
                _effect("entry.29", x)
    x = torch.clamp(x, -3.0, 3.0)
    return x


def make_inputs(device):
    g = torch.Generator().manual_seed(106)
    x = torch.randn(4, 2, generator=g)
    return (x.to(device),)


# ---- ngb-fuzz standalone check (generated; do not edit below) ----
if __name__ == "__main__":
    import contextlib

    torch._dynamo.config.nested_graph_breaks = True
    def equal(a, b):  # same types and shapes, tensors equal elementwise (NaN equal to NaN), objects by fields
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
