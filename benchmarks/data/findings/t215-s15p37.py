# ngb-fuzz program
# signature: crash:BackendCompilerFailed@torch.fx.interpreter:run_node
# target: torch:backend=aot_eager,python=/work/venvs/t215/bin/python
# found-by: ngb-fuzz run --seed 15 (program 37)
# features: break.data_if break.item break.tolist call.chain call.kwargs call.method class.new ctx.decorator ctx.disable_ngb ctx.inference_mode depth.2-3 flow.tensor_loop flow.try_except raise.deliberate shape.decorator_ctx_break shape.upper_ctx_break side.global stack.call_arg stack.dict_display stack.unpack
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


@torch._dynamo.disable_nested_graph_breaks
def f3(**kw):
    global COUNTER
    x = kw["x"]
    acc1 = torch.zeros_like(x)
    for i1, r1 in enumerate(x):
        acc1 = acc1 + r1
        x = x * 0.5 + x.new_tensor(x.mean(dim=0).tolist()) * 0.5
        x = torch.cos(x)
        if i1 >= 1:
            break
    x = x * 0.5 + acc1 * 0.125
    COUNTER = COUNTER + 1
    x = x + COUNTER * 0.01
    p5 = _Pair(x, x * 0.5)
    x = p5[0] * 0.5 + p5[1]
    x = torch.clamp(x, -2.0, 2.0)
    return x


class C2:
    def __init__(self, scale):
        self.scale = scale

    def run(self, x):
        try:
            d8 = {"a": x, "b": f3(x=x)}
            x = d8["a"] * 0.5 + d8["b"]
            _effect("f2.9", torch.is_grad_enabled())
            raise ValueError("ngb deliberate ngb f2.10")
        except ValueError as e7:
            _effect("f2.7", str(e7))
            x = x + 1.5
        x = torch.sigmoid(x)
        return x


def f1(x):
    acc13 = torch.zeros_like(x)
    for r13 in x:
        acc13 = acc13 + r13
        a14, *r14 = [x, C2(0.5).run(x), x * 0.5]
        x = a14 * 0.25 + r14[0] + r14[1] * 0.25
        _effect("f1.15", torch.is_grad_enabled())
        x = torch.tanh(x)
    x = x * 0.5 + acc13 * 0.125
    if x.sum() > 0:
        x = x * 0.5 + x.mean().item() * 0.5
    else:
        _effect("f1.19", x)
    x = x * G_SCALE + G_BIAS
    return x


def entry(x):
    x = x - x.mean()
    x = torch.sigmoid(x)
    with torch.inference_mode():
        x = torch.add(x * 0.5, f1(x))
        _effect("entry.25", torch.is_grad_enabled())
    x = torch.clamp(x, -3.0, 3.0)
    return x


def make_inputs(device):
    g = torch.Generator().manual_seed(1336)
    x = torch.randn(3, 2, generator=g)
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

    expected, actual = outcome(entry), outcome(torch.compile(entry, backend="aot_eager"))
    # eager (see output); torch.compile raised BackendCompilerFailed (in torch.fx.interpreter.call_function)
    print(f"eager:         {expected}\ntorch.compile: {actual}")
    same = actual.split(":")[0] == expected.split(":")[0]
    print(f"{'match' if same else 'MISMATCH'}: eager vs torch.compile(backend='aot_eager'), torch {torch.__version__}")
    raise SystemExit(0 if same else 1)
