# ngb-fuzz program
# truth table: only the second call differs (a recompile on the changed global)
import torch

EFFECTS = []


def _effect(tag, value):
    if isinstance(value, torch.Tensor):
        value = value.detach().clone()
    EFFECTS.append((tag, value))


def compiled():
    # True only while torch.compile traces: a genuine, deterministic eager/compiled difference
    return torch.compiler.is_compiling()


CALLS = 0


def entry(x):
    global CALLS
    CALLS += 1
    x = x * 2
    if CALLS == 2 and compiled():
        return x + 1
    return x


def make_inputs(device):
    g = torch.Generator().manual_seed(0)
    return (torch.randn(3, generator=g).to(device),)
