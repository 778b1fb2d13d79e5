# ngb-fuzz program
# signature: crash:UnboundLocalError@torch._dynamo.eval_frame:compile_wrapper
# target: torch
# eager: returned
# found-by: ngb-fuzz run --seed 26210 (program 421), reduced 185 -> 14 lines
import types
import torch


def entry():
    x.f1(torch.ones(0))


x = types.ModuleType('ngb_h1')
exec('''
def f1(y):
    if y.sum():
        pass
    y = y * 1.0 * 1.0
    [f2(y) for z in (1.0,)]


def f2(y):
    pass
''', x.__dict__)


# ---- ngb-fuzz standalone check (generated; do not edit below) ----
if __name__ == "__main__":
    import sys

    def program():  # the program above run afresh: each side starts from new globals (as in ngb-fuzz)
        torch.set_grad_enabled(True)  # and from torch's defaults
        torch.set_default_dtype(torch.float32)
        mod = type(sys)("ngb_program")
        source = open(__file__, encoding="utf-8-sig").read().split("# ---- ngb-fuzz standalone check")[0]
        exec(compile(source, __file__, "exec"), vars(mod))
        sys.modules.update({m.__name__: m for m in [mod, *vars(mod).values()]
                            if isinstance(m, type(sys)) and m.__name__.startswith("ngb_")})
        return mod

    torch._dynamo.config.nested_graph_breaks = True
    mod = program()  # eager and torch.compile each run the program afresh
    mod.entry()  # eager returns
    mod = program()
    try:  # torch.compile raised UnboundLocalError (in torch._dynamo.eval_frame.compile_wrapper)
        torch.compile(mod.entry, backend="eager")()
    except Exception:
        print(f"MISMATCH: eager returns, torch.compile(backend='eager') raises, torch {torch.__version__}")
        raise
    print(f"match: eager vs torch.compile(backend='eager'), torch {torch.__version__}")
