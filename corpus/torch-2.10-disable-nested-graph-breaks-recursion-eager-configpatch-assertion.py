# ngb-fuzz program
# signature: mismatch:exception:type
# target: torch
# eager: raised:AssertionError
# found-by: ngb-fuzz run --seed 2920 (program 284), reduced 247 -> 8 lines
import torch


@torch._dynamo.disable_nested_graph_breaks
def f1(x, y):
    torch._dynamo.graph_break()
    if y:
        f1(0, y - 1)


def entry():
    f1(torch.ones(1), 1)


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
            fn()
        except Exception as e:
            members = [type(m).__name__ for m in getattr(e, "exceptions", ())]
            cause = "" if e.__cause__ is None else f" from {type(e.__cause__).__name__}"
            return f"{type(e).__name__}{members if members else ''}{cause}: {str(e)[:200]}"
        return "returned"

    expected, actual = outcome(False), outcome(True)
    # eager raised AssertionError; torch.compile raised another exception (in the compiler)
    print(f"eager:         {expected}\ntorch.compile: {actual}")
    same = actual.split(":")[0] == expected.split(":")[0]
    print(f"{'match' if same else 'MISMATCH'}: eager vs torch.compile(backend='eager'), torch {torch.__version__}")
    raise SystemExit(0 if same else 1)
