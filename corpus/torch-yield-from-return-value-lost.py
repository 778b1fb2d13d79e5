# ngb-fuzz program
# signature: mismatch:effects:type
# target: torch
# compare: plain
# found-by: tools/conformance_table.py (scenario yield_from_delegation); upstream: pytorch issue #149037 (PR #185769)
import torch

EFFECTS = []


def _effect(tag, value):
    if isinstance(value, torch.Tensor):
        value = value.detach().clone()
    EFFECTS.append((tag, value))


def inner(x):
    yield x
    return "result"


def outer(x):
    r = yield from inner(x)
    _effect("delegated", r)
    yield x * 2


def entry(x):
    return [v + 1 for v in outer(x)]


def make_inputs(device):
    g = torch.Generator().manual_seed(0)
    return (torch.randn(3, generator=g).to(device),)


# ---- ngb-fuzz standalone check (generated; do not edit below) ----
if __name__ == "__main__":
    import contextlib

    torch._dynamo.config.nested_graph_breaks = True
    with contextlib.suppress(Exception):  # eager raises here too; what it leaves behind is compared
        entry(*make_inputs("cpu"))
    expected, EFFECTS[:] = EFFECTS[:], []
    with contextlib.suppress(Exception):  # eager raises here too; what it leaves behind is compared
        torch.compile(entry, backend="eager")(*make_inputs("cpu"))
    # the program's side effects (EFFECTS) differ between eager and torch.compile (mismatch:effects:type)
    print(f"eager:         {expected}\ntorch.compile: {EFFECTS}")
    same = repr(EFFECTS) == repr(expected)
    print(f"{'match' if same else 'MISMATCH'}: eager vs torch.compile(backend='eager'), torch {torch.__version__}")
    raise SystemExit(0 if same else 1)
