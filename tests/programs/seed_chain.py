# ngb-fuzz program
# target: torch
import torch
import types

EFFECTS = []


def _effect(tag, value):
    if isinstance(value, torch.Tensor):
        value = value.detach().clone()
    EFFECTS.append((tag, value))


COUNTER = 0


def inner1(x):
    x = x + 1
    _effect("inner1", x)
    torch._dynamo.graph_break()
    return x + 2


def inner2(x):
    global COUNTER
    COUNTER += 1
    with torch.no_grad():
        x = (x * 2, inner1(x))[1]
    return x + 8


def entry(x):
    return inner2(x + 16) + 32


def make_inputs(device):
    g = torch.Generator().manual_seed(0)
    return (torch.randn(3, generator=g).to(device),)
