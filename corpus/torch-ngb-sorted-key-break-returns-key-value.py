# ngb-fuzz program
# signature: crash:TypeError@torch._dynamo.eval_frame:compile_wrapper
# target: torch
# eager: returned
# found-by: ngb-fuzz run --seed 0 (program 1)
import torch


def entry():
    x = torch.ones(0)
    y = {}

    def f1(z):
        y[z] = x
        return float(y[z].sum())
    x = y[sorted(range(1), key=f1)[-1]]


# ---- ngb-fuzz standalone check (generated; do not edit below) ----
if __name__ == "__main__":
    torch._dynamo.config.nested_graph_breaks = True
    entry()  # eager returns
    try:  # torch.compile raised TypeError (in torch._dynamo.eval_frame.compile_wrapper)
        torch.compile(entry, backend="eager")()
    except Exception:
        print(f"MISMATCH: eager returns, torch.compile(backend='eager') raises, torch {torch.__version__}")
        raise
    print(f"match: eager vs torch.compile(backend='eager'), torch {torch.__version__}")
