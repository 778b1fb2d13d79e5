# ngb-fuzz program
# signature: mismatch:effects:value
# target: torch:ngb=off
# compare: plain
# found-by: generator (ctx.enable_grad + ctx.inference_mode), was tests/fuzz/test_torch_findings.py; reduced by ngb-fuzz reduce
import torch

EFFECTS = []


def leaf(x):
    torch._dynamo.graph_break()
    EFFECTS.append((torch.is_grad_enabled(),))
    return x + 1


@torch.inference_mode()
def f(x):
    with torch.enable_grad():
        return leaf(x)


def entry(x):
    return f(x)


def make_inputs(device):
    return (torch.ones(0),)


# ---- ngb-fuzz standalone check (generated; do not edit below) ----
if __name__ == "__main__":
    import contextlib

    torch._dynamo.config.nested_graph_breaks = False
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
