# ngb-fuzz program
# signature: mismatch:effects:value
# target: torch
# compare: plain
# found-by: engine conformance scenario generator_handled_exception_is_its_own (tests/engine/test_conformance_gens.py)
import torch

EFFECTS = []


def gen():
    try:
        raise KeyError("in generator")
    except KeyError:
        yield 1  # suspended while it handles KeyError; its caller does not


def entry(x):
    for v in gen():
        try:
            raise ValueError(v)
        except ValueError as e:
            EFFECTS.append(repr(e.__context__))  # eager: None
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
