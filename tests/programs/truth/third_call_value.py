# ngb-fuzz program
# truth table: only the third call, on inputs of other sizes, differs (compiled code sees the new size)
import torch


def compiled():
    # True only while torch.compile traces: a genuine, deterministic eager/compiled difference
    return torch.compiler.is_compiling()


def entry(x):
    x = x * 2
    if compiled() and x.shape[0] == 2:
        return x + 1
    return x


def make_inputs(device, size=0):
    g = torch.Generator().manual_seed(0)
    return (torch.randn(3 if size == 0 else 2, generator=g).to(device),)
