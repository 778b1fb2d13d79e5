# ngb-fuzz program
# signature: mismatch:torch_state:grad_enabled
# target: torch
# found-by: ngb-fuzz run --seed 0 (program 64)
import torch

EFFECTS = []


def f2():
    i = torch.no_grad()
    x = f3(x, i)


def f1(x):
    x = x * 1.0 + f2()


def entry(x):
    x = x * 1.0 + f1(x)


def make_inputs(j):
    return (torch.randn(0),)


# ---- ngb-fuzz standalone check (generated; do not edit below) ----
if __name__ == "__main__":
    import contextlib
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
    with contextlib.suppress(Exception):  # eager raises here too; what it leaves behind is compared
        mod.entry(*mod.make_inputs("cpu"))
    expected = torch.is_grad_enabled()
    mod = program()  # grad mode back at the default too
    with contextlib.suppress(Exception):  # eager raises here too; what it leaves behind is compared
        torch.compile(mod.entry, backend="eager")(*mod.make_inputs("cpu"))
    actual = torch.is_grad_enabled()
    # grad mode after the call: torch.compile leaves it other than eager does
    print(f"grad enabled after the call: eager {expected}, torch.compile {actual}")
    same = actual == expected
    print(f"{'match' if same else 'MISMATCH'}: eager vs torch.compile(backend='eager'), torch {torch.__version__}")
    raise SystemExit(0 if same else 1)
