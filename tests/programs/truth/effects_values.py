# ngb-fuzz program
# truth table: the compiled run logs another value
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
    _effect("y", y + 1 if compiled() else y)
    return y


def make_inputs(device):
    g = torch.Generator().manual_seed(0)
    return (torch.randn(3, generator=g).to(device),)
