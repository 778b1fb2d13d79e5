# ngb-fuzz program
# signature: crash:second_call:AttributeError@torch._dynamo.external_utils:torch_dynamo_resume
# target: torch
# eager: returned
# found-by: ngb-fuzz run --seed 23210 (program 91), reduced 951 -> 58 lines
import types
import torch

x = []


def _effect(y):
    x.append((y,))


@torch._dynamo.disable
def _ngb_disabled():
    pass


class _Slots:
    __slots__ = ()


f24 = lambda a: d.f7(a)


def f20(y):
    return g.C3(1.0)(y)


def f17(*b):
    return g.C2(1.0).f9(b[0])


def entry():
    d.f5(torch.ones(1))


d = types.ModuleType('ngb_h1')
d.__dict__.update({'_effect': _effect, '_ngb_disabled': _ngb_disabled, '_Slots': _Slots})
exec('''
import torch


def f5(y):
    f17(y)


def f22(y):
    f'f{y}:{f24(y)}'


def f7(y):
    f26(y + 1.0)


@torch._dynamo.disable_nested_graph_breaks
def f27(y):
    z = _Slots()
    try:
        z.c = 0
    except AttributeError:
        pass
    _effect(z)
    return _ngb_disabled()
''', d.__dict__)
g = types.ModuleType('ngb_h2')
exec('''
h = 0


class C2:
    def __init__(self, i):
        pass

    def f9(self, a):
        global h
        h = h + 1
        if not h % 2:
            f20(a)


class C3:
    def __init__(self, i):
        pass

    def __call__(self, a):
        return f22(a)


def f26(y):
    f27(y)
''', g.__dict__)
d.__dict__.update({'f17': f17, 'f24': f24, 'f26': g.f26})
g.__dict__.update({'f20': f20, 'f22': d.f22, 'f27': d.f27})


# ---- ngb-fuzz standalone check (generated; do not edit below) ----
if __name__ == "__main__":
    import sys

    def program():  # the program above run afresh: each side starts from new globals (as in ngb-fuzz)
        torch.set_grad_enabled(True)  # and from torch's defaults
        torch.set_default_dtype(torch.float32)
        mod = type(sys)("ngb_program")
        source = open(__file__, encoding="utf-8-sig").read().split("# ---- ngb-fuzz standalone check")[0]
        exec(compile(source, __file__, "exec"), vars(mod))
        sys.modules.update({m.__name__: m for m in [mod, *vars(mod).values()]
                            if isinstance(m, type(sys)) and m.__name__.startswith("ngb_")})
        return mod

    torch._dynamo.config.nested_graph_breaks = True
    def outcome(compiled):  # 'returned', or the type (a group's member types, the cause's) and message raised
        mod = program()
        fn = torch.compile(mod.entry, backend="eager") if compiled else mod.entry
        try:
            for _ in range(2):  # the second call runs the cached code
                fn()
        except Exception as e:
            members = [type(m).__name__ for m in getattr(e, "exceptions", ())]
            cause = "" if e.__cause__ is None else f" from {type(e.__cause__).__name__}"
            return f"{type(e).__name__}{members if members else ''}{cause}: {str(e)[:200]}"
        return "returned"

    expected, actual = outcome(False), outcome(True)
    # eager returned; torch.compile raised AttributeError (in torch._dynamo.external_utils.torch_dynamo_resume) on the second call
    print(f"eager:         {expected}\ntorch.compile: {actual}")
    same = actual.split(":")[0] == expected.split(":")[0]
    print(f"{'match' if same else 'MISMATCH'}: eager vs torch.compile(backend='eager'), torch {torch.__version__}")
    raise SystemExit(0 if same else 1)
