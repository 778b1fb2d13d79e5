# ngb-fuzz program
# signature: crash:BackendCompilerFailed@torch.fx.passes._tensorify_python_scalars:_sympy_interp
# target: torch:backend=aot_eager
# found-by: ngb-fuzz run --seed 12 (program 115)
# features: break.attr_store break.builtin break.data_if break.graph_break break.print break.step_unsupported call.kwargs call.lambda call.tree class.str closure.nonlocal ctx.as_value depth.4-9 flow.loop flow.tensor_loop flow.try_finally nn.module shape.step_break_stack stack.binop stack.call_arg stack.dict_display stack.method stack.plain stack.subscript
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


def f10(x, cm):
    _effect("f10.1", x)
    torch._dynamo.graph_break()
    x = x + 1.5
    y4 = x * 1.0
    y4.ngb_note = 0.5
    x = y4 * y4.ngb_note
    with cm:
        _effect("f10.6", torch.is_grad_enabled())
        _effect("f10.7", str(_Named("f10.7", x)))
    return x


def f9_impl(x):
    acc8 = x * 0.5
    def inner8(x):
        nonlocal acc8
        acc9 = torch.zeros_like(x)
        for i9, r9 in enumerate(x.unbind(0)):
            acc9 = acc9 + r9
            print("ngb f9.10")
            x = torch.cos(x)
            x = torch.sin(x)
            if i9 >= 1:
                break
        x = x * 0.5 + acc9 * 0.125
        _effect("f9.13", torch.is_grad_enabled())
        acc8 = acc8 * 0.5 + x * 0.25
        return x
    x = inner8(x) * 0.5 + acc8 * 0.5
    x = x * 1.25
    return x


f9 = lambda x: 0.0 + f9_impl(x)


def f8(x):
    if x.sum() > 0:
        x = x * 1.25 - 0.25
    else:
        x = x + T_MAIN
    x = x + T_MAIN
    _effect("f8.19", x)
    x = torch.clamp(x, -2.0, 2.0)
    return x


def f7(**kw):
    x = kw["x"]
    _effect("f7.21", x)
    torch._dynamo.step_unsupported()
    return x


def f6(x):
    if x.sum() > 0:
        x = x + (zlib.crc32(b"f6.24") % 7) * 0.01
    else:
        x = x - 0.25
    return x


def f5(x):
    x = torch.sigmoid(x)
    x = f6(x)
    x = _MOD(x)
    x = x + T_MAIN
    cm30 = torch.autocast("cpu", dtype=torch.bfloat16)
    x = f10(x, cm30)
    x = torch.sin(x)
    return x


def f4(x):
    x = f5(x)
    x = torch.clamp(x, -1.0, 1.0)
    return x


def f3(x):
    _effect("f3.34", torch.is_grad_enabled())
    for i35 in range(2):
        d36 = {"a": x, "b": f7(x=x)}
        x = d36["a"] * 0.5 + d36["b"]
        x = x * 1.25
        x = torch.tanh(x)
    x = torch.clamp(x, -1.0, 1.0)
    _effect("f3.40", x)
    for i41 in range(3):
        x = torch.add(x * 0.5, f4(x))
        _effect("f3.43", torch.is_grad_enabled())
        x = torch.clamp(x, -1.0, 1.0)
    return x


def f2(x):
    box45 = []
    x = (x * 0.5, x)[_keep(box45, f3(x))] + box45[0]
    x = x + 1.0
    if x.sum() > 0:
        _effect("f2.48", torch.is_grad_enabled())
    else:
        x = _MOD(x)
    x = torch.sin(x)
    return x


def f1(**kw):
    x = kw["x"]
    _effect("f1.51", torch.is_autocast_enabled("cpu"))
    x = torch.add(x * 0.5, f9(x))
    x = torch.sin(x)
    _effect("f1.54", x.sum())
    x = x * 0.5 + x.sum(dim=-1, keepdim=True) * 0.1
    try:
        x = (x * 0.5).add(f2(x))
    finally:
        _effect("f1.56", x)
    x = torch.tanh(x)
    return x


def entry(x):
    _effect("entry.59", x)
    x = f8(x)
    acc61 = x * 0.5
    def inner61(x):
        nonlocal acc61
        x = x * 0.5 + f1(x=x)
        x = torch.tanh(x)
        _effect("entry.64", torch.is_grad_enabled())
        x = x + T_MAIN
        acc61 = acc61 * 0.5 + x * 0.25
        return x
    x = inner61(x) * 0.5 + acc61 * 0.5
    return {"out": x, "mean": x.mean()}


def make_inputs(device):
    g = torch.Generator().manual_seed(4798)
    x = torch.randn(2, 3, generator=g)
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
