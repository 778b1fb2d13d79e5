# ngb-fuzz program
# signature: crash:TypeError@torch._dynamo.external_utils:inner
# target: torch
# eager: returned
# found-by: ngb-fuzz run --seed 2510 (program 48), reduced 623 -> 15 lines
import torch


@torch._dynamo.disable_nested_graph_breaks
def f1(x):
    def f2():
        x.detach().clone()
        yield
        return x
    y = f2()
    next(y)
    try:
        next(y)
    except StopIteration as stop2:
        x = x + stop2.value


def entry():
    f1(torch.ones(1))


# ---- ngb-fuzz standalone check (generated; do not edit below) ----
if __name__ == "__main__":
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
    mod.entry()  # eager returns
    mod = program()
    try:  # torch.compile raised TypeError (in torch._dynamo.external_utils.inner)
        torch.compile(mod.entry, backend="eager")()
    except Exception:
        print(f"MISMATCH: eager returns, torch.compile(backend='eager') raises, torch {torch.__version__}")
        raise
    print(f"match: eager vs torch.compile(backend='eager'), torch {torch.__version__}")
