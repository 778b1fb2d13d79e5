# ngb-fuzz program
# signature: crash:NameError@torch._dynamo.eval_frame:compile_wrapper[other_module_globals]
# target: torch
# eager: returned
# found-by: ngb-fuzz run --seed 21210 (program 34), reduced 213 -> 34 lines
import types
import torch


class _Suppress:
    def __enter__(self):
        pass

    def __exit__(self, x, y, z):
        return issubclass(x, LookupError)


def f1(x):
    print('n')
    return x


def f6(a):
    b = a * 1.0

    def f3(a):
        nonlocal b
        try:
            a = f1(a)
        finally:
            pass
        return a
    a = f3(a)
    return a


def entry():
    c.f4(torch.ones(1))


c = types.ModuleType('ngb_h2')
c.__dict__.update({'_Suppress': _Suppress})
exec('''
def f4(a):
    def f5():
        return a * 1.0 + f6(a)
    with _Suppress():
        a = f5()
        raise KeyError('k')
''', c.__dict__)
c.__dict__.update({'f6': f6})


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
    try:  # torch.compile raised NameError (in torch._dynamo.eval_frame.compile_wrapper[other_module_globals])
        torch.compile(mod.entry, backend="eager")()
    except Exception:
        print(f"MISMATCH: eager returns, torch.compile(backend='eager') raises, torch {torch.__version__}")
        raise
    print(f"match: eager vs torch.compile(backend='eager'), torch {torch.__version__}")
