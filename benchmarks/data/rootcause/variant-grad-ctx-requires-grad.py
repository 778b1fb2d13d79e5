# ngb-fuzz program
# signature: mismatch:value:requires_grad
# target: torch
# found-by: hand-made variant of corpus/torch-grad-ctx-object-entered-after-break.py (symptom: requires_grad)
import torch

EFFECTS = []


def entry(x):
    cm = torch.no_grad()
    torch._dynamo.graph_break()
    with cm:
        pass
    return x * 2


def make_inputs(device):
    return (torch.ones(3, requires_grad=True),)
