# ngb-fuzz program
# signature: mismatch:effects:value
# target: torch
# found-by: hand-made variant of corpus/torch-enable-grad-decorator-under-inference-mode-after-break.py (symptom: an effect)
import torch

EFFECTS = []


def _effect(tag, value):
    EFFECTS.append((tag, value))


def leaf(x):
    torch._dynamo.graph_break()
    _effect("grad", torch.is_grad_enabled())
    return x + 1


@torch.inference_mode()
def f(x):
    return torch.enable_grad()(leaf)(x)


def entry(x):
    return f(x)


def make_inputs(device):
    return (torch.ones(0),)
