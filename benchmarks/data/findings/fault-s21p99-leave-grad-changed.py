# ngb-fuzz program
# signature: mismatch:second_call:torch_state
# target: engine:fault=leave-grad-changed
# found-by: ngb-fuzz run --seed 21 (program 99)
# features: break.attr_store break.data_if break.item break.step_unsupported call.callable call.kwargs call.method call.recursion call.tree class.local class.str class.super_dict class.super_hierarchy class.super_list class.super_setattr closure.nonlocal ctx.as_value ctx.autocast ctx.decorator ctx.nested_decorators ctx.no_grad ctx.set_grad_enabled ctx.user_class depth.10+ flow.early_return flow.generator flow.recompile flow.tensor_loop flow.try_except flow.try_finally nn.module raise.deliberate shape.decorator_ctx_break shape.upper_ctx_break side.attr side.dict side.list stack.binop stack.call_arg stack.comprehension stack.conditional stack.dict_display stack.fstring stack.kwargs stack.list_display stack.method stack.plain stack.subscript stack.tuple_display stack.unpack
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


def f27(x):
    l1 = _SupList()
    l1.append(x)
    x = l1[0] + l1[1] * 0.01
    if x.sum() > 0:
        x = torch.sigmoid(x)
    else:
        x = x * 0.5 + x.mean().item() * 0.5
        _effect("f27.5", torch.is_grad_enabled())
    x = torch.sin(x)
    return x


def f26(x):
    _effect("f26.7", str(_Named("f26.7", x)))
    torch._dynamo.step_unsupported()
    x = torch.sin(x)
    return x


class C25:
    def __init__(self, scale):
        self.scale = scale

    def __call__(self, x):
        x = _Ctx("f25.10.deco")(f26)(x)
        x = torch.tanh((x @ x.transpose(-1, -2)) @ x * 0.05)
        return x


def f24(x):
    x = (x * 0.5).add(C25(0.5)(x))
    x = torch.tanh(x)
    return x


@_Ctx("f23.deco0")
def f23(x):
    if x.dim() == 3:
        return torch.tanh(x)
    if x.sum() > 0:
        LOG.append(x * 0.5)
    else:
        l17 = [x * 0.5, f24(x), x]
        x = l17[0] + l17[1] - l17[2] * 0.25
        x = torch.sin(x)
        _effect("f23.19", torch.is_grad_enabled())
    STATE.calls = STATE.calls + 1
    x = x + STATE.calls * 0.01
    x = torch.clamp(x, -2.0, 2.0)
    return x


def f22(x):
    global COUNTER
    x = torch.relu(x) - 0.5
    COUNTER = COUNTER + 1
    if COUNTER % 2 == 1:
        l24 = [x * 0.5, f23(x), x]
        x = l24[0] + l24[1] - l24[2] * 0.25
        x = torch.tanh(x)
        _effect("f22.26", torch.is_grad_enabled())
    else:
        class Local27:
            scale = 0.5
        
            def apply(self, v):
                return v * self.scale
        x = Local27().apply(x) + 0.25
    return x


def f21(x):
    x = x * 2.0
    x = torch.add(**{"input": x * 0.5, "other": f22(x)})
    x = torch.sigmoid(x)
    return x


def f20(x, cm):
    global COUNTER
    COUNTER = COUNTER + 1
    if COUNTER % 2 == 1:
        box32 = []
        s32 = f"f20.32:{x.shape[0]}:{_keep(box32, f21(x))}"
        _effect("f20.32", s32)
        x = box32[0]
    else:
        o33 = _SupSetBefore("f20.33")
        o33.v = x
        p33 = _SupSetAfter("f20.33")
        p33.v = o33.v
        x = p33.v
    if x.dim() == 3:
        return torch.tanh(x)
    torch._dynamo.step_unsupported()
    with cm:
        _effect("f20.37", torch.is_grad_enabled())
        x = torch.relu(x) - 0.5
    x = torch.cos(x)
    return x


def f19(x, cm):
    cm40 = torch.no_grad()
    flag40 = x.dim() == 2
    x = f20(x, cm40) if flag40 else x - 0.5
    torch._dynamo.step_unsupported()
    with cm:
        _effect("f19.43", torch.is_grad_enabled())
        x = x + T_MAIN
    x = torch.sin(x)
    return x


def f18(x):
    with torch.set_grad_enabled(False):
        cm47 = torch.no_grad()
        flag47 = x.dim() == 2
        x = f19(x, cm47) if flag47 else x - 0.5
    x = x + 0.25
    x = torch.tanh(x)
    return x


def f17(x):
    if x.dim() == 2:
        return torch.tanh(x)
    c51 = _SupChild(x)
    x = c51.scale(c51.half)
    with torch.autocast("cpu", dtype=torch.bfloat16):
        x = f18(x)
    x = torch.sigmoid(x)
    return x


@torch.no_grad()
@_Ctx("f16.deco1")
def f16(x):
    t55 = (x, f17(x))
    x = t55[0] * 0.5 + t55[1]
    x = torch.clamp(x, -3.0, 3.0)
    return x


def f15(x):
    x = f16(x)
    x = torch.sigmoid(x)
    _effect("f15.59", x)
    return x


def f14(x):
    acc60 = x * 0.5
    def inner60(x):
        nonlocal acc60
        x = torch.add(x * 0.5, f15(x))
        x = torch.cos(x)
        x = x + T_MAIN
        acc60 = acc60 * 0.5 + x * 0.25
        return x
    x = inner60(x) * 0.5 + acc60 * 0.5
    return x


def f13(x):
    def gen64(x):
        v65 = [f14(x + c65) for c65 in (0.0, 0.5)]
        x = v65[0] * 0.5 + v65[1] * 0.5
        x = torch.cos(x)
        yield x
        return x * 0.5
    g64 = gen64(x)
    first64 = next(g64)
    try:
        next(g64)
    except StopIteration as stop64:
        x = first64 * 0.5 + stop64.value
    return x


class C12:
    def __init__(self, scale):
        self.scale = scale

    def run(self, x):
        t67 = (x, f13(x))
        x = t67[0] * 0.5 + t67[1]
        x = torch.clamp(x, -2.0, 2.0)
        return x


def f11(**kw):
    x = kw["x"]
    x = x * 0.5 + C12(0.5).run(x)
    x = torch.clamp(x, -2.0, 2.0)
    return x


def f10(x):
    with torch.no_grad():
        d72 = {"a": x, "b": f11(x=x)}
        x = d72["a"] * 0.5 + d72["b"]
        _effect("f10.73", torch.is_grad_enabled())
    d74 = _SupDict()
    d74["f10.74"] = x
    x = d74["f10.74"] * 0.5
    return x


def f9(x):
    box75 = []
    x = (x * 0.5, x)[_keep(box75, f10(x))] + box75[0]
    _effect("f9.76", x)
    x = torch.cos(x)
    return x


def f8(x):
    x = torch.add(x * 0.5, f9(x))
    _effect("f8.79", x)
    x = torch.cos(x)
    return x


def f7(x):
    acc81 = x * 0.5
    def inner81(x):
        nonlocal acc81
        if x.sum() > 0:
            x = x * 0.5 + f8(x)
        else:
            _effect("f7.84", torch.is_grad_enabled())
        acc81 = acc81 * 0.5 + x * 0.25
        return x
    x = inner81(x) * 0.5 + acc81 * 0.5
    x = torch.tanh(x)
    return x


def f6(x):
    try:
        x = f7(x)
    finally:
        _effect("f6.86", x)
    TABLE["f6.88"] = x * 0.25
    x = torch.tanh(x)
    return x


@_Ctx("f5.deco0")
def f5(x, cm):
    if x.dim() == 2:
        return torch.tanh(x)
    x = torch.clamp(x, -2.0, 2.0)
    x = torch.add(**{"input": x * 0.5, "other": f6(x)})
    y93 = x * 1.0
    y93.ngb_note = 0.5
    x = y93 * y93.ngb_note
    with cm:
        _effect("f5.95", torch.is_grad_enabled())
        x = _MOD(x)
    return x


def f4(x):
    cm97 = _Ctx("f4.97.cm")
    a97, *r97 = [x, f5(x, cm97), x * 0.5]
    x = a97 * 0.25 + r97[0] + r97[1] * 0.25
    x = torch.tanh(x)
    x = torch.sin(x)
    return x


class C3:
    def __init__(self, scale):
        self.scale = scale

    def run(self, x):
        def gen100(x):
            x = f4(x)
            x = torch.tanh((x @ x.transpose(-1, -2)) @ x * 0.05)
            yield x
            return x * 0.5
        g100 = gen100(x)
        first100 = next(g100)
        try:
            next(g100)
        except StopIteration as stop100:
            x = first100 * 0.5 + stop100.value
        _effect("f3.103", torch.is_grad_enabled())
        return x


def f2(x):
    try:
        x = C3(0.5).run(x)
        _effect("f2.106", torch.is_grad_enabled())
        raise ValueError("ngb deliberate ngb f2.107")
    except ValueError as e104:
        _effect("f2.104", str(e104))
        _effect("f2.108", torch.is_grad_enabled())
    acc109 = torch.zeros_like(x)
    for i109, r109 in enumerate(x):
        acc109 = acc109 + r109
        x = torch.add(x * 0.5, f27(x))
        x = torch.clamp(x, -2.0, 2.0)
        _effect("f2.112", torch.is_grad_enabled())
        x = torch.tanh(x)
        if i109 >= 1:
            break
    x = x * 0.5 + acc109 * 0.125
    return x


def f1(x, n):
    with torch.set_grad_enabled(False):
        x = f2(x)
        _effect("f1.116", torch.is_grad_enabled())
    if n > 0:
        x = f1(x, n - 1)
    _effect("f1.118", x)
    return x


def entry(x):
    global COUNTER
    COUNTER = COUNTER + 1
    if COUNTER % 2 == 1:
        x = x * G_SCALE + G_BIAS
    else:
        a121, *r121 = [x, f1(x, 2), x * 0.5]
        x = a121 * 0.25 + r121[0] + r121[1] * 0.25
    x = torch.cos(x)
    return x


def make_inputs(device):
    g = torch.Generator().manual_seed(4542)
    x = torch.randn(3, 3, generator=g)
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
