# ngb-fuzz program
# signature: crash:second_call:BackendCompilerFailed@torch.fx.passes._tensorify_python_scalars:_sympy_interp
# target: torch:backend=aot_eager,python=/work/venvs/t215/bin/python
# found-by: ngb-fuzz run --seed 15 (program 341)
# features: break.builtin break.step_unsupported call.callable call.chain call.recursion call.varargs class.new class.super_list closure.nonlocal ctx.decorator ctx.enable_grad ctx.nested_decorators ctx.no_grad ctx.set_grad_enabled depth.10+ flow.early_return flow.generator flow.recompile flow.try_except flow.try_finally raise.deliberate shape.decorator_ctx_break shape.step_break_stack stack.binop stack.call_arg stack.list_display stack.plain stack.subscript stack.tuple_display
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


class C9:
    def __init__(self, scale):
        self.scale = scale

    def __call__(self, x):
        x = torch.cos(x)
        p2 = _Pair(x, x * 0.5)
        x = p2[0] * 0.5 + p2[1]
        x = x + (zlib.crc32(b"f9.3") % 7) * 0.01
        x = torch.sigmoid(x)
        return x


def f8(x):
    try:
        x = x * 0.5 + C9(0.5)(x)
        x = torch.cos(x)
        _effect("f8.8", torch.is_grad_enabled())
        raise ValueError("ngb deliberate ngb f8.9")
    except ValueError as e5:
        _effect("f8.5", str(e5))
    l10 = _SupList()
    l10.append(x)
    x = l10[0] + l10[1] * 0.01
    return x


@torch.no_grad()
@torch.enable_grad()
def f7(x, n):
    global COUNTER
    _effect("f7.11", x)
    COUNTER = COUNTER + 1
    if COUNTER % 2 == 1:
        x = x + 0.5
    else:
        x = x + (zlib.crc32(b"f7.14") % 7) * 0.01
    l15 = [x * 0.5, f8(x), x]
    x = l15[0] + l15[1] - l15[2] * 0.25
    x = torch.tanh(x)
    x = torch.sin(x)
    if n > 0:
        x = f7(x, n - 1)
    return x


def f6(x):
    acc19 = x * 0.5
    def inner19(x):
        nonlocal acc19
        box20 = []
        x = (x * 0.5, x)[_keep(box20, f7(x, 2))] + box20[0]
        x = torch.cos(x)
        acc19 = acc19 * 0.5 + x * 0.25
        return x
    x = inner19(x) * 0.5 + acc19 * 0.5
    if x.dim() == 2:
        return torch.tanh(x)
    return x


def f5(x):
    acc23 = x * 0.5
    def inner23(x):
        nonlocal acc23
        x = f6(x)
        x = torch.clamp(x, -3.0, 3.0)
        _effect("f5.26", torch.is_grad_enabled())
        x = x * G_SCALE + G_BIAS
        acc23 = acc23 * 0.5 + x * 0.25
        return x
    x = inner23(x) * 0.5 + acc23 * 0.5
    x = x - x.mean()
    x = torch.tanh(x)
    return x


def f4(x):
    x = x * 0.5 + f5(x)
    x = torch.clamp(x, -1.0, 1.0)
    x = x - x.mean()
    return x


def f3(x):
    x = torch.add(x * 0.5, f4(x))
    x = torch.sin(x)
    try:
        def gen36(x):
            with torch.set_grad_enabled(True):
                torch._dynamo.step_unsupported()
                _effect("f3.39", torch.is_grad_enabled())
            x = x - x.mean()
            yield x
            yield x * 0.5
        vals36 = list(gen36(x))
        x = vals36[0] * 0.5 + vals36[1]
    finally:
        _effect("f3.35", x)
    return x


def f2(*args):
    x = args[0]
    acc41 = x * 0.5
    def inner41(x):
        nonlocal acc41
        x = x * 0.5 + f3(x)
        acc41 = acc41 * 0.5 + x * 0.25
        return x
    x = inner41(x) * 0.5 + acc41 * 0.5
    x = torch.cos(x)
    return x


class C1:
    def __init__(self, scale):
        self.scale = scale

    def __call__(self, x):
        x = x + 1.5
        t45 = (x, f2(x))
        x = t45[0] * 0.5 + t45[1]
        x = torch.clamp(x, -3.0, 3.0)
        return x


def entry(x):
    global COUNTER
    x = x * 0.5
    x = x - 0.25
    COUNTER = COUNTER + 1
    if COUNTER % 2 == 1:
        _effect("entry.50", x)
    else:
        x = C1(0.5)(x)
    x = torch.cos(x)
    return x


def make_inputs(device):
    g = torch.Generator().manual_seed(8431)
    x = torch.randn(3, 5, generator=g)
    return (x.to(device),)


# ---- ngb-fuzz standalone check (generated; do not edit below) ----
if __name__ == "__main__":
    torch._dynamo.config.nested_graph_breaks = True
    def outcome(fn):  # 'returned', or the type and message of what the call raised
        try:
            for _ in range(2):  # the second call runs the cached code
                fn(*make_inputs("cpu"))
        except Exception as e:
            return f"{type(e).__name__}: {str(e)[:200]}"
        return "returned"

    expected, actual = outcome(entry), outcome(torch.compile(entry, backend="aot_eager"))
    # eager (see output); torch.compile raised BackendCompilerFailed (in torch.fx.passes._tensorify_python_scalars._sympy_interp) on the second call
    print(f"eager:         {expected}\ntorch.compile: {actual}")
    same = actual.split(":")[0] == expected.split(":")[0]
    print(f"{'match' if same else 'MISMATCH'}: eager vs torch.compile(backend='aot_eager'), torch {torch.__version__}")
    raise SystemExit(0 if same else 1)
