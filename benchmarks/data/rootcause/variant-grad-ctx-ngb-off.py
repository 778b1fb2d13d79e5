# ngb-fuzz program
# signature: mismatch:torch_state:grad_enabled
# target: torch:ngb=off
# found-by: hand-made variant (the same program on the other NGB setting or another effect helper)
import torch
EFFECTS = []


def entry():
    cm = torch.no_grad()
    torch._dynamo.graph_break()
    with cm:
        pass


def make_inputs(a):
    return ()


