# ngb-fuzz program
# signature: mismatch:effects:length
# target: torch
# eager: returned
# compare: plain
# found-by: ngb-fuzz run --seed 12153 (program 466), reduced 156 -> 8 lines
import functools
import torch

EFFECTS = []


def entry():
    def f1():
        pass
    EFFECTS.append(((sorted(functools.partial(functools.partial(f1, a=1.0)).keywords),),))
    torch.ones(1)


# ---- ngb-fuzz standalone check (generated; do not edit below) ----
if __name__ == "__main__":
    torch._dynamo.config.nested_graph_breaks = True
    entry()
    expected, EFFECTS[:] = EFFECTS[:], []
    torch.compile(entry, backend="eager")()
    # the program's side effects (EFFECTS) differ between eager and torch.compile (mismatch:effects:length)
    print(f"eager:         {expected}\ntorch.compile: {EFFECTS}")
    same = repr(EFFECTS) == repr(expected)
    print(f"{'match' if same else 'MISMATCH'}: eager vs torch.compile(backend='eager'), torch {torch.__version__}")
    raise SystemExit(0 if same else 1)
