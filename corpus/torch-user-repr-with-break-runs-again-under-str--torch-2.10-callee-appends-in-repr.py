# ngb-fuzz program
# signature: mismatch:value:values
# target: torch
# eager: returned
# compare: tensors
# found-by: ngb-fuzz run --seed 2510 (program 99), reduced 98 -> 25 lines
import torch


class _C1:
    def __init__(self, x, y):
        self.x = x
        self.out = y

    def __repr__(self):
        self.out = self.x(self.out)
        return f'_{0})'


def f1(x):
    torch.is_inference_mode_enabled()
    return x


def f2(x):
    return torch.add(*[x, f1(x)])


def f3(z):
    def f4(z):
        a = []
        a.append(f2(z))
        return a[0]
    f1 = _C1(f4, z)
    repr(f1) + str(f1)
    z = f1.out
    return z


def entry():
    x = torch.ones(1)
    return 0 + [x, f3(x)][1]


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
    def equal(a, b):  # same types (by name: each side has its own classes) and shapes, tensors equal elementwise, NaN equal to NaN
        tensor = {torch.Tensor, torch.nn.Parameter}  # a Parameter counts as a plain Tensor
        if type(a).__qualname__ != type(b).__qualname__ and not {type(a), type(b)} <= tensor:
            return False
        if isinstance(a, torch.Tensor):  # each side's own subclass: as plain tensors
            a, b = a.as_subclass(torch.Tensor), b.as_subclass(torch.Tensor)
            return (a.dtype, a.shape, a.requires_grad) == (b.dtype, b.shape, b.requires_grad) and bool(((a == b) | (a != a) & (b != b)).all())
        return a == b or a != a and b != b

    mod = program()  # eager and torch.compile each run the program afresh
    expected = mod.entry()
    mod = program()
    actual = torch.compile(mod.entry, backend="eager")()
    # eager and torch.compile return different values (mismatch:value:values)
    print(f"eager:         {expected!r}\ntorch.compile: {actual!r}")
    same = equal(actual, expected)
    print(f"{'match' if same else 'MISMATCH'}: eager vs torch.compile(backend='eager'), torch {torch.__version__}")
    raise SystemExit(0 if same else 1)
