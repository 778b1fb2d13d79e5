# ngb-fuzz program
# signature: crash:AssertionError@torch._dynamo.resume_execution:generate_based_on_original_code_object
# target: torch:backend=aot_eager
# found-by: ngb-fuzz run --seed 12 (program 147)
# features: break.data_if break.print call.callable call.chain call.lambda call.method call.recursion class.init class.str ctx.contextmanager_disabled ctx.decorator ctx.enable_grad ctx.inference_mode ctx.no_grad ctx.set_grad_enabled ctx.user_class depth.10+ flow.generator flow.recompile flow.try_except flow.try_finally input.main_float64 raise.deliberate shape.cm_disable_init shape.decorator_ctx_break shape.upper_ctx_break stack.binop stack.conditional stack.dict_display stack.fstring stack.kwargs stack.list_display stack.plain stack.star_args stack.tuple_display
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


class _Mod(torch.nn.Module):
    def __init__(self):
        super().__init__()
        self.scale = torch.nn.Parameter(torch.full((), 0.5))

    def forward(self, x):
        # clone: x may be an inference tensor from an inference_mode block upstream
        return torch.tanh(x.clone() * self.scale + 0.1)


_MOD = _Mod()


def f20(x):
    try:
        print("ngb f20.2")
        _effect("f20.3", torch.is_grad_enabled())
    finally:
        _effect("f20.1", x)
        x = torch.sin(x)
    _effect("f20.5", torch.is_grad_enabled())
    return x


def f19(x):
    x = x * 0.5 + f20(x)
    x = torch.relu(x) - 0.5
    x = torch.tanh(x)
    return x


class C18:
    def __init__(self, scale):
        self.scale = scale

    def run(self, x):
        x = torch.cos(x)
        with torch.set_grad_enabled(True):
            t11 = (x, f19(x))
            x = t11[0] * 0.5 + t11[1]
        x = torch.sin(x)
        return x


class C17:
    def __init__(self, scale):
        self.scale = scale

    def __call__(self, x):
        if x.sum() > 0:
            x = torch.cos(x)
        else:
            x = C18(0.5).run(x)
            x = torch.sin(x)
            _effect("f17.17", torch.is_grad_enabled())
        return x


def f16(x):
    d18 = {"a": x, "b": C17(0.5)(x)}
    x = d18["a"] * 0.5 + d18["b"]
    x = torch.cos(x)
    return x


def f15(x):
    global COUNTER
    COUNTER = COUNTER + 1
    if COUNTER % 2 == 1:
        d21 = {"a": x, "b": f16(x)}
        x = d21["a"] * 0.5 + d21["b"]
        x = torch.tanh(x)
        _effect("f15.23", torch.is_grad_enabled())
    else:
        x = torch.relu(x) - 0.5
    x = torch.cos(x)
    return x


def f14(x):
    try:
        t27 = (x, f15(x))
        x = t27[0] * 0.5 + t27[1]
        x = torch.tanh((x @ x.transpose(-1, -2)) @ x * 0.05)
        _effect("f14.29", torch.is_grad_enabled())
        raise ValueError("ngb deliberate ngb f14.30")
    except ValueError as e26:
        _effect("f14.26", str(e26))
    return x


class C13:
    def __init__(self, scale):
        self.scale = scale

    def run(self, x):
        with _Ctx("f13.31"):
            x = torch.no_grad()(f14)(x)
            x = torch.tanh(x)
        return x


def f12(x):
    x = C13(0.5).run(x)
    x = torch.clamp(x, -3.0, 3.0)
    obj36 = _Box(x)
    x = obj36.value * 0.5 + 0.1
    return x


def f11(x):
    with torch.no_grad():
        x = torch.add(*[x * 0.5, f12(x)])
        x = torch.tanh(x)
    return x


@torch.enable_grad()
def f10(x):
    _effect("f10.40", str(_Named("f10.40", x)))
    x = f11(x)
    x = torch.sigmoid(x)
    return x


@torch.no_grad()
def f9(x):
    with _cm_disabled("f9.43"):
        flag44 = x.dim() == 2
        x = f10(x) if flag44 else x - 0.5
    x = torch.tanh(x)
    return x


def f8(x, n):
    if n > 0:
        x = f8(x, n - 1)
    with torch.inference_mode():
        x = f9(x)
    _effect("f8.49", x.sum())
    x = torch.tanh(x)
    return x


def f7_impl(x):
    box51 = []
    s51 = f"f7.51:{x.shape[0]}:{_keep(box51, f8(x, 2))}"
    _effect("f7.51", s51)
    x = box51[0]
    x = torch.clamp(x, -1.0, 1.0)
    return x


f7 = lambda x: 0.0 + f7_impl(x)


def f6(x):
    with torch.no_grad():
        x = f7(x)
        x = torch.clamp(x, -2.0, 2.0)
        _effect("f6.56", x)
    return x


def f5(x):
    def gen57(x):
        flag58 = x.dim() == 2
        x = f6(x) if flag58 else x - 0.5
        x = torch.sin(x)
        yield x
        yield x * 0.5
    vals57 = list(gen57(x))
    x = vals57[0] * 0.5 + vals57[1]
    return x


def f4(x):
    x = torch.add(**{"input": x * 0.5, "other": f5(x)})
    x = torch.cos(x)
    return x


def f3(x):
    try:
        x = f4(x)
        x = torch.tanh(x)
        x = torch.cos(x)
    finally:
        _effect("f3.62", x)
    return x


class C2:
    def __init__(self, scale):
        self.scale = scale

    def __call__(self, x):
        l66 = [x * 0.5, f3(x), x]
        x = l66[0] + l66[1] - l66[2] * 0.25
        x = torch.tanh((x @ x.transpose(-1, -2)) @ x * 0.05)
        return x


class C1:
    def __init__(self, scale):
        self.scale = scale

    def run(self, x):
        x = torch.add(*[x * 0.5, C2(0.5)(x)])
        x = torch.cos(x)
        return x


def entry(x):
    try:
        t71 = (x, C1(0.5).run(x))
        x = t71[0] * 0.5 + t71[1]
        raise ValueError("ngb deliberate ngb entry.72")
    except ValueError as e70:
        _effect("entry.70", str(e70))
        _effect("entry.73", x)
    x = torch.clamp(x, -3.0, 3.0)
    return x


def make_inputs(device):
    g = torch.Generator().manual_seed(1343)
    x = torch.randn(5, 3, generator=g, dtype=torch.float64)
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
