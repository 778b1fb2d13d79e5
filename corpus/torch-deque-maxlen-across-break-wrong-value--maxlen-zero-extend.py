# ngb-fuzz program
# signature: mismatch:effects:value
# target: torch
# eager: returned
# compare: plain
# found-by: ngb-fuzz run --seed 2828 (program 24), reduced 253 -> 8 lines
import collections
import torch

EFFECTS = []


def entry():
    x = collections.deque([], maxlen=0)
    torch._dynamo.graph_break()
    x.extend([torch.ones(1)])
    EFFECTS.append(((len(x),),))


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
    mod.entry()
    expected = mod.EFFECTS[first:]
    mod = program()
    first = len(mod.EFFECTS)
    torch.compile(mod.entry, backend="eager")()
    actual = mod.EFFECTS[first:]
    # the program's side effects (EFFECTS) differ between eager and torch.compile (mismatch:effects:value)
    print(f"eager:         {expected}\ntorch.compile: {actual}")
    same = repr(actual) == repr(expected)
    print(f"{'match' if same else 'MISMATCH'}: eager vs torch.compile(backend='eager'), torch {torch.__version__}")
    raise SystemExit(0 if same else 1)
