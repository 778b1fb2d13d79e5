# ngb-fuzz program
# truth table: the compiled run leaves another value in a global
import torch

EFFECTS = []


def _effect(tag, value):
    if isinstance(value, torch.Tensor):
        value = value.detach().clone()
    EFFECTS.append((tag, value))


def compiled():
    # True only while torch.compile traces: a genuine, deterministic eager/compiled difference
    return torch.compiler.is_compiling()


MODE = "unset"


def entry(x):
    global MODE
    MODE = "compiled" if compiled() else "eager"
    return x + 1


def make_inputs(device):
    g = torch.Generator().manual_seed(0)
    return (torch.randn(3, generator=g).to(device),)
