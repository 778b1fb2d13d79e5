# ngb-fuzz program
# signature: mismatch:effects:value
# target: torch:ngb=off
# found-by: hand-made variant (the same program on the other NGB setting or another effect helper)
import torch

EFFECTS = []


def _effect(tag, value):
    EFFECTS.append((tag, value))


def leaf(x):
    torch._dynamo.graph_break()
    _effect("leaf.grad", torch.is_grad_enabled())
    return x + 1


@torch.inference_mode()
def f(x):
    with torch.enable_grad():
        return leaf(x)


def entry(x):
    return f(x)


def make_inputs(device):
    return (torch.ones(0),)


