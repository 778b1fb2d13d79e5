# ngb-fuzz program
# signature: crash:NameError@engine._segments:__call__
# target: engine:fault=closure-root-globals
# found-by: ngb-fuzz run --seed 21 (program 206)
# features: break.data_if break.disable break.item break.step_unsupported call.callable call.chain call.kwargs call.lambda call.method call.varargs class.init class.local class.setattr class.setitem class.str class.super class.super_hierarchy class.super_list class.super_setattr closure.nonlocal ctx.as_value ctx.contextmanager ctx.contextmanager_disabled ctx.decorator ctx.disable_ngb ctx.enable_grad ctx.inference_mode ctx.nested_decorators ctx.no_grad ctx.set_grad_enabled ctx.user_class depth.30+ flow.early_return flow.generator flow.recompile flow.tensor_loop flow.try_except flow.try_finally input.noncontiguous module.helper nn.module raise.deliberate shape.cm_disable_init shape.decorator_ctx_break shape.helper_closure_globals shape.step_break_stack shape.upper_ctx_break side.attr side.dict stack.binop stack.call_arg stack.comprehension stack.conditional stack.dict_display stack.kwargs stack.list_display stack.method stack.plain stack.star_args stack.subscript stack.tuple_display stack.unpack
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


def f70(**kw):
    x = kw["x"]
    x = torch.inference_mode()(ngb_h1.f71)(x)
    x = torch.tanh(x)
    return x


def f69(x):
    x = (x * 0.5).add(f70(x=x))
    x = torch.tanh(x)
    return x


@torch._dynamo.disable_nested_graph_breaks
def f67(**kw):
    x = kw["x"]
    acc5 = x * 0.5
    def inner5(x):
        nonlocal acc5
        x = (x * 0.5).add(ngb_h1.f68(x))
        x = torch.tanh(x)
        x = x * G_SCALE + G_BIAS
        acc5 = acc5 * 0.5 + x * 0.25
        return x
    x = inner5(x) * 0.5 + acc5 * 0.5
    return x


def f66(x, cm):
    x = x * 0.5 + f67(x=x)
    x = torch.sin(x)
    if x.sum() > 0:
        _effect("f66.12", str(_Named("f66.12", x)))
    else:
        x = x - 0.5
    with cm:
        _effect("f66.15", torch.is_grad_enabled())
        _effect("f66.16", x)
    return x


def f64(x):
    acc17 = x * 0.5
    def inner17(x):
        nonlocal acc17
        x = ngb_h1.f65(x)
        x = torch.cos(x)
        acc17 = acc17 * 0.5 + x * 0.25
        return x
    x = inner17(x) * 0.5 + acc17 * 0.5
    return x


def f61(x):
    x = ngb_h1.f62(x)
    x = torch.clamp(x, -1.0, 1.0)
    return x


class C58:
    def __init__(self, scale):
        self.scale = scale

    def __call__(self, x):
        d22 = {"a": x, "b": ngb_h1.f59(x)}
        x = d22["a"] * 0.5 + d22["b"]
        x = torch.tanh(x)
        _effect("f58.24", torch.is_grad_enabled())
        return x


def f54(x):
    def gen25(x):
        x = ngb_h1.f55(x)
        yield x
        yield x * 0.5
    vals25 = list(gen25(x))
    x = vals25[0] * 0.5 + vals25[1]
    x = torch.clamp(x, -3.0, 3.0)
    return x


def f51(x):
    x = x.abs() * 0.5
    try:
        l30 = [x * 0.5, ngb_h1.f52(x), x]
        x = l30[0] + l30[1] - l30[2] * 0.25
        x = x - 1.5
        raise ValueError("ngb deliberate ngb f51.32")
    except ValueError as e29:
        _effect("f51.29", str(e29))
        _effect("f51.33", x)
    x = torch.tanh(x)
    return x


def f50(x):
    x = torch.inference_mode()(f51)(x)
    x = torch.sin(x)
    return x


def f49(x):
    try:
        x = (x * 0.5).add(f50(x))
        c39 = _SupChild(x)
        x = c39.scale(c39.half)
        raise ValueError("ngb deliberate ngb f49.40")
    except ValueError as e37:
        _effect("f49.37", str(e37))
    return x


def f48(x):
    acc41 = x * 0.5
    def inner41(x):
        nonlocal acc41
        x = torch.add(*[x * 0.5, f49(x)])
        _effect("f48.43", torch.is_grad_enabled())
        x = x + T_MAIN
        acc41 = acc41 * 0.5 + x * 0.25
        return x
    x = inner41(x) * 0.5 + acc41 * 0.5
    x = torch.tanh(x)
    return x


class C47:
    def __init__(self, scale):
        self.scale = scale

    def run(self, x):
        x = _Ctx("f47.46.deco")(f48)(x)
        x = torch.tanh(x)
        return x


def f45(x):
    d48 = {"a": x, "b": ngb_h1.C46(0.5)(x)}
    x = d48["a"] * 0.5 + d48["b"]
    _effect("f45.49", str(_Named("f45.49", x)))
    x = torch.sigmoid(x)
    return x


def f42(x):
    x = torch.sigmoid(x)
    with torch.no_grad():
        x = torch.add(x * 0.5, ngb_h2.f43(x))
        _effect("f42.54", torch.is_grad_enabled())
    x = torch.cos(x)
    return x


def f40(x):
    x = ngb_h2.f41(x)
    x = torch.sigmoid(x)
    x = torch.tanh(x)
    return x


def f39(*args):
    x = args[0]
    x = f40(x)
    x = torch.clamp(x, -2.0, 2.0)
    return x


def f36(x):
    with _cm("f36.61"):
        x = (x * 0.5).add(ngb_h1.f37(x))
        x = torch.tanh((x @ x.transpose(-1, -2)) @ x * 0.05)
    return x


def f35(*args):
    x = args[0]
    flag64 = x.dim() == 2
    x = f36(x) if flag64 else x - 0.5
    x = torch.clamp(x, -3.0, 3.0)
    return x


def f34(*args):
    x = args[0]
    with torch.set_grad_enabled(False):
        box67 = []
        x = (x * 0.5, x)[_keep(box67, f35(x))] + box67[0]
        x = torch.clamp(x, -2.0, 2.0)
        _effect("f34.69", x)
    return x


def f33(**kw):
    x = kw["x"]
    TABLE["f33.70"] = x * 0.25
    if x.sum() > 0:
        obj72 = _Tracked("f33.72")
        obj72.v = x
        x = obj72.v * 0.5
    else:
        a73, *r73 = [x, f34(x), x * 0.5]
        x = a73 * 0.25 + r73[0] + r73[1] * 0.25
        x = torch.tanh(x)
    x = torch.tanh(x)
    return x


def f31(*args):
    x = args[0]
    x = (x * 0.5).add(ngb_h1.f32(x=x))
    x = torch.cos(x)
    x = torch.sin(x)
    return x


@_Ctx("f30.deco0")
@_Ctx("f30.deco1")
def f30(x):
    TABLE["f30.79"] = x * 0.25
    if x.sum() > 0:
        x = torch.sin(x)
    else:
        x = f31(x)
        x = torch.clamp(x, -2.0, 2.0)
        _effect("f30.84", torch.is_grad_enabled())
    return x


class C28:
    def __init__(self, scale):
        self.scale = scale

    def run(self, x):
        flag85 = x.dim() == 2
        x = ngb_h1.f29(x) if flag85 else x - 0.5
        x = torch.tanh(x)
        return x


def f27(x):
    x = x * 0.5 + C28(0.5).run(x)
    x = torch.sin(x)
    return x


class C26:
    def __init__(self, scale):
        self.scale = scale

    def __call__(self, x):
        t89 = (x, f27(x))
        x = t89[0] * 0.5 + t89[1]
        x = torch.clamp(x, -3.0, 3.0)
        return x


def f25(x):
    _effect("f25.91", x)
    a92, *r92 = [x, C26(0.5)(x), x * 0.5]
    x = a92 * 0.25 + r92[0] + r92[1] * 0.25
    x = torch.sin(x)
    return x


def f23(x, cm):
    x = x * 0.5 + ngb_h1.f24(x)
    x = _ngb_disabled(x)
    with cm:
        _effect("f23.97", torch.is_grad_enabled())
        x = x + 0.25
    return x


def f21(*args):
    x = args[0]
    acc99 = x * 0.5
    def inner99(x):
        nonlocal acc99
        l100 = [x * 0.5, ngb_h1.C22(0.5)(x), x]
        x = l100[0] + l100[1] - l100[2] * 0.25
        acc99 = acc99 * 0.5 + x * 0.25
        return x
    x = inner99(x) * 0.5 + acc99 * 0.5
    return x


def f19(x):
    l101 = [x * 0.5, ngb_h1.f20(x), x]
    x = l101[0] + l101[1] - l101[2] * 0.25
    x = torch.relu(x) - 0.5
    x = torch.cos(x)
    return x


def f17(x):
    try:
        v105 = [ngb_h1.f18(x + c105) for c105 in (0.0, 0.5)]
        x = v105[0] * 0.5 + v105[1] * 0.5
        _effect("f17.106", torch.is_grad_enabled())
    finally:
        _effect("f17.104", x)
    x = x * 0.5 + x.mean().item() * 0.5
    x = torch.cos(x)
    return x


def f15(x):
    x = torch.clamp(x, -3.0, 3.0)
    x = ngb_h1.f16(x)
    x = torch.tanh(x)
    return x


def f14(x):
    def gen112(x):
        with _Ctx("f14.113"):
            x = torch.add(**{"input": x * 0.5, "other": f15(x)})
        x = x + 0.25
        yield x
        yield x * 0.5
    vals112 = list(gen112(x))
    x = vals112[0] * 0.5 + vals112[1]
    x = torch.sin(x)
    return x


def f13(x):
    class Local117:
        scale = 0.5
    
        def apply(self, v):
            return v * self.scale
    x = Local117().apply(x) + 0.25
    x = f14(x)
    x = torch.sin(x)
    return x


class C11:
    def __init__(self, scale):
        self.scale = scale

    def run(self, x):
        l120 = [x * 0.5, ngb_h1.f12(x), x]
        x = l120[0] + l120[1] - l120[2] * 0.25
        x = torch.tanh(x)
        return x


def f9(**kw):
    x = kw["x"]
    x = torch.cos(x)
    with torch.set_grad_enabled(False):
        d124 = {"a": x, "b": ngb_h1.f10(x)}
        x = d124["a"] * 0.5 + d124["b"]
        class Sub125(_Base):
            def scale(self, v):
                return super().scale(v) * 0.5
        x = Sub125().scale(x)
    return x


def f8(x):
    if x.dim() == 3:
        return torch.tanh(x)
    try:
        with _cm_disabled("f8.128"):
            a129, *r129 = [x, f9(x=x), x * 0.5]
            x = a129 * 0.25 + r129[0] + r129[1] * 0.25
            x = torch.sin(x)
            _effect("f8.131", torch.is_grad_enabled())
        raise ValueError("ngb deliberate ngb f8.132")
    except ValueError as e127:
        _effect("f8.127", str(e127))
    return x


class C7:
    def __init__(self, scale):
        self.scale = scale

    def run(self, x):
        try:
            x = torch.add(*[x * 0.5, f8(x)])
            x = torch.tanh(x)
        finally:
            _effect("f7.133", x)
        return x


def entry(x):
    acc136 = torch.zeros_like(x)
    for r136 in x.unbind(0):
        acc136 = acc136 + r136
        x = ngb_h2.f1(x)
        _effect("entry.138", torch.is_grad_enabled())
        x = torch.tanh((x @ x.transpose(-1, -2)) @ x * 0.05)
    x = x * 0.5 + acc136 * 0.125
    x = x + 0.25
    return x


ngb_h1 = types.ModuleType("ngb_h1")
ngb_h1.__dict__.update({"_effect": _effect, "_keep": _keep, "_ngb_disabled": _ngb_disabled, "_Ctx": _Ctx, "_cm": _cm, "_cm_disabled": _cm_disabled, "_Box": _Box, "_Tracked": _Tracked, "_Bag": _Bag, "_Prop": _Prop, "_Pair": _Pair, "_Named": _Named, "_Base": _Base, "_MOD": _MOD, "STATE": STATE, "_SupSetBefore": _SupSetBefore, "_SupSetAfter": _SupSetAfter, "_SupDict": _SupDict, "_SupList": _SupList, "_SupChild": _SupChild})
exec(compile('''
import contextlib
import types

import torch

G_SCALE = 1.25
G_BIAS = 0.125
T_H1 = torch.tensor(0.25)
LOG = []
TABLE = {}
COUNTER = 0


class C2:
    def __init__(self, scale):
        self.scale = scale

    def run(self, x):
        x = torch.add(x * 0.5, f3(x))
        x = torch.tanh(x)
        return x


def f3(x):
    a143, *r143 = [x, f4(x), x * 0.5]
    x = a143 * 0.25 + r143[0] + r143[1] * 0.25
    x = torch.tanh(x)
    return x


def f5(*args):
    x = args[0]
    x = f6(x)
    x = torch.tanh(x)
    return x


def f6(x):
    x = x + T_H1
    x = x * 0.5 + C7(0.5).run(x)
    x = torch.sin(x)
    return x


@torch.inference_mode()
@torch.enable_grad()
def f10(x):
    x = x + 0.25
    try:
        x = C11(0.5).run(x)
        x = torch.cos(x)
    finally:
        _effect("f10.151", x)
    return x


def f12(x):
    d154 = {"a": x, "b": f13(x)}
    x = d154["a"] * 0.5 + d154["b"]
    x = torch.clamp(x, -2.0, 2.0)
    return x


@_cm("f16.deco0")
def f16(x):
    global COUNTER
    _effect("f16.156", x)
    try:
        COUNTER = COUNTER + 1
        if COUNTER % 2 == 1:
            x = _cm("f16.159.deco")(f17)(x)
        else:
            x = x * 0.75
        raise ValueError("ngb deliberate ngb f16.161")
    except ValueError as e157:
        _effect("f16.157", str(e157))
    x = torch.sin(x)
    return x


def f18(x):
    x = _MOD(x)
    l164 = [x * 0.5, f19(x), x]
    x = l164[0] + l164[1] - l164[2] * 0.25
    x = torch.tanh(x)
    return x


def f20(x):
    _effect("f20.166", x)
    l167 = [x * 0.5, f21(x), x]
    x = l167[0] + l167[1] - l167[2] * 0.25
    x = torch.tanh(x)
    return x


class C22:
    def __init__(self, scale):
        self.scale = scale

    def __call__(self, x):
        try:
            cm170 = _cm("f22.170.cm")
            x = (x * 0.5).add(f23(x, cm170))
            _effect("f22.171", torch.is_grad_enabled())
        finally:
            _effect("f22.169", x)
            TABLE["f22.172"] = x * 0.25
        x = torch.sin(x)
        return x


def f24(x):
    acc174 = x * 0.5
    def inner174(x):
        nonlocal acc174
        x = f25(x)
        STATE.calls = STATE.calls + 1
        x = x + STATE.calls * 0.01
        acc174 = acc174 * 0.5 + x * 0.25
        return x
    x = inner174(x) * 0.5 + acc174 * 0.5
    x = torch.sigmoid(x)
    return x


@_Ctx("f29.deco0")
@torch.no_grad()
def f29(*args):
    x = args[0]
    x = torch.add(*[x * 0.5, f30(x)])
    x = torch.sigmoid(x)
    return x


def f32(**kw):
    x = kw["x"]
    with _cm_disabled("f32.180"):
        d181 = {"a": x, "b": f33(x=x)}
        x = d181["a"] * 0.5 + d181["b"]
        x = torch.sin(x)
    return x


def f37_impl(x):
    with _Ctx("f37.183"):
        acc184 = x * 0.5
        def inner184(x):
            nonlocal acc184
            global COUNTER
            COUNTER = COUNTER + 1
            if COUNTER % 2 == 1:
                x = (x * 0.5).add(f38(x))
                x = torch.tanh(x)
            else:
                x = x * 0.5 - 0.25
            _effect("f37.189", torch.is_grad_enabled())
            acc184 = acc184 * 0.5 + x * 0.25
            return x
        x = inner184(x) * 0.5 + acc184 * 0.5
    x = torch.tanh(x)
    return x


f37 = lambda x: 0.0 + f37_impl(x)


class C46:
    def __init__(self, scale):
        self.scale = scale

    def __call__(self, x):
        x = (x * 0.5).add(C47(0.5).run(x))
        o192 = _SupSetBefore("f46.192")
        o192.v = x
        p192 = _SupSetAfter("f46.192")
        p192.v = o192.v
        x = p192.v
        return x


def f52(x):
    box193 = []
    x = (x * 0.5, x)[_keep(box193, f53(x))] + box193[0]
    x = torch.tanh(x)
    return x


def f53(x):
    try:
        x = f54(x)
        x = torch.tanh(x)
    finally:
        _effect("f53.195", x)
    x = torch.relu(x) - 0.5
    return x


def f55(*args):
    x = args[0]
    x = x * 0.5 + f56(x=x)
    x = torch.sin(x)
    return x


@_cm_disabled("f56.deco0")
def f56(**kw):
    x = kw["x"]
    x = f57(x)
    x = torch.sin(x)
    return x


def f57(x):
    acc203 = x * 0.5
    def inner203(x):
        nonlocal acc203
        x = C58(0.5)(x)
        x = torch.sin(x)
        x = x * G_SCALE + G_BIAS
        acc203 = acc203 * 0.5 + x * 0.25
        return x
    x = inner203(x) * 0.5 + acc203 * 0.5
    _effect("f57.207", x)
    return x


def f59(x):
    acc208 = x * 0.5
    def inner208(x):
        nonlocal acc208
        a209, *r209 = [x, f60(x), x * 0.5]
        x = a209 * 0.25 + r209[0] + r209[1] * 0.25
        x = torch.tanh(x)
        _effect("f59.211", torch.is_grad_enabled())
        acc208 = acc208 * 0.5 + x * 0.25
        return x
    x = inner208(x) * 0.5 + acc208 * 0.5
    return x


def f60(x):
    x = f61(x)
    x = torch.sin(x)
    return x


def f62(x):
    x = torch.add(**{"input": x * 0.5, "other": f63(x)})
    x = torch.sin(x)
    return x


@torch.no_grad()
@torch.inference_mode()
@torch._dynamo.disable_nested_graph_breaks
def f63(x):
    if x.dim() == 3:
        return torch.tanh(x)
    x = f64(x)
    x = torch.clamp(x, -2.0, 2.0)
    l219 = _SupList()
    l219.append(x)
    x = l219[0] + l219[1] * 0.01
    return x


def f65(x):
    cm220 = _cm_disabled("f65.220.cm")
    d220 = {"a": x, "b": f66(x, cm220)}
    x = d220["a"] * 0.5 + d220["b"]
    x = torch.tanh((x @ x.transpose(-1, -2)) @ x * 0.05)
    return x


def f68(x):
    try:
        x = f69(x)
        x = torch.tanh(x)
    finally:
        _effect("f68.222", x)
        _effect("f68.225", torch.is_grad_enabled())
    x = x * 1.25 - 0.25
    return x


def f71(x):
    x = torch.sin(x)
    x = torch.add(*[x * 0.5, f72(x)])
    x = torch.tanh(x)
    return x


def f72(x):
    with torch.no_grad():
        l231 = [x * 0.5, f73(x), x]
        x = l231[0] + l231[1] - l231[2] * 0.25
        _effect("f72.232", torch.is_grad_enabled())
    x = x + T_H1
    x = torch.sin(x)
    return x


def f73(x):
    global COUNTER
    COUNTER = COUNTER + 1
    if COUNTER % 2 == 1:
        flag236 = x.dim() == 2
        x = f74(x=x) if flag236 else x - 0.5
    else:
        x = x * 1.5
    o238 = _SupSetBefore("f73.238")
    o238.v = x
    p238 = _SupSetAfter("f73.238")
    p238.v = o238.v
    x = p238.v
    return x


def f75(x):
    x = _cm("f75.239.deco")(f76)(x)
    x = torch.clamp(x, -3.0, 3.0)
    return x


def f77(*args):
    x = args[0]
    l241 = [x * 0.5, f78(x), x]
    x = l241[0] + l241[1] - l241[2] * 0.25
    obj242 = _Box(x)
    x = obj242.value * 0.5 + 0.1
    return x


def f78(x):
    l243 = [x * 0.5, f79(x), x]
    x = l243[0] + l243[1] - l243[2] * 0.25
    x = torch.sin(x)
    return x
''', "ngb_h1", "exec"), ngb_h1.__dict__)


ngb_h2 = types.ModuleType("ngb_h2")
ngb_h2.__dict__.update({"_effect": _effect, "_keep": _keep, "_ngb_disabled": _ngb_disabled, "_Ctx": _Ctx, "_cm": _cm, "_cm_disabled": _cm_disabled, "_Box": _Box, "_Tracked": _Tracked, "_Bag": _Bag, "_Prop": _Prop, "_Pair": _Pair, "_Named": _Named, "_Base": _Base, "_MOD": _MOD, "STATE": STATE, "_SupSetBefore": _SupSetBefore, "_SupSetAfter": _SupSetAfter, "_SupDict": _SupDict, "_SupList": _SupList, "_SupChild": _SupChild})
exec(compile('''
import contextlib
import types

import torch

G_SCALE = 0.75
G_BIAS = 0.25
T_H2 = torch.tensor(0.5)
LOG = []
TABLE = {}
COUNTER = 0


def f1(x):
    try:
        v246 = [C2(0.5).run(x + c246) for c246 in (0.0, 0.5)]
        x = v246[0] * 0.5 + v246[1] * 0.5
        raise ValueError("ngb deliberate ngb f1.247")
    except ValueError as e245:
        _effect("f1.245", str(e245))
        x = x * 0.5 + x.sum(dim=-1, keepdim=True) * 0.1
    x = torch.tanh(x)
    return x


def f4(x):
    x = x * 0.5 + f5(x)
    x = torch.cos(x)
    return x


def f38(x):
    with _Ctx("f38.252"):
        x = torch.add(x * 0.5, f39(x))
        x = torch.sin(x)
        _effect("f38.255", torch.is_grad_enabled())
    _effect("f38.256", torch.is_grad_enabled())
    return x


@_Ctx("f41.deco0")
def f41(x):
    with torch.enable_grad():
        with torch.inference_mode():
            d259 = {"a": x, "b": f42(x)}
            x = d259["a"] * 0.5 + d259["b"]
            x = torch.sin(x)
        _effect("f41.261", torch.is_grad_enabled())
    return x


def f43(x):
    _effect("f43.262", torch.is_inference_mode_enabled())
    x = torch.add(*[x * 0.5, f44(x)])
    x = torch.tanh(x)
    return x


def f44(x):
    bag265 = _Bag("f44.265")
    bag265["a"] = x
    x = bag265["a"] * 0.5
    x = _cm_disabled("f44.266.deco")(f45)(x)
    x = torch.tanh(x)
    return x


@torch._dynamo.disable_nested_graph_breaks
def f74(**kw):
    x = kw["x"]
    with torch.inference_mode():
        x = torch.add(**{"input": x * 0.5, "other": f75(x)})
        _effect("f74.270", x)
    x = torch.sigmoid(x)
    return x


def f76(x):
    try:
        x = f77(x)
        raise ValueError("ngb deliberate ngb f76.274")
    except ValueError as e272:
        _effect("f76.272", str(e272))
    x = torch.clamp(x, -2.0, 2.0)
    return x


def f79(x):
    x = torch.add(*[x * 0.5, f80(x)])
    x = torch.sin(x)
    return x


def f80(x):
    try:
        torch._dynamo.step_unsupported()
        _effect("f80.280", torch.is_grad_enabled())
        raise ValueError("ngb deliberate ngb f80.281")
    except ValueError as e278:
        _effect("f80.278", str(e278))
    x = torch.relu(x) - 0.5
    x = torch.tanh((x @ x.transpose(-1, -2)) @ x * 0.05)
    return x
''', "ngb_h2", "exec"), ngb_h2.__dict__)
ngb_h1.__dict__.update({"entry": entry, "C7": C7, "f8": f8, "f9": f9, "C11": C11, "f13": f13, "f14": f14, "f15": f15, "f17": f17, "f19": f19, "f21": f21, "f23": f23, "f25": f25, "C26": C26, "f27": f27, "C28": C28, "f30": f30, "f31": f31, "f33": f33, "f34": f34, "f35": f35, "f36": f36, "f39": f39, "f40": f40, "f42": f42, "f45": f45, "C47": C47, "f48": f48, "f49": f49, "f50": f50, "f51": f51, "f54": f54, "C58": C58, "f61": f61, "f64": f64, "f66": f66, "f67": f67, "f69": f69, "f70": f70, "f1": ngb_h2.f1, "f4": ngb_h2.f4, "f38": ngb_h2.f38, "f41": ngb_h2.f41, "f43": ngb_h2.f43, "f44": ngb_h2.f44, "f74": ngb_h2.f74, "f76": ngb_h2.f76, "f79": ngb_h2.f79, "f80": ngb_h2.f80})
ngb_h2.__dict__.update({"entry": entry, "C7": C7, "f8": f8, "f9": f9, "C11": C11, "f13": f13, "f14": f14, "f15": f15, "f17": f17, "f19": f19, "f21": f21, "f23": f23, "f25": f25, "C26": C26, "f27": f27, "C28": C28, "f30": f30, "f31": f31, "f33": f33, "f34": f34, "f35": f35, "f36": f36, "f39": f39, "f40": f40, "f42": f42, "f45": f45, "C47": C47, "f48": f48, "f49": f49, "f50": f50, "f51": f51, "f54": f54, "C58": C58, "f61": f61, "f64": f64, "f66": f66, "f67": f67, "f69": f69, "f70": f70, "C2": ngb_h1.C2, "f3": ngb_h1.f3, "f5": ngb_h1.f5, "f6": ngb_h1.f6, "f10": ngb_h1.f10, "f12": ngb_h1.f12, "f16": ngb_h1.f16, "f18": ngb_h1.f18, "f20": ngb_h1.f20, "C22": ngb_h1.C22, "f24": ngb_h1.f24, "f29": ngb_h1.f29, "f32": ngb_h1.f32, "f37": ngb_h1.f37, "C46": ngb_h1.C46, "f52": ngb_h1.f52, "f53": ngb_h1.f53, "f55": ngb_h1.f55, "f56": ngb_h1.f56, "f57": ngb_h1.f57, "f59": ngb_h1.f59, "f60": ngb_h1.f60, "f62": ngb_h1.f62, "f63": ngb_h1.f63, "f65": ngb_h1.f65, "f68": ngb_h1.f68, "f71": ngb_h1.f71, "f72": ngb_h1.f72, "f73": ngb_h1.f73, "f75": ngb_h1.f75, "f77": ngb_h1.f77, "f78": ngb_h1.f78})


def make_inputs(device):
    g = torch.Generator().manual_seed(322)
    x = torch.randn(4, 2, generator=g).t()
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
            _sys.modules.update({m.__name__: m for _, m in mods})  # importable, as a user's are (else a torch crash)
            fn = torch.compile(mod.entry, backend=backend) if compiled else mod.entry
            calls = []
            for _ in range(2):
                log = vars(mod).get("EFFECTS", [])  # optional: a program may record no effects
                first, inputs = len(log), mod.make_inputs("cpu") if hasattr(mod, "make_inputs") else ()
                try:
                    result = ("returned", obs(fn(*inputs)))
                except Exception as e:  # noqa: BLE001
                    result = ("raised", type(e).__name__)
                calls.append({"result": result, "effects": obs(log[first:]), "inputs": obs(inputs),
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
