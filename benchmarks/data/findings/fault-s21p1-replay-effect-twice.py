# ngb-fuzz program
# signature: mismatch:effects:length
# target: engine:fault=replay-effect-twice
# found-by: ngb-fuzz run --seed 21 (program 1)
# features: break.attr_store break.data_if break.disable break.item call.callable call.lambda call.method call.tree call.varargs class.new ctx.enable_grad ctx.inference_mode ctx.no_grad ctx.set_grad_enabled depth.4-9 flow.early_return flow.generator flow.loop flow.tensor_loop flow.try_except input.double raise.deliberate shape.upper_ctx_break side.attr side.global side.list stack.call_arg stack.dict_display stack.kwargs stack.plain stack.unpack
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


class C10:
    def __init__(self, scale):
        self.scale = scale

    def run(self, x):
        _effect("f10.1", x)
        _effect("f10.2", x)
        i3 = 0
        while True:
            i3 += 1
            try:
                x = x * 0.5 + x.mean().item() * 0.5
                raise ValueError("ngb deliberate ngb f10.6")
            except ValueError as e4:
                _effect("f10.4", str(e4))
                x = x * 0.75
            x = torch.clamp(x, -2.0, 2.0)
            if i3 >= 2:
                break
        return x


def f9_impl(x):
    with torch.no_grad():
        x = _ngb_disabled(x)
    x = torch.sigmoid(x)
    return x


f9 = lambda x: 0.0 + f9_impl(x)


def f8(x):
    p12 = _Pair(x, x * 0.5)
    x = p12[0] * 0.5 + p12[1]
    x = x.abs() * 0.5
    with torch.enable_grad():
        if x.sum() > 0:
            x = torch.tanh((x @ x.transpose(-1, -2)) @ x * 0.05)
        else:
            _effect("f8.17", torch.is_grad_enabled())
    return x


class C7:
    def __init__(self, scale):
        self.scale = scale

    def run(self, x):
        d18 = {"a": x, "b": f8(x)}
        x = d18["a"] * 0.5 + d18["b"]
        if x.sum() > 0:
            LOG.append(x * 0.5)
        else:
            with torch.set_grad_enabled(True):
                x = x * 0.5 + x.mean().item() * 0.5
                x = x - 0.5
            x = torch.cos(x)
        x = torch.clamp(x, -3.0, 3.0)
        return x


def f6(x):
    with torch.inference_mode():
        try:
            x = torch.add(**{"input": x * 0.5, "other": f9(x)})
            x = torch.cos(x)
            raise ValueError("ngb deliberate ngb f6.30")
        except ValueError as e27:
            _effect("f6.27", str(e27))
        _effect("f6.31", torch.is_grad_enabled())
    if x.sum() > 0:
        x = torch.add(x * 0.5, C7(0.5).run(x))
    else:
        x = x + 1.0
    x = torch.tanh(x)
    return x


class C5:
    def __init__(self, scale):
        self.scale = scale

    def __call__(self, x):
        with torch.set_grad_enabled(True):
            d37 = {"a": x, "b": f6(x)}
            x = d37["a"] * 0.5 + d37["b"]
            x = torch.tanh(x)
        _effect("f5.39", x)
        return x


def f4(x):
    global COUNTER
    COUNTER = COUNTER + 1
    x = x + COUNTER * 0.01
    try:
        x = C5(0.5)(x)
        x = torch.tanh(x)
        raise ValueError("ngb deliberate ngb f4.44")
    except ValueError as e41:
        _effect("f4.41", str(e41))
    x = x * G_SCALE + G_BIAS
    x = torch.tanh(x)
    return x


class C3:
    def __init__(self, scale):
        self.scale = scale

    def run(self, x):
        x = x + 0.5
        a48, *r48 = [x, f4(x), x * 0.5]
        x = a48 * 0.25 + r48[0] + r48[1] * 0.25
        x = torch.tanh(x)
        return x


def f2(*args):
    global COUNTER
    x = args[0]
    if x.dim() == 2:
        return torch.tanh(x)
    x = torch.relu(x) - 0.5
    for c52 in [0.5, 0.5]:
        x = C3(0.5).run(x)
        x = torch.clamp(x, -2.0, 2.0)
        x = torch.clamp(x, -2.0, 2.0)
    if x.sum() > 0:
        COUNTER = COUNTER + 1
        x = x + COUNTER * 0.01
    else:
        if x.sum() > 0:
            x = x * 0.5
        else:
            def gen60(x):
                y61 = x * 1.0
                y61.ngb_note = 0.5
                x = y61 * y61.ngb_note
                _effect("f2.62", torch.is_grad_enabled())
                yield x
                yield x * 0.5
            vals60 = list(gen60(x))
            x = vals60[0] * 0.5 + vals60[1]
            _effect("f2.63", torch.is_grad_enabled())
        _effect("f2.64", torch.is_grad_enabled())
    x = torch.tanh((x @ x.transpose(-1, -2)) @ x * 0.05)
    return x


class C1:
    def __init__(self, scale):
        self.scale = scale

    def __call__(self, x):
        with torch.no_grad():
            a67, *r67 = [x, f2(x), x * 0.5]
            x = a67 * 0.25 + r67[0] + r67[1] * 0.25
            x = torch.tanh((x @ x.transpose(-1, -2)) @ x * 0.05)
            _effect("f1.69", torch.is_grad_enabled())
        STATE.calls = STATE.calls + 1
        x = x + STATE.calls * 0.01
        x = C10(0.5).run(x)
        x = torch.tanh(x)
        return x


def entry(x, e0):
    x = x + e0.mean() * 0.1
    _effect("entry.73", x)
    x = x + 1.0
    acc75 = torch.zeros_like(x)
    for r75 in x:
        acc75 = acc75 + r75
        d76 = {"a": x, "b": C1(0.5)(x)}
        x = d76["a"] * 0.5 + d76["b"]
        x = torch.tanh((x @ x.transpose(-1, -2)) @ x * 0.05)
    x = x * 0.5 + acc75 * 0.125
    x = x * G_SCALE + G_BIAS
    return x


def make_inputs(device):
    g = torch.Generator().manual_seed(9732)
    x = torch.randn(3, 5, generator=g)
    e0 = torch.randn(5, generator=g, dtype=torch.float64)
    return (x.to(device), e0.to(device),)


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
