# ngb-fuzz program
# signature: slow:compile
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
    import os
    import signal

    class Late(BaseException):  # not an Exception: the compiler's handlers do not catch it
        pass

    def late(*_):
        raise Late

    torch.compile(lambda x: x + 1, backend='eager')(torch.ones(1))  # the compiler's one-time imports, not timed

    def cpu():  # CPU seconds of this process and the compilers it ran
        times = os.times()
        return times.user + times.system + times.children_user + times.children_system

    def timed(nested):  # CPU seconds to compile and call the program afresh, nested breaks on/off
        torch._dynamo.reset()
        torch._dynamo.config.nested_graph_breaks = nested
        mod = program()
        started = cpu()
        torch.compile(mod.entry, backend="eager")()
        return cpu() - started

    off = timed(False)
    limit = max(15.0, 10.0 * off)
    alarms = [(signal.SIGPROF, signal.ITIMER_PROF, limit),  # CPU seconds, and more on the clock
              (signal.SIGALRM, signal.ITIMER_REAL, 3.0 * limit)] if hasattr(signal, "SIGPROF") else []
    for sig, timer, seconds in alarms:
        signal.signal(sig, late)
        signal.setitimer(timer, seconds)
    try:
        on = timed(True)
    except Late:
        on = None
    for sig, timer, seconds in alarms:
        signal.setitimer(timer, 0)
    # torch.compile is 10 times as slow with nested graph breaks on as off, or more
    print(f"nested graph breaks off: {off:.1f} CPU seconds\nnested graph breaks on:  "
          + (f"{on:.1f}" if on is not None else f"no result within {limit:.0f}") + " CPU seconds")
    same = on is not None and on < limit
    print(f"{'match' if same else 'MISMATCH'}: eager vs torch.compile(backend='eager'), torch {torch.__version__}")
    raise SystemExit(0 if same else 1)
