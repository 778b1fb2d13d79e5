# ngb-fuzz program
# signature: mismatch:effects:length
# target: torch:ngb=off
# eager: returned
# compare: plain
# found-by: ngb-fuzz run --seed 2410 (program 341), reduced 166 -> 15 lines
import torch

EFFECTS = []


class _C1:
    def __init__(self, y):
        self.y = y

    def __repr__(self):
        self.out = self.y(self)
        return f'_{0})'


def entry():
    torch.ones(1)

    def f1(z):
        EFFECTS.append(())
        torch._dynamo.graph_break()
    a = _C1(f1)
    repr(a) + str(a)


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

    torch._dynamo.config.nested_graph_breaks = False
    mod = program()  # eager and torch.compile each run the program afresh
    first = len(mod.EFFECTS)  # what the call logs, not what loading the program did
    mod.entry()
    expected = mod.EFFECTS[first:]
    mod = program()
    first = len(mod.EFFECTS)
    torch.compile(mod.entry, backend="eager")()
    actual = mod.EFFECTS[first:]
    # the program's side effects (EFFECTS) differ between eager and torch.compile (mismatch:effects:length)
    print(f"eager:         {expected}\ntorch.compile: {actual}")
    same = repr(actual) == repr(expected)
    print(f"{'match' if same else 'MISMATCH'}: eager vs torch.compile(backend='eager'), torch {torch.__version__}")
    raise SystemExit(0 if same else 1)
