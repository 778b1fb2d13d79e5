# ngb-fuzz program
# signature: crash:InductorError@torch._subclasses.fake_tensor:validate
# target: torch:backend=inductor
# eager: returned
# found-by: ngb-fuzz run --seed 21 (program 304) on torch 2.11 CUDA (inductor); reduced by ngb-fuzz reduce, then the
#   list comprehension around the call dropped by hand (the reducer cannot inline a comprehension)
import torch

EFFECTS = []
x = torch.tensor(1.0)


@torch._dynamo.nonstrict_trace
def f1(y):
    y = y + x
    return y


def entry(y):
    return f1(y)


def make_inputs(device):
    return (torch.randn(1, generator=torch.Generator().manual_seed(7207)).to(device),)


# ---- ngb-fuzz standalone check (generated; do not edit below) ----
if __name__ == "__main__":
    torch._dynamo.config.nested_graph_breaks = True
    entry(*make_inputs("cpu"))  # eager returns
    try:  # torch.compile raised InductorError (in torch._subclasses.fake_tensor.validate)
        torch.compile(entry, backend="inductor")(*make_inputs("cpu"))
    except Exception:
        print(f"MISMATCH: eager returns, torch.compile(backend='inductor') raises, torch {torch.__version__}")
        raise
    print(f"match: eager vs torch.compile(backend='inductor'), torch {torch.__version__}")
