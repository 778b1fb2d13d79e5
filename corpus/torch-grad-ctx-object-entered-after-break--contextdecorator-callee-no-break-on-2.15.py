# ngb-fuzz program
# signature: mismatch:second_call:effects
# target: torch
# eager: returned
# found-by: ngb-fuzz run --seed 32258 (program 190), reduced 250 -> 24 lines
import contextlib
import torch

EFFECTS = []
y = 0


class _C1(contextlib.ContextDecorator):
    def __enter__(self):
        EFFECTS.append((torch.is_grad_enabled(),))

    def __exit__(self, *z):
        pass


@_C1()
def f1(a):
    return a


@torch.no_grad()
def f2(a):
    z = torch.enable_grad()
    if a:
        torch.add(**{'input': a, 'other': f1(a)})
    with z:
        pass


def entry():
    global y
    y = y + 1
    if not y % 2:
        f2(torch.ones(1))


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
