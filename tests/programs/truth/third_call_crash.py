# ngb-fuzz program
# truth table: only the third call, on inputs of other sizes, raises, and only when compiled
import torch


def compiled():
    # True only while torch.compile traces: a genuine, deterministic eager/compiled difference
    return torch.compiler.is_compiling()


def entry(x):
    flag = compiled() and x.shape[0] == 2
    x = x * 2
    torch._dynamo.graph_break()
    if flag:
        raise RuntimeError("third call")
    return x


def make_inputs(device, size=0):
    g = torch.Generator().manual_seed(0)
    return (torch.randn(3 if size == 0 else 2, generator=g).to(device),)
