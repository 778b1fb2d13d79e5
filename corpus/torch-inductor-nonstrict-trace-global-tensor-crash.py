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
    try:  # torch.compile raised InductorError (in torch._subclasses.fake_tensor.validate)
        torch.compile(mod.entry, backend="inductor")(*mod.make_inputs("cpu"))
    except Exception:
        print(f"MISMATCH: eager returns, torch.compile(backend='inductor') raises, torch {torch.__version__}")
        raise
    print(f"match: eager vs torch.compile(backend='inductor'), torch {torch.__version__}")
