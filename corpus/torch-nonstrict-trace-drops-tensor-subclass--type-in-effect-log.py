# ngb-fuzz program
# signature: mismatch:effects:value
# target: torch
# eager: returned
# compare: containers,objects
# found-by: ngb-fuzz run --seed 2410 (program 34), reduced 137 -> 12 lines
import torch

EFFECTS = []


class _C1(torch.Tensor):
    pass


@torch._dynamo.nonstrict_trace
def f1(y):
    return y


def entry(y):
    EFFECTS.append(((type(f1(y.as_subclass(_C1))),),))


def make_inputs(device, y=0):
    z, a = (1, 1) if y == 0 else ()
    return (torch.randn(z, a, generator=torch.Generator().manual_seed(181)).to(device),)


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
    def equal(a, b):  # same types (by name: each side has its own classes), objects by fields, NaN equal to NaN
        if type(a).__qualname__ != type(b).__qualname__:
            return False
        if isinstance(a, (list, tuple, dict)):  # a dict's items in order
            return len(a) == len(b) and all(map(equal, *((a.items(), b.items()) if isinstance(a, dict) else (a, b))))
        if isinstance(a, (type, type(equal), type(sys))):  # a class, function or module: by name
            return getattr(a, "__qualname__", a.__name__) == getattr(b, "__qualname__", b.__name__)
        if hasattr(a, "__dict__"):  # an object (an enum member too)
            return equal(vars(a), vars(b))
        return a == b or a != a and b != b

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
    same = equal(actual, expected)
    print(f"{'match' if same else 'MISMATCH'}: eager vs torch.compile(backend='eager'), torch {torch.__version__}")
    raise SystemExit(0 if same else 1)
