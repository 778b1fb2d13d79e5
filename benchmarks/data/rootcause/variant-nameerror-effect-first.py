# ngb-fuzz program
# signature: mismatch:torch_state:grad_enabled
# target: torch
# found-by: hand-made variant of corpus/torch-ngb-nested-nameerror-leaks-no-grad.py (symptom: an effect)
import torch

EFFECTS = []


def _effect(tag, value):
    EFFECTS.append((tag, value))


def f2():
    i = torch.no_grad()
    x = f3(x, i)


def f1(x):
    x = x * 1.0 + f2()


def entry(x):
    _effect("grad", torch.is_grad_enabled())
    x = x * 1.0 + f1(x)


def make_inputs(j):
    return (torch.randn(0),)
