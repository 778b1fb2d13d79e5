# ngb-fuzz program
# signature: crash:AssertionError@torch._dynamo.guards:__init__[function_mode_stack]
# target: torch
# eager: returned
# found-by: ngb-fuzz run --seed 0 (program 1), reduced 150 -> 14 lines
import torch


class _C1(torch.overrides.TorchFunctionMode):
    def __init__(self):
        self.names = []

    def __torch_function__(self, x, types, y=(), z=None):
        self.names.append(x)
        return x(*y)


def entry(x):
    with _C1():
        torch._dynamo.graph_break()
        x + 1.0


def make_inputs(device, x=0):
    y, z = (1, 1) if x == 0 else ()
    return (torch.randn(y, z, generator=torch.Generator().manual_seed(2407)).to(device),)


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
    try:  # torch.compile raised AssertionError (in torch._dynamo.guards.__init__[function_mode_stack])
        torch.compile(mod.entry, backend="eager")(*mod.make_inputs("cpu"))
    except Exception:
        print(f"MISMATCH: eager returns, torch.compile(backend='eager') raises, torch {torch.__version__}")
        raise
    print(f"match: eager vs torch.compile(backend='eager'), torch {torch.__version__}")
