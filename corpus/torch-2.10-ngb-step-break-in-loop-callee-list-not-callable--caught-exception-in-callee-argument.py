# ngb-fuzz program
# signature: crash:second_call:TypeError@torch._dynamo.eval_frame:compile_wrapper
# target: torch
# eager: returned
# found-by: ngb-fuzz run --seed 2810 (program 63), reduced 152 -> 26 lines
import torch

x = 0


def _f1(y, z):
    y.append(0)
    return 0


class _C1(Exception):
    pass


def f2():
    try:
        raise _C1('i')
    except _C1 as e1:
        str(e1)


def f3(y):
    z = y
    for a in y:
        z = z + a
        b = []
        y = (y,)[_f1(b, f2())] + b[0]


def entry(a):
    global x
    x = x + 1
    if not x % 2:
        f3(a)


def make_inputs(device, y=0):
    z, a = (1, 1) if y == 0 else ()
    return (torch.randn(z, a, generator=torch.Generator().manual_seed(2065)).to(device),)


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
    def outcome(compiled):  # 'returned', or the type (a group's member types, the cause's) and message raised
        mod = program()
        fn = torch.compile(mod.entry, backend="eager") if compiled else mod.entry
        try:
            for _ in range(2):  # the second call runs the cached code
                fn(*mod.make_inputs("cpu"))
        except Exception as e:
            members = [type(m).__name__ for m in getattr(e, "exceptions", ())]
            cause = "" if e.__cause__ is None else f" from {type(e.__cause__).__name__}"
            return f"{type(e).__name__}{members if members else ''}{cause}: {str(e)[:200]}"
        return "returned"

    expected, actual = outcome(False), outcome(True)
    # eager returned; torch.compile raised TypeError (in torch._dynamo.eval_frame.compile_wrapper) on the second call
    print(f"eager:         {expected}\ntorch.compile: {actual}")
    same = actual.split(":")[0] == expected.split(":")[0]
    print(f"{'match' if same else 'MISMATCH'}: eager vs torch.compile(backend='eager'), torch {torch.__version__}")
    raise SystemExit(0 if same else 1)
