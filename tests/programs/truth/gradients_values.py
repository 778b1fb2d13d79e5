# ngb-fuzz program
# truth table: same value, other gradients: the compiled run detaches half of it
import torch

EFFECTS = []


def _effect(tag, value):
    if isinstance(value, torch.Tensor):
        value = value.detach().clone()
    EFFECTS.append((tag, value))


def compiled():
    # True only while torch.compile traces: a genuine, deterministic eager/compiled difference
    return torch.compiler.is_compiling()


WANTS_GRAD = True


def entry(x):
    if compiled():
        return x + x.detach()
    return x * 2


def make_inputs(device):
    g = torch.Generator().manual_seed(0)
    return (torch.randn(3, generator=g).to(device).requires_grad_(),)
