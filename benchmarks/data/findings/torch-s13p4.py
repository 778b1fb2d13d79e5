# ngb-fuzz program
# signature: mismatch:torch_state:grad_enabled
# target: torch
# found-by: ngb-fuzz run --seed 13 (program 4)
# features: break.data_if break.disable break.numpy break.step_unsupported call.tree class.super class.super_hierarchy ctx.as_value ctx.decorator ctx.inference_mode ctx.no_grad ctx.set_grad_enabled ctx.user_class depth.2-3 flow.early_return flow.tensor_loop input.noncontiguous input.rank3 shape.decorator_ctx_break shape.step_break_stack shape.upper_ctx_break stack.binop stack.list_display stack.method stack.unpack
import contextlib
import types

import numpy as np
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


def f4(x, cm):
    with _Ctx("f4.1"):
        if x.sum() > 0:
            _effect("f4.3", x.sum())
        else:
            x = torch.clamp(x, -2.0, 2.0)
    c5 = _SupChild(x)
    x = c5.scale(c5.half)
    x = _ngb_disabled(x)
    with cm:
        _effect("f4.8", torch.is_grad_enabled())
        _effect("f4.9", x.sum())
    return x


def f3(x):
    with torch.no_grad():
        x = x * 0.5 + torch.from_numpy(np.clip(x.detach().float().cpu().numpy(), -2.0, 2.0) * 0.5).to(x.device, x.dtype)
    class Sub12(_Base):
        def scale(self, v):
            return super().scale(v) * 0.5
    x = Sub12().scale(x)
    return x


def f2(x):
    acc13 = torch.zeros_like(x)
    for i13, r13 in enumerate(x.unbind(0)):
        acc13 = acc13 + r13
        torch._dynamo.step_unsupported()
        _effect("f2.15", torch.is_grad_enabled())
        x = torch.sin(x)
        if i13 >= 1:
            break
    x = x * 0.5 + acc13 * 0.125
    return x


@torch.inference_mode()
def f1(x):
    with torch.set_grad_enabled(False):
        cm18 = torch.no_grad()
        x = (x * 0.5).add(f4(x, cm18))
        _effect("f1.19", torch.is_grad_enabled())
    x = x * 0.5 + f2(x)
    x = torch.tanh(x)
    return x


def entry(x):
    l22 = [x * 0.5, f1(x), x]
    x = l22[0] + l22[1] - l22[2] * 0.25
    a23, *r23 = [x, f3(x), x * 0.5]
    x = a23 * 0.25 + r23[0] + r23[1] * 0.25
    x = torch.cos(x)
    if x.dim() == 4:
        return torch.tanh(x)
    x = x * 1.25
    return x


def make_inputs(device):
    g = torch.Generator().manual_seed(2400)
    x = torch.randn(3, 2, 5, generator=g).transpose(-1, -2)
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
