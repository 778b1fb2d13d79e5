# ngb-fuzz program
# signature: crash:BackendCompilerFailed@torch.fx.passes._tensorify_python_scalars:_sympy_interp
# target: torch:backend=aot_eager,python=/work/venvs/t215/bin/python
# found-by: ngb-fuzz run --seed 15 (program 150)
# features: break.builtin break.graph_break break.print break.tolist call.tree class.setattr closure.nonlocal ctx.as_value ctx.autocast ctx.contextmanager ctx.decorator ctx.enable_grad ctx.inference_mode ctx.no_grad ctx.set_grad_enabled depth.4-9 flow.recompile flow.try_except module.helper raise.deliberate shape.decorator_ctx_break shape.helper_closure_globals shape.upper_ctx_break side.dict stack.binop stack.call_arg stack.dict_display stack.plain stack.tuple_display
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


@torch.no_grad()
def f7(x):
    x = torch.sin(x)
    x = x * 2.0
    torch._dynamo.graph_break()
    x = x * 0.5
    return x


def f6(x):
    try:
        x = x * 0.5 + x.new_tensor(x.mean(dim=0).tolist()) * 0.5
        _effect("f6.7", torch.is_grad_enabled())
        raise ValueError("ngb deliberate ngb f6.8")
    except ValueError as e5:
        _effect("f6.5", str(e5))
        x = torch.sin(x)
    return x


def f5(x, cm):
    global COUNTER
    COUNTER = COUNTER + 1
    if COUNTER % 2 == 1:
        obj11 = _Tracked("f5.11")
        obj11.v = x
        x = obj11.v * 0.5
    else:
        with torch.set_grad_enabled(True):
            x = f6(x)
            x = torch.cos(x)
            _effect("f5.15", torch.is_grad_enabled())
        _effect("f5.16", torch.is_grad_enabled())
    print("ngb f5.17")
    with cm:
        _effect("f5.19", torch.is_grad_enabled())
        x = torch.tanh((x @ x.transpose(-1, -2)) @ x * 0.05)
    return x


def f2(x):
    with torch.inference_mode():
        x = x + (zlib.crc32(b"f2.22") % 7) * 0.01
    TABLE["f2.23"] = x * 0.25
    t24 = (x, ngb_h1.f3(x))
    x = t24[0] * 0.5 + t24[1]
    TABLE["f2.25"] = x * 0.25
    x = x.abs() * 0.5
    return x


def entry(x):
    with torch.enable_grad():
        x = ngb_h2.f1(x)
        _effect("entry.29", torch.is_grad_enabled())
    x = torch.sin(x)
    return x


ngb_h1 = types.ModuleType("ngb_h1")
ngb_h1.__dict__.update({"_effect": _effect, "_keep": _keep, "_ngb_disabled": _ngb_disabled, "_Ctx": _Ctx, "_cm": _cm, "_cm_disabled": _cm_disabled, "_Box": _Box, "_Tracked": _Tracked, "_Bag": _Bag, "_Prop": _Prop, "_Pair": _Pair, "_Named": _Named, "_Base": _Base, "_MOD": _MOD, "STATE": STATE, "_SupSetBefore": _SupSetBefore, "_SupSetAfter": _SupSetAfter, "_SupDict": _SupDict, "_SupList": _SupList, "_SupChild": _SupChild})
exec(compile('''
import contextlib
import types
import zlib

import torch

G_SCALE = 0.75
G_BIAS = 0.5
T_H1 = torch.tensor(1.0)
LOG = []
TABLE = {}
COUNTER = 0


def f3(x):
    _effect("f3.31", torch.is_grad_enabled())
    x = torch.clamp(x, -2.0, 2.0)
    x = x - 1.0
    x = x * 0.5 + f4(x)
    x = x + (zlib.crc32(b"f3.35") % 7) * 0.01
    x = torch.tanh(x)
    return x


def f4(x):
    x = x + 1.5
    x = x + 0.25
    acc39 = x * 0.5
    def inner39(x):
        nonlocal acc39
        cm40 = _Ctx("f4.40.cm")
        x = torch.add(x * 0.5, f5(x, cm40))
        x = torch.sin(x)
        x = x + T_H1
        acc39 = acc39 * 0.5 + x * 0.25
        return x
    x = inner39(x) * 0.5 + acc39 * 0.5
    return x
''', "ngb_h1", "exec"), ngb_h1.__dict__)


ngb_h2 = types.ModuleType("ngb_h2")
ngb_h2.__dict__.update({"_effect": _effect, "_keep": _keep, "_ngb_disabled": _ngb_disabled, "_Ctx": _Ctx, "_cm": _cm, "_cm_disabled": _cm_disabled, "_Box": _Box, "_Tracked": _Tracked, "_Bag": _Bag, "_Prop": _Prop, "_Pair": _Pair, "_Named": _Named, "_Base": _Base, "_MOD": _MOD, "STATE": STATE, "_SupSetBefore": _SupSetBefore, "_SupSetAfter": _SupSetAfter, "_SupDict": _SupDict, "_SupList": _SupList, "_SupChild": _SupChild})
exec(compile('''
import contextlib
import types
import zlib

import torch

G_SCALE = 1.25
G_BIAS = 0.125
T_H2 = torch.tensor(0.25)
LOG = []
TABLE = {}
COUNTER = 0


def f1(x):
    _effect("f1.43", x)
    with _cm("f1.44"):
        x = x * 0.5 + f2(x)
    with torch.autocast("cpu", dtype=torch.bfloat16):
        d47 = {"a": x, "b": f7(x)}
        x = d47["a"] * 0.5 + d47["b"]
        x = torch.cos(x)
    return x
''', "ngb_h2", "exec"), ngb_h2.__dict__)
ngb_h1.__dict__.update({"entry": entry, "f2": f2, "f5": f5, "f6": f6, "f7": f7, "f1": ngb_h2.f1})
ngb_h2.__dict__.update({"entry": entry, "f2": f2, "f5": f5, "f6": f6, "f7": f7, "f3": ngb_h1.f3, "f4": ngb_h1.f4})


def make_inputs(device):
    g = torch.Generator().manual_seed(1398)
    x = torch.randn(4, 5, generator=g)
    return (x.to(device),)


# ---- ngb-fuzz standalone check (generated; do not edit below) ----
if __name__ == "__main__":
    import sys
    sys.modules.update({m.__name__: m for m in list(globals().values())
                        if isinstance(m, type(sys)) and m.__name__.startswith("ngb_")})

    torch._dynamo.config.nested_graph_breaks = True
    def outcome(fn):  # 'returned', or the type and message of what the call raised
        try:
            fn(*make_inputs("cpu"))
        except Exception as e:
            return f"{type(e).__name__}: {str(e)[:200]}"
        return "returned"

    expected, actual = outcome(entry), outcome(torch.compile(entry, backend="aot_eager"))
    # eager (see output); torch.compile raised BackendCompilerFailed (in torch.fx.passes._tensorify_python_scalars._sympy_interp)
    print(f"eager:         {expected}\ntorch.compile: {actual}")
    same = actual.split(":")[0] == expected.split(":")[0]
    print(f"{'match' if same else 'MISMATCH'}: eager vs torch.compile(backend='aot_eager'), torch {torch.__version__}")
    raise SystemExit(0 if same else 1)
