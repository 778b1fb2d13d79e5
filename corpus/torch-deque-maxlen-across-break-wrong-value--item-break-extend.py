# ngb-fuzz program
# signature: mismatch:value:values
# target: torch
# eager: returned
# compare: tensors
# found-by: ngb-fuzz run --seed 12153 (program 160), reduced 146 -> 10 lines
import collections
import torch


def entry():
    x = torch.ones(1)
    y = collections.deque([x], maxlen=3)
    x = x.item()
    y.append(x)
    y.appendleft(0.25)
    y.extend([x])
    return y[0] + y[1]


# ---- ngb-fuzz standalone check (generated; do not edit below) ----
if __name__ == "__main__":
    torch._dynamo.config.nested_graph_breaks = True
    def equal(a, b):  # same types and shapes, tensors equal elementwise, NaN equal to NaN
        if isinstance(a, torch.Tensor) and isinstance(b, torch.Tensor):
            return (a.dtype, a.shape, a.requires_grad) == (b.dtype, b.shape, b.requires_grad) and bool(((a == b) | (a != a) & (b != b)).all())
        return type(a) is type(b) and (a == b or a != a and b != b)

    expected = entry()
    actual = torch.compile(entry, backend="eager")()
    # eager and torch.compile return different values (mismatch:value:values)
    print(f"eager:         {expected!r}\ntorch.compile: {actual!r}")
    same = equal(actual, expected)
    print(f"{'match' if same else 'MISMATCH'}: eager vs torch.compile(backend='eager'), torch {torch.__version__}")
    raise SystemExit(0 if same else 1)
