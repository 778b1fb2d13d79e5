# ngb-fuzz program
# signature: mismatch:effects:value
# target: torch
# eager: returned
# compare: plain
# found-by: ngb-fuzz run --seed 2920 (program 104), reduced 115 -> 19 lines
import functools
import torch

EFFECTS = []


def f1():
    def f2(y):
        @functools.wraps(y)
        def f3():
            pass
        return f3

    @f2
    def f4():
        pass
    EFFECTS.append(f4.__name__)


def entry(z):
    f1()
    (z,)[0] + 0


def make_inputs(device, z=0):
    y, a = (1, 1) if z == 0 else ()
    return (torch.randn(y, a, generator=torch.Generator().manual_seed(2218)).to(device),)


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
    first = len(mod.EFFECTS)  # what the call logs, not what loading the program did
    mod.entry(*mod.make_inputs("cpu"))
    expected = mod.EFFECTS[first:]
    mod = program()
    first = len(mod.EFFECTS)
    torch.compile(mod.entry, backend="eager")(*mod.make_inputs("cpu"))
    actual = mod.EFFECTS[first:]
    # the program's side effects (EFFECTS) differ between eager and torch.compile (mismatch:effects:value)
    print(f"eager:         {expected}\ntorch.compile: {actual}")
    same = repr(actual) == repr(expected)
    print(f"{'match' if same else 'MISMATCH'}: eager vs torch.compile(backend='eager'), torch {torch.__version__}")
    raise SystemExit(0 if same else 1)
