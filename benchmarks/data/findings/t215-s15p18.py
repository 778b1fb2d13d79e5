# ngb-fuzz program
# signature: mismatch:torch_state:grad_enabled
# target: torch:python=/work/venvs/t215/bin/python
# found-by: ngb-fuzz run --seed 15 (program 18)
# features: break.attr_store break.data_if break.graph_break break.item break.tolist call.kwargs call.tree call.varargs class.init class.new class.str class.super_hierarchy closure.nonlocal ctx.as_value ctx.decorator ctx.enable_grad ctx.no_grad depth.4-9 flow.recompile flow.tensor_loop flow.try_except flow.try_finally input.rank3 raise.deliberate shape.decorator_ctx_break shape.upper_ctx_break side.dict stack.dict_display stack.fstring stack.plain stack.tuple_display
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


def f8(x, cm):
    x = torch.tanh(x)
    try:
        x = x * 0.5 + x.mean().item() * 0.5
        raise ValueError("ngb deliberate ngb f8.4")
    except ValueError as e2:
        _effect("f8.2", str(e2))
    _effect("f8.5", torch.is_grad_enabled())
    y6 = x * 1.0
    y6.ngb_note = 0.5
    x = y6 * y6.ngb_note
    with cm:
        _effect("f8.8", torch.is_grad_enabled())
        x = torch.tanh(x)
    return x


def f7(x):
    acc10 = torch.zeros_like(x)
    for r10 in x:
        acc10 = acc10 + r10
        torch._dynamo.graph_break()
        x = torch.sin(x)
        if r10.sum() > 0:
            break
    x = x * 0.5 + acc10 * 0.125
    x = torch.clamp(x, -2.0, 2.0)
    return x


def f6(*args):
    x = args[0]
    acc14 = x * 0.5
    def inner14(x):
        nonlocal acc14
        global COUNTER
        COUNTER = COUNTER + 1
        if COUNTER % 2 == 1:
            x = x * 0.5 + x.mean().item() * 0.5
            _effect("f6.17", torch.is_grad_enabled())
        else:
            x = torch.cos(x)
        _effect("f6.19", torch.is_grad_enabled())
        acc14 = acc14 * 0.5 + x * 0.25
        return x
    x = inner14(x) * 0.5 + acc14 * 0.5
    x = x + 0.25
    x = torch.relu(x) - 0.5
    x = torch.cos(x)
    return x


@torch.enable_grad()
def f5(*args):
    x = args[0]
    x = x - 1.0
    x = x * 1.25
    obj25 = _Box(x)
    x = obj25.value * 0.5 + 0.1
    with torch.no_grad():
        with torch.no_grad():
            acc28 = x * 0.5
            def inner28(x):
                nonlocal acc28
                x = x * 0.5 + x.new_tensor(x.mean(dim=0).tolist()) * 0.5
                x = x * G_SCALE + G_BIAS
                acc28 = acc28 * 0.5 + x * 0.25
                return x
            x = inner28(x) * 0.5 + acc28 * 0.5
    return x


def f4(**kw):
    x = kw["x"]
    with torch.no_grad():
        box32 = []
        s32 = f"f4.32:{x.shape[0]}:{_keep(box32, f6(x))}"
        _effect("f4.32", s32)
        x = box32[0]
        x = torch.sin(x)
        _effect("f4.34", x)
    c35 = _SupChild(x)
    x = c35.scale(c35.half)
    x = x * 2.0
    _effect("f4.37", x)
    return x


def f3(x, cm):
    global COUNTER
    x = f7(x)
    try:
        x = f4(x=x)
        x = torch.sigmoid(x)
    finally:
        _effect("f3.39", x)
        x = torch.sin(x)
    x = torch.cos(x)
    COUNTER = COUNTER + 1
    if COUNTER % 2 == 1:
        t45 = (x, f5(x))
        x = t45[0] * 0.5 + t45[1]
        _effect("f3.46", torch.is_grad_enabled())
    else:
        _effect("f3.47", str(_Named("f3.47", x)))
    torch._dynamo.graph_break()
    with cm:
        _effect("f3.50", torch.is_grad_enabled())
        _effect("f3.51", x)
    x = torch.clamp(x, -3.0, 3.0)
    return x


def f2(x):
    cm53 = torch.no_grad()
    d53 = {"a": x, "b": f3(x, cm53)}
    x = d53["a"] * 0.5 + d53["b"]
    p54 = _Pair(x, x * 0.5)
    x = p54[0] * 0.5 + p54[1]
    x = torch.cos(x)
    return x


def f1(x):
    if x.sum() > 0:
        _effect("f1.57", torch.is_grad_enabled())
    else:
        x = f2(x)
    x = x * G_SCALE + G_BIAS
    x = torch.clamp(x, -3.0, 3.0)
    return x


def entry(x):
    global COUNTER
    x = x * 0.5
    x = x * 0.5 + x.sum(dim=-1, keepdim=True) * 0.1
    try:
        t64 = (x, f1(x))
        x = t64[0] * 0.5 + t64[1]
        raise ValueError("ngb deliberate ngb entry.65")
    except ValueError as e63:
        _effect("entry.63", str(e63))
        _effect("entry.66", x)
    x = x + 1.5
    with torch.enable_grad():
        cm69 = torch.enable_grad()
        d69 = {"a": x, "b": f8(x, cm69)}
        x = d69["a"] * 0.5 + d69["b"]
        x = torch.sin(x)
        _effect("entry.71", torch.is_grad_enabled())
    COUNTER = COUNTER + 1
    if COUNTER % 2 == 1:
        TABLE["entry.73"] = x * 0.25
    else:
        torch._dynamo.graph_break()
        _effect("entry.75", torch.is_grad_enabled())
    return x


def make_inputs(device):
    g = torch.Generator().manual_seed(9317)
    x = torch.randn(3, 3, 5, generator=g)
    return (x.to(device),)


# ---- ngb-fuzz standalone check (generated; do not edit below) ----
if __name__ == "__main__":
    import contextlib

    torch._dynamo.config.nested_graph_breaks = True
    with contextlib.suppress(Exception):  # eager raises here too; what it leaves behind is compared
        entry(*make_inputs("cpu"))
    expected = torch.is_grad_enabled()
    torch.set_grad_enabled(True)  # both calls start from the default
    with contextlib.suppress(Exception):  # eager raises here too; what it leaves behind is compared
        torch.compile(entry, backend="eager")(*make_inputs("cpu"))
    actual = torch.is_grad_enabled()
    # grad mode after the call: torch.compile leaves it other than eager does
    print(f"grad enabled after the call: eager {expected}, torch.compile {actual}")
    same = actual == expected
    print(f"{'match' if same else 'MISMATCH'}: eager vs torch.compile(backend='eager'), torch {torch.__version__}")
    raise SystemExit(0 if same else 1)
