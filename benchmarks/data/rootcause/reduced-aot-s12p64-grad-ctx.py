# ngb-fuzz program
# signature: mismatch:effects:value
# target: torch:backend=aot_eager
# eager: returned
# found-by: ngb-fuzz run --seed 12 (program 64)
import torch

EFFECTS = []


def f1(**x):
    torch._dynamo.graph_break()
    EFFECTS.append((torch.is_grad_enabled(),))


def entry():
    x = torch.no_grad()
    f1()
    with x:
        pass


def make_inputs(device):
    return ()


# ---- ngb-fuzz standalone check (generated; do not edit below) ----
if __name__ == "__main__":
    torch._dynamo.config.nested_graph_breaks = True
    def equal(a, b):  # same types and shapes, tensors equal elementwise (NaN equal to NaN), objects by fields
        if isinstance(a, torch.Tensor) and isinstance(b, torch.Tensor):
            return (a.dtype, a.shape, a.requires_grad) == (b.dtype, b.shape, b.requires_grad) and torch.allclose(a.double(), b.double(), rtol=1e-4, atol=1e-5, equal_nan=True)
        if isinstance(a, (list, tuple, dict)) and type(a) is type(b) and len(a) == len(b):
            return all(map(equal, a, b)) if not isinstance(a, dict) else all(equal(a[k], b.get(k)) for k in a)
        if hasattr(a, "__dict__") and type(a) is type(b):
            return equal(vars(a), vars(b))
        return type(a) is type(b) and (a == b or a != a and b != b)

    entry(*make_inputs("cpu"))
    expected, EFFECTS[:] = EFFECTS[:], []
    torch.compile(entry, backend="aot_eager")(*make_inputs("cpu"))
    # the program's side effects (EFFECTS) differ between eager and torch.compile (mismatch:effects:value)
    print(f"eager:         {expected}\ntorch.compile: {EFFECTS}")
    same = equal(EFFECTS, expected)
    print(f"{'match' if same else 'MISMATCH'}: eager vs torch.compile(backend='aot_eager'), torch {torch.__version__}")
    raise SystemExit(0 if same else 1)
