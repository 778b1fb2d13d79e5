# ngb-fuzz program
# signature: crash:TypeError@torch._dynamo.eval_frame:compile_wrapper
# target: torch
# eager: returned
# found-by: ngb-fuzz run --seed 0 (program 0), reduced 91 -> 4 lines
import torch


def entry():
    x = torch.ones(1)
    sum(list(filter(lambda y: y, x)), x)


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
