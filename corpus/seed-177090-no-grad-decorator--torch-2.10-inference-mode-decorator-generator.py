# ngb-fuzz program
# signature: mismatch:second_call:effects
# target: torch
# eager: returned
# found-by: ngb-fuzz run --seed 22210 (program 58), reduced 185 -> 17 lines
# weights: break.builtin=0.175 break.item=0.375 break.print=0.25 break.step_unsupported=0.5 break.tolist=0.175 call.lambda=0.1 call.nonstrict=0.2 call.recursion=0.15 class.init=0.1 class.property=0.075 class.setattr=0.075 class.super=0.075 closure.nonlocal=0.6 control.for_else=0.1 control.gen_expr=0.075 control.nested_comp=0.075 control.type_alias=0.15 control.while_else=0.075 ctx.as_value=0.1 ctx.autocast=0.25 ctx.contextmanager=0.25 ctx.contextmanager_disabled=0.175 ctx.decorator=0.25 ctx.disable_ngb=0.1 ctx.enable_grad=0.25 ctx.inference_mode=0.125 ctx.no_grad=0.5 ctx.set_grad_enabled=0.5 ctx.user_class=0.25 data.abc=0.15 data.frozen_dataclass=0.15 data.init_subclass=0.075 data.post_init=0.2 flow.generator=0.15 flow.loop=0.2 flow.try_except=0.15 flow.try_finally=0.15 iter.all_genexpr=0.2 iter.any_tolist=0.15 iter.filter=0.1 iter.iter_next=0.075 iter.map=0.125 iter.reversed_user=0.15 iter.sorted_key=0.125 iter.sum_genexpr=0.125 iter.user_protocol=0.1 iter.zip_enumerate=0.2 module.helper=0.3 nn.module=0.1 raise.deliberate=0.1 side.global=0.15 stdlib.chain_islice=0.075 stdlib.counter=0.075 stdlib.defaultdict=0.1 stdlib.deque=0.1 stdlib.groupby=0.075 stdlib.heapq=0.15 stdlib.lru_cache=0.1 stdlib.namedtuple=0.075 stdlib.ordered_dict=0.075 stdlib.pairwise=0.05 stdlib.partial=0.1 stdlib.random_math=0.15 stdlib.reduce=0.1 stdlib.singledispatch=0.075 stdlib.wraps=0.075 strings.format=0.075 strings.fstring=0.2 strings.methods=0.1 strings.more_methods=0.05 strings.nested_spec=0.075 strings.pep701=0.075 strings.user_format=0.075 strings.user_repr=0.15
import torch

EFFECTS = []
y = 0


def f1(z):
    def f2():
        EFFECTS.append((torch.is_grad_enabled(),))
        yield z.item()
    next(f2())


@torch.inference_mode()
def f3(a):
    f1(a)


def entry():
    z = torch.ones(1)
    global y
    y = y + 1
    if not y % 2:
        f3(z)


# ---- ngb-fuzz standalone check (generated; do not edit below) ----
if __name__ == "__main__":
    import collections
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
    def equal(a, b):  # same types (by name: each side has its own classes) and shapes, tensors equal elementwise, objects by fields, NaN equal to NaN
        tensor = {torch.Tensor, torch.nn.Parameter}  # a Parameter counts as a plain Tensor
        if type(a).__qualname__ != type(b).__qualname__ and not {type(a), type(b)} <= tensor:
            return False
        if isinstance(a, torch.Tensor):  # each side's own subclass: as plain tensors
            a, b = a.as_subclass(torch.Tensor), b.as_subclass(torch.Tensor)
            return (a.dtype, a.shape, a.requires_grad) == (b.dtype, b.shape, b.requires_grad) and bool(((a == b) | (a != a) & (b != b)).all())
        if isinstance(a, (set, frozenset)):  # members in no order of theirs: by their repr
            a, b = sorted(a, key=repr), sorted(b, key=repr)
        if isinstance(a, collections.deque):  # its maxlen, then its items
            a, b = (a.maxlen, *a), (b.maxlen, *b)
        if isinstance(a, (list, tuple, dict)):  # a dict's items in order
            return len(a) == len(b) and all(map(equal, *((a.items(), b.items()) if isinstance(a, dict) else (a, b))))
        if isinstance(a, (type, type(equal), type(sys))):  # a class, function or module: by name
            return getattr(a, "__qualname__", a.__name__) == getattr(b, "__qualname__", b.__name__)
        if hasattr(a, "__dict__"):  # an object (an enum member too)
            return equal(vars(a), vars(b))
        return a == b or a != a and b != b

    def second_call(compiled):  # the program run afresh, entry called twice: what the second call did
        mod = program()
        log = vars(mod).get("EFFECTS", [])
        fn = torch.compile(mod.entry, backend="eager") if compiled else mod.entry
        for _ in range(2):
            first, inputs = len(log), mod.make_inputs("cpu") if hasattr(mod, "make_inputs") else ()
            try:
                value, exception = fn(*inputs), None
            except Exception as e:
                value, exception = None, f"{type(e).__name__}: {str(e)[:200]}"
        return {"value": value, "exception": exception, "effects": log[first:],
                "torch_state": (torch.is_grad_enabled(), torch.is_inference_mode_enabled())}

    expected, actual = second_call(False)["effects"], second_call(True)["effects"]
    # eager and torch.compile differ in what the second call did (mismatch:second_call:effects)
    print(f"eager:         {expected!r}\ntorch.compile: {actual!r}")
    same = equal(actual, expected)
    print(f"{'match' if same else 'MISMATCH'}: eager vs torch.compile(backend='eager'), torch {torch.__version__}")
    raise SystemExit(0 if same else 1)
