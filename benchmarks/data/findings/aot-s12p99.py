# ngb-fuzz program
# signature: crash:BackendCompilerFailed@torch.fx.passes._tensorify_python_scalars:_sympy_interp
# target: torch:backend=aot_eager
# found-by: ngb-fuzz run --seed 12 (program 99)
# features: break.builtin break.data_if break.graph_break break.print break.step_unsupported call.callable call.kwargs call.lambda call.method call.nonstrict call.recursion call.tree call.varargs class.init class.local class.new class.setattr class.setitem closure.nonlocal ctx.as_value ctx.autocast ctx.contextmanager ctx.contextmanager_disabled ctx.decorator ctx.enable_grad ctx.inference_mode ctx.nested_decorators ctx.no_grad ctx.set_grad_enabled ctx.user_class depth.30+ flow.early_return flow.generator flow.recompile flow.try_except flow.try_finally nn.module raise.deliberate shape.cm_disable_init shape.decorator_ctx_break shape.step_break_stack shape.upper_ctx_break side.attr side.dict side.global side.list stack.binop stack.call_arg stack.comprehension stack.conditional stack.dict_display stack.fstring stack.kwargs stack.list_display stack.method stack.plain stack.star_args stack.subscript stack.tuple_display stack.unpack
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


class _Mod(torch.nn.Module):
    def __init__(self):
        super().__init__()
        self.scale = torch.nn.Parameter(torch.full((), 0.5))

    def forward(self, x):
        # clone: x may be an inference tensor from an inference_mode block upstream
        return torch.tanh(x.clone() * self.scale + 0.1)


_MOD = _Mod()


def f91(x):
    print("ngb f91.1")
    x = torch.cos(x)
    return x


@torch._dynamo.nonstrict_trace
def f90(x):
    x = x + T_MAIN
    torch._dynamo.graph_break()
    x = x - x.mean()
    x = x * G_SCALE + G_BIAS
    x = torch.tanh(x)
    return x


def f89(x):
    acc8 = x * 0.5
    def inner8(x):
        nonlocal acc8
        x = x * 0.5 + f90(x)
        acc8 = acc8 * 0.5 + x * 0.25
        return x
    x = inner8(x) * 0.5 + acc8 * 0.5
    x = x + T_MAIN
    x = torch.tanh(x)
    return x


def f88(**kw):
    x = kw["x"]
    x = torch.sin(x)
    x = x * 0.5 + f89(x)
    x = torch.clamp(x, -1.0, 1.0)
    return x


def f87(x):
    global COUNTER
    x = f88(x=x)
    x = torch.clamp(x, -2.0, 2.0)
    COUNTER = COUNTER + 1
    x = x + COUNTER * 0.01
    return x


def f86(x):
    _effect("f86.18", x)
    def gen19(x):
        x = (x * 0.5).add(f87(x))
        x = torch.clamp(x, -2.0, 2.0)
        _effect("f86.22", torch.is_grad_enabled())
        yield x
        return x * 0.5
    g19 = gen19(x)
    first19 = next(g19)
    try:
        next(g19)
    except StopIteration as stop19:
        x = first19 * 0.5 + stop19.value
    return x


@_cm_disabled("f85.deco0")
@_cm_disabled("f85.deco1")
def f85(x):
    x = (x * 0.5).add(f86(x))
    x = torch.tanh(x)
    x = x * 0.75
    with _cm("f85.26"):
        torch._dynamo.graph_break()
    return x


@_cm_disabled("f84.deco0")
def f84(x):
    x = (x * 0.5).add(f85(x))
    x = torch.tanh(x)
    LOG.append(x * 0.5)
    return x


def f83(x):
    with torch.enable_grad():
        x = x * 0.5 + f84(x)
        x = torch.tanh(x)
    if x.dim() == 2:
        return torch.tanh(x)
    return x


@torch.no_grad()
@_Ctx("f82.deco1")
def f82(x):
    x = torch.relu(x) - 0.5
    if x.sum() > 0:
        acc37 = x * 0.5
        def inner37(x):
            nonlocal acc37
            d38 = {"a": x, "b": f83(x)}
            x = d38["a"] * 0.5 + d38["b"]
            x = torch.cos(x)
            x = x * G_SCALE + G_BIAS
            acc37 = acc37 * 0.5 + x * 0.25
            return x
        x = inner37(x) * 0.5 + acc37 * 0.5
    else:
        _effect("f82.41", torch.is_autocast_enabled("cpu"))
    x = torch.cos(x)
    return x


def f81(**kw):
    x = kw["x"]
    if x.sum() > 0:
        _effect("f81.44", x)
    else:
        x = f82(x)
        _effect("f81.46", torch.is_grad_enabled())
    x = torch.sin(x)
    return x


class C80:
    def __init__(self, scale):
        self.scale = scale

    def __call__(self, x):
        bag48 = _Bag("f80.48")
        bag48["a"] = x
        x = bag48["a"] * 0.5
        l49 = [x * 0.5, f81(x=x), x]
        x = l49[0] + l49[1] - l49[2] * 0.25
        x = torch.clamp(x, -2.0, 2.0)
        return x


def f79(x):
    t51 = (x, C80(0.5)(x))
    x = t51[0] * 0.5 + t51[1]
    x = torch.sin(x)
    return x


class C78:
    def __init__(self, scale):
        self.scale = scale

    def __call__(self, x):
        x = x + T_MAIN
        x = f79(x)
        x = torch.tanh(x)
        return x


class C77:
    def __init__(self, scale):
        self.scale = scale

    def __call__(self, x):
        x = x * 0.5
        with torch.no_grad():
            l58 = [x * 0.5, C78(0.5)(x), x]
            x = l58[0] + l58[1] - l58[2] * 0.25
            x = torch.sin(x)
            x = torch.cos(x)
        return x


def f76(x):
    box61 = []
    x = (x * 0.5, x)[_keep(box61, C77(0.5)(x))] + box61[0]
    x = torch.sigmoid(x)
    return x


@torch.enable_grad()
def f75_impl(x):
    x = f76(x)
    x = torch.tanh(x)
    return x


f75 = lambda x: 0.0 + f75_impl(x)


class C74:
    def __init__(self, scale):
        self.scale = scale

    def __call__(self, x):
        flag65 = x.dim() == 2
        x = f75(x) if flag65 else x - 0.5
        x = torch.tanh(x)
        x = torch.tanh(x)
        return x


def f73_impl(x):
    x = x * 0.5 + C74(0.5)(x)
    x = torch.clamp(x, -1.0, 1.0)
    return x


f73 = lambda x: 0.0 + f73_impl(x)


class C72:
    def __init__(self, scale):
        self.scale = scale

    def __call__(self, x):
        def gen70(x):
            box71 = []
            x = (x * 0.5, x)[_keep(box71, f73(x))] + box71[0]
            x = torch.sin(x)
            x = x * 1.25
            yield x
            return x * 0.5
        g70 = gen70(x)
        first70 = next(g70)
        try:
            next(g70)
        except StopIteration as stop70:
            x = first70 * 0.5 + stop70.value
        x = torch.cos(x)
        return x


def f71(x):
    STATE.calls = STATE.calls + 1
    x = x + STATE.calls * 0.01
    with torch.enable_grad():
        x = torch.add(x * 0.5, C72(0.5)(x))
        x = torch.sin(x)
        _effect("f71.79", torch.is_grad_enabled())
    return x


def f70(x):
    _effect("f70.80", x)
    box81 = []
    x = (x * 0.5, x)[_keep(box81, f71(x))] + box81[0]
    x = torch.clamp(x, -1.0, 1.0)
    return x


def f69(x):
    acc83 = x * 0.5
    def inner83(x):
        nonlocal acc83
        x = f70(x)
        x = torch.clamp(x, -2.0, 2.0)
        acc83 = acc83 * 0.5 + x * 0.25
        return x
    x = inner83(x) * 0.5 + acc83 * 0.5
    x = x + T_MAIN
    return x


def f68(x):
    try:
        x = (x * 0.5).add(f69(x))
        x = torch.sin(x)
        x = x * G_SCALE + G_BIAS
    finally:
        _effect("f68.87", x)
    return x


def f67(x):
    box91 = []
    x = (x * 0.5, x)[_keep(box91, f68(x))] + box91[0]
    x = torch.tanh(x)
    return x


class C66:
    def __init__(self, scale):
        self.scale = scale

    def run(self, x):
        x = torch.add(**{"input": x * 0.5, "other": f67(x)})
        x = torch.sigmoid(x)
        return x


def f65(x):
    x = torch.add(x * 0.5, C66(0.5).run(x))
    x = torch.clamp(x, -3.0, 3.0)
    return x


def f64(x):
    x = f65(x)
    x = torch.clamp(x, -3.0, 3.0)
    return x


def f63(x, cm):
    x = torch.no_grad()(f64)(x)
    x = x * 0.75 - 0.25
    torch._dynamo.step_unsupported()
    with cm:
        _effect("f63.103", torch.is_grad_enabled())
        obj104 = _Box(x)
        x = obj104.value * 0.5 + 0.1
    return x


def f62(x):
    x = x + 0.5
    def gen106(x):
        cm107 = torch.no_grad()
        x = f63(x, cm107)
        _effect("f62.108", torch.is_grad_enabled())
        yield x
        yield x * 0.5
    vals106 = list(gen106(x))
    x = vals106[0] * 0.5 + vals106[1]
    if x.dim() == 2:
        return torch.tanh(x)
    x = torch.sigmoid(x)
    return x


def f61(x):
    t111 = (x, f62(x))
    x = t111[0] * 0.5 + t111[1]
    x = torch.sin(x)
    return x


class C60:
    def __init__(self, scale):
        self.scale = scale

    def run(self, x):
        x = x * 0.5 + f61(x)
        x = torch.tanh(x)
        return x


@torch.inference_mode()
@torch.enable_grad()
def f59(x):
    x = x * 0.5 + C60(0.5).run(x)
    _effect("f59.116", x)
    x = torch.cos(x)
    return x


def f58(x):
    x = torch.sin(x)
    try:
        x = x * 0.5 + f59(x)
        raise ValueError("ngb deliberate ngb f58.121")
    except ValueError as e119:
        _effect("f58.119", str(e119))
        x = x * 1.5
    x = torch.clamp(x, -3.0, 3.0)
    return x


def f57(x):
    x = torch.tanh((x @ x.transpose(-1, -2)) @ x * 0.05)
    if x.sum() > 0:
        t126 = (x, f58(x))
        x = t126[0] * 0.5 + t126[1]
        x = torch.sin(x)
    else:
        x = torch.tanh(x)
    return x


def f56(*args):
    x = args[0]
    _effect("f56.129", torch.is_inference_mode_enabled())
    x = f57(x)
    x = torch.clamp(x, -3.0, 3.0)
    return x


def f55(x):
    global COUNTER
    COUNTER = COUNTER + 1
    if COUNTER % 2 == 1:
        x = x + 1.0
    else:
        x = x * 0.5 + f56(x)
        x = torch.sin(x)
    if x.dim() == 3:
        return torch.tanh(x)
    x = torch.cos(x)
    return x


@_Ctx("f54.deco0")
@_Ctx("f54.deco1")
def f54(x):
    if x.dim() == 3:
        return torch.tanh(x)
    x = (x * 0.5).add(f55(x))
    x = torch.tanh(x)
    return x


def f53(**kw):
    x = kw["x"]
    x = torch.add(x * 0.5, f54(x))
    x = torch.tanh(x)
    return x


class C52:
    def __init__(self, scale):
        self.scale = scale

    def run(self, x):
        x = f53(x=x)
        _effect("f52.144", torch.is_grad_enabled())
        x = torch.tanh(x)
        return x


@torch.enable_grad()
@torch.inference_mode()
def f51(x):
    a146, *r146 = [x, C52(0.5).run(x), x * 0.5]
    x = a146 * 0.25 + r146[0] + r146[1] * 0.25
    x = torch.sin(x)
    return x


@_cm_disabled("f50.deco0")
@_cm("f50.deco1")
def f50_impl(x):
    x = x * G_SCALE + G_BIAS
    try:
        d150 = {"a": x, "b": f51(x)}
        x = d150["a"] * 0.5 + d150["b"]
        raise ValueError("ngb deliberate ngb f50.151")
    except ValueError as e149:
        _effect("f50.149", str(e149))
    x = torch.sigmoid(x)
    return x


f50 = lambda x: 0.0 + f50_impl(x)


def f49(*args):
    x = args[0]
    def gen153(x):
        box154 = []
        x = (x * 0.5, x)[_keep(box154, f50(x))] + box154[0]
        yield x
        return x * 0.5
    g153 = gen153(x)
    first153 = next(g153)
    try:
        next(g153)
    except StopIteration as stop153:
        x = first153 * 0.5 + stop153.value
    x = torch.tanh((x @ x.transpose(-1, -2)) @ x * 0.05)
    return x


@torch.enable_grad()
def f48_impl(x):
    x = torch.sin(x)
    box157 = []
    s157 = f"f48.157:{x.shape[0]}:{_keep(box157, f49(x))}"
    _effect("f48.157", s157)
    x = box157[0]
    x = torch.tanh((x @ x.transpose(-1, -2)) @ x * 0.05)
    return x


f48 = lambda x: 0.0 + f48_impl(x)


def f47(x):
    x = torch.sin(x)
    acc160 = x * 0.5
    def inner160(x):
        nonlocal acc160
        l161 = [x * 0.5, f48(x), x]
        x = l161[0] + l161[1] - l161[2] * 0.25
        x = x * G_SCALE + G_BIAS
        acc160 = acc160 * 0.5 + x * 0.25
        return x
    x = inner160(x) * 0.5 + acc160 * 0.5
    x = torch.sigmoid(x)
    return x


def f46(x):
    x = x * 0.5 + f47(x)
    x = torch.clamp(x, -2.0, 2.0)
    x = x - x.mean()
    return x


class C45:
    def __init__(self, scale):
        self.scale = scale

    def __call__(self, x):
        if x.sum() > 0:
            x = torch.sin(x)
        else:
            a169, *r169 = [x, f46(x), x * 0.5]
            x = a169 * 0.25 + r169[0] + r169[1] * 0.25
            x = torch.sigmoid(x)
        class Local171:
            scale = 0.5
        
            def apply(self, v):
                return v * self.scale
        x = Local171().apply(x) + 0.25
        return x


def f44(x):
    x = C45(0.5)(x)
    x = torch.clamp(x, -1.0, 1.0)
    return x


def f43(x, cm):
    x = f44(x)
    x = torch.clamp(x, -1.0, 1.0)
    x = x + (zlib.crc32(b"f43.176") % 7) * 0.01
    with cm:
        _effect("f43.178", torch.is_grad_enabled())
        _effect("f43.179", torch.is_grad_enabled())
    return x


def f42(*args):
    x = args[0]
    cm180 = torch.no_grad()
    x = f43(x, cm180)
    x = torch.cos(x)
    p182 = _Pair(x, x * 0.5)
    x = p182[0] * 0.5 + p182[1]
    return x


def f41(x):
    with torch.set_grad_enabled(False):
        d184 = {"a": x, "b": f42(x)}
        x = d184["a"] * 0.5 + d184["b"]
        x = torch.clamp(x, -2.0, 2.0)
    return x


@_cm_disabled("f40.deco0")
@torch.enable_grad()
def f40(x):
    with torch.enable_grad():
        x = f41(x)
        x = torch.tanh(x)
        _effect("f40.189", torch.is_grad_enabled())
    x = x.abs() * 0.5
    return x


@_cm_disabled("f39.deco0")
@_cm("f39.deco1")
def f39(x):
    with _Ctx("f39.191"):
        x = (x * 0.5).add(f40(x))
        x = torch.cos(x)
    x = x * 0.75
    return x


def f38(*args):
    x = args[0]
    LOG.append(x * 0.5)
    t196 = (x, f39(x))
    x = t196[0] * 0.5 + t196[1]
    x = torch.tanh(x)
    return x


def f37(x):
    x = x * 0.5 + f38(x)
    x = torch.clamp(x, -2.0, 2.0)
    x = torch.clamp(x, -1.0, 1.0)
    return x


def f36(x, cm):
    with torch.enable_grad():
        x = x * 0.5 + f37(x)
        x = torch.clamp(x, -2.0, 2.0)
        _effect("f36.204", torch.is_grad_enabled())
    print("ngb f36.205")
    with cm:
        _effect("f36.207", torch.is_grad_enabled())
        x = x * G_SCALE + G_BIAS
    return x


@torch.enable_grad()
def f35(x):
    def gen209(x):
        torch._dynamo.step_unsupported()
        _effect("f35.211", torch.is_grad_enabled())
        yield x
        return x * 0.5
    g209 = gen209(x)
    first209 = next(g209)
    try:
        next(g209)
    except StopIteration as stop209:
        x = first209 * 0.5 + stop209.value
    try:
        cm213 = torch.no_grad()
        flag213 = x.dim() == 2
        x = f36(x, cm213) if flag213 else x - 0.5
        x = torch.sin(x)
        raise ValueError("ngb deliberate ngb f35.215")
    except ValueError as e212:
        _effect("f35.212", str(e212))
        x = torch.relu(x) - 0.5
    return x


def f34_impl(x):
    x = x * 0.5 + f35(x)
    x = torch.clamp(x, -2.0, 2.0)
    return x


f34 = lambda x: 0.0 + f34_impl(x)


def f33(x):
    global COUNTER
    COUNTER = COUNTER + 1
    if COUNTER % 2 == 1:
        COUNTER = COUNTER + 1
        x = x + COUNTER * 0.01
    else:
        x = f34(x)
        x = x + 0.25
    x = torch.clamp(x, -1.0, 1.0)
    return x


def f32(x):
    x = torch.add(x * 0.5, f33(x))
    x = torch.clamp(x, -1.0, 1.0)
    return x


def f31(x):
    box226 = []
    x = (x * 0.5, x)[_keep(box226, f32(x))] + box226[0]
    x = torch.tanh(x)
    return x


def f30(x):
    box228 = []
    x = (x * 0.5, x)[_keep(box228, f31(x))] + box228[0]
    x = torch.tanh((x @ x.transpose(-1, -2)) @ x * 0.05)
    return x


def f29(x):
    global COUNTER
    COUNTER = COUNTER + 1
    if COUNTER % 2 == 1:
        x = torch.add(x * 0.5, f30(x))
    else:
        _effect("f29.232", torch.is_autocast_enabled("cpu"))
    x = torch.clamp(x, -1.0, 1.0)
    return x


class C28:
    def __init__(self, scale):
        self.scale = scale

    def __call__(self, x):
        if x.sum() > 0:
            x = x * G_SCALE + G_BIAS
        else:
            x = torch.add(x * 0.5, f29(x))
            _effect("f28.237", torch.is_grad_enabled())
        _effect("f28.238", x)
        x = torch.sigmoid(x)
        return x


@torch.no_grad()
@torch.inference_mode()
def f27(x):
    x = _MOD(x)
    acc241 = x * 0.5
    def inner241(x):
        nonlocal acc241
        box242 = []
        x = (x * 0.5, x)[_keep(box242, C28(0.5)(x))] + box242[0]
        x = x * G_SCALE + G_BIAS
        acc241 = acc241 * 0.5 + x * 0.25
        return x
    x = inner241(x) * 0.5 + acc241 * 0.5
    x = torch.sin(x)
    return x


def f26(x):
    if x.sum() > 0:
        STATE.calls = STATE.calls + 1
        x = x + STATE.calls * 0.01
    else:
        with _cm_disabled("f26.247"):
            x = f27(x)
    x = torch.cos(x)
    return x


def f25(x):
    acc250 = x * 0.5
    def inner250(x):
        nonlocal acc250
        x = f26(x)
        STATE.calls = STATE.calls + 1
        x = x + STATE.calls * 0.01
        acc250 = acc250 * 0.5 + x * 0.25
        return x
    x = inner250(x) * 0.5 + acc250 * 0.5
    x = torch.sigmoid(x)
    return x


def f24(x):
    acc254 = x * 0.5
    def inner254(x):
        nonlocal acc254
        acc255 = x * 0.5
        def inner255(x):
            nonlocal acc255
            l256 = [x * 0.5, f25(x), x]
            x = l256[0] + l256[1] - l256[2] * 0.25
            _effect("f24.257", x)
            acc255 = acc255 * 0.5 + x * 0.25
            return x
        x = inner255(x) * 0.5 + acc255 * 0.5
        _effect("f24.258", torch.is_grad_enabled())
        acc254 = acc254 * 0.5 + x * 0.25
        return x
    x = inner254(x) * 0.5 + acc254 * 0.5
    x = x * 0.5 + x.sum(dim=-1, keepdim=True) * 0.1
    return x


def f23(x):
    x = x * 0.5 + f24(x)
    x = torch.clamp(x, -1.0, 1.0)
    return x


def f22(x, cm):
    x = x - 0.5
    x = f23(x)
    x = x + (zlib.crc32(b"f22.264") % 7) * 0.01
    with cm:
        _effect("f22.266", torch.is_grad_enabled())
        _effect("f22.267", x)
    x = torch.cos(x)
    return x


def f21_impl(x):
    cm269 = torch.inference_mode()
    a269, *r269 = [x, f22(x, cm269), x * 0.5]
    x = a269 * 0.25 + r269[0] + r269[1] * 0.25
    x = torch.clamp(x, -2.0, 2.0)
    return x


f21 = lambda x: 0.0 + f21_impl(x)


def f20(x):
    d271 = {"a": x, "b": f21(x)}
    x = d271["a"] * 0.5 + d271["b"]
    x = torch.tanh(x)
    return x


def f19(x):
    x = f91(x)
    x = torch.sigmoid(x)
    x = (x * 0.5).add(f20(x))
    x = x - 0.25
    x = torch.tanh(x)
    return x


def f18(x):
    d278 = {"a": x, "b": f19(x)}
    x = d278["a"] * 0.5 + d278["b"]
    x = torch.clamp(x, -2.0, 2.0)
    x = torch.relu(x) - 0.5
    return x


def f17(x):
    acc281 = x * 0.5
    def inner281(x):
        nonlocal acc281
        with torch.autocast("cpu", dtype=torch.bfloat16):
            x = torch.inference_mode()(f18)(x)
            x = torch.sigmoid(x)
        x = x - x.mean()
        acc281 = acc281 * 0.5 + x * 0.25
        return x
    x = inner281(x) * 0.5 + acc281 * 0.5
    x = torch.sin(x)
    return x


def f16(**kw):
    x = kw["x"]
    x = f17(x)
    _effect("f16.288", x)
    x = torch.sin(x)
    return x


def f15(x):
    global COUNTER
    obj290 = _Box(x)
    x = obj290.value * 0.5 + 0.1
    COUNTER = COUNTER + 1
    if COUNTER % 2 == 1:
        LOG.append(x * 0.5)
    else:
        flag293 = x.dim() == 2
        x = f16(x=x) if flag293 else x - 0.5
    x = torch.clamp(x, -3.0, 3.0)
    return x


def f14(x):
    t295 = (x, f15(x))
    x = t295[0] * 0.5 + t295[1]
    x = torch.clamp(x, -3.0, 3.0)
    return x


def f13(**kw):
    x = kw["x"]
    d297 = {"a": x, "b": f14(x)}
    x = d297["a"] * 0.5 + d297["b"]
    x = torch.sin(x)
    return x


def f12(**kw):
    x = kw["x"]
    try:
        x = f13(x=x)
        x = torch.tanh(x)
        raise ValueError("ngb deliberate ngb f12.302")
    except ValueError as e299:
        _effect("f12.299", str(e299))
        _effect("f12.303", torch.is_inference_mode_enabled())
    return x


class C11:
    def __init__(self, scale):
        self.scale = scale

    def run(self, x):
        try:
            x = torch.add(*[x * 0.5, f12(x=x)])
            x = torch.sigmoid(x)
            TABLE["f11.307"] = x * 0.25
            raise ValueError("ngb deliberate ngb f11.308")
        except ValueError as e304:
            _effect("f11.304", str(e304))
        x = x * G_SCALE + G_BIAS
        return x


@torch.no_grad()
@torch.enable_grad()
def f10(x):
    x = C11(0.5).run(x)
    x = torch.sin(x)
    return x


def f9(x):
    acc312 = x * 0.5
    def inner312(x):
        nonlocal acc312
        x = torch.add(**{"input": x * 0.5, "other": f10(x)})
        x = torch.sin(x)
        _effect("f9.315", x)
        x = x + T_MAIN
        acc312 = acc312 * 0.5 + x * 0.25
        return x
    x = inner312(x) * 0.5 + acc312 * 0.5
    _effect("f9.317", x)
    return x


@_Ctx("f8.deco0")
def f8(x, n):
    x = x * 2.0
    with _cm("f8.319"):
        try:
            x = torch.no_grad()(f9)(x)
            x = torch.sin(x)
            raise ValueError("ngb deliberate ngb f8.323")
        except ValueError as e320:
            _effect("f8.320", str(e320))
    if n > 0:
        x = f8(x, n - 1)
    return x


class C7:
    def __init__(self, scale):
        self.scale = scale

    def run(self, x):
        x = f8(x, 2)
        x = x - 0.25
        x = torch.sin(x)
        return x


@torch.enable_grad()
def f6(x):
    global COUNTER
    COUNTER = COUNTER + 1
    if COUNTER % 2 == 1:
        x = C7(0.5).run(x)
    else:
        x = x * 0.75
    x = torch.clamp(x, -1.0, 1.0)
    return x


def f5(x):
    obj332 = _Tracked("f5.332")
    obj332.v = x
    x = obj332.v * 0.5
    try:
        x = x * 0.5 + f6(x)
    finally:
        _effect("f5.333", x)
    x = torch.sigmoid(x)
    return x


def f4(x):
    x = x + 0.25
    x = (x * 0.5).add(f5(x))
    x = torch.cos(x)
    return x


def f3(x):
    with torch.no_grad():
        a340, *r340 = [x, f4(x), x * 0.5]
        x = a340 * 0.25 + r340[0] + r340[1] * 0.25
        x = x.abs() * 0.5
    return x


def f2(x):
    x = torch.cos(x)
    v343 = [f3(x + c343) for c343 in (0.0, 0.5)]
    x = v343[0] * 0.5 + v343[1] * 0.5
    x = torch.sin(x)
    return x


class C1:
    def __init__(self, scale):
        self.scale = scale

    def run(self, x):
        box345 = []
        x = (x * 0.5, x)[_keep(box345, f2(x))] + box345[0]
        x = torch.tanh(x)
        return x


def entry(x):
    x = torch.add(*[x * 0.5, C1(0.5).run(x)])
    _effect("entry.348", x)
    x = torch.tanh(x)
    return {"out": x, "mean": x.mean()}


def make_inputs(device):
    g = torch.Generator().manual_seed(1414)
    x = torch.randn(5, 3, generator=g)
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
