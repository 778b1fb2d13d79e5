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
    import sys

    def program():  # the program above run afresh: each side starts from new globals (as in ngb-fuzz)
        torch.set_grad_enabled(True)  # and from torch's defaults
        torch.set_default_dtype(torch.float32)
        mod = type(sys)("ngb_program")
        source = open(__file__, encoding="utf-8-sig").read().split("# ---- ngb-fuzz standalone check")[0]
        exec(compile(source, __file__, "exec"), vars(mod))
        sys.modules[mod.__name__] = mod  # importable, as a user's module is
        return mod

    torch._dynamo.config.nested_graph_breaks = True
    mod = program()  # eager and torch.compile each run the program afresh
    first = len(mod.EFFECTS)  # what the call logs, not what loading the program did
    with contextlib.suppress(Exception):  # eager raises here too; what it leaves behind is compared
        mod.entry(*mod.make_inputs("cpu"))
    expected = mod.EFFECTS[first:]
    mod = program()
    first = len(mod.EFFECTS)
    with contextlib.suppress(Exception):  # eager raises here too; what it leaves behind is compared
        torch.compile(mod.entry, backend="eager")(*mod.make_inputs("cpu"))
    actual = mod.EFFECTS[first:]
    # the program's side effects (EFFECTS) differ between eager and torch.compile (mismatch:effects:value)
    print(f"eager:         {expected}\ntorch.compile: {actual}")
    same = repr(actual) == repr(expected)
    print(f"{'match' if same else 'MISMATCH'}: eager vs torch.compile(backend='eager'), torch {torch.__version__}")
    raise SystemExit(0 if same else 1)
