# ngb-fuzz program
# signature: mismatch:effects:value
# target: torch
# found-by: hand-made variant of corpus/torch-grad-ctx-object-entered-after-break.py (symptom: an effect)
import torch

EFFECTS = []


def _effect(tag, value):
    EFFECTS.append((tag, value))


def entry():
    cm = torch.no_grad()
    torch._dynamo.graph_break()
    with cm:
        pass
    _effect("after", torch.is_grad_enabled())


def make_inputs(a):
    return ()
