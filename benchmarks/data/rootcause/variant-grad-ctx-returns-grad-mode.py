# ngb-fuzz program
# signature: mismatch:value:value
# target: torch
# found-by: hand-made variant of corpus/torch-grad-ctx-object-entered-after-break.py (symptom: the return value)
import torch

EFFECTS = []


def entry():
    cm = torch.no_grad()
    torch._dynamo.graph_break()
    with cm:
        pass
    return torch.is_grad_enabled()


def make_inputs(a):
    return ()
