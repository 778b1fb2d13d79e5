"""The source templates of the renderer: one per IR construct, plus the program preamble.

Everything here is text with ``str.format`` fields; :mod:`fuzz.program.render` decides which template a record uses and
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
'''

PREAMBLE_NAMES = ("_effect", "_keep", "_ngb_disabled", "_Ctx", "_cm", "_cm_disabled")
