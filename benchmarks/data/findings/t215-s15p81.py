# ngb-fuzz program
# signature: crash:AssertionError@torch._dynamo.resume_execution:generate_based_on_original_code_object
# target: torch:python=/work/venvs/t215/bin/python
# found-by: ngb-fuzz run --seed 15 (program 81)
# features: break.attr_store break.graph_break break.print call.callable call.chain call.kwargs call.lambda call.varargs class.property class.setitem class.str class.super_dict class.super_list closure.nonlocal ctx.as_value ctx.contextmanager ctx.contextmanager_disabled ctx.decorator ctx.disable_ngb ctx.enable_grad ctx.inference_mode ctx.nested_decorators ctx.no_grad ctx.set_grad_enabled ctx.user_class depth.10+ filler.hypothesmith flow.generator flow.loop flow.recompile flow.tensor_loop flow.try_except nn.module raise.deliberate shape.cm_disable_init shape.decorator_ctx_break shape.upper_ctx_break side.list stack.binop stack.call_arg stack.comprehension stack.conditional stack.dict_display stack.list_display stack.method stack.plain stack.unpack
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
def f20(x):
    with torch.set_grad_enabled(True):
        y2 = x * 1.0
        y2.ngb_note = 0.5
        x = y2 * y2.ngb_note
    return x


@_Ctx("f19.deco0")
@torch.enable_grad()
def f19(x):
    def gen3(x):
        x = torch.enable_grad()(f20)(x)
        yield x
        return x * 0.5
    g3 = gen3(x)
    first3 = next(g3)
    try:
        next(g3)
    except StopIteration as stop3:
        x = first3 * 0.5 + stop3.value
    x = torch.sin(x)
    _effect("f19.6", str(_Named("f19.6", x)))
    return x


def f18(x):
    x = f19(x)
    x = torch.sin(x)
    return x


def f17(x):
    _effect("f17.9", x)
    a10, *r10 = [x, f18(x), x * 0.5]
    x = a10 * 0.25 + r10[0] + r10[1] * 0.25
    x = torch.tanh(x)
    return x


def f16(x):
    global COUNTER
    COUNTER = COUNTER + 1
    if COUNTER % 2 == 1:
        x = x * 1.5 - 0.25
    else:
        d14 = {"a": x, "b": f17(x)}
        x = d14["a"] * 0.5 + d14["b"]
    x = torch.sin(x)
    return x


def f15(*args):
    global COUNTER
    x = args[0]
    COUNTER = COUNTER + 1
    if COUNTER % 2 == 1:
        x = torch.add(x * 0.5, f16(x))
    else:
        x = torch.tanh((x @ x.transpose(-1, -2)) @ x * 0.05)
    _effect("f15.19", x.sum())
    x = torch.tanh(x)
    return x


def f14(x):
    x = torch.tanh(x)
    with _Ctx("f14.22"):
        x = x * 0.5 + f15(x)
        _effect("f14.24", torch.is_autocast_enabled("cpu"))
    x = torch.tanh(x)
    return x


def f13(x):
    x = torch.clamp(x, -2.0, 2.0)
    with torch.inference_mode():
        flag28 = x.dim() == 2
        x = f14(x) if flag28 else x - 0.5
    x = torch.tanh((x @ x.transpose(-1, -2)) @ x * 0.05)
    return x


def f12(x):
    with _cm("f12.30"):
        l31 = [x * 0.5, f13(x), x]
        x = l31[0] + l31[1] - l31[2] * 0.25
        x = torch.tanh(x)
    return x


def f11_impl(x):
    try:
        x = f12(x)
        x = torch.tanh(x)
        raise ValueError("ngb deliberate ngb f11.36")
    except ValueError as e33:
        _effect("f11.33", str(e33))
        x = _Prop(x).half_value
    x = torch.sin(x)
    return x


f11 = lambda x: 0.0 + f11_impl(x)


def f10(*args):
    x = args[0]
    flag39 = x.dim() == 2
    x = f11(x) if flag39 else x - 0.5
    x = torch.tanh(x)
    bag41 = _Bag("f10.41")
    bag41["a"] = x
    x = bag41["a"] * 0.5
    return x


def f9_impl(x):
    for i42 in range(2):
        x = f10(x)
        x = torch.cos(x)
        _effect("f9.45", torch.is_grad_enabled())
        x = torch.clamp(x, -1.0, 1.0)
    return x


f9 = lambda x: 0.0 + f9_impl(x)


class C8:
    def __init__(self, scale):
        self.scale = scale

    def __call__(self, x):
        with torch.no_grad():
            x = torch.add(x * 0.5, f9(x))
            x = torch.tanh(x)
        x = _MOD(x)
        return x


def f7(x):
    _effect("f7.51", x)
    d52 = {"a": x, "b": C8(0.5)(x)}
    x = d52["a"] * 0.5 + d52["b"]
    x = torch.clamp(x, -3.0, 3.0)
    return x


def f6(x, cm):
    l54 = [x * 0.5, f7(x), x]
    x = l54[0] + l54[1] - l54[2] * 0.25
    x = torch.clamp(x, -1.0, 1.0)
    _effect("f6.56", torch.is_grad_enabled())
    print("ngb f6.57")
    with cm:
        _effect("f6.59", torch.is_grad_enabled())
        def filler60():
            try:
            
                class A:
                    pass
            except:
                pass
        filler60()
    return x


@_cm_disabled("f5.deco0")
def f5(**kw):
    x = kw["x"]
    acc61 = torch.zeros_like(x)
    for i61, r61 in enumerate(x):
        acc61 = acc61 + r61
        def gen62(x):
            cm63 = torch.autocast("cpu", dtype=torch.bfloat16)
            x = f6(x, cm63)
            x = torch.cos(x)
            l65 = _SupList()
            l65.append(x)
            x = l65[0] + l65[1] * 0.01
            yield x
            yield x * 0.5
        vals62 = list(gen62(x))
        x = vals62[0] * 0.5 + vals62[1]
        _effect("f5.66", x)
        x = torch.cos(x)
        if i61 >= 1:
            break
    x = x * 0.5 + acc61 * 0.125
    LOG.append(x * 0.5)
    x = torch.tanh(x)
    return x


def f4(x):
    acc70 = x * 0.5
    def inner70(x):
        nonlocal acc70
        x = (x * 0.5).add(f5(x=x))
        x = torch.clamp(x, -2.0, 2.0)
        x = x + 1.5
        acc70 = acc70 * 0.5 + x * 0.25
        return x
    x = inner70(x) * 0.5 + acc70 * 0.5
    LOG.append(x * 0.5)
    return x


def f3(**kw):
    x = kw["x"]
    torch._dynamo.graph_break()
    with torch.inference_mode():
        flag77 = x.dim() == 2
        x = f4(x) if flag77 else x - 0.5
        x = torch.clamp(x, -3.0, 3.0)
    d79 = _SupDict()
    d79["f3.79"] = x
    x = d79["f3.79"] * 0.5
    return x


def f2(x):
    x = torch.relu(x) - 0.5
    with torch.no_grad():
        a82, *r82 = [x, f3(x=x), x * 0.5]
        x = a82 * 0.25 + r82[0] + r82[1] * 0.25
    x = torch.cos(x)
    return x


def f1(x):
    with torch.enable_grad():
        v85 = [f2(x + c85) for c85 in (0.0, 0.5)]
        x = v85[0] * 0.5 + v85[1] * 0.5
        x = torch.sigmoid(x)
    _effect("f1.87", torch.is_grad_enabled())
    return x


def entry(x):
    def gen88(x):
        d89 = {"a": x, "b": f1(x)}
        x = d89["a"] * 0.5 + d89["b"]
        yield x
        _effect("entry.88.never", 0)
        yield x
    g88 = gen88(x)
    x = next(g88)
    x = torch.sin(x)
    return x


def make_inputs(device):
    g = torch.Generator().manual_seed(5582)
    x = torch.randn(5, 3, generator=g)
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
