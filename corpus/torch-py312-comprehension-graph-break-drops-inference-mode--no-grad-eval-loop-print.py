# ngb-fuzz program
# signature: mismatch:value:requires_grad
# target: torch
import torch

W = torch.ones(2, requires_grad=True)


def model(x):
    print("step")  # a graph break, as logging in a model often is
    return (x * W).sum()


def entry(x):
    with torch.no_grad():
        return [model(x * k) for k in (1.0, 2.0)]


def make_inputs(device):
    return (torch.ones(2, device=device),)


# ---- ngb-fuzz standalone check (generated; do not edit below) ----
if __name__ == "__main__":
    import collections
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
    def equal(a, b):  # same types (by name: each side has its own classes) and shapes, tensors equal elementwise, objects by fields, NaN equal to NaN
        tensor = {torch.Tensor, torch.nn.Parameter}  # a Parameter counts as a plain Tensor
        if type(a).__qualname__ != type(b).__qualname__ and not {type(a), type(b)} <= tensor:
            return False
        if isinstance(a, torch.Tensor):  # each side's own subclass: as plain tensors
            a, b = a.as_subclass(torch.Tensor), b.as_subclass(torch.Tensor)
            return (a.dtype, a.shape, a.requires_grad) == (b.dtype, b.shape, b.requires_grad) and bool(((a == b) | (a != a) & (b != b)).all())
        if isinstance(a, (set, frozenset)):  # members in no order of theirs: by their repr
            a, b = sorted(a, key=repr), sorted(b, key=repr)
        if isinstance(a, collections.deque):  # its maxlen, then its items
            a, b = (a.maxlen, *a), (b.maxlen, *b)
        if isinstance(a, (list, tuple, dict)):  # a dict's items in order
            return len(a) == len(b) and all(map(equal, *((a.items(), b.items()) if isinstance(a, dict) else (a, b))))
        if isinstance(a, (type, type(equal), type(sys))):  # a class, function or module: by name
            return getattr(a, "__qualname__", a.__name__) == getattr(b, "__qualname__", b.__name__)
        if hasattr(a, "__dict__"):  # an object (an enum member too)
            return equal(vars(a), vars(b))
        return a == b or a != a and b != b

    mod = program()  # eager and torch.compile each run the program afresh
    expected = mod.entry(*mod.make_inputs("cpu"))
    mod = program()
    actual = torch.compile(mod.entry, backend="eager")(*mod.make_inputs("cpu"))
    # eager and torch.compile return different values (mismatch:value:requires_grad)
    print(f"eager:         {expected!r}\ntorch.compile: {actual!r}")
    same = equal(actual, expected)
    print(f"{'match' if same else 'MISMATCH'}: eager vs torch.compile(backend='eager'), torch {torch.__version__}")
    raise SystemExit(0 if same else 1)
