# ngb-fuzz program
# signature: crash:TypeError@torch._dynamo.eval_frame:compile_wrapper
# target: torch
# eager: returned
# found-by: ngb-fuzz run --seed 12133 (program 8), reduced 361 -> 6 lines
import torch


def entry(x):
    sum(list(filter(lambda y: y.mean(), x)), x)


def make_inputs(device, x=0):
    y, z = (2, 2) if x == 0 else ()
    return (torch.randn(y, z, generator=torch.Generator().manual_seed(7934)).to(device),)


# ---- ngb-fuzz standalone check (generated; do not edit below) ----
if __name__ == "__main__":
    torch._dynamo.config.nested_graph_breaks = True
    entry(*make_inputs("cpu"))  # eager returns
    try:  # torch.compile raised TypeError (in torch._dynamo.eval_frame.compile_wrapper)
        torch.compile(entry, backend="eager")(*make_inputs("cpu"))
    except Exception:
        print(f"MISMATCH: eager returns, torch.compile(backend='eager') raises, torch {torch.__version__}")
        raise
    print(f"match: eager vs torch.compile(backend='eager'), torch {torch.__version__}")
