# ngb-fuzz program
# truth table: only the second compiled call raises
import torch

EFFECTS = []


def _effect(tag, value):
    if isinstance(value, torch.Tensor):
        value = value.detach().clone()
    EFFECTS.append((tag, value))


def compiled():
    # True only while torch.compile traces: a genuine, deterministic eager/compiled difference
    return torch.compiler.is_compiling()


CALLS = 0


def entry(x):
    global CALLS
    CALLS += 1
    flag = CALLS == 2 and compiled()
    x = x * 2
    torch._dynamo.graph_break()
    if flag:
        raise RuntimeError("second call")
    return x


def make_inputs(device):
    g = torch.Generator().manual_seed(0)
    return (torch.randn(3, generator=g).to(device),)
