# ngb-fuzz program
# signature: mismatch:effects:value
# target: torch
# eager: returned
# compare: plain
# found-by: ngb-fuzz run --seed 27210 (program 33), reduced 203 -> 17 lines
import torch

EFFECTS = []


def f1(y):
    def f2():
        torch._dynamo.graph_break()
        EFFECTS.append((torch.is_grad_enabled(),))
        yield
    list(f2())
    return y


def f3(z):
    return torch.add(**{'input': z, 'other': f1(z)})


def entry(z):
    with torch.no_grad():
        f3(z)


def make_inputs(device, z=0):
    y, a = (5, 3) if z == 0 else ()
    return (torch.randn(y, a, generator=torch.Generator().manual_seed(7839)).to(device),)


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
