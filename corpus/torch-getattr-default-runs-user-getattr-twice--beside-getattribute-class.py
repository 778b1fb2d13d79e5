# ngb-fuzz program
# signature: crash:AssertionError@torch._dynamo.guards:__init__
# target: torch
# eager: returned
# found-by: ngb-fuzz run --seed 2513 (program 385), reduced 772 -> 17 lines
import torch


class _C1:
    def __init__(self):
        self.misses = []

    def __getattr__(self, x):
        self.misses.append(0)


class _C2:
    def __getattribute__(self, x):
        pass


def entry(x):
    y = _C1()
    _C2()
    getattr(y, 'n', 0)
    torch.add(**{'input': x, 'other': x})


def make_inputs(device, x=0):
    y, z = (3, 4) if x == 0 else ()
    return (torch.randn(y, z, generator=torch.Generator().manual_seed(8509)).to(device),)


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
    try:  # torch.compile raised AssertionError (in torch._dynamo.guards.__init__)
        torch.compile(mod.entry, backend="eager")(*mod.make_inputs("cpu"))
    except Exception:
        print(f"MISMATCH: eager returns, torch.compile(backend='eager') raises, torch {torch.__version__}")
        raise
    print(f"match: eager vs torch.compile(backend='eager'), torch {torch.__version__}")
