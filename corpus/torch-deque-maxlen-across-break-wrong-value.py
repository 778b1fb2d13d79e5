# ngb-fuzz program
# signature: mismatch:value:values
# target: torch
import collections

import torch


def entry(x):
    d = collections.deque(maxlen=3)
    for i in range(5):
        d.append(x * i)
    torch._dynamo.graph_break()
    d.appendleft(x)
    return d.popleft() + d.pop()


def make_inputs(device):
    return (torch.ones(2).to(device),)


# ---- ngb-fuzz standalone check (generated; do not edit below) ----
if __name__ == "__main__":
    torch._dynamo.config.nested_graph_breaks = True
    def equal(a, b):  # same types and shapes, tensors equal elementwise, objects by fields, NaN equal to NaN
        if isinstance(a, torch.Tensor) and isinstance(b, torch.Tensor):
            return (a.dtype, a.shape, a.requires_grad) == (b.dtype, b.shape, b.requires_grad) and bool(((a == b) | (a != a) & (b != b)).all())
        if isinstance(a, (list, tuple, dict)) and type(a) is type(b) and len(a) == len(b):
            return all(map(equal, a, b)) if not isinstance(a, dict) else all(equal(a[k], b.get(k)) for k in a)
        if hasattr(a, "__dict__") and type(a) is type(b):
            return equal(vars(a), vars(b))
        return type(a) is type(b) and (a == b or a != a and b != b)

    expected = entry(*make_inputs("cpu"))
    actual = torch.compile(entry, backend="eager")(*make_inputs("cpu"))
    # eager and torch.compile return different values (mismatch:value:values)
    print(f"eager:         {expected!r}\ntorch.compile: {actual!r}")
    same = equal(actual, expected)
    print(f"{'match' if same else 'MISMATCH'}: eager vs torch.compile(backend='eager'), torch {torch.__version__}")
    raise SystemExit(0 if same else 1)
