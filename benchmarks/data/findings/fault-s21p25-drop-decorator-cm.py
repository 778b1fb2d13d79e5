# ngb-fuzz program
# signature: mismatch:effects:value
# target: engine:fault=drop-decorator-cm
# found-by: ngb-fuzz run --seed 21 (program 25)
# features: break.graph_break break.item break.step_unsupported break.tolist call.callable call.kwargs call.recursion call.tree class.super_list closure.nonlocal ctx.as_value ctx.contextmanager_disabled ctx.decorator ctx.no_grad depth.4-9 flow.generator flow.try_except flow.try_finally raise.deliberate shape.cm_disable_init shape.decorator_ctx_break shape.step_break_stack side.dict stack.call_arg stack.fstring stack.plain stack.subscript stack.tuple_display stack.unpack
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


class C9:
    def __init__(self, scale):
        self.scale = scale

    def __call__(self, x):
        with torch.no_grad():
            x = x * 0.5 + x.mean().item() * 0.5
        x = torch.tanh(x)
        return x


def f8(x, cm):
    try:
        torch._dynamo.graph_break()
        _effect("f8.6", torch.is_grad_enabled())
        raise ValueError("ngb deliberate ngb f8.7")
    except ValueError as e4:
        _effect("f8.4", str(e4))
        _effect("f8.8", x)
    _effect("f8.9", x)
    torch._dynamo.graph_break()
    with cm:
        _effect("f8.12", torch.is_grad_enabled())
        x = x * G_SCALE + G_BIAS
    return x


def f7(x):
    x = torch.sigmoid(x)
    def gen15(x):
        torch._dynamo.graph_break()
        x = x + T_MAIN
        yield x
        return x * 0.5
    g15 = gen15(x)
    first15 = next(g15)
    try:
        next(g15)
    except StopIteration as stop15:
        x = first15 * 0.5 + stop15.value
    _effect("f7.18", x)
    x = x - 0.25
    return x


def f6(x, n):
    if n > 0:
        x = f6(x, n - 1)
    def gen21(x):
        x = x * 0.5 + x.new_tensor(x.mean(dim=0).tolist()) * 0.5
        yield x
        return x * 0.5
    g21 = gen21(x)
    first21 = next(g21)
    try:
        next(g21)
    except StopIteration as stop21:
        x = first21 * 0.5 + stop21.value
    TABLE["f6.23"] = x * 0.25
    x = torch.sigmoid(x)
    return x


class C5:
    def __init__(self, scale):
        self.scale = scale

    def __call__(self, x):
        x = f6(x, 2)
        x = x + 0.5
        with _cm_disabled("f5.27"):
            torch._dynamo.step_unsupported()
        _effect("f5.29", x.sum())
        x = torch.tanh(x)
        return x


def f4(x):
    acc31 = x * 0.5
    def inner31(x):
        nonlocal acc31
        x = f7(x)
        x = torch.sigmoid(x)
        _effect("f4.34", torch.is_grad_enabled())
        acc31 = acc31 * 0.5 + x * 0.25
        return x
    x = inner31(x) * 0.5 + acc31 * 0.5
    torch._dynamo.step_unsupported()
    acc36 = x * 0.5
    def inner36(x):
        nonlocal acc36
        box37 = []
        s37 = f"f4.37:{x.shape[0]}:{_keep(box37, C5(0.5)(x))}"
        _effect("f4.37", s37)
        x = box37[0]
        x = torch.sin(x)
        acc36 = acc36 * 0.5 + x * 0.25
        return x
    x = inner36(x) * 0.5 + acc36 * 0.5
    return x


def f3(x, cm):
    x = x * x * 0.25
    t40 = (x, f4(x))
    x = t40[0] * 0.5 + t40[1]
    x = torch.sigmoid(x)
    _effect("f3.42", x)
    x = x - 1.0
    torch._dynamo.graph_break()
    with cm:
        _effect("f3.46", torch.is_grad_enabled())
        TABLE["f3.47"] = x * 0.25
    return x


@torch.no_grad()
def f2(**kw):
    x = kw["x"]
    def gen48(x):
        cm49 = torch.enable_grad()
        x = torch.add(x * 0.5, f3(x, cm49))
        yield x
        return x * 0.5
    g48 = gen48(x)
    first48 = next(g48)
    try:
        next(g48)
    except StopIteration as stop48:
        x = first48 * 0.5 + stop48.value
    x = torch.tanh(x)
    cm51 = _Ctx("f2.51.cm")
    a51, *r51 = [x, f8(x, cm51), x * 0.5]
    x = a51 * 0.25 + r51[0] + r51[1] * 0.25
    x = x * G_SCALE + G_BIAS
    x = torch.clamp(x, -2.0, 2.0)
    return x


def f1(x):
    try:
        x = f2(x=x)
        _effect("f1.56", torch.is_grad_enabled())
    finally:
        _effect("f1.54", x)
    box57 = []
    x = (x * 0.5, x)[_keep(box57, C9(0.5)(x))] + box57[0]
    x = torch.clamp(x, -2.0, 2.0)
    return x


def entry(x):
    x = f1(x)
    l60 = _SupList()
    l60.append(x)
    x = l60[0] + l60[1] * 0.01
    _effect("entry.61", x)
    x = x - 1.0
    x = torch.tanh(x)
    return {"out": x, "mean": x.mean()}


def make_inputs(device):
    g = torch.Generator().manual_seed(5915)
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
