# ngb-fuzz program
# signature: mismatch:value:subclass
# target: torch
# eager: returned
# compare: tensors
# found-by: ngb-fuzz run --seed 2815 (program 37), reduced 314 -> 5 lines
# weights: break.builtin=0.35 break.disable=1 break.item=0.375 break.print=0.5 break.step_unsupported=0.5 break.tolist=0.175 call.lambda=0.1 call.nonstrict=0.1 call.recursion=0.15 call.varargs=0.2 class.init=0.1 class.property=0.15 class.setattr=0.15 class.super=0.075 control.for_else=0.1 control.gen_expr=0.075 control.nested_comp=0.075 control.while_else=0.075 ctx.as_value=0.1 ctx.autocast=0.25 ctx.contextmanager=0.25 ctx.contextmanager_disabled=0.175 ctx.decorator=0.25 ctx.disable_ngb=0.2 ctx.enable_grad=0.25 ctx.inference_mode=0.125 ctx.no_grad=0.5 ctx.user_class=0.5 data.frozen_dataclass=0.075 data.init_subclass=0.075 data.post_init=0.1 data.slots_dataclass=0.075 flow.generator=0.15 flow.loop=0.2 flow.try_except=0.15 flow.try_finally=0.3 iter.all_genexpr=0.2 iter.any_tolist=0.15 iter.filter=0.1 iter.iter_next=0.075 iter.map=0.125 iter.max_key=0.125 iter.min_values=0.075 iter.reversed_user=0.15 iter.sorted_key=0.125 iter.sum_genexpr=0.125 iter.user_protocol=0.1 iter.zip_enumerate=0.2 module.helper=0.6 nn.module=0.1 raise.deliberate=0.1 side.global=0.15 stdlib.accumulate=0.075 stdlib.chain_islice=0.075 stdlib.counter=0.075 stdlib.defaultdict=0.1 stdlib.deque=0.1 stdlib.groupby=0.075 stdlib.lru_cache=0.1 stdlib.namedtuple=0.075 stdlib.ordered_dict=0.075 stdlib.pairwise=0.05 stdlib.partial=0.1 stdlib.random_math=0.15 stdlib.reduce=0.1 stdlib.singledispatch=0.075 stdlib.starmap_product=0.075 stdlib.wraps=0.075 strings.format=0.075 strings.methods=0.1 strings.nested_spec=0.075 strings.user_format=0.075
import torch


class _C1(torch.Tensor):
    pass


def entry():
    return torch.ones(0).as_subclass(_C1).as_subclass(torch.Tensor)


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
    def equal(a, b):  # same types (by name: each side has its own classes) and shapes, tensors equal elementwise, NaN equal to NaN
        tensor = {torch.Tensor, torch.nn.Parameter}  # a Parameter counts as a plain Tensor
        if type(a).__qualname__ != type(b).__qualname__ and not {type(a), type(b)} <= tensor:
            return False
        if isinstance(a, torch.Tensor):  # each side's own subclass: as plain tensors
            a, b = a.as_subclass(torch.Tensor), b.as_subclass(torch.Tensor)
            return (a.dtype, a.shape, a.requires_grad) == (b.dtype, b.shape, b.requires_grad) and bool(((a == b) | (a != a) & (b != b)).all())
        return a == b or a != a and b != b

    mod = program()  # eager and torch.compile each run the program afresh
    expected = mod.entry()
    mod = program()
    actual = torch.compile(mod.entry, backend="eager")()
    # eager and torch.compile return different values (mismatch:value:subclass)
    print(f"eager:         {expected!r}\ntorch.compile: {actual!r}")
    same = equal(actual, expected)
    print(f"{'match' if same else 'MISMATCH'}: eager vs torch.compile(backend='eager'), torch {torch.__version__}")
    raise SystemExit(0 if same else 1)
