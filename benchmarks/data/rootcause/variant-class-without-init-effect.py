# ngb-fuzz program
# signature: mismatch:value:values
# target: torch
# found-by: hand-made variant of corpus/torch-class-without-init-called-with-args-no-typeerror.py (symptom: an effect)
import torch

EFFECTS = []


class C:
    def m(self, x):
        return x + 1


def entry(x):
    try:
        return C(1.0).m(x)
    except TypeError:
        EFFECTS.append(("raised",))
        return x


def make_inputs(device):
    return (torch.ones(2).to(device),)
