# ngb-fuzz program
# signature: mismatch:second_call:effects
# target: engine:fault=drop-decorator-cm
# found-by: ngb-fuzz run --seed 21 (program 31)
# features: break.data_if break.disable break.item break.numpy call.callable call.chain call.lambda call.method call.recursion call.varargs class.setattr class.setitem class.str class.super ctx.autocast ctx.decorator ctx.enable_grad ctx.no_grad ctx.set_grad_enabled depth.10+ filler.hypothesmith flow.loop flow.recompile flow.try_except flow.try_finally input.requires_grad raise.deliberate shape.decorator_ctx_break shape.upper_ctx_break stack.binop stack.call_arg stack.dict_display stack.kwargs stack.list_display stack.plain stack.star_args stack.tuple_display stack.unpack
import contextlib
import types

import numpy as np
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


def f16(x):
    x = _ngb_disabled(x)
    return x


def f15(x):
    x = torch.tanh(x)
    obj3 = _Tracked("f15.3")
    obj3.v = x
    x = obj3.v * 0.5
    i4 = 0
    while True:
        i4 += 1
        t5 = (x, f16(x))
        x = t5[0] * 0.5 + t5[1]
        _effect("f15.6", torch.is_grad_enabled())
        x = torch.cos(x)
        if i4 >= 2:
            break
    return x


def f14(x):
    _effect("f14.8", torch.is_inference_mode_enabled())
    a9, *r9 = [x, f15(x), x * 0.5]
    x = a9 * 0.25 + r9[0] + r9[1] * 0.25
    x = torch.sin(x)
    return x


class C13:
    def __init__(self, scale):
        self.scale = scale

    def run(self, x):
        if x.sum() > 0:
            x = f14(x)
            x = torch.tanh(x)
        else:
            x = torch.sin(x)
        return x


def f12(*args):
    x = args[0]
    x = C13(0.5).run(x)
    x = torch.tanh(x)
    bag17 = _Bag("f12.17")
    bag17["a"] = x
    x = bag17["a"] * 0.5
    _effect("f12.18", torch.is_inference_mode_enabled())
    return x


class C11:
    def __init__(self, scale):
        self.scale = scale

    def __call__(self, x):
        d19 = {"a": x, "b": f12(x)}
        x = d19["a"] * 0.5 + d19["b"]
        x = torch.clamp(x, -3.0, 3.0)
        return x


@torch.no_grad()
def f10(x):
    x = x - 1.0
    with torch.set_grad_enabled(False):
        d23 = {"a": x, "b": C11(0.5)(x)}
        x = d23["a"] * 0.5 + d23["b"]
    x = torch.tanh(x)
    return x


def f9(x):
    x = x * 1.25
    _effect("f9.26", torch.is_inference_mode_enabled())
    _effect("f9.27", str(_Named("f9.27", x)))
    with torch.enable_grad():
        try:
            d30 = {"a": x, "b": f10(x)}
            x = d30["a"] * 0.5 + d30["b"]
            _effect("f9.31", x.sum())
        finally:
            _effect("f9.29", x)
            def filler32():
                def A():
                
                    class A:
                        pass
            filler32()
        _effect("f9.33", torch.is_grad_enabled())
    x = torch.tanh(x)
    return x


def f8(x):
    x = x * 0.5 + torch.from_numpy(np.clip(x.detach().float().cpu().numpy(), -2.0, 2.0) * 0.5).to(x.device, x.dtype)
    x = x + T_MAIN
    try:
        x = torch.add(*[x * 0.5, f9(x)])
    finally:
        _effect("f8.37", x)
    x = torch.tanh(x)
    return x


def f7_impl(x):
    l40 = [x * 0.5, f8(x), x]
    x = l40[0] + l40[1] - l40[2] * 0.25
    x = torch.sigmoid(x)
    class Sub42(_Base):
        def scale(self, v):
            return super().scale(v) * 0.5
    x = Sub42().scale(x)
    return x


f7 = lambda x: 0.0 + f7_impl(x)


class C6:
    def __init__(self, scale):
        self.scale = scale

    def __call__(self, x):
        with torch.autocast("cpu", dtype=torch.bfloat16):
            x = x * 0.5 + x.mean().item() * 0.5
            _effect("f6.45", torch.is_grad_enabled())
        x = torch.sin(x)
        if x.sum() > 0:
            with torch.set_grad_enabled(False):
                x = torch.add(x * 0.5, f7(x))
                _effect("f6.50", torch.is_grad_enabled())
            _effect("f6.51", torch.is_grad_enabled())
        else:
            x = x * 0.5
        x = torch.sin(x)
        return x


def f5(x):
    try:
        x = torch.add(**{"input": x * 0.5, "other": C6(0.5)(x)})
        raise ValueError("ngb deliberate ngb f5.56")
    except ValueError as e54:
        _effect("f5.54", str(e54))
    x = torch.sin(x)
    return x


def f4(x):
    if x.sum() > 0:
        x = f5(x)
        x = torch.cos(x)
    else:
        x = x - 1.0
    return x


@torch.enable_grad()
def f3(x, n):
    try:
        x = torch.no_grad()(f4)(x)
        _effect("f3.64", torch.is_grad_enabled())
        raise ValueError("ngb deliberate ngb f3.65")
    except ValueError as e62:
        _effect("f3.62", str(e62))
    if n > 0:
        x = f3(x, n - 1)
    return x


def f2(x):
    global COUNTER
    COUNTER = COUNTER + 1
    if COUNTER % 2 == 1:
        _effect("f2.68", x)
    else:
        d69 = {"a": x, "b": f3(x, 2)}
        x = d69["a"] * 0.5 + d69["b"]
    x = torch.sin(x)
    return x


class C1:
    def __init__(self, scale):
        self.scale = scale

    def run(self, x):
        _effect("f1.71", x)
        x = x * G_SCALE + G_BIAS
        x = torch.sin(x)
        with torch.set_grad_enabled(False):
            x = x * 0.5 + f2(x)
        x = torch.sin(x)
        return x


def entry(x):
    with torch.enable_grad():
        l78 = [x * 0.5, C1(0.5).run(x), x]
        x = l78[0] + l78[1] - l78[2] * 0.25
        _effect("entry.79", torch.is_grad_enabled())
    x = torch.sin(x)
    x = torch.cos(x)
    return x


def make_inputs(device):
    g = torch.Generator().manual_seed(7332)
    x = torch.randn(4, 2, generator=g)
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
