# ngb-fuzz program
# signature: crash:TorchRuntimeError@torch._dynamo.exc:unimplemented
# target: torch
# eager: returned
# found-by: ngb-fuzz run --seed 0 (program 32), reduced 110 -> 16 lines
# weights: break.builtin=0.35 break.disable=1 break.item=0.375 break.numpy=0.25 break.print=0.5 break.step_unsupported=0.5 break.tolist=0.175 call.lambda=0.1 call.nonstrict=0.2 call.recursion=0.15 call.varargs=0.2 class.init=0.1 class.property=0.15 class.setattr=0.15 class.super=0.075 control.for_else=0.1 control.gen_expr=0.075 control.nested_comp=0.075 control.while_else=0.075 ctx.as_value=0.1 ctx.contextmanager=0.25 ctx.contextmanager_disabled=0.175 ctx.decorator=0.25 ctx.disable_ngb=0.1 ctx.enable_grad=0.25 ctx.inference_mode=0.125 ctx.no_grad=0.5 ctx.user_class=0.25 data.frozen_dataclass=0.15 data.init_subclass=0.075 data.post_init=0.2 flow.generator=0.15 flow.loop=0.2 flow.try_except=0.15 flow.try_finally=0.3 iter.all_genexpr=0.2 iter.any_tolist=0.15 iter.filter=0.1 iter.iter_next=0.075 iter.map=0.125 iter.reversed_user=0.15 iter.sorted_key=0.125 iter.sum_genexpr=0.125 iter.user_protocol=0.1 iter.zip_enumerate=0.2 module.helper=0.6 nn.module=0.1 raise.deliberate=0.1 side.global=0.15 stdlib.accumulate=0.15 stdlib.chain_islice=0.075 stdlib.counter=0.075 stdlib.defaultdict=0.1 stdlib.deque=0.1 stdlib.groupby=0.075 stdlib.lru_cache=0.1 stdlib.namedtuple=0.075 stdlib.ordered_dict=0.075 stdlib.pairwise=0.05 stdlib.partial=0.1 stdlib.random_math=0.15 stdlib.reduce=0.1 stdlib.singledispatch=0.075 stdlib.starmap_product=0.15 stdlib.wraps=0.075 strings.format=0.075 strings.methods=0.1 strings.more_methods=0.1 strings.nested_spec=0.075 strings.pep701=0.15 strings.user_format=0.075 strings.user_repr=0.15
import contextlib
import torch


def _f1(x, y):
    x.append(y)
    return 0


@contextlib.contextmanager
def _f2():
    yield


def f3(x):
    with _f2():
        torch._dynamo.graph_break()
    return x


def entry():
    x = torch.ones(0)
    y = []
    (x * 1.0,)[_f1(y, f3(x))] + y[0]


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
    mod = program()  # eager and torch.compile each run the program afresh
    mod.entry()  # eager returns
    mod = program()
    try:  # torch.compile raised TorchRuntimeError (in torch._dynamo.exc.unimplemented)
        torch.compile(mod.entry, backend="eager")()
    except Exception:
        print(f"MISMATCH: eager returns, torch.compile(backend='eager') raises, torch {torch.__version__}")
        raise
    print(f"match: eager vs torch.compile(backend='eager'), torch {torch.__version__}")
