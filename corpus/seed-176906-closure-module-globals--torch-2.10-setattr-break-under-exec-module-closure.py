# ngb-fuzz program
# signature: mismatch:exception:type
# target: torch
# eager: raised:AttributeError
# found-by: ngb-fuzz run --seed 0 (program 4), reduced 542 -> 25 lines
import types
import torch


class _SupSetBefore:
    def __setattr__(self, x, y):
        torch._dynamo.graph_break()


def entry():
    z.f1(1)


z = types.ModuleType('ngb_h1')
z.__dict__.update({'_SupSetBefore': _SupSetBefore})
exec('''
def f1(a):
    b = _SupSetBefore()
    b.v = a
    c = b

    def f2():
        nonlocal c
        f5()
    f2()
''', z.__dict__)
d = types.ModuleType('ngb_h2')
exec('''
def f5():
    return 1.0.mix()
''', d.__dict__)
z.__dict__.update({'f5': d.f5})


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
            fn()
        except Exception as e:
            members = [type(m).__name__ for m in getattr(e, "exceptions", ())]
            cause = "" if e.__cause__ is None else f" from {type(e.__cause__).__name__}"
            return f"{type(e).__name__}{members if members else ''}{cause}: {str(e)[:200]}"
        return "returned"

    expected, actual = outcome(False), outcome(True)
    # eager raised AttributeError; torch.compile raised another exception (in the compiler)
    print(f"eager:         {expected}\ntorch.compile: {actual}")
    same = actual.split(":")[0] == expected.split(":")[0]
    print(f"{'match' if same else 'MISMATCH'}: eager vs torch.compile(backend='eager'), torch {torch.__version__}")
    raise SystemExit(0 if same else 1)
