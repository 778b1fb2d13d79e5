# ngb-fuzz program
# truth table: loads under eager (twice) but not under the target: the third load in one worker fails
import torch

EFFECTS = []


def _effect(tag, value):
    if isinstance(value, torch.Tensor):
        value = value.detach().clone()
    EFFECTS.append((tag, value))


def compiled():
    # True only while torch.compile traces: a genuine, deterministic eager/compiled difference
    return torch.compiler.is_compiling()


import builtins

# Models a program that a target interpreter cannot load; counted per worker process, which runs eager, eager,
# then the target for one check.
builtins._ngb_truth_loads = getattr(builtins, "_ngb_truth_loads", 0) + 1
if builtins._ngb_truth_loads % 3 == 0:
    raise ImportError("third load")


def entry(x):
    return x + 1


def make_inputs(device):
    g = torch.Generator().manual_seed(0)
    return (torch.randn(3, generator=g).to(device),)
