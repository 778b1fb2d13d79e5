# ngb-fuzz program
# signature: crash:InternalTorchDynamoError@torch._dynamo.symbolic_convert:_import_module
# target: torch
# found-by: ngb-fuzz run --seed 11 (program 1)
# features: break.data_if break.disable break.item break.step_unsupported call.callable call.lambda call.recursion call.tree class.property class.setattr closure.nonlocal ctx.autocast ctx.contextmanager ctx.decorator ctx.disable_ngb ctx.enable_grad ctx.inference_mode ctx.no_grad depth.10+ flow.generator flow.recompile input.main_float64 shape.decorator_ctx_break shape.step_break_stack shape.upper_ctx_break side.dict side.list stack.binop stack.call_arg stack.comprehension stack.conditional stack.dict_display stack.fstring stack.kwargs stack.list_display stack.method stack.plain stack.star_args stack.subscript stack.tuple_display stack.unpack
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


def f26(x):
    global COUNTER
    with torch.autocast("cpu", dtype=torch.bfloat16):
        COUNTER = COUNTER + 1
        if COUNTER % 2 == 1:
            TABLE["f26.3"] = x * 0.25
        else:
            if x.sum() > 0:
                x = _Prop(x).half_value
            else:
                x = x * 1.25
    return x


def f25(x):
    x = torch.clamp(x, -1.0, 1.0)
    if x.sum() > 0:
        _effect("f25.9", torch.is_autocast_enabled("cpu"))
    else:
        x = _ngb_disabled(x)
        x = x * x * 0.25
    return x


def f24(x):
    box12 = []
    s12 = f"f24.12:{x.shape[0]}:{_keep(box12, f25(x))}"
    _effect("f24.12", s12)
    x = box12[0]
    x = torch.cos(x)
    x = x * 0.5 + f26(x)
    x = torch.tanh(x)
    return x


class C23:
    def __init__(self, scale):
        self.scale = scale

    def __call__(self, x):
        flag16 = x.dim() == 2
        x = f24(x) if flag16 else x - 0.5
        x = torch.clamp(x, -3.0, 3.0)
        return x


def f22(x):
    d18 = {"a": x, "b": C23(0.5)(x)}
    x = d18["a"] * 0.5 + d18["b"]
    x = torch.sin(x)
    return x


def f21(x):
    t20 = (x, f22(x))
    x = t20[0] * 0.5 + t20[1]
    x = torch.tanh(x)
    return x


def f20(x):
    x = f21(x)
    x = torch.sin(x)
    return x


def f19(x):
    x = torch.add(**{"input": x * 0.5, "other": f20(x)})
    _effect("f19.25", x.sum())
    x = torch.tanh(x)
    return x


def f18_impl(x):
    d27 = {"a": x, "b": f19(x)}
    x = d27["a"] * 0.5 + d27["b"]
    x = torch.clamp(x, -1.0, 1.0)
    return x


f18 = lambda x: 0.0 + f18_impl(x)


def f17(x):
    acc29 = x * 0.5
    def inner29(x):
        nonlocal acc29
        x = x * 0.5 + x.mean().item() * 0.5
        x = torch.sin(x)
        acc29 = acc29 * 0.5 + x * 0.25
        return x
    x = inner29(x) * 0.5 + acc29 * 0.5
    flag32 = x.dim() == 2
    x = f18(x) if flag32 else x - 0.5
    x = torch.sin(x)
    return x


def f16(x):
    if x.sum() > 0:
        TABLE["f16.35"] = x * 0.25
    else:
        box36 = []
        s36 = f"f16.36:{x.shape[0]}:{_keep(box36, f17(x))}"
        _effect("f16.36", s36)
        x = box36[0]
        x = torch.clamp(x, -1.0, 1.0)
        x = x * G_SCALE + G_BIAS
    x = torch.sin(x)
    return x


@torch.no_grad()
def f15_impl(x):
    with torch.no_grad():
        torch._dynamo.step_unsupported()
        _effect("f15.42", torch.is_grad_enabled())
    acc43 = x * 0.5
    def inner43(x):
        nonlocal acc43
        with _cm("f15.44"):
            x = f16(x)
            x = torch.sin(x)
        acc43 = acc43 * 0.5 + x * 0.25
        return x
    x = inner43(x) * 0.5 + acc43 * 0.5
    _effect("f15.47", torch.is_grad_enabled())
    return x


f15 = lambda x: 0.0 + f15_impl(x)


@torch._dynamo.disable_nested_graph_breaks
def f14(x):
    with torch.enable_grad():
        x = torch.add(x * 0.5, f15(x))
        x = torch.tanh(x)
    return x


def f13(x):
    with torch.inference_mode():
        acc52 = x * 0.5
        def inner52(x):
            nonlocal acc52
            t53 = (x, f14(x))
            x = t53[0] * 0.5 + t53[1]
            x = torch.sigmoid(x)
            _effect("f13.55", torch.is_grad_enabled())
            acc52 = acc52 * 0.5 + x * 0.25
            return x
        x = inner52(x) * 0.5 + acc52 * 0.5
        _effect("f13.56", torch.is_grad_enabled())
    return x


def f12(x):
    global COUNTER
    COUNTER = COUNTER + 1
    if COUNTER % 2 == 1:
        x = f13(x)
        x = torch.clamp(x, -2.0, 2.0)
        _effect("f12.60", torch.is_grad_enabled())
    else:
        _effect("f12.61", x)
    x = torch.tanh((x @ x.transpose(-1, -2)) @ x * 0.05)
    return x


def f11(x):
    _effect("f11.63", torch.is_grad_enabled())
    box64 = []
    x = (x * 0.5, x)[_keep(box64, f12(x))] + box64[0]
    x = torch.clamp(x, -1.0, 1.0)
    acc66 = x * 0.5
    def inner66(x):
        nonlocal acc66
        torch._dynamo.step_unsupported()
        _effect("f11.68", torch.is_grad_enabled())
        acc66 = acc66 * 0.5 + x * 0.25
        return x
    x = inner66(x) * 0.5 + acc66 * 0.5
    return x


def f10(x):
    _effect("f10.69", x.sum())
    t70 = (x, f11(x))
    x = t70[0] * 0.5 + t70[1]
    x = torch.sin(x)
    return x


class C9:
    def __init__(self, scale):
        self.scale = scale

    def __call__(self, x):
        acc72 = x * 0.5
        def inner72(x):
            nonlocal acc72
            x = x * 0.5 + f10(x)
            x = torch.sin(x)
            acc72 = acc72 * 0.5 + x * 0.25
            return x
        x = inner72(x) * 0.5 + acc72 * 0.5
        x = torch.cos(x)
        return x


def f8(x):
    global COUNTER
    COUNTER = COUNTER + 1
    if COUNTER % 2 == 1:
        x = (x * 0.5).add(C9(0.5)(x))
        x = torch.clamp(x, -3.0, 3.0)
        _effect("f8.79", torch.is_grad_enabled())
    else:
        LOG.append(x * 0.5)
    x = torch.tanh(x)
    return x


def f7(x):
    d82 = {"a": x, "b": f8(x)}
    x = d82["a"] * 0.5 + d82["b"]
    x = torch.clamp(x, -2.0, 2.0)
    x = torch.sigmoid(x)
    return x


def f6(x):
    v85 = [f7(x + c85) for c85 in (0.0, 0.5)]
    x = v85[0] * 0.5 + v85[1] * 0.5
    x = torch.tanh(x)
    return x


@torch.no_grad()
def f5(x):
    x = torch.add(*[x * 0.5, f6(x)])
    obj88 = _Tracked("f5.88")
    obj88.v = x
    x = obj88.v * 0.5
    return x


def f4(x):
    x = f5(x)
    x = torch.clamp(x, -3.0, 3.0)
    return x


def f3(x, n):
    global COUNTER
    if n > 0:
        x = f3(x, n - 1)
    COUNTER = COUNTER + 1
    if COUNTER % 2 == 1:
        l93 = [x * 0.5, f4(x), x]
        x = l93[0] + l93[1] - l93[2] * 0.25
        x = torch.sin(x)
    else:
        _effect("f3.95", x.sum())
    return x


def f2(x):
    x = x * 1.25
    x = f3(x, 2)
    x = torch.sin(x)
    return x


@_cm("f1.deco0")
def f1(x):
    box99 = []
    s99 = f"f1.99:{x.shape[0]}:{_keep(box99, f2(x))}"
    _effect("f1.99", s99)
    x = box99[0]
    x = torch.tanh((x @ x.transpose(-1, -2)) @ x * 0.05)
    return x


def entry(x):
    a101, *r101 = [x, f1(x), x * 0.5]
    x = a101 * 0.25 + r101[0] + r101[1] * 0.25
    def gen102(x):
        torch._dynamo.step_unsupported()
        _effect("entry.104", torch.is_inference_mode_enabled())
        yield x
        yield x * 0.5
    vals102 = list(gen102(x))
    x = vals102[0] * 0.5 + vals102[1]
    x = torch.sigmoid(x)
    return x


def make_inputs(device):
    g = torch.Generator().manual_seed(7275)
    x = torch.randn(4, 2, generator=g, dtype=torch.float64)
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
