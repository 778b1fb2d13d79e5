# ngb-fuzz program
# signature: slow:compile
# target: torch
# eager: returned
# found-by: ngb-fuzz run --seed 27238 (program 160), reduced 240 -> 21 lines
# weights: break.builtin=0.35 break.disable=1 break.item=0.375 break.numpy=0.25 break.print=0.5 break.step_unsupported=0.5 break.tolist=0.175 call.lambda=0.1 call.nonstrict=0.2 call.recursion=0.15 class.init=0.1 class.property=0.15 class.setattr=0.15 class.super=0.075 control.for_else=0.1 control.gen_expr=0.075 control.nested_comp=0.075 control.while_else=0.075 ctx.as_value=0.1 ctx.contextmanager=0.25 ctx.contextmanager_disabled=0.175 ctx.decorator=0.25 ctx.disable_ngb=0.1 ctx.enable_grad=0.25 ctx.inference_mode=0.125 ctx.no_grad=0.5 ctx.user_class=0.25 data.frozen_dataclass=0.15 data.init_subclass=0.075 data.post_init=0.2 flow.generator=0.15 flow.loop=0.2 flow.try_except=0.15 flow.try_finally=0.3 iter.all_genexpr=0.2 iter.any_tolist=0.15 iter.filter=0.1 iter.iter_next=0.075 iter.map=0.125 iter.reversed_user=0.15 iter.sorted_key=0.125 iter.sum_genexpr=0.125 iter.user_protocol=0.1 iter.zip_enumerate=0.2 module.helper=0.6 nn.module=0.1 raise.deliberate=0.1 side.global=0.15 stdlib.accumulate=0.15 stdlib.chain_islice=0.075 stdlib.counter=0.075 stdlib.defaultdict=0.1 stdlib.deque=0.1 stdlib.groupby=0.075 stdlib.lru_cache=0.1 stdlib.namedtuple=0.075 stdlib.ordered_dict=0.075 stdlib.pairwise=0.05 stdlib.partial=0.1 stdlib.random_math=0.15 stdlib.reduce=0.1 stdlib.singledispatch=0.075 stdlib.starmap_product=0.15 stdlib.wraps=0.075 strings.format=0.075 strings.methods=0.1 strings.more_methods=0.05 strings.nested_spec=0.075 strings.pep701=0.075 strings.user_format=0.075 strings.user_repr=0.15
import torch


class _C1:
    def __init__(self, x):
        self.x = x

    def __getitem__(self, y):
        return self.x(0)

    def __iter__(self):
        return _C2(self)


class _C2:
    def __init__(self, z):
        self.z = z
        self.y = 0

    def __next__(self):
        if self.y:
            raise StopIteration
        self.y += 1
        return self.z[self]


def entry():
    def f1(a):
        torch._dynamo.graph_break()
    list(_C1(f1))


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
