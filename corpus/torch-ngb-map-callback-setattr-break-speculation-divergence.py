# ngb-fuzz program
# signature: crash:SpeculationLogDivergence@torch._dynamo.symbolic_convert:next
# target: torch
# eager: returned
# found-by: ngb-fuzz run --seed 312 (program 97) on Python 3.12 + torch 2.13, reduced 204 -> 13 lines
import torch


class _C1:
    def __setattr__(self, x, y):
        torch._dynamo.graph_break()
        super()


def entry(x):
    z = x

    def f1(z):
        torch.zeros_like(z)
        _C1().v = z
    list(map(f1, (z, z * 1.0)))


def make_inputs(device):
    return (torch.randn(1, generator=torch.Generator().manual_seed(2205)).t().to(device),)


# ---- ngb-fuzz standalone check (generated; do not edit below) ----
if __name__ == "__main__":
    torch._dynamo.config.nested_graph_breaks = True
    entry(*make_inputs("cpu"))  # eager returns
    try:  # torch.compile raised SpeculationLogDivergence (in torch._dynamo.symbolic_convert.next)
        torch.compile(entry, backend="eager")(*make_inputs("cpu"))
    except Exception:
        print(f"MISMATCH: eager returns, torch.compile(backend='eager') raises, torch {torch.__version__}")
        raise
    print(f"match: eager vs torch.compile(backend='eager'), torch {torch.__version__}")
