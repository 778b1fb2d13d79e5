"""The source templates of the renderer for arithmetic and probes, plus the program preamble (the constructs'
templates live with their families in :mod:`fuzz.program.families`).

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

PROBES = {
    "grad": "torch.is_grad_enabled()",
    "autocast": 'torch.is_autocast_enabled("cpu")',
    "inference": "torch.is_inference_mode_enabled()",
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
