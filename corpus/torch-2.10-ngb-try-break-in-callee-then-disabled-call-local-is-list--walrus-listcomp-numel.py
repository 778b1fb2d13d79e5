# ngb-fuzz program
# signature: crash:AttributeError@torch._dynamo.eval_frame:compile_wrapper
# target: torch
# eager: returned
# found-by: ngb-fuzz run --seed 2920 (program 39), reduced 109 -> 12 lines
import torch


def entry():
    x = torch.ones(1)

    def f1(x):
        def f2():
            try:
                torch._dynamo.graph_break()
            except:
                pass
        f2()
        return x
    [z for y in (1.0,) if (z := f1(x * y)).numel()]


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
    try:  # torch.compile raised AttributeError (in torch._dynamo.eval_frame.compile_wrapper)
        torch.compile(mod.entry, backend="eager")()
    except Exception:
        print(f"MISMATCH: eager returns, torch.compile(backend='eager') raises, torch {torch.__version__}")
        raise
    print(f"match: eager vs torch.compile(backend='eager'), torch {torch.__version__}")
