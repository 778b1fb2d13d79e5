# ngb-fuzz program
# signature: crash:BackendCompilerFailed@torch.fx.interpreter:run_node
# target: torch:backend=aot_eager
# found-by: ngb-fuzz run --seed 12 (program 159)
# features: break.builtin break.data_if break.disable break.graph_break break.tolist call.callable call.lambda call.method call.tree call.varargs closure.nonlocal ctx.autocast ctx.contextmanager_disabled ctx.decorator ctx.enable_grad ctx.inference_mode ctx.no_grad ctx.user_class depth.10+ flow.early_return flow.generator flow.loop flow.recompile flow.try_finally nn.module shape.cm_disable_init shape.decorator_ctx_break shape.upper_ctx_break side.attr side.dict side.global stack.binop stack.call_arg stack.comprehension stack.conditional stack.method stack.plain stack.subscript stack.unpack
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


def f15(x):
    global COUNTER
    x = x * G_SCALE + G_BIAS
    COUNTER = COUNTER + 1
    x = x + COUNTER * 0.01
    if x.sum() > 0:
        torch._dynamo.graph_break()
        _effect("f15.5", torch.is_grad_enabled())
    else:
        STATE.calls = STATE.calls + 1
        x = x + STATE.calls * 0.01
    _effect("f15.7", x)
    return x


def f14(x):
    for i8 in range(3):
        x = x * 0.5 + x.new_tensor(x.mean(dim=0).tolist()) * 0.5
        _effect("f14.10", torch.is_grad_enabled())
        x = torch.tanh((x @ x.transpose(-1, -2)) @ x * 0.05)
    _effect("f14.12", x)
    return x


def f13(x):
    x = x + (zlib.crc32(b"f13.13") % 7) * 0.01
    x = _MOD(x)
    x = x * 0.5 + x.sum(dim=-1, keepdim=True) * 0.1
    return x


def f12(x):
    x = torch.sin(x)
    def gen17(x):
        global COUNTER
        torch._dynamo.graph_break()
        COUNTER = COUNTER + 1
        x = x + COUNTER * 0.01
        yield x
        return x * 0.5
    g17 = gen17(x)
    first17 = next(g17)
    try:
        next(g17)
    except StopIteration as stop17:
        x = first17 * 0.5 + stop17.value
    return x


class C11:
    def __init__(self, scale):
        self.scale = scale

    def __call__(self, x):
        x = _ngb_disabled(x)
        return x


def f10(x):
    def gen21(x):
        a22, *r22 = [x, C11(0.5)(x), x * 0.5]
        x = a22 * 0.25 + r22[0] + r22[1] * 0.25
        yield x
        _effect("f10.21.never", 0)
        yield x
    g21 = gen21(x)
    x = next(g21)
    x = torch.tanh((x @ x.transpose(-1, -2)) @ x * 0.05)
    return x


@torch.no_grad()
def f9(x):
    x = x * 1.5
    v25 = [f10(x + c25) for c25 in (0.0, 0.5)]
    x = v25[0] * 0.5 + v25[1] * 0.5
    x = x * 0.5 + f12(x)
    x = torch.cos(x)
    return x


def f8(x):
    with torch.enable_grad():
        x = (x * 0.5).add(f9(x))
        _effect("f8.30", torch.is_grad_enabled())
    x = torch.tanh(x)
    return x


class C7:
    def __init__(self, scale):
        self.scale = scale

    def run(self, x):
        if x.dim() == 3:
            return torch.tanh(x)
        for c33 in [0.5, 0.5, 0.5]:
            x = torch.no_grad()(f8)(x)
            x = torch.clamp(x, -3.0, 3.0)
        return x


def f6(x):
    box36 = []
    x = (x * 0.5, x)[_keep(box36, f13(x))] + box36[0]
    x = torch.cos(x)
    x = torch.tanh(x)
    with _Ctx("f6.39"):
        flag40 = x.dim() == 2
        x = C7(0.5).run(x) if flag40 else x - 0.5
        _effect("f6.41", torch.is_grad_enabled())
    x = torch.tanh(x)
    return x


class C5:
    def __init__(self, scale):
        self.scale = scale

    def __call__(self, x):
        x = torch.sigmoid(x)
        if x.sum() > 0:
            x = torch.relu(x) - 0.5
        else:
            _effect("f5.46", torch.is_grad_enabled())
        x = f15(x)
        with torch.autocast("cpu", dtype=torch.bfloat16):
            box49 = []
            x = (x * 0.5, x)[_keep(box49, f6(x))] + box49[0]
            _effect("f5.50", torch.is_grad_enabled())
        x = torch.cos(x)
        return x


def f4(*args):
    x = args[0]
    x = torch.add(x * 0.5, C5(0.5)(x))
    x = torch.tanh((x @ x.transpose(-1, -2)) @ x * 0.05)
    return x


def f3_impl(x):
    global COUNTER
    COUNTER = COUNTER + 1
    if COUNTER % 2 == 1:
        x = torch.sin(x)
    else:
        torch._dynamo.graph_break()
    _effect("f3.57", torch.is_grad_enabled())
    a58, *r58 = [x, f4(x), x * 0.5]
    x = a58 * 0.25 + r58[0] + r58[1] * 0.25
    x = torch.sin(x)
    return x


f3 = lambda x: 0.0 + f3_impl(x)


def f2(x):
    STATE.calls = STATE.calls + 1
    x = x + STATE.calls * 0.01
    x = x * 0.5
    _effect("f2.62", torch.is_grad_enabled())
    acc63 = x * 0.5
    def inner63(x):
        nonlocal acc63
        flag64 = x.dim() == 2
        x = f3(x) if flag64 else x - 0.5
        x = torch.tanh(x)
        x = x + T_MAIN
        acc63 = acc63 * 0.5 + x * 0.25
        return x
    x = inner63(x) * 0.5 + acc63 * 0.5
    with _cm_disabled("f2.67"):
        x = torch.add(x * 0.5, f14(x))
    x = torch.sigmoid(x)
    return x


@torch.inference_mode()
def f1(x):
    _effect("f1.70", x)
    TABLE["f1.71"] = x * 0.25
    try:
        flag73 = x.dim() == 2
        x = f2(x) if flag73 else x - 0.5
    finally:
        _effect("f1.72", x)
    _effect("f1.74", x)
    x = torch.clamp(x, -3.0, 3.0)
    return x


def entry(x):
    x = f1(x)
    x = torch.sin(x)
    return x


def make_inputs(device):
    g = torch.Generator().manual_seed(5214)
    x = torch.randn(4, 2, generator=g)
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
