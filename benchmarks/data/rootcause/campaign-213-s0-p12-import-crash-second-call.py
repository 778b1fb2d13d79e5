# ngb-fuzz program
# signature: crash:second_call:InternalTorchDynamoError@torch._dynamo.symbolic_convert:_import_module
# target: torch
# found-by: ngb-fuzz run --seed 0 (program 12)
# features: break.attr_store break.builtin break.data_if break.disable break.graph_break break.item break.numpy break.step_unsupported call.callable call.kwargs call.lambda call.method call.tree call.varargs class.local class.new class.property class.setitem class.str class.super closure.nonlocal ctx.as_value ctx.autocast ctx.contextmanager ctx.decorator ctx.disable_ngb ctx.enable_grad ctx.inference_mode ctx.nested_decorators ctx.no_grad ctx.set_grad_enabled ctx.user_class depth.30+ filler.hypothesmith flow.early_return flow.generator flow.recompile flow.tensor_loop flow.try_except flow.try_finally nn.module raise.deliberate shape.decorator_ctx_break shape.step_break_stack shape.upper_ctx_break side.attr side.dict side.global side.list stack.binop stack.call_arg stack.comprehension stack.conditional stack.dict_display stack.fstring stack.kwargs stack.list_display stack.method stack.plain stack.star_args stack.subscript stack.tuple_display stack.unpack
import contextlib
import types
import zlib

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


class _Mod(torch.nn.Module):
    def __init__(self):
        super().__init__()
        self.scale = torch.nn.Parameter(torch.full((), 0.5))

    def forward(self, x):
        # clone: x may be an inference tensor from an inference_mode block upstream
        return torch.tanh(x.clone() * self.scale + 0.1)


_MOD = _Mod()


def f98(x):
    torch._dynamo.graph_break()
    x = _MOD(x)
    return x


def f97(x, cm):
    try:
        torch._dynamo.graph_break()
        _effect("f97.5", torch.is_grad_enabled())
        raise ValueError("ngb deliberate ngb f97.6")
    except ValueError as e3:
        _effect("f97.3", str(e3))
        x = torch.tanh((x @ x.transpose(-1, -2)) @ x * 0.05)
    x = x * 0.5 + x.mean().item() * 0.5
    with cm:
        _effect("f97.10", torch.is_grad_enabled())
        x = torch.clamp(x, -1.0, 1.0)
    return x


def f96(x):
    with torch.enable_grad():
        x = x + (zlib.crc32(b"f96.13") % 7) * 0.01
        _effect("f96.14", torch.is_grad_enabled())
    x = torch.tanh(x)
    return x


@_Ctx("f95.deco0")
def f95(x):
    acc16 = x * 0.5
    def inner16(x):
        nonlocal acc16
        t17 = (x, f96(x))
        x = t17[0] * 0.5 + t17[1]
        x = torch.clamp(x, -1.0, 1.0)
        x = x + T_MAIN
        acc16 = acc16 * 0.5 + x * 0.25
        return x
    x = inner16(x) * 0.5 + acc16 * 0.5
    x = x + 1.0
    return x


def f94_impl(x):
    l21 = [x * 0.5, f95(x), x]
    x = l21[0] + l21[1] - l21[2] * 0.25
    x = torch.clamp(x, -3.0, 3.0)
    return x


f94 = lambda x: 0.0 + f94_impl(x)


def f93(x):
    box23 = []
    x = (x * 0.5, x)[_keep(box23, f94(x))] + box23[0]
    x = torch.clamp(x, -3.0, 3.0)
    return x


def f92(x):
    _effect("f92.25", torch.is_grad_enabled())
    x = (x * 0.5).add(f93(x))
    x = torch.tanh((x @ x.transpose(-1, -2)) @ x * 0.05)
    return x


@torch.no_grad()
@_Ctx("f91.deco1")
def f91_impl(x):
    box28 = []
    x = (x * 0.5, x)[_keep(box28, f98(x))] + box28[0]
    with torch.no_grad():
        x = f92(x)
        x = torch.sigmoid(x)
    return x


f91 = lambda x: 0.0 + f91_impl(x)


def f90(x):
    x = x + 1.0
    x = f91(x)
    x = x * 0.5 + torch.from_numpy(np.clip(x.detach().float().cpu().numpy(), -2.0, 2.0) * 0.5).to(x.device, x.dtype)
    return x


@_Ctx("f89.deco0")
@torch.no_grad()
def f89(x):
    with _Ctx("f89.35"):
        x = f90(x)
        _effect("f89.37", torch.is_grad_enabled())
    bag38 = _Bag("f89.38")
    bag38["a"] = x
    x = bag38["a"] * 0.5
    return x


class C88:
    def __init__(self, scale):
        self.scale = scale

    def run(self, x):
        x = torch.tanh((x @ x.transpose(-1, -2)) @ x * 0.05)
        with torch.no_grad():
            x = x * 0.5 + f89(x)
        x = x + (zlib.crc32(b"f88.42") % 7) * 0.01
        x = torch.clamp(x, -2.0, 2.0)
        return x


def f87(x):
    _effect("f87.44", torch.is_grad_enabled())
    l45 = [x * 0.5, C88(0.5).run(x), x]
    x = l45[0] + l45[1] - l45[2] * 0.25
    x = torch.cos(x)
    return x


def f86(x):
    _effect("f86.47", torch.is_grad_enabled())
    box48 = []
    s48 = f"f86.48:{x.shape[0]}:{_keep(box48, f87(x))}"
    _effect("f86.48", s48)
    x = box48[0]
    x = torch.sin(x)
    return x


def f85(x):
    l50 = [x * 0.5, f86(x), x]
    x = l50[0] + l50[1] - l50[2] * 0.25
    x = torch.tanh((x @ x.transpose(-1, -2)) @ x * 0.05)
    return x


def f84(x):
    acc52 = x * 0.5
    def inner52(x):
        nonlocal acc52
        d53 = {"a": x, "b": f85(x)}
        x = d53["a"] * 0.5 + d53["b"]
        x = torch.tanh(x)
        _effect("f84.55", str(_Named("f84.55", x)))
        acc52 = acc52 * 0.5 + x * 0.25
        return x
    x = inner52(x) * 0.5 + acc52 * 0.5
    return x


def f83(**kw):
    x = kw["x"]
    x = f84(x)
    x = torch.sigmoid(x)
    _effect("f83.58", torch.is_autocast_enabled("cpu"))
    return x


def f82(x):
    LOG.append(x * 0.5)
    x = x * 0.5 + f83(x=x)
    x = torch.tanh(x)
    return x


def f81(x):
    x = torch.add(x * 0.5, f82(x))
    x = torch.tanh(x)
    return x


def f80(x):
    _effect("f80.64", torch.is_autocast_enabled("cpu"))
    def gen65(x):
        x = _cm("f80.66.deco")(f81)(x)
        x = torch.sigmoid(x)
        _effect("f80.68", torch.is_grad_enabled())
        yield x
        yield x * 0.5
    vals65 = list(gen65(x))
    x = vals65[0] * 0.5 + vals65[1]
    return x


def f79(x):
    global COUNTER
    x = torch.relu(x) - 0.5
    COUNTER = COUNTER + 1
    if COUNTER % 2 == 1:
        _effect("f79.71", torch.is_inference_mode_enabled())
    else:
        x = torch.add(x * 0.5, f80(x))
        x = torch.tanh((x @ x.transpose(-1, -2)) @ x * 0.05)
        _effect("f79.74", torch.is_grad_enabled())
    x = torch.tanh((x @ x.transpose(-1, -2)) @ x * 0.05)
    return x


def f78(x):
    l76 = [x * 0.5, f79(x), x]
    x = l76[0] + l76[1] - l76[2] * 0.25
    if x.sum() > 0:
        x = _ngb_disabled(x)
        _effect("f78.79", torch.is_grad_enabled())
    else:
        x = x * 0.75
    x = x * G_SCALE + G_BIAS
    x = torch.sin(x)
    return x


def f77_impl(x):
    def gen83(x):
        x = torch.add(*[x * 0.5, f78(x)])
        _effect("f77.85", torch.is_grad_enabled())
        yield x
        _effect("f77.83.never", 0)
        yield x
    g83 = gen83(x)
    x = next(g83)
    x = torch.sin(x)
    return x


f77 = lambda x: 0.0 + f77_impl(x)


def f76(*args):
    x = args[0]
    x = f77(x)
    x = torch.sin(x)
    return x


def f75(x):
    if x.dim() == 2:
        return torch.tanh(x)
    try:
        x = f76(x)
        _effect("f75.92", torch.is_grad_enabled())
        raise ValueError("ngb deliberate ngb f75.93")
    except ValueError as e90:
        _effect("f75.90", str(e90))
    x = torch.sin(x)
    return x


def f74_impl(x):
    x = torch.clamp(x, -3.0, 3.0)
    with torch.autocast("cpu", dtype=torch.bfloat16):
        x = f75(x)
    x = torch.clamp(x, -2.0, 2.0)
    return x


f74 = lambda x: 0.0 + f74_impl(x)


@_cm("f73.deco0")
def f73(x):
    x = f74(x)
    x = torch.sin(x)
    return x


def f72(x):
    acc101 = x * 0.5
    def inner101(x):
        nonlocal acc101
        x = f73(x)
        x = x * G_SCALE + G_BIAS
        acc101 = acc101 * 0.5 + x * 0.25
        return x
    x = inner101(x) * 0.5 + acc101 * 0.5
    x = torch.sigmoid(x)
    return x


def f71(x):
    x = _Prop(x).half_value
    flag106 = x.dim() == 2
    x = f72(x) if flag106 else x - 0.5
    x = torch.sin(x)
    return x


def f70(x):
    with torch.enable_grad():
        t109 = (x, f71(x))
        x = t109[0] * 0.5 + t109[1]
        _effect("f70.110", x)
    class Sub111(_Base):
        def scale(self, v):
            return super().scale(v) * 0.5
    x = Sub111().scale(x)
    return x


def f69(x):
    x = (x * 0.5).add(f70(x))
    x = torch.tanh(x)
    return x


@torch.enable_grad()
def f68(x):
    x = x * G_SCALE + G_BIAS
    acc115 = x * 0.5
    def inner115(x):
        nonlocal acc115
        x = torch.no_grad()(f69)(x)
        acc115 = acc115 * 0.5 + x * 0.25
        return x
    x = inner115(x) * 0.5 + acc115 * 0.5
    x = torch.cos(x)
    return x


def f67(x):
    x = (x * 0.5).add(f68(x))
    x = torch.sin(x)
    return x


class C66:
    def __init__(self, scale):
        self.scale = scale

    def run(self, x):
        global COUNTER
        try:
            torch._dynamo.graph_break()
        finally:
            _effect("f66.120", x)
            x = torch.tanh((x @ x.transpose(-1, -2)) @ x * 0.05)
        try:
            x = f67(x)
        finally:
            _effect("f66.123", x)
            COUNTER = COUNTER + 1
            x = x + COUNTER * 0.01
        x = torch.clamp(x, -1.0, 1.0)
        return x


def f65(x):
    with torch.autocast("cpu", dtype=torch.bfloat16):
        x = x * 0.5 + C66(0.5).run(x)
        x = torch.tanh(x)
        _effect("f65.130", torch.is_grad_enabled())
    return x


@torch.enable_grad()
def f64(x):
    d131 = {"a": x, "b": f65(x)}
    x = d131["a"] * 0.5 + d131["b"]
    x = torch.sigmoid(x)
    _effect("f64.133", x)
    return x


@torch.enable_grad()
def f63(**kw):
    x = kw["x"]
    with torch.no_grad():
        x = x * 0.5 + f64(x)
        x = torch.tanh(x)
        x = x * 1.25
    return x


def f62(x):
    acc138 = x * 0.5
    def inner138(x):
        nonlocal acc138
        x = f63(x=x)
        x = torch.tanh(x)
        x = x * G_SCALE + G_BIAS
        acc138 = acc138 * 0.5 + x * 0.25
        return x
    x = inner138(x) * 0.5 + acc138 * 0.5
    return x


def f61(x):
    t142 = (x, f62(x))
    x = t142[0] * 0.5 + t142[1]
    x = torch.tanh((x @ x.transpose(-1, -2)) @ x * 0.05)
    return x


class C60:
    def __init__(self, scale):
        self.scale = scale

    def run(self, x):
        try:
            flag145 = x.dim() == 2
            x = f61(x) if flag145 else x - 0.5
            x = torch.clamp(x, -2.0, 2.0)
            STATE.calls = STATE.calls + 1
            x = x + STATE.calls * 0.01
            raise ValueError("ngb deliberate ngb f60.148")
        except ValueError as e144:
            _effect("f60.144", str(e144))
        x = x * 2.0
        x = torch.sigmoid(x)
        return x


def f59(x):
    flag151 = x.dim() == 2
    x = C60(0.5).run(x) if flag151 else x - 0.5
    x = torch.sin(x)
    return x


def f58(x):
    try:
        a154, *r154 = [x, f59(x), x * 0.5]
        x = a154 * 0.25 + r154[0] + r154[1] * 0.25
        x = torch.tanh(x)
    finally:
        _effect("f58.153", x)
    return x


@torch.no_grad()
def f57(x):
    acc156 = x * 0.5
    def inner156(x):
        nonlocal acc156
        x = torch.add(**{"input": x * 0.5, "other": f58(x)})
        x = torch.clamp(x, -3.0, 3.0)
        _effect("f57.159", torch.is_grad_enabled())
        acc156 = acc156 * 0.5 + x * 0.25
        return x
    x = inner156(x) * 0.5 + acc156 * 0.5
    x = torch.clamp(x, -1.0, 1.0)
    return x


def f56(x, cm):
    with torch.inference_mode():
        flag162 = x.dim() == 2
        x = f57(x) if flag162 else x - 0.5
        x = torch.clamp(x, -3.0, 3.0)
        _effect("f56.164", torch.is_grad_enabled())
    if x.sum() > 0:
        _effect("f56.166", x)
    else:
        TABLE["f56.167"] = x * 0.25
    with cm:
        _effect("f56.169", torch.is_grad_enabled())
        _effect("f56.170", torch.is_autocast_enabled("cpu"))
    return x


def f55(x):
    cm171 = torch.enable_grad()
    x = torch.add(x * 0.5, f56(x, cm171))
    x = torch.clamp(x, -1.0, 1.0)
    return x


def f54(x):
    with _Ctx("f54.173"):
        x = f55(x)
        x = torch.sigmoid(x)
    TABLE["f54.176"] = x * 0.25
    return x


def f53(x):
    d177 = {"a": x, "b": f54(x)}
    x = d177["a"] * 0.5 + d177["b"]
    p178 = _Pair(x, x * 0.5)
    x = p178[0] * 0.5 + p178[1]
    x = torch.tanh(x)
    return x


def f52(x, cm):
    if x.sum() > 0:
        x = f53(x)
        _effect("f52.182", torch.is_grad_enabled())
    else:
        _effect("f52.183", x)
    x = torch.sigmoid(x)
    torch._dynamo.graph_break()
    with cm:
        _effect("f52.187", torch.is_grad_enabled())
        _effect("f52.188", torch.is_autocast_enabled("cpu"))
    return x


def f51(x):
    try:
        cm190 = torch.enable_grad()
        x = f52(x, cm190)
        raise ValueError("ngb deliberate ngb f51.191")
    except ValueError as e189:
        _effect("f51.189", str(e189))
    x = torch.sin(x)
    return x


def f50_impl(x):
    if x.sum() > 0:
        x = torch.tanh(x)
    else:
        x = x.abs() * 0.5
    x = torch.add(x * 0.5, f51(x))
    x = torch.clamp(x, -1.0, 1.0)
    return x


f50 = lambda x: 0.0 + f50_impl(x)


class C49:
    def __init__(self, scale):
        self.scale = scale

    def run(self, x):
        x = x - 1.0
        box199 = []
        s199 = f"f49.199:{x.shape[0]}:{_keep(box199, f50(x))}"
        _effect("f49.199", s199)
        x = box199[0]
        x = torch.sigmoid(x)
        return x


class C48:
    def __init__(self, scale):
        self.scale = scale

    def run(self, x):
        x = torch.add(x * 0.5, C49(0.5).run(x))
        x = torch.tanh(x)
        return x


def f47(x):
    def gen203(x):
        t204 = (x, C48(0.5).run(x))
        x = t204[0] * 0.5 + t204[1]
        x = torch.sin(x)
        yield x
        _effect("f47.203.never", 0)
        yield x
    g203 = gen203(x)
    x = next(g203)
    return x


def f46_impl(x):
    acc206 = x * 0.5
    def inner206(x):
        nonlocal acc206
        x = f47(x)
        _effect("f46.208", torch.is_grad_enabled())
        acc206 = acc206 * 0.5 + x * 0.25
        return x
    x = inner206(x) * 0.5 + acc206 * 0.5
    x = torch.sin(x)
    return x


f46 = lambda x: 0.0 + f46_impl(x)


def f45(**kw):
    x = kw["x"]
    x = torch.add(*[x * 0.5, f46(x)])
    x = torch.clamp(x, -1.0, 1.0)
    return x


def f44(x):
    x = x * 0.5 + f45(x=x)
    x = torch.tanh(x)
    return x


class C43:
    def __init__(self, scale):
        self.scale = scale

    def run(self, x):
        d214 = {"a": x, "b": f44(x)}
        x = d214["a"] * 0.5 + d214["b"]
        _effect("f43.215", torch.is_inference_mode_enabled())
        x = torch.tanh(x)
        return x


def f42(x):
    global COUNTER
    _effect("f42.217", torch.is_autocast_enabled("cpu"))
    COUNTER = COUNTER + 1
    if COUNTER % 2 == 1:
        x = C43(0.5).run(x)
        x = x - 1.0
    else:
        class Local221:
            scale = 0.5
        
            def apply(self, v):
                return v * self.scale
        x = Local221().apply(x) + 0.25
    x = torch.sigmoid(x)
    return x


def f41(**kw):
    x = kw["x"]
    x = torch.add(**{"input": x * 0.5, "other": f42(x)})
    x = torch.clamp(x, -2.0, 2.0)
    return x


def f40(x):
    x = torch.sin(x)
    x = f41(x=x)
    x = torch.tanh((x @ x.transpose(-1, -2)) @ x * 0.05)
    return x


def f39(x):
    x = torch.add(*[x * 0.5, f40(x)])
    x = torch.sigmoid(x)
    return x


def f38(*args):
    x = args[0]
    cm230 = _cm("f38.230.cm")
    x = torch.add(x * 0.5, f97(x, cm230))
    box231 = []
    s231 = f"f38.231:{x.shape[0]}:{_keep(box231, f39(x))}"
    _effect("f38.231", s231)
    x = box231[0]
    x = torch.tanh(x)
    x = _Prop(x).half_value
    y234 = x * 1.0
    y234.ngb_note = 0.5
    x = y234 * y234.ngb_note
    return x


def f37(x):
    try:
        d236 = {"a": x, "b": f38(x)}
        x = d236["a"] * 0.5 + d236["b"]
        _effect("f37.237", torch.is_grad_enabled())
        raise ValueError("ngb deliberate ngb f37.238")
    except ValueError as e235:
        _effect("f37.235", str(e235))
    x = torch.tanh(x)
    return x


def f36(x, cm):
    x = x * 0.5 - 0.25
    try:
        with torch.set_grad_enabled(True):
            x = torch.add(*[x * 0.5, f37(x)])
        raise ValueError("ngb deliberate ngb f36.244")
    except ValueError as e241:
        _effect("f36.241", str(e241))
    torch._dynamo.step_unsupported()
    with cm:
        _effect("f36.247", torch.is_grad_enabled())
        _effect("f36.248", x)
    x = torch.tanh((x @ x.transpose(-1, -2)) @ x * 0.05)
    return x


def f35(x):
    with torch.no_grad():
        cm251 = torch.no_grad()
        d251 = {"a": x, "b": f36(x, cm251)}
        x = d251["a"] * 0.5 + d251["b"]
        _effect("f35.252", torch.is_grad_enabled())
    x = torch.sin(x)
    return x


@torch.no_grad()
def f34(x):
    d254 = {"a": x, "b": f35(x)}
    x = d254["a"] * 0.5 + d254["b"]
    x = torch.tanh(x)
    return x


def f33(x):
    acc256 = x * 0.5
    def inner256(x):
        nonlocal acc256
        x = torch.add(*[x * 0.5, f34(x)])
        x = x + T_MAIN
        acc256 = acc256 * 0.5 + x * 0.25
        return x
    x = inner256(x) * 0.5 + acc256 * 0.5
    x = torch.cos(x)
    return x


def f32(**kw):
    x = kw["x"]
    with torch.no_grad():
        with _cm("f32.261"):
            x = torch.no_grad()(f33)(x)
            _effect("f32.263", torch.is_grad_enabled())
    x = torch.cos(x)
    return x


def f31(x):
    LOG.append(x * 0.5)
    box266 = []
    s266 = f"f31.266:{x.shape[0]}:{_keep(box266, f32(x=x))}"
    _effect("f31.266", s266)
    x = box266[0]
    x = torch.tanh(x)
    return x


def f30(x):
    _effect("f30.268", x)
    x = (x * 0.5).add(f31(x))
    x = torch.sin(x)
    return x


def f29(x):
    _effect("f29.271", x.sum())
    if x.sum() > 0:
        x = x * 1.5
    else:
        box274 = []
        x = (x * 0.5, x)[_keep(box274, f30(x))] + box274[0]
        _effect("f29.275", torch.is_grad_enabled())
    x = torch.tanh((x @ x.transpose(-1, -2)) @ x * 0.05)
    return x


@torch.inference_mode()
@torch.enable_grad()
def f28(x):
    t277 = (x, f29(x))
    x = t277[0] * 0.5 + t277[1]
    x = torch.sigmoid(x)
    return x


def f27(x):
    x = torch.sin(x)
    with torch.no_grad():
        x = torch.add(x * 0.5, f28(x))
        _effect("f27.282", torch.is_grad_enabled())
    x = torch.tanh(x)
    return x


def f26(**kw):
    x = kw["x"]
    d284 = {"a": x, "b": f27(x)}
    x = d284["a"] * 0.5 + d284["b"]
    x = torch.sigmoid(x)
    return x


def f25_impl(x):
    try:
        d287 = {"a": x, "b": f26(x=x)}
        x = d287["a"] * 0.5 + d287["b"]
        x = torch.cos(x)
        _effect("f25.289", torch.is_grad_enabled())
        raise ValueError("ngb deliberate ngb f25.290")
    except ValueError as e286:
        _effect("f25.286", str(e286))
    return x


f25 = lambda x: 0.0 + f25_impl(x)


def f24(x):
    x = f25(x)
    x = torch.sigmoid(x)
    return x


def f23(x):
    x = torch.add(x * 0.5, f24(x))
    x = torch.tanh(x)
    return x


def f22(x):
    acc295 = torch.zeros_like(x)
    for r295 in x:
        acc295 = acc295 + r295
        x = torch.no_grad()(f23)(x)
        x = torch.clamp(x, -3.0, 3.0)
        x = torch.clamp(x, -2.0, 2.0)
    x = x * 0.5 + acc295 * 0.125
    return x


def f21(x):
    box299 = []
    s299 = f"f21.299:{x.shape[0]}:{_keep(box299, f22(x))}"
    _effect("f21.299", s299)
    x = box299[0]
    x = torch.clamp(x, -3.0, 3.0)
    return x


def f20(x):
    l301 = [x * 0.5, f21(x), x]
    x = l301[0] + l301[1] - l301[2] * 0.25
    x = torch.clamp(x, -1.0, 1.0)
    return x


def f19(**kw):
    x = kw["x"]
    x = x - 1.0
    with torch.no_grad():
        d305 = {"a": x, "b": f20(x)}
        x = d305["a"] * 0.5 + d305["b"]
        x = torch.cos(x)
        _effect("f19.307", torch.is_grad_enabled())
    return x


@_cm("f18.deco0")
@torch._dynamo.disable_nested_graph_breaks
def f18(x):
    try:
        with torch.no_grad():
            box310 = []
            x = (x * 0.5, x)[_keep(box310, f19(x=x))] + box310[0]
            x = torch.tanh(x)
        _effect("f18.312", torch.is_grad_enabled())
    finally:
        _effect("f18.308", x)
        x = torch.sin(x)
    return x


def f17(x):
    def filler314():
        def A():
        
            def A():
                pass
    filler314()
    x = f18(x)
    x = torch.clamp(x, -2.0, 2.0)
    return x


def f16(*args):
    x = args[0]
    x = torch.add(**{"input": x * 0.5, "other": f17(x)})
    x = torch.sin(x)
    return x


def f15(x):
    x = x * 1.25 - 0.25
    acc320 = torch.zeros_like(x)
    for i320, r320 in enumerate(x):
        acc320 = acc320 + r320
        v321 = [f16(x + c321) for c321 in (0.0, 0.5)]
        x = v321[0] * 0.5 + v321[1] * 0.5
        x = torch.sin(x)
        if i320 >= 1:
            break
    x = x * 0.5 + acc320 * 0.125
    return x


def f14(x):
    flag323 = x.dim() == 2
    x = f15(x) if flag323 else x - 0.5
    x = torch.clamp(x, -3.0, 3.0)
    return x


class C13:
    def __init__(self, scale):
        self.scale = scale

    def __call__(self, x):
        x = torch.add(x * 0.5, f14(x))
        _effect("f13.326", torch.is_grad_enabled())
        x = torch.clamp(x, -2.0, 2.0)
        return x


class C12:
    def __init__(self, scale):
        self.scale = scale

    def run(self, x):
        acc328 = x * 0.5
        def inner328(x):
            nonlocal acc328
            acc329 = x * 0.5
            def inner329(x):
                nonlocal acc329
                x = C13(0.5)(x)
                acc329 = acc329 * 0.5 + x * 0.25
                return x
            x = inner329(x) * 0.5 + acc329 * 0.5
            _effect("f12.331", torch.is_grad_enabled())
            acc328 = acc328 * 0.5 + x * 0.25
            return x
        x = inner328(x) * 0.5 + acc328 * 0.5
        return x


def f11(**kw):
    x = kw["x"]
    l332 = [x * 0.5, C12(0.5).run(x), x]
    x = l332[0] + l332[1] - l332[2] * 0.25
    x = torch.clamp(x, -3.0, 3.0)
    return x


def f10(x):
    x = torch.sin(x)
    x = f11(x=x)
    x = torch.clamp(x, -3.0, 3.0)
    return x


def f9(x):
    acc337 = x * 0.5
    def inner337(x):
        nonlocal acc337
        x = x * 0.5 + f10(x)
        _effect("f9.339", torch.is_grad_enabled())
        acc337 = acc337 * 0.5 + x * 0.25
        return x
    x = inner337(x) * 0.5 + acc337 * 0.5
    x = torch.clamp(x, -1.0, 1.0)
    return x


def f8(x):
    x = torch.relu(x) - 0.5
    l342 = [x * 0.5, f9(x), x]
    x = l342[0] + l342[1] - l342[2] * 0.25
    x = torch.tanh(x)
    return x


def f7(x):
    l344 = [x * 0.5, f8(x), x]
    x = l344[0] + l344[1] - l344[2] * 0.25
    x = torch.sin(x)
    return x


def f6(x):
    box346 = []
    s346 = f"f6.346:{x.shape[0]}:{_keep(box346, f7(x))}"
    _effect("f6.346", s346)
    x = box346[0]
    x = torch.sigmoid(x)
    return x


class C5:
    def __init__(self, scale):
        self.scale = scale

    def run(self, x):
        x = x * 2.0
        with torch.enable_grad():
            box350 = []
            x = (x * 0.5, x)[_keep(box350, f6(x))] + box350[0]
            _effect("f5.351", torch.is_grad_enabled())
        x = torch.sin(x)
        return x


def f4_impl(x):
    x = x * x * 0.25
    x = C5(0.5).run(x)
    x = torch.cos(x)
    return x


f4 = lambda x: 0.0 + f4_impl(x)


def f3(x):
    x = torch.cos(x)
    try:
        if x.sum() > 0:
            t359 = (x, f4(x))
            x = t359[0] * 0.5 + t359[1]
            _effect("f3.360", torch.is_grad_enabled())
        else:
            x = x * G_SCALE + G_BIAS
    finally:
        _effect("f3.357", x)
    x = torch.tanh(x)
    return x


def f2(x):
    global COUNTER
    COUNTER = COUNTER + 1
    if COUNTER % 2 == 1:
        x = x * 1.5
    else:
        x = _cm_disabled("f2.365.deco")(f3)(x)
        _effect("f2.366", torch.is_grad_enabled())
    x = torch.clamp(x, -3.0, 3.0)
    return x


def f1_impl(x):
    try:
        x = f2(x)
        _effect("f1.370", torch.is_grad_enabled())
        raise ValueError("ngb deliberate ngb f1.371")
    except ValueError as e368:
        _effect("f1.368", str(e368))
        x = _Prop(x).half_value
    x = _MOD(x)
    return x


f1 = lambda x: 0.0 + f1_impl(x)


def entry(x):
    x = torch.tanh(x)
    try:
        x = torch.add(**{"input": x * 0.5, "other": f1(x)})
    finally:
        _effect("entry.375", x)
    x = torch.cos(x)
    return x


def make_inputs(device):
    g = torch.Generator().manual_seed(4690)
    x = torch.randn(2, 3, generator=g)
    return (x.to(device),)


# ---- ngb-fuzz standalone check (generated; do not edit below) ----
if __name__ == "__main__":
    import sys as _sys

    def _ngb_check():
        src = open(__file__).read().split("# ---- ngb-fuzz standalone check")[0]
        spec = next((ln[10:].strip() for ln in src.splitlines() if ln.startswith("# target: ")), "torch")
        spec = _sys.argv[1] if len(_sys.argv) > 1 else spec
        opts = dict(kv.split("=", 1) for kv in spec.partition(":")[2].split(",") if "=" in kv)
        backend = opts.get("backend", "eager")
        torch._dynamo.config.nested_graph_breaks = opts.get("ngb", "on") == "on"

        def obs(v):
            if isinstance(v, torch.Tensor):
                return ("tensor", str(v.dtype), tuple(v.shape), v.requires_grad, v.detach().cpu().clone())
            if isinstance(v, (list, tuple)):
                return (type(v).__name__, [obs(x) for x in v])
            if isinstance(v, dict):
                return ("dict", [(obs(k), obs(x)) for k, x in v.items()])
            plain = isinstance(v, (int, float, complex, str, bytes, type(None)))
            return (type(v).__name__, v if plain else getattr(v, "__dict__", None) and obs(vars(v)))

        def data(v):
            return isinstance(v, (int, float, str, list, tuple, dict, set, torch.Tensor, type(None)))

        def run(compiled):
            mod = types.ModuleType("ngb_program")
            exec(compile(src, __file__, "exec"), mod.__dict__)
            mods = [("", mod)] + [(m.__name__ + ".", m) for m in list(vars(mod).values())
                                  if isinstance(m, types.ModuleType) and m.__name__.startswith("ngb_")]
            fn = torch.compile(mod.entry, backend=backend) if compiled else mod.entry
            calls = []
            for _ in range(2):
                first, inputs = len(mod.EFFECTS), mod.make_inputs("cpu")
                try:
                    result = ("returned", obs(fn(*inputs)))
                except Exception as e:  # noqa: BLE001
                    result = ("raised", type(e).__name__)
                calls.append({"result": result, "effects": obs(mod.EFFECTS[first:]), "inputs": obs(inputs),
                              "globals": {p + k: obs(v) for p, m in mods for k, v in vars(m).items()
                                          if not k.startswith("_") and k != "EFFECTS" and data(v)},
                              "grad_enabled": torch.is_grad_enabled()})
            return calls

        def same(a, b):
            if isinstance(a, torch.Tensor) and isinstance(b, torch.Tensor):
                if a.dtype != b.dtype or a.shape != b.shape:
                    return False
                if backend == "eager" or not a.is_floating_point():
                    return bool(((a == b) | (a != a) & (b != b)).all())
                half = a.dtype in (torch.float16, torch.bfloat16)
                return torch.allclose(a, b, rtol=2e-2 if half else 1e-4, atol=1e-2 if half else 1e-5, equal_nan=True)
            if isinstance(a, (list, tuple)) and isinstance(b, (list, tuple)):
                return type(a) is type(b) and len(a) == len(b) and all(map(same, a, b))
            if isinstance(a, dict) and isinstance(b, dict):
                return a.keys() == b.keys() and all(same(a[k], b[k]) for k in a)
            return a == b or (a != a and b != b)

        eager = run(False)
        try:
            compiled = run(True)
        except Exception as e:  # noqa: BLE001 - e.g. a compiler error that left torch unusable in this process
            print(f"compiled run broke the process: {type(e).__name__}: {str(e).splitlines()[0][:200]}")
            print(f"MISMATCH: eager vs torch.compile ({spec}), torch {torch.__version__}")
            return 1
        bad = [(i, k) for i in range(2) for k in eager[i] if not same(eager[i][k], compiled[i][k])]
        for i, k in bad:
            print(f"call {i + 1}: {k} differs\n  eager:    {eager[i][k]}\n  compiled: {compiled[i][k]}")
        print(f"{'MISMATCH' if bad else 'match'}: eager vs torch.compile ({spec}), torch {torch.__version__}")
        return 1 if bad else 0

    import types

    import torch  # a reduced program may not import it itself

    _sys.exit(_ngb_check())
