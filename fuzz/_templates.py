"""The source templates of the renderer: one per IR construct, plus the program preamble.

Everything here is text with ``str.format`` fields; :mod:`fuzz.render` decides which template a record uses and
fills in names, constants and unique suffixes.
"""

from __future__ import annotations

IND = "    "

# op name -> (template over x, the module's globals and a constant c; is it a squash that bounds |x| <= 1..3)
ARITH: dict[str, str] = {
    "add": "x = x + {c}",
    "sub": "x = x - {c}",
    "mul": "x = x * {c}",
    "affine": "x = x * {c} - 0.25",
    "sin": "x = torch.sin(x)",
    "cos": "x = torch.cos(x)",
    "tanh": "x = torch.tanh(x)",
    "sigmoid": "x = torch.sigmoid(x)",
    "relu": "x = torch.relu(x) - 0.5",
    "abs": "x = x.abs() * 0.5",
    "clamp": "x = torch.clamp(x, -{c}, {c})",
    "square": "x = x * x * 0.25",
    "mean": "x = x - x.mean()",
    "rowsum": "x = x * 0.5 + x.sum(dim=-1, keepdim=True) * 0.1",
    "matmul": "x = torch.tanh((x @ x.transpose(-1, -2)) @ x * 0.05)",
    "global_affine": "x = x * G_SCALE + G_BIAS",
    "global_tensor": "x = x + {tensor_global}",
}
# rank-1 replacements: x @ x.transpose(-1, -2) needs two dimensions
ARITH_RANK1: dict[str, str] = {
    "matmul": "x = torch.tanh(torch.outer(x, x) @ x * 0.05)",
}
SQUASH_OPS = ("tanh", "sin", "cos", "sigmoid", "clamp", "matmul")

BREAKS: dict[str, str] = {
    "graph_break": "torch._dynamo.graph_break()",
    "step_unsupported": "torch._dynamo.step_unsupported()",
    "print": 'print("ngb {tag}")',
    "disable": "x = _ngb_disabled(x)",
    "item": "x = x * 0.5 + x.mean().item() * 0.5",
    "tolist": "x = x * 0.5 + x.new_tensor(x.mean(dim=0).tolist()) * 0.5",
    "builtin": 'x = x + (zlib.crc32(b"{tag}") % 7) * 0.01',
    "numpy": (
        "x = x * 0.5 + torch.from_numpy(np.clip(x.detach().float().cpu().numpy(), -2.0, 2.0) * 0.5)"
        ".to(x.device, x.dtype)"
    ),
    "attr_store": "y{k} = x * 1.0\ny{k}.ngb_note = 0.5\nx = y{k} * y{k}.ngb_note",
}

PROBES = {
    "grad": "torch.is_grad_enabled()",
    "autocast": 'torch.is_autocast_enabled("cpu")',
    "inference": "torch.is_inference_mode_enabled()",
}

# context-manager constructors by kind; {tag} is a unique effect tag
CTX: dict[str, str] = {
    "no_grad": "torch.no_grad()",
    "enable_grad": "torch.enable_grad()",
    "set_grad_enabled_false": "torch.set_grad_enabled(False)",
    "set_grad_enabled_true": "torch.set_grad_enabled(True)",
    "autocast": 'torch.autocast("cpu", dtype=torch.bfloat16)',
    "inference_mode": "torch.inference_mode()",
    "user_class": '_Ctx("{tag}")',
    "contextmanager": '_cm("{tag}")',
    "contextmanager_disabled": '_cm_disabled("{tag}")',
    "param": "cm",
    # decorator-only kinds
    "disable_ngb": "torch._dynamo.disable_nested_graph_breaks",
    "nonstrict": "torch._dynamo.nonstrict_trace",
}

# operand-stack contexts of a call; {call} is the call expression, {k} a unique suffix
CONTEXTS: dict[str, str] = {
    "plain": "x = {call}",
    "tuple_display": "t{k} = (x, {call})\nx = t{k}[0] * 0.5 + t{k}[1]",
    "list_display": "l{k} = [x * 0.5, {call}, x]\nx = l{k}[0] + l{k}[1] - l{k}[2] * 0.25",
    "dict_display": 'd{k} = {{"a": x, "b": {call}}}\nx = d{k}["a"] * 0.5 + d{k}["b"]',
    "binop": "x = x * 0.5 + {call}",
    "call_arg": "x = torch.add(x * 0.5, {call})",
    "method": "x = (x * 0.5).add({call})",
    "fstring": (
        'box{k} = []\ns{k} = f"{tag}:{{x.shape[0]}}:{{_keep(box{k}, {call})}}"\n'
        '_effect("{tag}", s{k})\nx = box{k}[0]'
    ),
    "subscript": "box{k} = []\nx = (x * 0.5, x)[_keep(box{k}, {call})] + box{k}[0]",
    "comprehension": "v{k} = [{call_c} for c{k} in (0.0, 0.5)]\nx = v{k}[0] * 0.5 + v{k}[1] * 0.5",
    "conditional": "flag{k} = x.dim() == {rank}\nx = {call} if flag{k} else x - 0.5",
    "unpack": "a{k}, *r{k} = [x, {call}, x * 0.5]\nx = a{k} * 0.25 + r{k}[0] + r{k}[1] * 0.25",
    "star_args": "x = torch.add(*[x * 0.5, {call}])",
    "kwargs": 'x = torch.add(**{{"input": x * 0.5, "other": {call}}})',
    "decorator": "x = {deco}({fn})(x)",
}

SIDE: dict[str, str] = {
    "list": "LOG.append(x * 0.5)",
    "dict": 'TABLE["{tag}"] = x * 0.25',
    "global": "COUNTER = COUNTER + 1\nx = x + COUNTER * 0.01",
    "attr": "STATE.calls = STATE.calls + 1\nx = x + STATE.calls * 0.01",
    "inplace_input": "x.mul_(0.5)",
    "class_init": "obj{k} = _Box(x)\nx = obj{k}.value * 0.5 + 0.1",
    "class_setattr": 'obj{k} = _Tracked("{tag}")\nobj{k}.v = x\nx = obj{k}.v * 0.5',
    "class_setitem": 'bag{k} = _Bag("{tag}")\nbag{k}["a"] = x\nx = bag{k}["a"] * 0.5',
    "class_property": "x = _Prop(x).half_value",
    "class_new": "p{k} = _Pair(x, x * 0.5)\nx = p{k}[0] * 0.5 + p{k}[1]",
    "class_str": '_effect("{tag}", str(_Named("{tag}", x)))',
    "class_local": (
        "class Local{k}:\n    scale = 0.5\n\n    def apply(self, v):\n        return v * self.scale\n"
        "x = Local{k}().apply(x) + 0.25"
    ),
    "nn_module": "x = _MOD(x)",
    "class_super": (
        "class Sub{k}(_Base):\n    def scale(self, v):\n        return super().scale(v) * 0.5\n"
        "x = Sub{k}().scale(x)"
    ),
    # zero-argument super() with graph breaks before and after it, in the methods of the preamble's _Sup*
    "super_setattr": 'o{k} = _SupSetBefore("{tag}")\no{k}.v = x\np{k} = _SupSetAfter("{tag}")\np{k}.v = o{k}.v\nx = p{k}.v',
    "super_dict": 'd{k} = _SupDict()\nd{k}["{tag}"] = x\nx = d{k}["{tag}"] * 0.5',
    "super_list": "l{k} = _SupList()\nl{k}.append(x)\nx = l{k}[0] + l{k}[1] * 0.01",
    "super_hierarchy": "c{k} = _SupChild(x)\nx = c{k}.scale(c{k}.half)",
}

PREAMBLE = '''
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
'''

PREAMBLE_NAMES = (
    "_effect", "_keep", "_ngb_disabled", "_Ctx", "_cm", "_cm_disabled", "_Box", "_Tracked", "_Bag", "_Prop",
    "_Pair", "_Named", "_Base", "_MOD", "STATE", "_SupSetBefore", "_SupSetAfter", "_SupDict", "_SupList",
    "_SupChild",
)
