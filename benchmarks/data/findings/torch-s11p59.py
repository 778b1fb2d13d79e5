# ngb-fuzz program
# signature: crash:AssertionError@torch._dynamo.resume_execution:generate_based_on_original_code_object
# target: torch
# found-by: ngb-fuzz run --seed 11 (program 59)
# features: break.data_if break.graph_break break.numpy break.step_unsupported break.tolist call.callable call.chain call.lambda call.method call.varargs class.init class.local class.setattr class.str class.super closure.nonlocal ctx.as_value ctx.autocast ctx.contextmanager ctx.contextmanager_disabled ctx.decorator ctx.inference_mode ctx.nested_decorators ctx.no_grad ctx.set_grad_enabled ctx.user_class depth.30+ flow.early_return flow.generator flow.loop flow.recompile flow.try_except flow.try_finally nn.module raise.deliberate shape.cm_disable_init shape.decorator_ctx_break shape.step_break_stack shape.upper_ctx_break side.attr side.dict side.global stack.binop stack.call_arg stack.conditional stack.dict_display stack.fstring stack.list_display stack.method stack.plain stack.star_args stack.subscript stack.tuple_display stack.unpack
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


class _Mod(torch.nn.Module):
    def __init__(self):
        super().__init__()
        self.scale = torch.nn.Parameter(torch.full((), 0.5))

    def forward(self, x):
        # clone: x may be an inference tensor from an inference_mode block upstream
        return torch.tanh(x.clone() * self.scale + 0.1)


_MOD = _Mod()


def f54(x):
    x = x * 0.5 + x.new_tensor(x.mean(dim=0).tolist()) * 0.5
    x = torch.sin(x)
    return x


class C53:
    def __init__(self, scale):
        self.scale = scale

    def __call__(self, x):
        try:
            x = x * 0.5 + f54(x)
            raise ValueError("ngb deliberate ngb f53.5")
        except ValueError as e3:
            _effect("f53.3", str(e3))
        x = torch.clamp(x, -2.0, 2.0)
        return x


def f52(x):
    acc7 = x * 0.5
    def inner7(x):
        nonlocal acc7
        x = (x * 0.5).add(C53(0.5)(x))
        x = torch.tanh(x)
        x = x * G_SCALE + G_BIAS
        acc7 = acc7 * 0.5 + x * 0.25
        return x
    x = inner7(x) * 0.5 + acc7 * 0.5
    _effect("f52.11", x)
    return x


def f51(x):
    try:
        x = x * 0.5 + f52(x)
        _effect("f51.14", torch.is_grad_enabled())
    finally:
        _effect("f51.12", x)
    x = torch.tanh(x)
    return x


@torch.no_grad()
def f50(x):
    x = f51(x)
    _effect("f50.17", torch.is_inference_mode_enabled())
    x = torch.clamp(x, -3.0, 3.0)
    return x


def f49(x):
    with _cm("f49.19"):
        x = torch.add(x * 0.5, f50(x))
        x = x * G_SCALE + G_BIAS
    x = torch.tanh(x)
    return x


def f48(x):
    l23 = [x * 0.5, f49(x), x]
    x = l23[0] + l23[1] - l23[2] * 0.25
    x = torch.tanh(x)
    return x


class C47:
    def __init__(self, scale):
        self.scale = scale

    def run(self, x):
        x = x * 0.5 + f48(x)
        x = torch.tanh((x @ x.transpose(-1, -2)) @ x * 0.05)
        return x


def f46(x):
    x = torch.sin(x)
    try:
        x = torch.add(x * 0.5, C47(0.5).run(x))
        _effect("f46.30", torch.is_grad_enabled())
    finally:
        _effect("f46.28", x)
    x = torch.tanh((x @ x.transpose(-1, -2)) @ x * 0.05)
    return x


def f45(x):
    d32 = {"a": x, "b": f46(x)}
    x = d32["a"] * 0.5 + d32["b"]
    x = torch.sigmoid(x)
    return x


def f44(x):
    x = f45(x)
    x = torch.sin(x)
    return x


def f43(x):
    flag36 = x.dim() == 2
    x = f44(x) if flag36 else x - 0.5
    x = torch.sin(x)
    return x


@torch.no_grad()
def f42(x):
    if x.sum() > 0:
        _effect("f42.39", x.sum())
    else:
        x = f43(x)
        obj41 = _Tracked("f42.41")
        obj41.v = x
        x = obj41.v * 0.5
    x = torch.tanh(x)
    return x


def f41(x, cm):
    if x.sum() > 0:
        x = x + 1.5
    else:
        box45 = []
        x = (x * 0.5, x)[_keep(box45, f42(x))] + box45[0]
    torch._dynamo.step_unsupported()
    with cm:
        _effect("f41.48", torch.is_grad_enabled())
        obj49 = _Box(x)
        x = obj49.value * 0.5 + 0.1
    return x


class C40:
    def __init__(self, scale):
        self.scale = scale

    def __call__(self, x):
        def gen50(x):
            cm51 = _Ctx("f40.51.cm")
            t51 = (x, f41(x, cm51))
            x = t51[0] * 0.5 + t51[1]
            x = x * 0.5 + x.sum(dim=-1, keepdim=True) * 0.1
            yield x
            _effect("f40.50.never", 0)
            yield x
        g50 = gen50(x)
        x = next(g50)
        x = torch.clamp(x, -3.0, 3.0)
        return x


def f39(x):
    STATE.calls = STATE.calls + 1
    x = x + STATE.calls * 0.01
    l55 = [x * 0.5, C40(0.5)(x), x]
    x = l55[0] + l55[1] - l55[2] * 0.25
    x = torch.clamp(x, -2.0, 2.0)
    return x


def f38(x):
    l57 = [x * 0.5, f39(x), x]
    x = l57[0] + l57[1] - l57[2] * 0.25
    if x.dim() == 3:
        return torch.tanh(x)
    x = torch.clamp(x, -1.0, 1.0)
    return x


def f37(x):
    d60 = {"a": x, "b": f38(x)}
    x = d60["a"] * 0.5 + d60["b"]
    x = torch.tanh(x)
    return x


@torch.inference_mode()
@_cm_disabled("f36.deco1")
def f36(*args):
    x = args[0]
    x = _MOD(x)
    x = torch.add(x * 0.5, f37(x))
    x = torch.tanh(x)
    return x


def f35(x):
    x = torch.add(x * 0.5, f36(x))
    x = torch.tanh(x)
    return x


def f34(x):
    try:
        x = f35(x)
        x = torch.sin(x)
    finally:
        _effect("f34.67", x)
    return x


def f33(x):
    d70 = {"a": x, "b": f34(x)}
    x = d70["a"] * 0.5 + d70["b"]
    x = torch.tanh(x)
    return x


def f32(x):
    a72, *r72 = [x, f33(x), x * 0.5]
    x = a72 * 0.25 + r72[0] + r72[1] * 0.25
    x = torch.tanh(x)
    return x


def f31(*args):
    x = args[0]
    with torch.no_grad():
        x = f32(x)
    x = torch.clamp(x, -3.0, 3.0)
    return x


def f30(x):
    global COUNTER
    COUNTER = COUNTER + 1
    if COUNTER % 2 == 1:
        t78 = (x, f31(x))
        x = t78[0] * 0.5 + t78[1]
        _effect("f30.79", torch.is_grad_enabled())
    else:
        x = _MOD(x)
    x = torch.clamp(x, -3.0, 3.0)
    return x


def f29(x):
    x = x + 1.0
    l83 = [x * 0.5, f30(x), x]
    x = l83[0] + l83[1] - l83[2] * 0.25
    x = torch.tanh((x @ x.transpose(-1, -2)) @ x * 0.05)
    return x


def f28(x):
    _effect("f28.85", str(_Named("f28.85", x)))
    x = f29(x)
    x = torch.sin(x)
    return x


def f27(x):
    x = torch.sin(x)
    flag89 = x.dim() == 2
    x = f28(x) if flag89 else x - 0.5
    x = torch.cos(x)
    return x


def f26(x):
    x = f27(x)
    x = x * 0.5 + x.sum(dim=-1, keepdim=True) * 0.1
    x = torch.tanh((x @ x.transpose(-1, -2)) @ x * 0.05)
    return x


def f25(x):
    obj94 = _Tracked("f25.94")
    obj94.v = x
    x = obj94.v * 0.5
    a95, *r95 = [x, f26(x), x * 0.5]
    x = a95 * 0.25 + r95[0] + r95[1] * 0.25
    x = torch.clamp(x, -2.0, 2.0)
    return x


@_Ctx("f24.deco0")
@_cm_disabled("f24.deco1")
def f24(x):
    with torch.no_grad():
        with torch.no_grad():
            x = torch.inference_mode()(f25)(x)
            x = torch.tanh((x @ x.transpose(-1, -2)) @ x * 0.05)
            _effect("f24.101", torch.is_grad_enabled())
        _effect("f24.102", torch.is_grad_enabled())
    x = torch.cos(x)
    return x


def f23(x):
    x = f24(x)
    x = torch.tanh((x @ x.transpose(-1, -2)) @ x * 0.05)
    return x


def f22(x):
    x = (x * 0.5).add(f23(x))
    x = torch.tanh(x)
    class Sub108(_Base):
        def scale(self, v):
            return super().scale(v) * 0.5
    x = Sub108().scale(x)
    return x


def f21(x):
    x = f22(x)
    x = torch.clamp(x, -2.0, 2.0)
    return x


def f20(x):
    _effect("f20.111", torch.is_autocast_enabled("cpu"))
    with _Ctx("f20.112"):
        x = f21(x)
        _effect("f20.114", torch.is_grad_enabled())
    x = torch.clamp(x, -3.0, 3.0)
    return x


def f19(x):
    if x.sum() > 0:
        x = torch.sin(x)
    else:
        t118 = (x, f20(x))
        x = t118[0] * 0.5 + t118[1]
    x = torch.sin(x)
    return x


def f18(x):
    x = f19(x)
    with torch.inference_mode():
        torch._dynamo.graph_break()
    x = torch.tanh(x)
    return x


def f17_impl(x):
    with _cm_disabled("f17.124"):
        x = torch.add(*[x * 0.5, f18(x)])
        _effect("f17.126", torch.is_grad_enabled())
    x = torch.tanh(x)
    return x


f17 = lambda x: 0.0 + f17_impl(x)


@_Ctx("f16.deco0")
@_Ctx("f16.deco1")
def f16(x):
    t128 = (x, f17(x))
    x = t128[0] * 0.5 + t128[1]
    x = torch.sigmoid(x)
    return x


class C15:
    def __init__(self, scale):
        self.scale = scale

    def __call__(self, x):
        def gen130(x):
            flag131 = x.dim() == 2
            x = f16(x) if flag131 else x - 0.5
            yield x
            _effect("f15.130.never", 0)
            yield x
        g130 = gen130(x)
        x = next(g130)
        x = torch.tanh((x @ x.transpose(-1, -2)) @ x * 0.05)
        TABLE["f15.133"] = x * 0.25
        return x


def f14(x):
    x = x + 0.5
    x = torch.add(*[x * 0.5, C15(0.5)(x)])
    x = torch.sin(x)
    return x


def f13(x):
    x = torch.tanh(x)
    x = torch.add(x * 0.5, f14(x))
    x = torch.clamp(x, -1.0, 1.0)
    return x


def f12(x):
    x = _cm("f12.140.deco")(f13)(x)
    x = torch.tanh(x)
    return x


class C11:
    def __init__(self, scale):
        self.scale = scale

    def __call__(self, x):
        x = x * 1.5 - 0.25
        x = f12(x)
        x = torch.tanh(x)
        return x


@_cm("f10.deco0")
def f10(*args):
    global COUNTER
    x = args[0]
    COUNTER = COUNTER + 1
    if COUNTER % 2 == 1:
        i146 = 0
        while True:
            i146 += 1
            x = x * 0.5 + C11(0.5)(x)
            x = torch.tanh(x)
            if i146 >= 3:
                break
        _effect("f10.149", torch.is_grad_enabled())
    else:
        _effect("f10.150", x)
    return x


def f9(x, cm):
    with torch.set_grad_enabled(True):
        x = (x * 0.5).add(f10(x))
    x = x * 0.5 + torch.from_numpy(np.clip(x.detach().float().cpu().numpy(), -2.0, 2.0) * 0.5).to(x.device, x.dtype)
    with cm:
        _effect("f9.155", torch.is_grad_enabled())
        class Local156:
            scale = 0.5
        
            def apply(self, v):
                return v * self.scale
        x = Local156().apply(x) + 0.25
    return x


def f8(x):
    _effect("f8.157", x)
    cm158 = torch.autocast("cpu", dtype=torch.bfloat16)
    x = f9(x, cm158)
    x = torch.cos(x)
    return x


def f7(x):
    t160 = (x, f8(x))
    x = t160[0] * 0.5 + t160[1]
    _effect("f7.161", torch.is_grad_enabled())
    x = torch.tanh(x)
    return x


def f6(x):
    for c163 in [0.5, 0.5]:
        box164 = []
        s164 = f"f6.164:{x.shape[0]}:{_keep(box164, f7(x))}"
        _effect("f6.164", s164)
        x = box164[0]
        _effect("f6.165", torch.is_grad_enabled())
        x = torch.cos(x)
    STATE.calls = STATE.calls + 1
    x = x + STATE.calls * 0.01
    return x


def f5_impl(x):
    try:
        d169 = {"a": x, "b": f6(x)}
        x = d169["a"] * 0.5 + d169["b"]
    finally:
        _effect("f5.168", x)
    x = torch.cos(x)
    return x


f5 = lambda x: 0.0 + f5_impl(x)


def f4(x):
    global COUNTER
    x = torch.tanh(x)
    COUNTER = COUNTER + 1
    if COUNTER % 2 == 1:
        d173 = {"a": x, "b": f5(x)}
        x = d173["a"] * 0.5 + d173["b"]
    else:
        STATE.calls = STATE.calls + 1
        x = x + STATE.calls * 0.01
    x = torch.tanh(x)
    return x


@_cm_disabled("f3.deco0")
def f3(x):
    global COUNTER
    if x.sum() > 0:
        _effect("f3.177", x.sum())
    else:
        x = torch.add(x * 0.5, f4(x))
    COUNTER = COUNTER + 1
    x = x + COUNTER * 0.01
    x = torch.sigmoid(x)
    return x


def f2(x):
    with torch.autocast("cpu", dtype=torch.bfloat16):
        x = f3(x)
    x = x * G_SCALE + G_BIAS
    x = torch.sin(x)
    return x


def f1(x):
    x = torch.cos(x)
    a186, *r186 = [x, f2(x), x * 0.5]
    x = a186 * 0.25 + r186[0] + r186[1] * 0.25
    x = torch.clamp(x, -3.0, 3.0)
    return x


def entry(x):
    x = x * 1.25
    with torch.no_grad():
        acc190 = x * 0.5
        def inner190(x):
            nonlocal acc190
            x = (x * 0.5).add(f1(x))
            x = torch.sigmoid(x)
            x = x + T_MAIN
            acc190 = acc190 * 0.5 + x * 0.25
            return x
        x = inner190(x) * 0.5 + acc190 * 0.5
    return {"out": x, "mean": x.mean()}


def make_inputs(device):
    g = torch.Generator().manual_seed(6260)
    x = torch.randn(3, 5, generator=g)
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
