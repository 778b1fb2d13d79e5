# ngb-fuzz program
# signature: mismatch:second_call:effects
# target: engine:fault=replay-effect-twice
# found-by: ngb-fuzz run --seed 21 (program 3)
# features: break.builtin break.data_if break.step_unsupported call.callable call.chain call.method call.varargs class.new class.property class.setitem class.super_hierarchy closure.nonlocal ctx.contextmanager ctx.contextmanager_disabled ctx.decorator ctx.enable_grad ctx.inference_mode ctx.nested_decorators ctx.no_grad ctx.set_grad_enabled ctx.user_class depth.30+ flow.early_return flow.generator flow.recompile flow.tensor_loop shape.cm_disable_init shape.decorator_ctx_break shape.step_break_stack shape.upper_ctx_break side.dict side.global stack.binop stack.call_arg stack.conditional stack.dict_display stack.kwargs stack.list_display stack.method stack.plain stack.star_args stack.subscript stack.tuple_display stack.unpack
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


def f31(x):
    _effect("f31.1", torch.is_grad_enabled())
    def gen2(x):
        if x.sum() > 0:
            x = x - 0.25
        else:
            p5 = _Pair(x, x * 0.5)
            x = p5[0] * 0.5 + p5[1]
        _effect("f31.6", torch.is_grad_enabled())
        yield x
        yield x * 0.5
    vals2 = list(gen2(x))
    x = vals2[0] * 0.5 + vals2[1]
    x = torch.clamp(x, -1.0, 1.0)
    return x


@_cm("f30.deco0")
def f30(x):
    t8 = (x, f31(x))
    x = t8[0] * 0.5 + t8[1]
    x = torch.sin(x)
    return x


@_cm_disabled("f29.deco0")
@_Ctx("f29.deco1")
def f29(*args):
    global COUNTER
    x = args[0]
    x = x * 0.5 + f30(x)
    COUNTER = COUNTER + 1
    x = x + COUNTER * 0.01
    x = torch.clamp(x, -3.0, 3.0)
    return x


def f28(x):
    bag13 = _Bag("f28.13")
    bag13["a"] = x
    x = bag13["a"] * 0.5
    x = (x * 0.5).add(f29(x))
    x = torch.tanh(x)
    return x


def f27(x):
    acc16 = x * 0.5
    def inner16(x):
        nonlocal acc16
        x = f28(x)
        x = torch.sin(x)
        acc16 = acc16 * 0.5 + x * 0.25
        return x
    x = inner16(x) * 0.5 + acc16 * 0.5
    bag19 = _Bag("f27.19")
    bag19["a"] = x
    x = bag19["a"] * 0.5
    return x


def f26(x):
    x = f27(x)
    x = torch.tanh(x)
    return x


def f25(x):
    x = x * 0.5 + f26(x)
    _effect("f25.23", torch.is_grad_enabled())
    x = torch.clamp(x, -1.0, 1.0)
    return x


def f24(x):
    x = x * 0.75
    if x.sum() > 0:
        _effect("f24.27", x)
    else:
        x = x * 0.5 + f25(x)
        _effect("f24.29", torch.is_grad_enabled())
    x = torch.tanh(x)
    return x


def f23(x):
    d31 = {"a": x, "b": f24(x)}
    x = d31["a"] * 0.5 + d31["b"]
    _effect("f23.32", x.sum())
    x = torch.tanh((x @ x.transpose(-1, -2)) @ x * 0.05)
    return x


def f22(x):
    x = _Ctx("f22.34.deco")(f23)(x)
    x = torch.clamp(x, -2.0, 2.0)
    return x


class C21:
    def __init__(self, scale):
        self.scale = scale

    def __call__(self, x):
        x = (x * 0.5).add(f22(x))
        x = torch.sin(x)
        return x


def f20(x):
    l38 = [x * 0.5, C21(0.5)(x), x]
    x = l38[0] + l38[1] - l38[2] * 0.25
    with torch.set_grad_enabled(False):
        x = x + (zlib.crc32(b"f20.40") % 7) * 0.01
        c41 = _SupChild(x)
        x = c41.scale(c41.half)
    return x


class C19:
    def __init__(self, scale):
        self.scale = scale

    def run(self, x):
        x = f20(x)
        x = torch.clamp(x, -3.0, 3.0)
        return x


def f18(*args):
    x = args[0]
    d44 = {"a": x, "b": C19(0.5).run(x)}
    x = d44["a"] * 0.5 + d44["b"]
    x = torch.clamp(x, -3.0, 3.0)
    return x


def f17(x):
    global COUNTER
    x = x + 0.25
    COUNTER = COUNTER + 1
    if COUNTER % 2 == 1:
        x = x.abs() * 0.5
    else:
        x = x * 0.5 + f18(x)
    x = torch.clamp(x, -1.0, 1.0)
    return x


def f16(x):
    x = torch.clamp(x, -1.0, 1.0)
    box52 = []
    x = (x * 0.5, x)[_keep(box52, f17(x))] + box52[0]
    x = torch.tanh(x)
    return x


@torch.enable_grad()
def f15(x):
    x = torch.add(**{"input": x * 0.5, "other": f16(x)})
    x = torch.sin(x)
    x = x.abs() * 0.5
    return x


def f14(x):
    x = torch.add(x * 0.5, f15(x))
    x = torch.cos(x)
    return x


def f13(x):
    x = torch.enable_grad()(f14)(x)
    x = torch.sin(x)
    if x.dim() == 2:
        return torch.tanh(x)
    return x


class C12:
    def __init__(self, scale):
        self.scale = scale

    def run(self, x):
        with torch.inference_mode():
            l63 = [x * 0.5, f13(x), x]
            x = l63[0] + l63[1] - l63[2] * 0.25
            x = torch.tanh((x @ x.transpose(-1, -2)) @ x * 0.05)
        return x


def f11(x):
    x = torch.add(*[x * 0.5, C12(0.5).run(x)])
    x = torch.sin(x)
    return x


@torch.enable_grad()
def f10(x):
    x = _cm("f10.67.deco")(f11)(x)
    x = torch.tanh(x)
    return x


def f9(x):
    if x.sum() > 0:
        _effect("f9.70", x)
    else:
        flag71 = x.dim() == 2
        x = f10(x) if flag71 else x - 0.5
        x = torch.cos(x)
    x = torch.clamp(x, -3.0, 3.0)
    return x


def f8(x):
    if x.sum() > 0:
        x = torch.add(*[x * 0.5, f9(x)])
        x = torch.clamp(x, -1.0, 1.0)
        _effect("f8.77", torch.is_grad_enabled())
    else:
        TABLE["f8.78"] = x * 0.25
    x = torch.tanh(x)
    return x


def f7(x):
    acc80 = torch.zeros_like(x)
    for i80, r80 in enumerate(x.unbind(0)):
        acc80 = acc80 + r80
        x = _cm_disabled("f7.81.deco")(f8)(x)
        x = torch.clamp(x, -1.0, 1.0)
        x = torch.sigmoid(x)
        if i80 >= 1:
            break
    x = x * 0.5 + acc80 * 0.125
    x = torch.clamp(x, -1.0, 1.0)
    return x


class C6:
    def __init__(self, scale):
        self.scale = scale

    def __call__(self, x):
        x = (x * 0.5).add(f7(x))
        x = torch.clamp(x, -2.0, 2.0)
        x = torch.tanh((x @ x.transpose(-1, -2)) @ x * 0.05)
        return x


def f5(x):
    _effect("f5.88", torch.is_grad_enabled())
    torch._dynamo.step_unsupported()
    acc90 = x * 0.5
    def inner90(x):
        nonlocal acc90
        x = x * 0.5 + C6(0.5)(x)
        x = torch.sin(x)
        acc90 = acc90 * 0.5 + x * 0.25
        return x
    x = inner90(x) * 0.5 + acc90 * 0.5
    return x


def f4(x):
    _effect("f4.93", x)
    with torch.no_grad():
        a95, *r95 = [x, f5(x), x * 0.5]
        x = a95 * 0.25 + r95[0] + r95[1] * 0.25
        x = torch.sigmoid(x)
    return x


def f3(x):
    x = f4(x)
    x = torch.sin(x)
    return x


def f2(x):
    _effect("f2.99", torch.is_autocast_enabled("cpu"))
    box100 = []
    x = (x * 0.5, x)[_keep(box100, f3(x))] + box100[0]
    x = torch.tanh((x @ x.transpose(-1, -2)) @ x * 0.05)
    return x


def f1(x):
    _effect("f1.102", x)
    x = x * 0.5 + f2(x)
    x = torch.sigmoid(x)
    return x


def entry(x):
    global COUNTER
    acc105 = torch.zeros_like(x)
    for r105 in x:
        acc105 = acc105 + r105
        COUNTER = COUNTER + 1
        if COUNTER % 2 == 1:
            x = x + 1.5
        else:
            d108 = {"a": x, "b": f1(x)}
            x = d108["a"] * 0.5 + d108["b"]
        x = _Prop(x).half_value
        x = torch.sigmoid(x)
        if r105.sum() > 0:
            break
    x = x * 0.5 + acc105 * 0.125
    return x, x.sum()


def make_inputs(device):
    g = torch.Generator().manual_seed(5256)
    x = torch.randn(4, 3, generator=g)
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
