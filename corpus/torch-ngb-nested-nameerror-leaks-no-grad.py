# ngb-fuzz program
# signature: mismatch:torch_state:grad_enabled
# target: torch
# found-by: ngb-fuzz run --seed 0 (program 64)
import torch

EFFECTS = []


def f2():
    i = torch.no_grad()
    x = f3(x, i)


def f1(x):
    x = x * 1.0 + f2()


def entry(x):
    x = x * 1.0 + f1(x)


def make_inputs(j):
    return (torch.randn(0),)


# ---- ngb-fuzz standalone check (generated; do not edit below) ----
if __name__ == "__main__":
    import contextlib

    torch._dynamo.config.nested_graph_breaks = True
    with contextlib.suppress(Exception):  # eager raises here too; what it leaves behind is compared
        entry(*make_inputs("cpu"))
    expected = torch.is_grad_enabled()
    torch.set_grad_enabled(True)  # both calls start from the default
    with contextlib.suppress(Exception):  # eager raises here too; what it leaves behind is compared
        torch.compile(entry, backend="eager")(*make_inputs("cpu"))
    actual = torch.is_grad_enabled()
    # grad mode after the call: torch.compile leaves it other than eager does
    print(f"grad enabled after the call: eager {expected}, torch.compile {actual}")
    same = actual == expected
    print(f"{'match' if same else 'MISMATCH'}: eager vs torch.compile(backend='eager'), torch {torch.__version__}")
    raise SystemExit(0 if same else 1)
