# ngb-fuzz program
# truth table: a correct program with inputs of other sizes and a graph break (fault:perturb-dynamic shows on the
# third call only: its first two calls compile static graphs)
import torch

EFFECTS = []


def inner(x):
    x = torch.sin(x) * 2
    torch._dynamo.graph_break()
    EFFECTS.append(("inner", x.shape[0]))
    return x + 1


def entry(x):
    return inner(x * 0.5).sum(dim=-1)


def make_inputs(device, size=0):
    g = torch.Generator().manual_seed(0)
    rows, cols = (3, 4) if size == 0 else (2, 3)
    return (torch.randn(rows, cols, generator=g).to(device),)
