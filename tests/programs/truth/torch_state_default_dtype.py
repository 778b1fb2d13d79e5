# ngb-fuzz program
# truth table: the compiled run leaves another default dtype behind
import torch

EFFECTS = []


def _effect(tag, value):
    if isinstance(value, torch.Tensor):
        value = value.detach().clone()
    EFFECTS.append((tag, value))


def compiled():
    # True only while torch.compile traces: a genuine, deterministic eager/compiled difference
    return torch.compiler.is_compiling()


def entry(x):
    y = x + 1
    if compiled():
        torch.set_default_dtype(torch.float64)
    return y


def make_inputs(device):
    g = torch.Generator().manual_seed(0)
    return (torch.randn(3, generator=g).to(device),)
