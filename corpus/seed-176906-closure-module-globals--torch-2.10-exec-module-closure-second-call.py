# ngb-fuzz program
# signature: crash:second_call:NameError@torch._dynamo.eval_frame:compile_wrapper[other_module_globals]
# target: torch
# eager: returned
# found-by: ngb-fuzz run --seed 25210 (program 231), reduced 211 -> 22 lines
import types
import torch


def _keep(x):
    return 0


def f3():
    torch._dynamo.graph_break()


def entry():
    y.f1(torch.ones(0))


y = types.ModuleType('ngb_h1')
y.__dict__.update({'_keep': _keep})
exec('''
b = 1.0
a = 0


def f1(z):
    global a
    a = a + 1
    if not a % 2:
        def f4():
            return (z,)[_keep(f3())] + b
        z = f4()
''', y.__dict__)
y.__dict__.update({'f3': f3})


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
    def outcome(compiled):  # 'returned', or the type (a group's member types, the cause's) and message raised
        mod = program()
        fn = torch.compile(mod.entry, backend="eager") if compiled else mod.entry
        try:
            for _ in range(2):  # the second call runs the cached code
                fn()
        except Exception as e:
            members = [type(m).__name__ for m in getattr(e, "exceptions", ())]
            cause = "" if e.__cause__ is None else f" from {type(e.__cause__).__name__}"
            return f"{type(e).__name__}{members if members else ''}{cause}: {str(e)[:200]}"
        return "returned"

    expected, actual = outcome(False), outcome(True)
    # eager returned; torch.compile raised NameError (in torch._dynamo.eval_frame.compile_wrapper[other_module_globals]) on the second call
    print(f"eager:         {expected}\ntorch.compile: {actual}")
    same = actual.split(":")[0] == expected.split(":")[0]
    print(f"{'match' if same else 'MISMATCH'}: eager vs torch.compile(backend='eager'), torch {torch.__version__}")
    raise SystemExit(0 if same else 1)
