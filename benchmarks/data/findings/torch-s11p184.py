# ngb-fuzz program
# signature: mismatch:effects:value
# target: torch
# found-by: ngb-fuzz run --seed 11 (program 184)
# features: break.data_if break.disable break.graph_break break.item call.chain call.recursion class.super closure.nonlocal ctx.as_value ctx.contextmanager_disabled ctx.decorator ctx.enable_grad ctx.nested_decorators ctx.no_grad depth.10+ flow.loop input.requires_grad shape.cm_disable_init shape.decorator_ctx_break shape.upper_ctx_break stack.binop stack.call_arg stack.conditional stack.list_display stack.method stack.plain stack.unpack
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


def f8(x):
    for i1 in range(2):
        torch._dynamo.graph_break()
        x = torch.tanh((x @ x.transpose(-1, -2)) @ x * 0.05)
    return x


def f7(x, cm):
    for i4 in range(2):
        x = x * 0.5 + x.mean().item() * 0.5
        _effect("f7.6", torch.is_grad_enabled())
        x = torch.cos(x)
    flag8 = x.dim() == 2
    x = f8(x) if flag8 else x - 0.5
    torch._dynamo.graph_break()
    with cm:
        _effect("f7.11", torch.is_grad_enabled())
        x = x + T_MAIN
    x = torch.tanh((x @ x.transpose(-1, -2)) @ x * 0.05)
    return x


def f6(x):
    with torch.no_grad():
        torch._dynamo.graph_break()
        _effect("f6.16", torch.is_grad_enabled())
    if x.sum() > 0:
        cm18 = torch.no_grad()
        x = (x * 0.5).add(f7(x, cm18))
    else:
        x = torch.tanh((x @ x.transpose(-1, -2)) @ x * 0.05)
    x = torch.tanh(x)
    return x


def f5(x):
    if x.sum() > 0:
        x = torch.sin(x)
    else:
        _effect("f5.23", x.sum())
    x = torch.clamp(x, -2.0, 2.0)
    a25, *r25 = [x, f6(x), x * 0.5]
    x = a25 * 0.25 + r25[0] + r25[1] * 0.25
    x = torch.cos(x)
    return x


def f4(x):
    _effect("f4.27", x)
    x = torch.sin(x)
    with torch.no_grad():
        x = f5(x)
        _effect("f4.31", torch.is_grad_enabled())
    x = torch.tanh(x)
    return x


def f3(x, n):
    _effect("f3.33", torch.is_grad_enabled())
    if n > 0:
        x = f3(x, n - 1)
    _effect("f3.35", x.sum())
    x = torch.add(x * 0.5, f4(x))
    x = x * 0.5
    return x


def f2(x):
    x = x - 0.5
    with torch.no_grad():
        l40 = [x * 0.5, f3(x, 2), x]
        x = l40[0] + l40[1] - l40[2] * 0.25
    x = _ngb_disabled(x)
    return x


@torch.enable_grad()
@_cm_disabled("f1.deco1")
def f1(x):
    _effect("f1.42", x)
    x = x + 1.0
    x = x * 0.5 + f2(x)
    x = x * 0.75
    x = torch.sin(x)
    return x


def entry(x):
    class Sub47(_Base):
        def scale(self, v):
            return super().scale(v) * 0.5
    x = Sub47().scale(x)
    acc48 = x * 0.5
    def inner48(x):
        nonlocal acc48
        l49 = [x * 0.5, f1(x), x]
        x = l49[0] + l49[1] - l49[2] * 0.25
        x = torch.relu(x) - 0.5
        acc48 = acc48 * 0.5 + x * 0.25
        return x
    x = inner48(x) * 0.5 + acc48 * 0.5
    return x


def make_inputs(device):
    g = torch.Generator().manual_seed(7290)
    x = torch.randn(4, 3, generator=g)
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
