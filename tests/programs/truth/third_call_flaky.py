# ngb-fuzz program
# truth table: eager's third call is not deterministic (its inputs of other sizes are unseeded): flaky, no finding
import torch


def entry(x):
    return x * 2


def make_inputs(device, size=0):
    g = torch.Generator().manual_seed(0)
    if size:
        return (torch.randn(2),)
    return (torch.randn(3, generator=g).to(device),)
