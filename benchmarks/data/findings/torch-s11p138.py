# ngb-fuzz program
# signature: crash:AssertionError@torch._dynamo.resume_execution:generate_based_on_original_code_object
# target: torch
# found-by: ngb-fuzz run --seed 11 (program 138)
# features: break.attr_store break.data_if break.disable break.graph_break break.item break.step_unsupported call.callable call.nonstrict call.tree closure.nonlocal ctx.as_value ctx.contextmanager_disabled ctx.decorator ctx.enable_grad ctx.no_grad depth.4-9 flow.early_return flow.generator flow.recompile flow.tensor_loop nn.module shape.cm_disable_init shape.decorator_ctx_break shape.step_break_stack shape.upper_ctx_break side.attr stack.call_arg stack.list_display stack.method stack.plain
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


@torch._dynamo.nonstrict_trace
def f10(x):
    torch._dynamo.graph_break()
    x = x * G_SCALE + G_BIAS
    x = torch.sin(x)
    return x


class C9:
    def __init__(self, scale):
        self.scale = scale

    def __call__(self, x):
        if x.sum() > 0:
            x = _ngb_disabled(x)
            _effect("f9.6", torch.is_grad_enabled())
        else:
            _effect("f9.7", torch.is_grad_enabled())
        STATE.calls = STATE.calls + 1
        x = x + STATE.calls * 0.01
        x = x * 2.0
        return x


def f8(x):
    x = torch.clamp(x, -2.0, 2.0)
    def gen11(x):
        y12 = x * 1.0
        y12.ngb_note = 0.5
        x = y12 * y12.ngb_note
        yield x
        _effect("f8.11.never", 0)
        yield x
    g11 = gen11(x)
    x = next(g11)
    x = x - x.mean()
    x = x.abs() * 0.5
    return x


def f7(x):
    x = torch.tanh((x @ x.transpose(-1, -2)) @ x * 0.05)
    acc16 = x * 0.5
    def inner16(x):
        nonlocal acc16
        torch._dynamo.step_unsupported()
        acc16 = acc16 * 0.5 + x * 0.25
        return x
    x = inner16(x) * 0.5 + acc16 * 0.5
    x = torch.no_grad()(f8)(x)
    x = torch.sin(x)
    return x


def f6(x):
    global COUNTER
    x = x - 1.5
    _effect("f6.21", x.sum())
    COUNTER = COUNTER + 1
    if COUNTER % 2 == 1:
        if x.sum() > 0:
            x = x * 0.5
        else:
            x = torch.tanh(x)
        _effect("f6.26", torch.is_grad_enabled())
    else:
        x = torch.sin(x)
    x = x * 2.0
    x = torch.cos(x)
    return x


def f5(x):
    with _cm_disabled("f5.30"):
        x = torch.add(x * 0.5, f6(x))
    x = torch.sin(x)
    x = x - 0.25
    if x.dim() == 3:
        return torch.tanh(x)
    return x


def f4(x):
    acc35 = x * 0.5
    def inner35(x):
        nonlocal acc35
        acc36 = torch.zeros_like(x)
        for r36 in x.unbind(0):
            acc36 = acc36 + r36
            x = torch.add(x * 0.5, f7(x))
            x = torch.sigmoid(x)
            x = torch.clamp(x, -1.0, 1.0)
        x = x * 0.5 + acc36 * 0.125
        x = torch.relu(x) - 0.5
        x = x * G_SCALE + G_BIAS
        acc35 = acc35 * 0.5 + x * 0.25
        return x
    x = inner35(x) * 0.5 + acc35 * 0.5
    l42 = [x * 0.5, f5(x), x]
    x = l42[0] + l42[1] - l42[2] * 0.25
    x = _MOD(x)
    x = x.abs() * 0.5
    return x


@torch.no_grad()
def f3(x, cm):
    x = (x * 0.5).add(f4(x))
    x = torch.sigmoid(x)
    x = torch.sin(x)
    x = x * G_SCALE + G_BIAS
    if x.dim() == 3:
        return torch.tanh(x)
    x = x * 0.5 + x.mean().item() * 0.5
    with cm:
        _effect("f3.52", torch.is_grad_enabled())
        x = torch.clamp(x, -1.0, 1.0)
    return x


class C2:
    def __init__(self, scale):
        self.scale = scale

    def __call__(self, x):
        _effect("f2.54", torch.is_grad_enabled())
        _effect("f2.55", torch.is_autocast_enabled("cpu"))
        cm56 = torch.no_grad()
        x = f3(x, cm56)
        x = torch.tanh((x @ x.transpose(-1, -2)) @ x * 0.05)
        return x


def f1(x):
    x = torch.sigmoid(x)
    acc59 = x * 0.5
    def inner59(x):
        nonlocal acc59
        l60 = [x * 0.5, C9(0.5)(x), x]
        x = l60[0] + l60[1] - l60[2] * 0.25
        x = x + 0.25
        x = x * G_SCALE + G_BIAS
        acc59 = acc59 * 0.5 + x * 0.25
        return x
    x = inner59(x) * 0.5 + acc59 * 0.5
    acc63 = x * 0.5
    def inner63(x):
        nonlocal acc63
        x = torch.add(x * 0.5, C2(0.5)(x))
        _effect("f1.65", torch.is_grad_enabled())
        x = torch.tanh(x)
        x = x + T_MAIN
        acc63 = acc63 * 0.5 + x * 0.25
        return x
    x = inner63(x) * 0.5 + acc63 * 0.5
    return x


def entry(x):
    x = f10(x)
    with torch.enable_grad():
        x = torch.add(x * 0.5, f1(x))
        x = torch.tanh(x)
    return x


def make_inputs(device):
    g = torch.Generator().manual_seed(4203)
    x = torch.randn(5, 4, generator=g)
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
