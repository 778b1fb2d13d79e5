# ngb-fuzz program
# signature: crash:RuntimeError@torch._functorch._aot_autograd.utils:g
# target: torch:backend=aot_eager
# found-by: ngb-fuzz run --seed 2 --bias (program 381), reduced
import torch

EFFECTS = []


class _b(torch.nn.Module):

    def __init__(self):
        super().__init__()
        self.scale = torch.nn.Parameter(torch.full((), 1.0))

    def forward(self, x):
        return x.clone() * self.scale


def f6(x):

    def c():
        torch._dynamo.step_unsupported()
        yield x
    d = list(c())


def f5(x):
    x = f6(x)


def f4(x):
    d9 = {'b': f5(x)}


def f3(x):
    e = (f4(x),)
    return x


def f2(x, n):
    x = _b()(x)
    with torch.inference_mode():
        x = x.add(f3(x))
    if n:
        x = f2(x, n - 1)
    return x


def f1(x):
    x = torch.add(**{'input': x, 'other': f2(x, 1)})


def entry(x):
    g = f'e{x}:{f1(x)}'


def make_inputs(h):
    return (torch.randn(1, generator=torch.Generator()),)


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
        fn = torch.compile(mod.entry, backend="aot_eager") if compiled else mod.entry
        try:
            fn(*mod.make_inputs("cpu"))
        except Exception as e:
            members = [type(m).__name__ for m in getattr(e, "exceptions", ())]
            cause = "" if e.__cause__ is None else f" from {type(e.__cause__).__name__}"
            return f"{type(e).__name__}{members if members else ''}{cause}: {str(e)[:200]}"
        return "returned"

    expected, actual = outcome(False), outcome(True)
    # eager (see output); torch.compile raised RuntimeError (in torch._functorch._aot_autograd.utils.g)
    print(f"eager:         {expected}\ntorch.compile: {actual}")
    same = actual.split(":")[0] == expected.split(":")[0]
    print(f"{'match' if same else 'MISMATCH'}: eager vs torch.compile(backend='aot_eager'), torch {torch.__version__}")
    raise SystemExit(0 if same else 1)
