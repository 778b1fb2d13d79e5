# ngb-fuzz program
# truth table: the compiled run raises another (user) exception type
import torch

EFFECTS = []


def _effect(tag, value):
    if isinstance(value, torch.Tensor):
        value = value.detach().clone()
    EFFECTS.append((tag, value))


def compiled():
    # True only while torch.compile traces: a genuine, deterministic eager/compiled difference
    return torch.compiler.is_compiling()


def entry(x):
    flag = compiled()
    x = x + 1
    torch._dynamo.graph_break()  # the raise runs after the break, where the flag is already decided
    if flag:
        raise TypeError("boom")
    raise ValueError("boom")


def make_inputs(device):
    g = torch.Generator().manual_seed(0)
    return (torch.randn(3, generator=g).to(device),)
