# ngb-fuzz program
# signature: crash:SpeculationLogDivergence@torch._dynamo.symbolic_convert:next
# target: torch
# eager: returned
# found-by: ngb-fuzz run --seed 215 (program 50) on torch 2.15, reduced 123 -> 8 lines
import inspect
import torch


def entry():
    x = torch.ones(1)

    def f1(x):
        inspect.getgeneratorstate((0 for y in (1.0,)))
        return x
    max([x, x * 1.0], key=lambda z: f1(z))


# ---- ngb-fuzz standalone check (generated; do not edit below) ----
if __name__ == "__main__":
    torch._dynamo.config.nested_graph_breaks = True
    entry()  # eager returns
    try:  # torch.compile raised SpeculationLogDivergence (in torch._dynamo.symbolic_convert.next)
        torch.compile(entry, backend="eager")()
    except Exception:
        print(f"MISMATCH: eager returns, torch.compile(backend='eager') raises, torch {torch.__version__}")
        raise
    print(f"match: eager vs torch.compile(backend='eager'), torch {torch.__version__}")
