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
    import sys

    def program():  # the program above run afresh: each side starts from new globals (as in ngb-fuzz)
        torch.set_grad_enabled(True)  # and from torch's defaults
        torch.set_default_dtype(torch.float32)
        mod = type(sys)("ngb_program")
        source = open(__file__, encoding="utf-8-sig").read().split("# ---- ngb-fuzz standalone check")[0]
        exec(compile(source, __file__, "exec"), vars(mod))
        sys.modules[mod.__name__] = mod  # importable, as a user's module is
        return mod

    torch._dynamo.config.nested_graph_breaks = True
    mod = program()  # eager and torch.compile each run the program afresh
    mod.entry(*mod.make_inputs("cpu"))  # eager returns
    mod = program()
    try:  # torch.compile raised SpeculationLogDivergence (in torch._dynamo.symbolic_convert.next)
        torch.compile(mod.entry, backend="eager")(*mod.make_inputs("cpu"))
    except Exception:
        print(f"MISMATCH: eager returns, torch.compile(backend='eager') raises, torch {torch.__version__}")
        raise
    print(f"match: eager vs torch.compile(backend='eager'), torch {torch.__version__}")
