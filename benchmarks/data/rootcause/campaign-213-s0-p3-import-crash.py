# ngb-fuzz program
# signature: crash:InternalTorchDynamoError@torch._dynamo.symbolic_convert:_import_module
# target: torch
# found-by: ngb-fuzz run --seed 0 (program 3)
# features: break.item break.step_unsupported call.chain class.setattr closure.nonlocal depth.2-3 flow.try_except input.rank1 module.helper raise.deliberate side.global stack.binop stack.comprehension
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


def f1(x):
    obj1 = _Tracked("f1.1")
    obj1.v = x
    x = obj1.v * 0.5
    acc2 = x * 0.5
    def inner2(x):
        nonlocal acc2
        acc3 = x * 0.5
        def inner3(x):
            nonlocal acc3
            v4 = [ngb_h1.f2(x + c4) for c4 in (0.0, 0.5)]
            x = v4[0] * 0.5 + v4[1] * 0.5
            _effect("f1.5", torch.is_grad_enabled())
            acc3 = acc3 * 0.5 + x * 0.25
            return x
        x = inner3(x) * 0.5 + acc3 * 0.5
        acc2 = acc2 * 0.5 + x * 0.25
        return x
    x = inner2(x) * 0.5 + acc2 * 0.5
    return x


def entry(x):
    x = x * 0.5 + f1(x)
    try:
        torch._dynamo.step_unsupported()
        raise ValueError("ngb deliberate ngb entry.9")
    except ValueError as e7:
        _effect("entry.7", str(e7))
    x = torch.tanh(x)
    return x


ngb_h1 = types.ModuleType("ngb_h1")
ngb_h1.__dict__.update({"_effect": _effect, "_keep": _keep, "_ngb_disabled": _ngb_disabled, "_Ctx": _Ctx, "_cm": _cm, "_cm_disabled": _cm_disabled, "_Box": _Box, "_Tracked": _Tracked, "_Bag": _Bag, "_Prop": _Prop, "_Pair": _Pair, "_Named": _Named, "_Base": _Base, "_MOD": _MOD, "STATE": STATE})
exec(compile('''
import contextlib
import types

import torch

G_SCALE = 0.5
G_BIAS = 0.5
T_H1 = torch.tensor(1.0)
LOG = []
TABLE = {}
COUNTER = 0


def f2(x):
    global COUNTER
    COUNTER = COUNTER + 1
    x = x + COUNTER * 0.01
    x = x - 0.5
    x = x * 0.5 + x.mean().item() * 0.5
    return x
''', "ngb_h1", "exec"), ngb_h1.__dict__)
ngb_h1.__dict__.update({"entry": entry, "f1": f1})


def make_inputs(device):
    g = torch.Generator().manual_seed(424)
    x = torch.randn(4, generator=g)
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
