# ngb-fuzz program
# signature: mismatch:effects:value
# target: engine:fault=forget-upper-cm
# found-by: ngb-fuzz run --seed 21 (program 6)
# features: break.data_if break.graph_break break.print break.step_unsupported call.chain call.lambda call.method class.super_dict ctx.contextmanager ctx.no_grad ctx.set_grad_enabled depth.4-9 flow.early_return flow.recompile flow.tensor_loop flow.try_except input.rank1 raise.deliberate shape.step_break_stack shape.upper_ctx_break side.global stack.binop stack.fstring stack.method stack.plain stack.tuple_display
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


def f8(x):
    if x.dim() == 1:
        return torch.tanh(x)
    torch._dynamo.graph_break()
    x = torch.tanh(x)
    return x


def f7(x):
    with torch.no_grad():
        box5 = []
        s5 = f"f7.5:{x.shape[0]}:{_keep(box5, f8(x))}"
        _effect("f7.5", s5)
        x = box5[0]
    x = x.abs() * 0.5
    return x


def f6(x):
    _effect("f6.7", x.sum())
    torch._dynamo.step_unsupported()
    try:
        x = f7(x)
        _effect("f6.11", torch.is_grad_enabled())
        raise ValueError("ngb deliberate ngb f6.12")
    except ValueError as e9:
        _effect("f6.9", str(e9))
    x = torch.sin(x)
    x = x.abs() * 0.5
    return x


def f5(x):
    global COUNTER
    if x.sum() > 0:
        COUNTER = COUNTER + 1
        x = x + COUNTER * 0.01
    else:
        x = (x * 0.5).add(f6(x))
        d18 = _SupDict()
        d18["f5.18"] = x
        x = d18["f5.18"] * 0.5
    return x


class C4:
    def __init__(self, scale):
        self.scale = scale

    def run(self, x):
        with _cm("f4.19"):
            x = (x * 0.5).add(f5(x))
        acc21 = torch.zeros_like(x)
        for i21, r21 in enumerate(x):
            acc21 = acc21 + r21
            torch._dynamo.step_unsupported()
            x = torch.cos(x)
            if i21 >= 1:
                break
        x = x * 0.5 + acc21 * 0.125
        x = torch.relu(x) - 0.5
        x = torch.sin(x)
        _effect("f4.26", torch.is_inference_mode_enabled())
        return x


def f3(x):
    global COUNTER
    x = x + T_MAIN
    x = (x * 0.5).add(C4(0.5).run(x))
    COUNTER = COUNTER + 1
    if COUNTER % 2 == 1:
        print("ngb f3.30")
        _effect("f3.31", torch.is_grad_enabled())
    else:
        _effect("f3.32", x)
    x = torch.sigmoid(x)
    return x


def f2(x):
    global COUNTER
    x = torch.sin(x)
    COUNTER = COUNTER + 1
    x = x + COUNTER * 0.01
    with torch.set_grad_enabled(False):
        t37 = (x, f3(x))
        x = t37[0] * 0.5 + t37[1]
        x = x * 0.5 + x.sum(dim=-1, keepdim=True) * 0.1
    return x


def f1_impl(x):
    _effect("f1.39", x)
    x = x * 0.5 + f2(x)
    x = x - 0.25
    _effect("f1.42", x.sum())
    x = torch.sin(x)
    return x


f1 = lambda x: 0.0 + f1_impl(x)


def entry(x):
    x = x * 0.5
    with torch.set_grad_enabled(True):
        x = (x * 0.5).add(f1(x))
    x = torch.tanh(torch.outer(x, x) @ x * 0.05)
    return x


def make_inputs(device):
    g = torch.Generator().manual_seed(2228)
    x = torch.randn(3, generator=g)
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
