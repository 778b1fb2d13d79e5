# ngb-fuzz program
# signature: slow:compile
# target: torch:python=/work/venvs/t215/bin/python
# found-by: ngb-fuzz run --seed 2815 (program 672)
# features: break.data_if break.disable break.graph_break break.numpy call.lambda call.method call.recursion call.tree class.local class.str class.super_dict closure.nonlocal control.raise_from ctx.as_value ctx.autocast ctx.contextmanager ctx.decorator ctx.disable_ngb ctx.enable_grad ctx.nested_decorators ctx.no_grad ctx.set_grad_enabled ctx.user_class data.getattr depth.30+ flow.early_return flow.recompile flow.tensor_loop flow.try_finally shape.decorator_ctx_break shape.upper_ctx_break side.attr side.dict side.list stack.binop stack.call_arg stack.comprehension stack.conditional stack.dict_display stack.fstring stack.kwargs stack.list_display stack.method stack.plain stack.star_args stack.subscript stack.tuple_display stack.unpack torchapi.subclass
# weights: break.builtin=0.35 break.disable=1 break.item=0.375 break.print=0.5 break.step_unsupported=0.5 break.tolist=0.175 call.lambda=0.1 call.nonstrict=0.1 call.recursion=0.15 call.varargs=0.2 class.init=0.1 class.property=0.15 class.setattr=0.15 class.super=0.075 control.for_else=0.1 control.gen_expr=0.075 control.nested_comp=0.075 control.while_else=0.075 ctx.as_value=0.1 ctx.autocast=0.25 ctx.contextmanager=0.25 ctx.contextmanager_disabled=0.175 ctx.decorator=0.25 ctx.disable_ngb=0.2 ctx.enable_grad=0.25 ctx.inference_mode=0.125 ctx.no_grad=0.5 ctx.user_class=0.5 data.frozen_dataclass=0.075 data.init_subclass=0.075 data.post_init=0.1 data.slots_dataclass=0.075 flow.generator=0.15 flow.loop=0.2 flow.try_except=0.15 flow.try_finally=0.3 iter.all_genexpr=0.2 iter.any_tolist=0.15 iter.filter=0.1 iter.iter_next=0.075 iter.map=0.125 iter.max_key=0.125 iter.min_values=0.075 iter.reversed_user=0.15 iter.sorted_key=0.125 iter.sum_genexpr=0.125 iter.user_protocol=0.1 iter.zip_enumerate=0.2 module.helper=0.6 nn.module=0.1 raise.deliberate=0.1 side.global=0.15 stdlib.accumulate=0.075 stdlib.chain_islice=0.075 stdlib.counter=0.075 stdlib.defaultdict=0.1 stdlib.deque=0.1 stdlib.groupby=0.075 stdlib.lru_cache=0.1 stdlib.namedtuple=0.075 stdlib.ordered_dict=0.075 stdlib.pairwise=0.05 stdlib.partial=0.1 stdlib.random_math=0.15 stdlib.reduce=0.1 stdlib.singledispatch=0.075 stdlib.starmap_product=0.075 stdlib.wraps=0.075 strings.format=0.075 strings.methods=0.1 strings.nested_spec=0.075 strings.user_format=0.075
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


class _Lazy:
    def __init__(self, fn, value):
        self.fn = fn
        self.value = value
        self.misses = []

    def __getattr__(self, name):
        self.misses.append(name)
        if name.startswith("scaled_"):
            return self.fn(self.value) * (int(name[7:]) * 0.125)
        raise AttributeError(name)


class _Audited:
    def __init__(self, value):
        self.value = value
        self.reads = 0

    def __getattribute__(self, name):
        if name == "value":
            object.__setattr__(self, "reads", object.__getattribute__(self, "reads") + 1)
        return object.__getattribute__(self, name)


class _Named:
    def __init__(self, tag, value):
        self.tag = tag
        self.value = value

    def __str__(self):
        return f"{self.tag}:{tuple(self.value.shape)}:{self.value.dtype}"


class _State:
    def __init__(self):
        self.calls = 0


STATE = _State()


class _Deep(Exception):
    pass


class _Mid(Exception):
    pass


class _SupDict(dict):
    def __setitem__(self, key, value):
        torch._dynamo.graph_break()
        super().__setitem__(key, value * 0.5)

    def __getitem__(self, key):
        value = super().__getitem__(key)
        torch._dynamo.graph_break()
        return value + 0.25


class _Tagged(torch.Tensor):
    seen = []

    @classmethod
    def __torch_function__(cls, func, types, args=(), kwargs=None):
        cls.seen.append(getattr(func, "__name__", "?"))
        return super().__torch_function__(func, types, args, kwargs or {})


def f44(x):
    def hole1(x):
        x = x * 0.5 + torch.from_numpy(np.clip(x.detach().float().cpu().numpy(), -2.0, 2.0) * 0.5).to(x.device, x.dtype)
        return x
    n1 = len(_Tagged.seen)
    y1 = hole1(x.as_subclass(_Tagged) * 0.5)
    _effect("f44.1", (type(y1).__name__, "mul" in _Tagged.seen[n1:]))
    del _Tagged.seen[n1:]
    x = y1.as_subclass(torch.Tensor) * 1.0
    return x


def f43(x, n):
    torch._dynamo.graph_break()
    x = x + T_MAIN
    if n > 0:
        x = f43(x, n - 1)
    return x


def f42(x):
    torch._dynamo.graph_break()
    class Local7:
        scale = 0.5
    
        def apply(self, v):
            return v * self.scale
    x = Local7().apply(x) + 0.25
    return x


def f41(x):
    try:
        t9 = (x, f42(x))
        x = t9[0] * 0.5 + t9[1]
        _effect("f41.10", torch.is_grad_enabled())
    finally:
        _effect("f41.8", x)
    x = torch.tanh(x)
    return x


def f40(x):
    a12, *r12 = [x, f41(x), x * 0.5]
    x = a12 * 0.25 + r12[0] + r12[1] * 0.25
    x = torch.tanh(x)
    return x


def f39(x):
    v14 = [f40(x + c14) for c14 in (0.0, 0.5)]
    x = v14[0] * 0.5 + v14[1] * 0.5
    _effect("f39.15", str(_Named("f39.15", x)))
    x = torch.tanh(x)
    return x


def f38(x):
    t17 = (x, f39(x))
    x = t17[0] * 0.5 + t17[1]
    x = torch.clamp(x, -1.0, 1.0)
    return x


def f37(x):
    TABLE["f37.19"] = x * 0.25
    x = (x * 0.5).add(f38(x))
    x = torch.sin(x)
    return x


def f36(x):
    x = torch.cos(x)
    a23, *r23 = [x, f37(x), x * 0.5]
    x = a23 * 0.25 + r23[0] + r23[1] * 0.25
    x = torch.cos(x)
    return x


def f35(x):
    with torch.set_grad_enabled(True):
        x = (x * 0.5).add(f36(x))
        _effect("f35.27", x)
    d28 = _SupDict()
    d28["f35.28"] = x
    x = d28["f35.28"] * 0.5
    return x


def f34(x):
    l29 = [x * 0.5, f35(x), x]
    x = l29[0] + l29[1] - l29[2] * 0.25
    x = x + 1.0
    x = torch.sin(x)
    return x


def f33(x):
    def hole32(x):
        x = (x * 0.5).add(f34(x))
        return x
    box32 = []
    def deep32(t):
        box32.append(hole32(t))
        raise _Deep("deep32")
    def mid32(t):
        try:
            deep32(t)
        except _Deep as e:
            raise _Mid("mid32") from e
    try:
        mid32(x * 0.5)
    except _Mid as e32:
        c32 = e32.__cause__
        _effect("f33.32", (type(c32).__name__, str(c32), e32.__suppress_context__, e32.__context__ is c32))
    x = box32[0] + x * 0.25
    x = torch.tanh(x)
    return x


@_Ctx("f32.deco0")
@torch.no_grad()
def f32(x):
    x = x + 1.0
    if x.dim() == 2:
        return torch.tanh(x)
    if x.sum() > 0:
        STATE.calls = STATE.calls + 1
        x = x + STATE.calls * 0.01
    else:
        x = torch.add(x * 0.5, f33(x))
        _effect("f32.40", torch.is_grad_enabled())
    x = torch.clamp(x, -3.0, 3.0)
    return x


def f31(x, cm):
    x = torch.add(x * 0.5, f32(x))
    x = _ngb_disabled(x)
    with cm:
        _effect("f31.45", torch.is_grad_enabled())
        _effect("f31.46", torch.is_grad_enabled())
    return x


def f30(x):
    x = torch.clamp(x, -1.0, 1.0)
    with torch.enable_grad():
        cm49 = torch.no_grad()
        x = (x * 0.5).add(f31(x, cm49))
        STATE.calls = STATE.calls + 1
        x = x + STATE.calls * 0.01
    x = torch.sin(x)
    return x


def f29(x):
    try:
        def hole53(x):
            x = f30(x)
            x = torch.sin(x)
            _effect("f29.56", torch.is_grad_enabled())
            return x
        l53 = _Lazy(hole53, x)
        y53 = l53.scaled_4
        a53 = _Audited(x * 0.25)
        z53 = a53.value + a53.value
        _effect("f29.53", (l53.misses, hasattr(l53, "other"), getattr(l53, "nope", 5), a53.reads))
        x = y53 + z53 * 0.5
    finally:
        _effect("f29.52", x)
        _effect("f29.57", str(_Named("f29.57", x)))
    return x


def f28(x):
    x = f29(x)
    x = torch.tanh(x)
    return x


def f27(x):
    if x.sum() > 0:
        x = torch.tanh(x)
    else:
        x = torch.add(**{"input": x * 0.5, "other": f28(x)})
        x = torch.tanh(x)
        _effect("f27.64", torch.is_grad_enabled())
    return x


class C26:
    def __init__(self, scale):
        self.scale = scale

    def run(self, x):
        _effect("f26.65", torch.is_autocast_enabled("cpu"))
        if x.sum() > 0:
            LOG.append(x * 0.5)
        else:
            torch._dynamo.graph_break()
            _effect("f26.69", x)
        a70, *r70 = [x, f27(x), x * 0.5]
        x = a70 * 0.25 + r70[0] + r70[1] * 0.25
        x = torch.clamp(x, -2.0, 2.0)
        return x


def f25(x):
    acc72 = torch.zeros_like(x)
    for r72 in x.unbind(0):
        acc72 = acc72 + r72
        flag73 = x.dim() == 2
        x = C26(0.5).run(x) if flag73 else x - 0.5
        x = torch.tanh(x)
        x = torch.tanh((x @ x.transpose(-1, -2)) @ x * 0.05)
    x = x * 0.5 + acc72 * 0.125
    return x


def f24(x):
    x = f25(x)
    x = torch.cos(x)
    return x


def f23(x):
    a78, *r78 = [x, f24(x), x * 0.5]
    x = a78 * 0.25 + r78[0] + r78[1] * 0.25
    x = torch.sin(x)
    x = x + 0.25
    return x


def f22_impl(x):
    _effect("f22.81", torch.is_autocast_enabled("cpu"))
    x = torch.add(x * 0.5, f23(x))
    x = torch.cos(x)
    return x


f22 = lambda x: 0.0 + f22_impl(x)


def f21(x):
    box84 = []
    x = (x * 0.5, x)[_keep(box84, f22(x))] + box84[0]
    x = torch.sin(x)
    x = x * 0.5 - 0.25
    return x


def f20(x):
    with _Ctx("f20.87"):
        flag88 = x.dim() == 2
        x = f21(x) if flag88 else x - 0.5
        _effect("f20.89", torch.is_grad_enabled())
    x = torch.sigmoid(x)
    return x


def f19(x):
    x = torch.add(*[x * 0.5, f20(x)])
    x = torch.sin(x)
    return x


def f18(x):
    box93 = []
    s93 = f"f18.93:{x.shape[0]}:{_keep(box93, f19(x))}"
    _effect("f18.93", s93)
    x = box93[0]
    _effect("f18.94", torch.is_grad_enabled())
    x = torch.sin(x)
    return x


def f17(x):
    _effect("f17.96", torch.is_grad_enabled())
    l97 = [x * 0.5, f18(x), x]
    x = l97[0] + l97[1] - l97[2] * 0.25
    x = torch.sigmoid(x)
    return x


def f16(x):
    x = f17(x)
    if x.dim() == 2:
        return torch.tanh(x)
    x = torch.sin(x)
    return x


def f15(x):
    acc102 = x * 0.5
    def inner102(x):
        nonlocal acc102
        t103 = (x, f16(x))
        x = t103[0] * 0.5 + t103[1]
        _effect("f15.104", torch.is_grad_enabled())
        x = x * G_SCALE + G_BIAS
        acc102 = acc102 * 0.5 + x * 0.25
        return x
    x = inner102(x) * 0.5 + acc102 * 0.5
    x = torch.clamp(x, -2.0, 2.0)
    return x


def f14(x):
    d107 = {"a": x, "b": f15(x)}
    x = d107["a"] * 0.5 + d107["b"]
    x = torch.sin(x)
    return x


def f13(x, cm):
    x = (x * 0.5).add(f14(x))
    x = torch.tanh(x)
    x = x * 0.5 + torch.from_numpy(np.clip(x.detach().float().cpu().numpy(), -2.0, 2.0) * 0.5).to(x.device, x.dtype)
    with cm:
        _effect("f13.113", torch.is_grad_enabled())
        _effect("f13.114", x.sum())
    return x


def f12(x):
    x = torch.tanh(x)
    acc116 = x * 0.5
    def inner116(x):
        nonlocal acc116
        cm117 = torch.no_grad()
        x = x * 0.5 + f13(x, cm117)
        x = x + T_MAIN
        acc116 = acc116 * 0.5 + x * 0.25
        return x
    x = inner116(x) * 0.5 + acc116 * 0.5
    x = torch.tanh(x)
    return x


def f11(x):
    _effect("f11.120", torch.is_grad_enabled())
    with torch.autocast("cpu", dtype=torch.bfloat16):
        d122 = {"a": x, "b": f12(x)}
        x = d122["a"] * 0.5 + d122["b"]
        x = torch.tanh(x)
        _effect("f11.124", torch.is_grad_enabled())
    return x


@torch.no_grad()
@torch.no_grad()
def f10(x):
    x = torch.add(x * 0.5, f11(x))
    x = torch.clamp(x, -2.0, 2.0)
    return x


def f9(x):
    x = f10(x)
    x = torch.sigmoid(x)
    return x


def f8(x):
    acc129 = x * 0.5
    def inner129(x):
        nonlocal acc129
        x = torch.add(*[x * 0.5, f9(x)])
        x = torch.tanh(x)
        acc129 = acc129 * 0.5 + x * 0.25
        return x
    x = inner129(x) * 0.5 + acc129 * 0.5
    return x


def f7(x):
    x = f8(x)
    x = torch.sigmoid(x)
    _effect("f7.134", x.sum())
    return x


def f6(x):
    global COUNTER
    COUNTER = COUNTER + 1
    if COUNTER % 2 == 1:
        x = torch.add(x * 0.5, f7(x))
        x = torch.tanh(x)
    else:
        x = torch.tanh((x @ x.transpose(-1, -2)) @ x * 0.05)
    return x


@torch._dynamo.disable_nested_graph_breaks
def f5(x):
    x = x * 0.5 + f6(x)
    x = torch.tanh(x)
    with _cm("f5.141"):
        box142 = []
        s142 = f"f5.142:{x.shape[0]}:{_keep(box142, f43(x, 2))}"
        _effect("f5.142", s142)
        x = box142[0]
        x = x + 1.0
    x = torch.cos(x)
    return x


def f4(x):
    x = f5(x)
    x = torch.tanh((x @ x.transpose(-1, -2)) @ x * 0.05)
    _effect("f4.147", torch.is_autocast_enabled("cpu"))
    return x


def f3(x):
    torch._dynamo.graph_break()
    x = torch.add(**{"input": x * 0.5, "other": f4(x)})
    x = torch.sigmoid(x)
    return x


def f2(x):
    x = f44(x)
    flag152 = x.dim() == 2
    x = f3(x) if flag152 else x - 0.5
    x = torch.clamp(x, -3.0, 3.0)
    return x


@torch.no_grad()
def f1(x):
    LOG.append(x * 0.5)
    acc155 = torch.zeros_like(x)
    for r155 in x:
        acc155 = acc155 + r155
        t156 = (x, f2(x))
        x = t156[0] * 0.5 + t156[1]
        x = x - 0.25
        x = torch.sin(x)
    x = x * 0.5 + acc155 * 0.125
    return x


def entry(x):
    x = x.abs() * 0.5
    x = f1(x)
    x = torch.sigmoid(x)
    return x


def make_inputs(device):
    g = torch.Generator().manual_seed(5152)
    x = torch.randn(2, 5, generator=g)
    return (x.to(device),)


# ---- ngb-fuzz standalone check (generated; do not edit below) ----
if __name__ == "__main__":
    import contextlib
    import sys

    def program():  # the program above run afresh: each side starts from new globals (as in ngb-fuzz)
        torch.set_grad_enabled(True)  # and from torch's defaults
        torch.set_default_dtype(torch.float32)
        mod = type(sys)("ngb_program")
        source = open(__file__, encoding="utf-8-sig").read().split("# ---- ngb-fuzz standalone check")[0]
        exec(compile(source, __file__, "exec"), vars(mod))
        sys.modules[mod.__name__] = mod  # importable, as a user's module is
        return mod

    torch._dynamo.config.nested_graph_breaks = True
    import os
    import signal

    class Late(BaseException):  # not an Exception: the compiler's handlers do not catch it
        pass

    def late(*_):
        raise Late

    torch.compile(lambda x: x + 1, backend='eager')(torch.ones(1))  # the compiler's one-time imports, not timed

    def cpu():  # CPU seconds of this process and the compilers it ran
        times = os.times()
        return times.user + times.system + times.children_user + times.children_system

    def timed(nested):  # CPU seconds to compile and call the program afresh, nested breaks on/off
        torch._dynamo.reset()
        torch._dynamo.config.nested_graph_breaks = nested
        mod = program()
        started = cpu()
        with contextlib.suppress(Exception):  # eager raises here too; what it leaves behind is compared
            torch.compile(mod.entry, backend="eager")(*mod.make_inputs("cpu"))
        return cpu() - started

    off = timed(False)
    limit = max(15.0, 10.0 * off)
    alarms = [(signal.SIGPROF, signal.ITIMER_PROF, limit),  # CPU seconds, and more on the clock
              (signal.SIGALRM, signal.ITIMER_REAL, 3.0 * limit)] if hasattr(signal, "SIGPROF") else []
    for sig, timer, seconds in alarms:
        signal.signal(sig, late)
        signal.setitimer(timer, seconds)
    try:
        on = timed(True)
    except Late:
        on = None
    for sig, timer, seconds in alarms:
        signal.setitimer(timer, 0)
    # torch.compile is 10 times as slow with nested graph breaks on as off, or more
    print(f"nested graph breaks off: {off:.1f} CPU seconds\nnested graph breaks on:  "
          + (f"{on:.1f}" if on is not None else f"no result within {limit:.0f}") + " CPU seconds")
    same = on is not None and on < limit
    print(f"{'match' if same else 'MISMATCH'}: eager vs torch.compile(backend='eager'), torch {torch.__version__}")
    raise SystemExit(0 if same else 1)
