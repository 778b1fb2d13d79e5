"""The torch surface around a break: module forward (pre-)hooks, full backward hooks and tensor hooks,
``torch.autograd.Function``, activation checkpointing, higher-order ops (``torch.cond``, ``torch.func.vmap``,
``torch.func.grad``), optimizers and LR schedulers, seeded generators, a ``TorchFunctionMode`` and a tensor
subclass with ``__torch_function__``. The hole runs inside the hooked forward, the Function's forward, the
checkpointed or transformed function, the loss of an optimizer step, or under the mode.

Constructs that run autograd (``grad=True``) differentiate a fresh leaf (``x.detach().clone()``) under
``torch.enable_grad()``, so they work inside ``no_grad`` blocks, and fold gradients back into ``x`` through
``tanh`` so that a large gradient cannot blow up the values downstream. Only seeded ``torch.Generator``s draw random
numbers (never the global generator, whose stream a compiler may replace by its own).
"""

from __future__ import annotations

from fuzz.program.families._registry import Construct, Family

# No Parameter: torch 2.13's compile crashes registering a hook on a module with one created in the compiled frame
# (fixed in 2.15; reported), which would hide the rest of every program drawing a hook construct.
_HOOK_MOD = '''
class _HookMod(torch.nn.Module):
    def __init__(self, fn):
        super().__init__()
        self.fn = fn

    def forward(self, x):
        return self.fn(x * 1.0) * 0.5
'''.lstrip("\n")

_LOG_MODE = '''
class _LogMode(torch.overrides.TorchFunctionMode):
    def __init__(self):
        super().__init__()
        self.names = []

    def __torch_function__(self, func, types, args=(), kwargs=None):
        self.names.append(getattr(func, "__name__", "?"))
        return func(*args, **(kwargs or {}))
'''.lstrip("\n")

_TAGGED = '''
class _Tagged(torch.Tensor):
    seen = []

    @classmethod
    def __torch_function__(cls, func, types, args=(), kwargs=None):
        cls.seen.append(getattr(func, "__name__", "?"))
        return super().__torch_function__(func, types, args, kwargs or {})
'''.lstrip("\n")

_FORWARD_HOOKS = '''m{k} = _HookMod({hole})
def pre{k}(mod, args):
    _effect("{tag}.pre", tuple(args[0].shape))
    return (args[0] * 0.5,)
def post{k}(mod, args, out):
    _effect("{tag}.post", out.sum())
    return out + 0.25
h{k} = (m{k}.register_forward_pre_hook(pre{k}), m{k}.register_forward_hook(post{k}))
x = m{k}(x)
for r{k} in h{k}:
    r{k}.remove()
_effect("{tag}.removed", len(m{k}._forward_hooks) + len(m{k}._forward_pre_hooks))'''

_BACKWARD_HOOK = '''m{k} = _HookMod({hole})
seen{k} = []
m{k}.register_full_backward_hook(lambda mod, gin, gout: seen{k}.append(gout[0].sum()))
with torch.enable_grad():
    leaf{k} = x.detach().clone().requires_grad_()
    out{k} = m{k}(leaf{k})
    if out{k}.requires_grad:
        out{k}.sum().backward()
_effect("{tag}", (len(seen{k}), leaf{k}.grad is None))
g{k} = torch.zeros_like(x) if leaf{k}.grad is None else torch.tanh(leaf{k}.grad)
x = out{k}.detach() * 0.5 + x * 0.25 + g{k} * 0.25'''

_TENSOR_HOOK = '''with torch.enable_grad():
    leaf{k} = x.detach().clone().requires_grad_()
    y{k} = {hole}(leaf{k} * 1.0)
    if y{k}.requires_grad:
        y{k}.register_hook(lambda g: g * 0.5)
        leaf{k}.register_hook(lambda g: _effect("{tag}.leaf", g.sum()))
        (y{k} * y{k}).sum().backward()
g{k} = torch.zeros_like(x) if leaf{k}.grad is None else torch.tanh(leaf{k}.grad)
x = y{k}.detach() * 0.5 + x * 0.25 + g{k} * 0.25'''

_AUTOGRAD_FN = '''class Fn{k}(torch.autograd.Function):
    @staticmethod
    def forward(ctx, t):
        ctx.save_for_backward(t)
        return {hole}(t.clone()) * 1.0

    @staticmethod
    def backward(ctx, g):
        (t,) = ctx.saved_tensors
        return g * 0.5 + t * 0.0
with torch.enable_grad():
    leaf{k} = x.detach().clone().requires_grad_()
    out{k} = Fn{k}.apply(leaf{k})
    if out{k}.requires_grad:
        out{k}.sum().backward()
_effect("{tag}", leaf{k}.grad is None)
g{k} = torch.zeros_like(x) if leaf{k}.grad is None else leaf{k}.grad
x = out{k}.detach() * 0.5 + g{k} * 0.5'''

_CHECKPOINT = '''with torch.enable_grad():
    leaf{k} = x.detach().clone().requires_grad_()
    out{k} = torch.utils.checkpoint.checkpoint({hole}, leaf{k} * 1.0, use_reentrant=False)
    if out{k}.requires_grad:
        out{k}.sum().backward()
g{k} = torch.zeros_like(x) if leaf{k}.grad is None else torch.tanh(leaf{k}.grad)
x = out{k}.detach() * 0.5 + g{k} * 0.25'''

# torch.cond compiles its branches even under eager: a break in the hole fails that (deterministically, without
# running the hole's effects), and the fallback runs the hole plainly. Weighted low: torch.compile (2.13, 2.15) makes
# that failure a compile error the program cannot catch, one crash bucket that would hide the rest of the program.
_COND = '''def tb{k}(t):
    return {hole}(t) * 0.5
def fb{k}(t):
    return t * 0.25
try:
    y{k} = torch.cond(x.sum() > 0, tb{k}, fb{k}, (x,))
    _effect("{tag}", "cond")
except Exception:
    _effect("{tag}", "fallback")
    y{k} = tb{k}(x)
x = y{k}'''

_VMAP = '''y{k} = torch.func.vmap({hole})(torch.stack([x * 0.5, x * 0.25]))
_effect("{tag}", tuple(y{k}.shape))
x = y{k}[0] * 0.5 + y{k}[1] * 0.5'''

_FUNC_GRAD = '''def loss{k}(t):
    return ({hole}(t) * 0.5).sum()
with torch.enable_grad():
    g{k} = torch.func.grad(loss{k})(x.detach().clone())
x = x * 0.5 + torch.tanh(g{k}) * 0.25'''

_SGD = '''p{k} = torch.nn.Parameter(x.detach().clone())
opt{k} = torch.optim.SGD([p{k}], lr=0.1, momentum=0.5)
sched{k} = torch.optim.lr_scheduler.StepLR(opt{k}, step_size=1, gamma=0.5)
for s{k} in range(2):
    opt{k}.zero_grad()
    with torch.enable_grad():
        loss{k} = ({hole}(p{k} * 1.0) ** 2).mean()
        if loss{k}.requires_grad:
            loss{k}.backward()
    opt{k}.step()
    sched{k}.step()
    _effect("{tag}", (s{k}, opt{k}.param_groups[0]["lr"], p{k}.grad is None))
opt{k}.param_groups[0]["lr"] = 0.05
x = torch.tanh(p{k}.detach()) * 0.5 + x * 0.25'''

_ADAM = '''p{k} = torch.nn.Parameter(x.detach().clone())
opt{k} = torch.optim.Adam([p{k}], lr=0.05, eps=0.1)
opt{k}.zero_grad(set_to_none=True)
with torch.enable_grad():
    loss{k} = {hole}(p{k} * 0.5).square().mean()
    if loss{k}.requires_grad:
        loss{k}.backward()
opt{k}.step()
_effect("{tag}", (len(opt{k}.state), opt{k}.param_groups[0]["eps"]))
x = torch.tanh(p{k}.detach()) * 0.5 + x * 0.25'''

_GENERATOR = '''gen{k} = torch.Generator(device=x.device).manual_seed({k} + 11)
n{k} = torch.randn(x.shape, generator=gen{k}, device=x.device).to(x.dtype)
x = {hole}(x + n{k} * 0.1)
u{k} = torch.rand((), generator=gen{k}, device=x.device)
_effect("{tag}", u{k})
x = x * (0.5 + 0.25 * u{k}.to(x.dtype))'''

# `with mode:` rather than `with _LogMode() as mode:`, whose binding torch 2.13's compile loses (None; reported)
_FUNCTION_MODE = '''mode{k} = _LogMode()
with mode{k}:
    x = {hole}(x * 0.5)
_effect("{tag}", (len(mode{k}.names) > 0, "mul" in mode{k}.names))'''

# Only whether an op of its own was seen: torch 2.13/2.15's compile reads a subclass's metadata through its
# __torch_function__ at a break (size, stride, __get__ ...; reported), which the full list of names would report
# in every program drawing this construct.
_SUBCLASS = '''n{k} = len(_Tagged.seen)
y{k} = {hole}(x.as_subclass(_Tagged) * 0.5)
_effect("{tag}", (type(y{k}).__name__, "mul" in _Tagged.seen[n{k}:]))
del _Tagged.seen[n{k}:]
x = y{k}.as_subclass(torch.Tensor) * 1.0'''


def _t(kind: str, weight: float, description: str, template: str, calls: int = 1, bound=None,
       keep: tuple[str, ...] = (), defs: str = "", grad: bool = False) -> Construct:
    return Construct(
        f"torchapi.{kind}", weight, description, template, calls=calls, defs=defs, grad=grad,
        bound=bound or (lambda b, h: max(b, h)), keep_names=frozenset(keep),
    )


FAMILY = Family(
    "torchapi",
    "torch APIs around the break: hooks, autograd.Function, checkpoint, HOPs, optimizers, RNG, modes",
    (
        _t("forward_hooks", 0.4, "forward pre-hook and forward hook that log and modify, on a module running the "
           "hole", _FORWARD_HOOKS, bound=lambda b, h: 0.5 * h + 0.25, defs=_HOOK_MOD),
        _t("backward_hook", 0.3, "a full backward hook on a module running the hole, backward on a fresh leaf",
           _BACKWARD_HOOK, bound=lambda b, h: 0.5 * h + 0.25 * b + 0.25, defs=_HOOK_MOD, grad=True),
        _t("tensor_hook", 0.3, "Tensor.register_hook on the hole's result and on the leaf", _TENSOR_HOOK,
           bound=lambda b, h: 0.5 * h + 0.25 * b + 0.25, grad=True),
        _t("autograd_function", 0.4, "torch.autograd.Function whose forward runs the hole", _AUTOGRAD_FN,
           bound=lambda b, h: 0.5 * h + 0.25, grad=True),
        _t("checkpoint", 0.3, "torch.utils.checkpoint (non-reentrant) over the hole, then backward",
           _CHECKPOINT, 2, lambda b, h: 0.5 * h + 0.25, grad=True),
        _t("cond", 0.02, "torch.cond with the hole in a branch (falls back when the branch cannot be traced)",
           _COND, 2, lambda b, h: max(0.5 * h, 0.25 * b)),
        # off: a drawn body logs its values and stores them in program state, so BatchedTensors outlive the vmap
        # and eager itself cannot read them back (an invalid program, not a finding); it also often branches on
        # data or calls .item(), which vmap refuses under eager too. On again once holes can be drawn pure.
        _t("vmap", 0.0, "torch.func.vmap over the hole", _VMAP, 1, lambda b, h: h),
        _t("func_grad", 0.15, "torch.func.grad of a loss calling the hole", _FUNC_GRAD,
           bound=lambda b, h: 0.5 * b + 0.25, grad=True),
        _t("sgd", 0.4, "two SGD steps with a StepLR schedule, the hole computing the loss", _SGD, 2,
           lambda b, h: 0.5 + 0.25 * b, grad=True),
        # off: torch.compile (backend=eager) traces Adam.step into arithmetic that rounds differently from eager's
        # (1 ulp on torch 2.13), which the exact comparison of eager backends reports; for tolerant targets only
        _t("adam", 0.0, "one Adam step (large eps) with the hole computing the loss", _ADAM,
           bound=lambda b, h: 0.5 + 0.25 * b, grad=True),
        _t("generator", 0.4, "seeded torch.Generator draws before and after the hole", _GENERATOR,
           bound=lambda b, h: 0.75 * h),
        _t("function_mode", 0.3, "a TorchFunctionMode logging op names entered around the hole",
           _FUNCTION_MODE, defs=_LOG_MODE),
        _t("subclass", 0.3, "a tensor subclass with __torch_function__ flowing through the hole", _SUBCLASS,
           defs=_TAGGED),
    ),
)
