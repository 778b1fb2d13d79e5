# ngb-fuzz program
# signature: crash:InductorError@torch._subclasses.fake_tensor:validate
# target: torch:backend=inductor
# eager: returned
# found-by: ngb-fuzz run --seed 21 (program 304) on torch 2.11 CUDA (inductor); reduced by ngb-fuzz reduce, then the
#   list comprehension around the call dropped by hand (the reducer cannot inline a comprehension)
import torch

EFFECTS = []
x = torch.tensor(1.0)


@torch._dynamo.nonstrict_trace
def f1(y):
    y = y + x
    return y


def entry(y):
    return f1(y)


def make_inputs(device):
    return (torch.randn(1, generator=torch.Generator().manual_seed(7207)).to(device),)


# ---- ngb-fuzz standalone check (generated; do not edit below) ----
if __name__ == "__main__":
    torch._dynamo.config.nested_graph_breaks = True
    def outcome(fn):  # 'returned', or the type and message of what the call raised
        try:
            fn(*make_inputs("cpu"))
        except Exception as e:
            return f"{type(e).__name__}: {str(e)[:200]}"
        return "returned"

    expected, actual = outcome(entry), outcome(torch.compile(entry, backend="inductor"))
    # eager returned; torch.compile raised InductorError (in torch._subclasses.fake_tensor.validate)
    print(f"eager:         {expected}\ntorch.compile: {actual}")
    same = actual.split(":")[0] == expected.split(":")[0]
    print(f"{'match' if same else 'MISMATCH'}: eager vs torch.compile(backend='inductor'), torch {torch.__version__}")
    raise SystemExit(0 if same else 1)
