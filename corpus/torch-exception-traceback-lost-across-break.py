# ngb-fuzz program
# signature: mismatch:effects:value
# target: torch
# compare: plain
# found-by: engine conformance scenario traceback_after_break (tests/engine/test_conformance_exc.py)
import torch

EFFECTS = []


def entry(x):
    try:
        raise ValueError("a")
    except ValueError as e:
        err = e
    torch._dynamo.graph_break()
    EFFECTS.append(err.__traceback__ is None)  # eager: False
    return x + 1


def make_inputs(device):
    return (torch.ones(2, device=device),)


# ---- ngb-fuzz standalone check (generated; do not edit below) ----
if __name__ == "__main__":
    import contextlib

    torch._dynamo.config.nested_graph_breaks = True
    with contextlib.suppress(Exception):  # eager raises here too; what it leaves behind is compared
        entry(*make_inputs("cpu"))
    expected, EFFECTS[:] = EFFECTS[:], []
    with contextlib.suppress(Exception):  # eager raises here too; what it leaves behind is compared
        torch.compile(entry, backend="eager")(*make_inputs("cpu"))
    # the program's side effects (EFFECTS) differ between eager and torch.compile (mismatch:effects:value)
    print(f"eager:         {expected}\ntorch.compile: {EFFECTS}")
    same = repr(EFFECTS) == repr(expected)
    print(f"{'match' if same else 'MISMATCH'}: eager vs torch.compile(backend='eager'), torch {torch.__version__}")
    raise SystemExit(0 if same else 1)
