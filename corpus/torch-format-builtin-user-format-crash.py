# ngb-fuzz program
# signature: crash:InternalTorchDynamoError@torch._dynamo.variables.base:as_python_constant
# target: torch
# eager: returned
# found-by: ngb-fuzz run --seed 213 (program 48), reduced 355 -> 6 lines
import torch


class _C1:
    def __format__(self, x):
        return f'<{x}:{0}>'


def entry():
    format(_C1(), 'x')


# ---- ngb-fuzz standalone check (generated; do not edit below) ----
if __name__ == "__main__":
    torch._dynamo.config.nested_graph_breaks = True
    entry()  # eager returns
    try:  # torch.compile raised InternalTorchDynamoError (in torch._dynamo.variables.base.as_python_constant)
        torch.compile(entry, backend="eager")()
    except Exception:
        print(f"MISMATCH: eager returns, torch.compile(backend='eager') raises, torch {torch.__version__}")
        raise
    print(f"match: eager vs torch.compile(backend='eager'), torch {torch.__version__}")
