# ngb-fuzz program
# signature: mismatch:torch_state:grad_enabled
# target: torch
# found-by: hand-made variant of corpus/torch-grad-ctx-object-entered-after-break.py (symptom: an effect before the leak)
import torch

EFFECTS = []


def _effect(tag, value):
    EFFECTS.append((tag, value))


def entry():
    _effect("before", torch.is_grad_enabled())
    cm = torch.no_grad()
    torch._dynamo.graph_break()
    with cm:
        pass


def make_inputs(a):
    return ()
