# ngb-fuzz program
# signature: mismatch:torch_state:grad_enabled
# target: torch
# eager: returned
# found-by: ngb-fuzz run --seed 27210 (program 68), reduced 166 -> 5 lines
import torch


def f1(x):
    torch._dynamo.graph_break()


def entry():
    torch.no_grad()(f1)(1)


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
    mod.entry()
    expected = torch.is_grad_enabled()
    mod = program()  # grad mode back at the default too
    torch.compile(mod.entry, backend="eager")()
    actual = torch.is_grad_enabled()
    # grad mode after the call: torch.compile leaves it other than eager does
    print(f"grad enabled after the call: eager {expected}, torch.compile {actual}")
    same = actual == expected
    print(f"{'match' if same else 'MISMATCH'}: eager vs torch.compile(backend='eager'), torch {torch.__version__}")
    raise SystemExit(0 if same else 1)
