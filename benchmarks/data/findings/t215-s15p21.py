# ngb-fuzz program
# signature: mismatch:effects:value
# target: torch:python=/work/venvs/t215/bin/python
# found-by: ngb-fuzz run --seed 15 (program 21)
# features: break.data_if break.graph_break break.step_unsupported call.chain class.super_setattr ctx.decorator ctx.inference_mode ctx.set_grad_enabled depth.2-3 flow.early_return flow.generator input.noncontiguous shape.decorator_ctx_break shape.step_break_stack shape.upper_ctx_break side.attr stack.fstring stack.list_display stack.star_args
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


def f3(x):
    x = torch.tanh(x)
    torch._dynamo.graph_break()
    return x


def f2(x):
    STATE.calls = STATE.calls + 1
    x = x + STATE.calls * 0.01
    l4 = [x * 0.5, f3(x), x]
    x = l4[0] + l4[1] - l4[2] * 0.25
    _effect("f2.5", torch.is_grad_enabled())
    STATE.calls = STATE.calls + 1
    x = x + STATE.calls * 0.01
    if x.dim() == 3:
        return torch.tanh(x)
    x = torch.tanh(x)
    return x


@torch.inference_mode()
def f1(x):
    with torch.set_grad_enabled(True):
        box10 = []
        s10 = f"f1.10:{x.shape[0]}:{_keep(box10, f2(x))}"
        _effect("f1.10", s10)
        x = box10[0]
        _effect("f1.11", torch.is_grad_enabled())
    def gen12(x):
        torch._dynamo.step_unsupported()
        yield x
        yield x * 0.5
    vals12 = list(gen12(x))
    x = vals12[0] * 0.5 + vals12[1]
    x = torch.sin(x)
    x = x * 0.5 + x.sum(dim=-1, keepdim=True) * 0.1
    return x


def entry(x):
    x = torch.add(*[x * 0.5, f1(x)])
    x = torch.sigmoid(x)
    o18 = _SupSetBefore("entry.18")
    o18.v = x
    p18 = _SupSetAfter("entry.18")
    p18.v = o18.v
    x = p18.v
    o19 = _SupSetBefore("entry.19")
    o19.v = x
    p19 = _SupSetAfter("entry.19")
    p19.v = o19.v
    x = p19.v
    if x.sum() > 0:
        x = x + 0.5
    else:
        x = x * 0.5 - 0.25
    return x


def make_inputs(device):
    g = torch.Generator().manual_seed(4689)
    x = torch.randn(3, 3, generator=g).t()
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
