# ngb-fuzz program
# signature: mismatch:torch_state:grad_enabled
# target: torch:ngb=off
# found-by: ngb-fuzz run --seed 0 (program 163)
import torch
EFFECTS = []


def entry():
    cm = torch.no_grad()
    torch._dynamo.graph_break()
    with cm:
        pass


def make_inputs(a):
    return ()


# ---- ngb-fuzz standalone check (generated; do not edit below) ----
if __name__ == "__main__":
    import contextlib

    torch._dynamo.config.nested_graph_breaks = False
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
