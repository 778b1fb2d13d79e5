# ngb-fuzz program
# signature: mismatch:second_call:effects
# target: torch:python=/work/venvs/t215/bin/python
# found-by: ngb-fuzz run --seed 15 (program 316)
# features: break.data_if break.graph_break call.callable call.chain call.kwargs call.method call.recursion call.varargs class.setattr class.str class.super_hierarchy closure.nonlocal ctx.as_value ctx.contextmanager ctx.decorator ctx.enable_grad ctx.inference_mode ctx.no_grad depth.10+ flow.early_return flow.loop flow.recompile flow.try_except flow.try_finally raise.deliberate shape.decorator_ctx_break shape.upper_ctx_break side.attr side.dict side.global stack.binop stack.call_arg stack.comprehension stack.conditional stack.dict_display stack.kwargs stack.list_display stack.method stack.plain stack.tuple_display stack.unpack
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


def f24(x):
    c1 = _SupChild(x)
    x = c1.scale(c1.half)
    try:
        torch._dynamo.graph_break()
        raise ValueError("ngb deliberate ngb f24.4")
    except ValueError as e2:
        _effect("f24.2", str(e2))
    return x


def f23(x):
    t5 = (x, f24(x))
    x = t5[0] * 0.5 + t5[1]
    x = torch.sigmoid(x)
    return x


def f22(x):
    x = x * G_SCALE + G_BIAS
    x = f23(x)
    x = torch.clamp(x, -1.0, 1.0)
    return x


def f21(x):
    x = x * 0.5 + f22(x)
    x = torch.sin(x)
    return x


class C20:
    def __init__(self, scale):
        self.scale = scale

    def run(self, x):
        global COUNTER
        COUNTER = COUNTER + 1
        x = x + COUNTER * 0.01
        with torch.enable_grad():
            acc14 = x * 0.5
            def inner14(x):
                nonlocal acc14
                l15 = [x * 0.5, f21(x), x]
                x = l15[0] + l15[1] - l15[2] * 0.25
                x = x * G_SCALE + G_BIAS
                acc14 = acc14 * 0.5 + x * 0.25
                return x
            x = inner14(x) * 0.5 + acc14 * 0.5
            _effect("f20.17", torch.is_grad_enabled())
        x = torch.tanh(x)
        return x


def f19(x):
    t19 = (x, C20(0.5).run(x))
    x = t19[0] * 0.5 + t19[1]
    x = torch.sin(x)
    return x


def f18(x):
    x = torch.tanh(x)
    x = f19(x)
    x = torch.tanh(x)
    return x


def f17(**kw):
    x = kw["x"]
    if x.sum() > 0:
        flag25 = x.dim() == 2
        x = f18(x) if flag25 else x - 0.5
        x = torch.clamp(x, -2.0, 2.0)
    else:
        obj27 = _Tracked("f17.27")
        obj27.v = x
        x = obj27.v * 0.5
    return x


@_cm("f16.deco0")
def f16(x):
    with _cm("f16.28"):
        d29 = {"a": x, "b": f17(x=x)}
        x = d29["a"] * 0.5 + d29["b"]
        x = torch.cos(x)
    return x


def f15(**kw):
    global COUNTER
    x = kw["x"]
    COUNTER = COUNTER + 1
    if COUNTER % 2 == 1:
        x = x + T_MAIN
    else:
        t33 = (x, f16(x))
        x = t33[0] * 0.5 + t33[1]
        x = torch.sin(x)
    x = torch.cos(x)
    return x


class C14:
    def __init__(self, scale):
        self.scale = scale

    def run(self, x):
        with _cm("f14.36"):
            x = f15(x=x)
            x = torch.tanh(x)
        return x


def f13(x):
    a39, *r39 = [x, C14(0.5).run(x), x * 0.5]
    x = a39 * 0.25 + r39[0] + r39[1] * 0.25
    x = torch.clamp(x, -1.0, 1.0)
    return x


def f12(x):
    if x.sum() > 0:
        x = f13(x)
        TABLE["f12.43"] = x * 0.25
    else:
        x = x * G_SCALE + G_BIAS
    x = torch.clamp(x, -3.0, 3.0)
    return x


def f11(x):
    x = x * G_SCALE + G_BIAS
    acc47 = x * 0.5
    def inner47(x):
        nonlocal acc47
        v48 = [f12(x + c48) for c48 in (0.0, 0.5)]
        x = v48[0] * 0.5 + v48[1] * 0.5
        x = torch.tanh(x)
        x = x * G_SCALE + G_BIAS
        acc47 = acc47 * 0.5 + x * 0.25
        return x
    x = inner47(x) * 0.5 + acc47 * 0.5
    return x


class C10:
    def __init__(self, scale):
        self.scale = scale

    def __call__(self, x):
        x = torch.add(**{"input": x * 0.5, "other": f11(x)})
        x = x + 0.5
        x = torch.cos(x)
        return x


class C9:
    def __init__(self, scale):
        self.scale = scale

    def __call__(self, x):
        _effect("f9.54", x)
        try:
            x = (x * 0.5).add(C10(0.5)(x))
            _effect("f9.57", torch.is_grad_enabled())
        finally:
            _effect("f9.55", x)
        x = torch.sigmoid(x)
        return x


def f8(x):
    x = C9(0.5)(x)
    x = torch.tanh(x)
    return x


def f7(*args):
    x = args[0]
    for i61 in range(2):
        if x.sum() > 0:
            _effect("f7.63", x)
        else:
            x = torch.tanh((x @ x.transpose(-1, -2)) @ x * 0.05)
        x = torch.clamp(x, -2.0, 2.0)
        x = torch.sin(x)
    l67 = [x * 0.5, f8(x), x]
    x = l67[0] + l67[1] - l67[2] * 0.25
    x = torch.sin(x)
    return x


def f6(x):
    x = torch.add(**{"input": x * 0.5, "other": f7(x)})
    x = torch.tanh(x)
    return x


@torch.no_grad()
def f5(x):
    _effect("f5.71", str(_Named("f5.71", x)))
    if x.dim() == 3:
        return torch.tanh(x)
    acc73 = x * 0.5
    def inner73(x):
        nonlocal acc73
        x = f6(x)
        x = torch.tanh(x)
        _effect("f5.76", torch.is_grad_enabled())
        x = x + T_MAIN
        acc73 = acc73 * 0.5 + x * 0.25
        return x
    x = inner73(x) * 0.5 + acc73 * 0.5
    return x


def f4(x, n):
    try:
        x = f5(x)
        x = torch.sin(x)
        _effect("f4.81", torch.is_grad_enabled())
        raise ValueError("ngb deliberate ngb f4.82")
    except ValueError as e78:
        _effect("f4.78", str(e78))
    if n > 0:
        x = f4(x, n - 1)
    _effect("f4.84", x.sum())
    return x


def f3(x):
    with torch.inference_mode():
        x = (x * 0.5).add(f4(x, 2))
        x = torch.cos(x)
        _effect("f3.88", torch.is_grad_enabled())
    return x


def f2(x, cm):
    acc89 = x * 0.5
    def inner89(x):
        nonlocal acc89
        acc90 = x * 0.5
        def inner90(x):
            nonlocal acc90
            x = torch.add(x * 0.5, f3(x))
            _effect("f2.92", torch.is_grad_enabled())
            acc90 = acc90 * 0.5 + x * 0.25
            return x
        x = inner90(x) * 0.5 + acc90 * 0.5
        x = x * G_SCALE + G_BIAS
        acc89 = acc89 * 0.5 + x * 0.25
        return x
    x = inner89(x) * 0.5 + acc89 * 0.5
    torch._dynamo.graph_break()
    with cm:
        _effect("f2.96", torch.is_grad_enabled())
        _effect("f2.97", x.sum())
    x = torch.sin(x)
    return x


def f1(x):
    global COUNTER
    STATE.calls = STATE.calls + 1
    x = x + STATE.calls * 0.01
    COUNTER = COUNTER + 1
    if COUNTER % 2 == 1:
        x = torch.tanh(x)
    else:
        cm102 = torch.no_grad()
        x = x * 0.5 + f2(x, cm102)
        x = torch.clamp(x, -1.0, 1.0)
    return x


def entry(x):
    t104 = (x, f1(x))
    x = t104[0] * 0.5 + t104[1]
    x = torch.tanh(x)
    return {"out": x, "mean": x.mean()}


def make_inputs(device):
    g = torch.Generator().manual_seed(8926)
    x = torch.randn(3, 3, generator=g)
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
