# ngb-fuzz program
# signature: mismatch:value:values
# target: torch
# eager: returned
# compare: scalars
# found-by: ngb-fuzz run --seed 1127 (program 67), reduced 258 -> 17 lines
import collections
import torch


def entry():
    x = 1
    global y
    y = 1

    def f1(x):
        global y
        y = y + 1
        if y % 2:
            x = x - 1.0
        return x

    def f2():
        return f1(x)
    z = collections.defaultdict(f2)
    x = z['a'] + z['a'] * 1.0
    return x


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
    def equal(a, b):  # same types, NaN equal to NaN
        return type(a) is type(b) and (a == b or a != a and b != b)

    mod = program()  # eager and torch.compile each run the program afresh
    expected = mod.entry()
    mod = program()
    actual = torch.compile(mod.entry, backend="eager")()
    # eager and torch.compile return different values (mismatch:value:values)
    print(f"eager:         {expected!r}\ntorch.compile: {actual!r}")
    same = equal(actual, expected)
    print(f"{'match' if same else 'MISMATCH'}: eager vs torch.compile(backend='eager'), torch {torch.__version__}")
    raise SystemExit(0 if same else 1)
