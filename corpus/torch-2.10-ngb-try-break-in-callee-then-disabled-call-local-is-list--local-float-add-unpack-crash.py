# ngb-fuzz program
# signature: crash:InternalTorchDynamoError@torch._dynamo.variables.constant:unpack_var_sequence
# target: torch
# eager: returned
# found-by: ngb-fuzz run --seed 2920 (program 322), reduced 253 -> 13 lines
import torch


def entry(x):
    y = 1
    y = y + x * 1.0

    def f1():
        try:
            torch._dynamo.graph_break()
        except:
            pass
    f1()
    y + 1.0


def make_inputs(device):
    return (torch.randn((), generator=torch.Generator().manual_seed(918)).to(device),)


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
    try:  # torch.compile raised InternalTorchDynamoError (in torch._dynamo.variables.constant.unpack_var_sequence)
        torch.compile(mod.entry, backend="eager")(*mod.make_inputs("cpu"))
    except Exception:
        print(f"MISMATCH: eager returns, torch.compile(backend='eager') raises, torch {torch.__version__}")
        raise
    print(f"match: eager vs torch.compile(backend='eager'), torch {torch.__version__}")
