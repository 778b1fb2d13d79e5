# ngb-fuzz program
# signature: hang
# target: torch
# eager: returned
import torch


class It:
    def __init__(self, x):
        self.x = x

    def __iter__(self):
        return self

    def __next__(self):
        if self.x is None:
            raise StopIteration
        x, self.x = self.x, None
        return x.item()


def entry():
    return list(It(torch.ones(1)))


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
    import signal

    class Late(BaseException):  # not an Exception: the compiler's handlers do not catch it
        pass

    def late(*_):
        raise Late

    mod = program()  # eager and torch.compile each run the program afresh
    mod.entry()
    mod = program()
    if hasattr(signal, "SIGALRM"):
        signal.signal(signal.SIGALRM, late)
        signal.alarm(60)
    try:
        torch.compile(mod.entry, backend="eager")()
        same = True
    except Late:
        same = False
    if hasattr(signal, "SIGALRM"):
        signal.alarm(0)
    # torch.compile never returns (a hang); eager does at once
    print("eager:         returned\ntorch.compile: " + ("returned" if same else "no result after 60 s"))
    print(f"{'match' if same else 'MISMATCH'}: eager vs torch.compile(backend='eager'), torch {torch.__version__}")
    raise SystemExit(0 if same else 1)
