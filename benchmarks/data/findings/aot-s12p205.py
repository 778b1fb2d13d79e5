# ngb-fuzz program
# signature: crash:AssertionError@torch._dynamo.resume_execution:generate_based_on_original_code_object
# target: torch:backend=aot_eager
# found-by: ngb-fuzz run --seed 12 (program 205)
# features: break.data_if break.disable break.graph_break break.item call.callable call.chain call.kwargs call.method call.recursion call.varargs class.local class.setattr closure.nonlocal ctx.as_value ctx.autocast ctx.contextmanager ctx.contextmanager_disabled ctx.decorator ctx.nested_decorators ctx.no_grad depth.10+ filler.hypothesmith flow.recompile flow.try_finally input.main_float64 input.requires_grad nn.module shape.cm_disable_init shape.decorator_ctx_break shape.upper_ctx_break side.list stack.binop stack.call_arg stack.comprehension stack.conditional stack.dict_display stack.fstring stack.kwargs stack.method stack.plain stack.subscript stack.tuple_display
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


def f27(x):
    global COUNTER
    COUNTER = COUNTER + 1
    if COUNTER % 2 == 1:
        x = _ngb_disabled(x)
    else:
        x = torch.tanh((x @ x.transpose(-1, -2)) @ x * 0.05)
    x = torch.sin(x)
    return x


class C26:
    def __init__(self, scale):
        self.scale = scale

    def __call__(self, x):
        try:
            x = f27(x)
            x = torch.sigmoid(x)
            _effect("f26.8", torch.is_grad_enabled())
        finally:
            _effect("f26.5", x)
            _effect("f26.9", torch.is_grad_enabled())
        obj10 = _Tracked("f26.10")
        obj10.v = x
        x = obj10.v * 0.5
        return x


def f25(*args):
    x = args[0]
    box11 = []
    x = (x * 0.5, x)[_keep(box11, C26(0.5)(x))] + box11[0]
    x = torch.clamp(x, -3.0, 3.0)
    x = _MOD(x)
    return x


def f24(x):
    global COUNTER
    if x.sum() > 0:
        x = torch.cos(x)
    else:
        COUNTER = COUNTER + 1
        if COUNTER % 2 == 1:
            flag17 = x.dim() == 2
            x = f25(x) if flag17 else x - 0.5
            x = torch.sin(x)
            def filler19():
                try:
                
                    class A:
                        pass
                except:
                    pass
            filler19()
        else:
            x = x - 0.5
        x = x * 0.75
    x = torch.tanh(x)
    return x


def f23(**kw):
    x = kw["x"]
    d23 = {"a": x, "b": f24(x)}
    x = d23["a"] * 0.5 + d23["b"]
    x = torch.sigmoid(x)
    return x


def f22(x):
    acc25 = x * 0.5
    def inner25(x):
        nonlocal acc25
        x = f23(x=x)
        x = torch.clamp(x, -1.0, 1.0)
        x = x + T_MAIN
        acc25 = acc25 * 0.5 + x * 0.25
        return x
    x = inner25(x) * 0.5 + acc25 * 0.5
    return x


def f21(x):
    x = x * 0.5 + f22(x)
    x = torch.tanh(x)
    return x


def f20(**kw):
    x = kw["x"]
    acc31 = x * 0.5
    def inner31(x):
        nonlocal acc31
        box32 = []
        x = (x * 0.5, x)[_keep(box32, f21(x))] + box32[0]
        x = torch.cos(x)
        acc31 = acc31 * 0.5 + x * 0.25
        return x
    x = inner31(x) * 0.5 + acc31 * 0.5
    x = x * x * 0.25
    return x


def f19(x):
    acc35 = x * 0.5
    def inner35(x):
        nonlocal acc35
        x = f20(x=x)
        acc35 = acc35 * 0.5 + x * 0.25
        return x
    x = inner35(x) * 0.5 + acc35 * 0.5
    x = torch.clamp(x, -3.0, 3.0)
    return x


def f18(**kw):
    x = kw["x"]
    x = torch.add(**{"input": x * 0.5, "other": f19(x)})
    x = torch.clamp(x, -1.0, 1.0)
    return x


@_cm("f17.deco0")
@torch.no_grad()
def f17(x):
    try:
        x = x * 0.5 + f18(x=x)
    finally:
        _effect("f17.40", x)
    x = torch.sin(x)
    return x


def f16(x):
    with _cm_disabled("f16.43"):
        if x.sum() > 0:
            x = torch.clamp(x, -2.0, 2.0)
        else:
            d46 = {"a": x, "b": f17(x)}
            x = d46["a"] * 0.5 + d46["b"]
        _effect("f16.47", torch.is_grad_enabled())
    LOG.append(x * 0.5)
    x = torch.tanh((x @ x.transpose(-1, -2)) @ x * 0.05)
    return x


def f15(x, cm):
    d50 = {"a": x, "b": f16(x)}
    x = d50["a"] * 0.5 + d50["b"]
    torch._dynamo.graph_break()
    with cm:
        _effect("f15.53", torch.is_grad_enabled())
        x = x + 1.0
    x = torch.sin(x)
    return x


class C14:
    def __init__(self, scale):
        self.scale = scale

    def run(self, x):
        cm56 = torch.enable_grad()
        x = f15(x, cm56)
        x = torch.cos(x)
        return x


class C13:
    def __init__(self, scale):
        self.scale = scale

    def run(self, x):
        with torch.no_grad():
            x = C14(0.5).run(x)
            _effect("f13.60", x)
        x = torch.sin(x)
        try:
            x = x * 0.5 + x.mean().item() * 0.5
        finally:
            _effect("f13.62", x)
            x = torch.tanh((x @ x.transpose(-1, -2)) @ x * 0.05)
        return x


def f12(**kw):
    x = kw["x"]
    with torch.autocast("cpu", dtype=torch.bfloat16):
        t66 = (x, C13(0.5).run(x))
        x = t66[0] * 0.5 + t66[1]
    x = torch.tanh((x @ x.transpose(-1, -2)) @ x * 0.05)
    return x


def f11(**kw):
    x = kw["x"]
    x = torch.cos(x)
    t69 = (x, f12(x=x))
    x = t69[0] * 0.5 + t69[1]
    x = torch.clamp(x, -3.0, 3.0)
    return x


def f10(x):
    box71 = []
    x = (x * 0.5, x)[_keep(box71, f11(x=x))] + box71[0]
    x = torch.sin(x)
    x = torch.tanh(x)
    return x


def f9(x):
    d74 = {"a": x, "b": f10(x)}
    x = d74["a"] * 0.5 + d74["b"]
    x = torch.sin(x)
    return x


def f8(x):
    global COUNTER
    COUNTER = COUNTER + 1
    if COUNTER % 2 == 1:
        x = f9(x)
        x = torch.tanh(x)
        _effect("f8.79", torch.is_grad_enabled())
    else:
        x = torch.tanh(x)
    return x


def f7(x):
    x = x + T_MAIN
    acc82 = x * 0.5
    def inner82(x):
        nonlocal acc82
        box83 = []
        s83 = f"f7.83:{x.shape[0]}:{_keep(box83, f8(x))}"
        _effect("f7.83", s83)
        x = box83[0]
        x = torch.sin(x)
        acc82 = acc82 * 0.5 + x * 0.25
        return x
    x = inner82(x) * 0.5 + acc82 * 0.5
    return x


def f6(x):
    x = f7(x)
    x = torch.clamp(x, -3.0, 3.0)
    x = x + 0.25
    return x


class C5:
    def __init__(self, scale):
        self.scale = scale

    def __call__(self, x):
        LOG.append(x * 0.5)
        d89 = {"a": x, "b": f6(x)}
        x = d89["a"] * 0.5 + d89["b"]
        x = torch.tanh(x)
        return x


def f4(x):
    x = torch.add(x * 0.5, C5(0.5)(x))
    _effect("f4.92", torch.is_grad_enabled())
    x = torch.tanh(x)
    return x


def f3(x):
    d94 = {"a": x, "b": f4(x)}
    x = d94["a"] * 0.5 + d94["b"]
    x = torch.tanh(x)
    return x


def f2(x, n):
    if n > 0:
        x = f2(x, n - 1)
    acc97 = x * 0.5
    def inner97(x):
        nonlocal acc97
        x = f3(x)
        class Local99:
            scale = 0.5
        
            def apply(self, v):
                return v * self.scale
        x = Local99().apply(x) + 0.25
        x = x + T_MAIN
        acc97 = acc97 * 0.5 + x * 0.25
        return x
    x = inner97(x) * 0.5 + acc97 * 0.5
    x = torch.tanh(x)
    return x


def f1(x):
    with _cm_disabled("f1.102"):
        x = (x * 0.5).add(f2(x, 2))
    x = x + 0.25
    x = torch.tanh((x @ x.transpose(-1, -2)) @ x * 0.05)
    return x


def entry(x):
    if x.sum() > 0:
        x = x * G_SCALE + G_BIAS
    else:
        acc108 = x * 0.5
        def inner108(x):
            nonlocal acc108
            v109 = [f1(x + c109) for c109 in (0.0, 0.5)]
            x = v109[0] * 0.5 + v109[1] * 0.5
            _effect("entry.110", x)
            acc108 = acc108 * 0.5 + x * 0.25
            return x
        x = inner108(x) * 0.5 + acc108 * 0.5
    x = torch.cos(x)
    return x, x.sum()


def make_inputs(device):
    g = torch.Generator().manual_seed(4279)
    x = torch.randn(5, 3, generator=g, dtype=torch.float64)
    return (x.to(device).requires_grad_(),)


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
