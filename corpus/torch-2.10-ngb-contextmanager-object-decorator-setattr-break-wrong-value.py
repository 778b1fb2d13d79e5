# ngb-fuzz program
# signature: crash:second_call:AttributeError@torch._dynamo.eval_frame:compile_wrapper
# target: torch
# eager: returned
# found-by: ngb-fuzz run --seed 25210 (program 280), reduced 133 -> 23 lines
# weights: break.builtin=0.175 break.disable=0.5 break.item=0.375 break.numpy=0.125 break.print=0.25 break.step_unsupported=0.5 break.tolist=0.175 call.lambda=0.1 call.nonstrict=0.2 call.recursion=0.15 call.varargs=0.2 class.init=0.1 class.property=0.075 class.setattr=0.075 class.super=0.075 closure.nonlocal=0.6 control.for_else=0.1 control.gen_expr=0.075 control.nested_comp=0.075 control.type_alias=0.075 control.while_else=0.075 ctx.as_value=0.1 ctx.autocast=0.25 ctx.contextmanager=0.25 ctx.contextmanager_disabled=0.175 ctx.decorator=0.25 ctx.disable_ngb=0.1 ctx.enable_grad=0.25 ctx.inference_mode=0.125 ctx.no_grad=0.5 ctx.set_grad_enabled=0.5 ctx.user_class=0.25 data.abc=0.15 data.frozen_dataclass=0.075 data.init_subclass=0.075 data.post_init=0.1 flow.generator=0.15 flow.loop=0.2 flow.try_except=0.15 flow.try_finally=0.15 iter.all_genexpr=0.2 iter.any_tolist=0.15 iter.filter=0.1 iter.iter_next=0.075 iter.map=0.125 iter.reversed_user=0.15 iter.sorted_key=0.125 iter.sum_genexpr=0.125 iter.user_protocol=0.1 iter.zip_enumerate=0.2 module.helper=0.3 nn.module=0.1 raise.deliberate=0.1 side.global=0.15 stdlib.accumulate=0.15 stdlib.chain_islice=0.075 stdlib.counter=0.075 stdlib.defaultdict=0.1 stdlib.deque=0.1 stdlib.groupby=0.075 stdlib.heapq=0.15 stdlib.lru_cache=0.1 stdlib.namedtuple=0.075 stdlib.ordered_dict=0.075 stdlib.pairwise=0.05 stdlib.partial=0.1 stdlib.random_math=0.15 stdlib.reduce=0.1 stdlib.singledispatch=0.075 stdlib.starmap_product=0.15 stdlib.wraps=0.075 strings.format=0.075 strings.fstring=0.2 strings.methods=0.1 strings.more_methods=0.05 strings.nested_spec=0.075 strings.pep701=0.075 strings.user_format=0.075 strings.user_repr=0.15
import contextlib
import torch

x = 0


@contextlib.contextmanager
def _f1():
    yield


class _C1:
    def __setattr__(self, y, z):
        torch._dynamo.graph_break()


@_f1()
def f2(y):
    _C1().v = y
    return y


def entry(a):
    a = a @ a.transpose(1, 0)
    global x
    x = x + 1
    if not x % 2:
        b = []
        b.append(f2(a))
        b[0].abs()


def make_inputs(device):
    return (torch.randn(1, 1, generator=torch.Generator().manual_seed(4561)).t().to(device).requires_grad_(),)


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
    # eager returned; torch.compile raised AttributeError (in torch._dynamo.eval_frame.compile_wrapper) on the second call
    print(f"eager:         {expected}\ntorch.compile: {actual}")
    same = actual.split(":")[0] == expected.split(":")[0]
    print(f"{'match' if same else 'MISMATCH'}: eager vs torch.compile(backend='eager'), torch {torch.__version__}")
    raise SystemExit(0 if same else 1)
