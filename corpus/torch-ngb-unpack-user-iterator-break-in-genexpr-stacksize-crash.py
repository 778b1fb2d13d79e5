# ngb-fuzz program
# signature: crash:AssertionError@torch._dynamo.bytecode_analysis:stacksize_analysis
# target: torch
# eager: returned
# found-by: ngb-fuzz run --seed 3 (program 4)
import torch


class _C1:
    def __init__(self, x, y):
        self.x = x
        self.y = y

    def __len__(self):
        return len(self.y)

    def __getitem__(self, z):
        return self.x(self.y)

    def __iter__(self):
        return _C2(self)


class _C2:
    def __init__(self, a):
        self.a = a
        self.z = 0

    def __next__(self):
        if self.z >= len(self.a):
            raise StopIteration
        self.z += 1
        return self.a[1]


def entry(b):
    def f1(b):
        any((c for c in b))
    d, e = _C1(f1, [b, b])


def make_inputs(device):
    return (torch.randn(1, generator=torch.Generator().manual_seed(672)).t().to(device),)


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
    try:  # torch.compile raised AssertionError (in torch._dynamo.bytecode_analysis.stacksize_analysis)
        torch.compile(mod.entry, backend="eager")(*mod.make_inputs("cpu"))
    except Exception:
        print(f"MISMATCH: eager returns, torch.compile(backend='eager') raises, torch {torch.__version__}")
        raise
    print(f"match: eager vs torch.compile(backend='eager'), torch {torch.__version__}")
