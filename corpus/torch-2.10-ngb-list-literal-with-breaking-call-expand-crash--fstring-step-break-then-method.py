# ngb-fuzz program
# signature: crash:third_call:AttributeError@torch._dynamo.eval_frame:compile_wrapper
# target: torch
# eager: returned
# found-by: ngb-fuzz run --seed 2610 (program 647), reduced 81 -> 9 lines
# weights: break.builtin=0.175 break.disable=0.5 break.item=0.375 break.numpy=0.125 break.print=0.25 break.step_unsupported=0.5 break.tolist=0.175 call.lambda=0.1 call.nonstrict=0.1 call.recursion=0.15 call.varargs=0.1 class.init=0.1 class.property=0.075 class.setattr=0.075 class.super=0.075 closure.nonlocal=0.6 control.for_else=0.1 control.gen_expr=0.075 control.nested_comp=0.075 control.type_alias=0.075 control.while_else=0.075 ctx.as_value=0.1 ctx.autocast=0.125 ctx.contextmanager=0.25 ctx.contextmanager_disabled=0.175 ctx.decorator=0.25 ctx.disable_ngb=0.1 ctx.enable_grad=0.25 ctx.inference_mode=0.125 ctx.no_grad=0.5 ctx.set_grad_enabled=0.5 ctx.user_class=0.25 data.abc=0.15 data.frozen_dataclass=0.075 data.init_subclass=0.075 data.post_init=0.1 data.slots_dataclass=0.075 flow.generator=0.15 flow.loop=0.2 flow.try_except=0.15 flow.try_finally=0.15 grad.backward=0.25 iter.all_genexpr=0.2 iter.any_tolist=0.15 iter.filter=0.1 iter.iter_next=0.075 iter.map=0.125 iter.max_key=0.25 iter.min_values=0.075 iter.sorted_key=0.125 iter.sum_genexpr=0.125 iter.user_protocol=0.1 iter.zip_enumerate=0.1 module.helper=0.3 nn.module=0.1 raise.deliberate=0.1 side.global=0.15 stdlib.accumulate=0.075 stdlib.chain_islice=0.075 stdlib.counter=0.075 stdlib.defaultdict=0.1 stdlib.deque=0.1 stdlib.groupby=0.075 stdlib.heapq=0.075 stdlib.lru_cache=0.1 stdlib.namedtuple=0.075 stdlib.ordered_dict=0.075 stdlib.pairwise=0.05 stdlib.partial=0.1 stdlib.random_math=0.15 stdlib.reduce=0.1 stdlib.singledispatch=0.075 stdlib.starmap_product=0.075 stdlib.wraps=0.075 strings.format=0.075 strings.fstring=0.1 strings.methods=0.1 strings.more_methods=0.05 strings.nested_spec=0.075 strings.pep701=0.075 strings.user_format=0.075 strings.user_repr=0.075
import torch


def f1():
    torch._dynamo.step_unsupported()


def entry(x):
    f'e{x.shape}:{f1()}'
    x.transpose(1, 0)


def make_inputs(device, size=0):
    z, a = (5, 4) if size == 0 else (4, 3)
    return (torch.randn(z, a, generator=torch.Generator().manual_seed(676)).to(device),)


# ---- ngb-fuzz standalone check (generated; do not edit below) ----
if __name__ == "__main__":
    import sys as _sys

    def _ngb_check():
        src = open(__file__, encoding="utf-8-sig").read().split("# ---- ngb-fuzz standalone check")[0]
        spec = next((ln[10:].strip() for ln in src.splitlines() if ln.startswith("# target: ")), "torch")
        spec = _sys.argv[1] if len(_sys.argv) > 1 else spec
        kind, opts = spec.partition(":")[0], dict(kv.split("=", 1) for kv in spec.partition(":")[2].split(",") if "=" in kv)
        name = "engine.compile" if kind in ("engine", "engine-classic") else "torch.compile"
        backend = opts.get("backend", "eager")
        torch._dynamo.config.nested_graph_breaks = opts.get("ngb", "on") == "on"

        def obs(v):
            if isinstance(v, torch.Tensor):  # a subclass by name (a Parameter is a Tensor)
                name = "Tensor" if type(v) in (torch.Tensor, torch.nn.Parameter) else type(v).__qualname__
                return (name, str(v.dtype), tuple(v.shape), v.requires_grad, v.detach().cpu().clone())
            if isinstance(v, (list, tuple)):
                return (type(v).__name__, [obs(x) for x in v])
            if isinstance(v, dict):  # Counter, OrderedDict, defaultdict keep their type's name
                return (type(v).__name__, [(obs(k), obs(x)) for k, x in v.items()])
            if isinstance(v, collections.deque):
                return ("deque", [obs(x) for x in v], v.maxlen)
            if isinstance(v, enum.Enum):
                return ("enum", type(v).__qualname__, v.name)
            plain = isinstance(v, (int, float, complex, str, bytes, type(None)))
            fields = {}  # __slots__ values (not private ones), then the __dict__
            for c in () if plain else type(v).__mro__:
                names = c.__dict__.get("__slots__", ())
                for s in [names] if isinstance(names, str) else names:
                    if not s.startswith("__") and hasattr(v, s):
                        fields[s] = getattr(v, s)
            fields.update(getattr(v, "__dict__", None) or {})
            return (type(v).__name__, v if plain else (fields or None) and obs(fields))

        def raised(e, depth=0):  # the type, with an exception group's members and the cause, recursively
            if depth > 8 or e is None:
                return None if e is None else type(e).__name__
            subs = [raised(s, depth + 1) for s in getattr(e, "exceptions", ())]
            linked = subs or e.__cause__ is not None
            return (type(e).__name__, subs, raised(e.__cause__, depth + 1)) if linked else type(e).__name__

        def data(v):
            return isinstance(v, (int, float, str, list, tuple, dict, set, collections.deque, torch.Tensor, type(None)))

        def run(compiled):  # the program above run afresh: new globals, torch's defaults (as in ngb-fuzz)
            torch.set_grad_enabled(True), torch.set_default_dtype(torch.float32)
            mod = types.ModuleType("ngb_program")
            exec(compile(src, __file__, "exec"), mod.__dict__)
            mods = [("", mod)] + [(m.__name__ + ".", m) for m in list(vars(mod).values())
                                  if isinstance(m, types.ModuleType) and m.__name__.startswith("ngb_")]
            _sys.modules.update({m.__name__: m for _, m in mods})  # importable, as a user's are (else a torch crash)
            fn = torch.compile(mod.entry, backend=backend) if compiled else mod.entry
            if compiled and name == "engine.compile":  # ngb-fuzz's own compiler (needs ngb-fuzz)
                import engine
                fn = engine.compile(mod.entry, nested=kind == "engine", backend=backend, fault=opts.get("fault"))
            calls = []
            for size in (0, 0, 1):  # the third call on inputs of other sizes (a recompile)
                log = vars(mod).get("EFFECTS", [])  # optional: a program may record no effects
                first, inputs = len(log), mod.make_inputs("cpu", size=size)
                try:
                    result = ("returned", obs(fn(*inputs)))
                except Exception as e:  # noqa: BLE001
                    result = ("raised", raised(e))
                calls.append({"result": result, "effects": obs(log[first:]), "inputs": obs(inputs),
                              "globals": {p + k: obs(v) for p, m in mods for k, v in vars(m).items()
                                          if not k.startswith("_") and k != "EFFECTS" and data(v)},
                              "grad_enabled": torch.is_grad_enabled()})
            return calls

        def same(a, b):
            if isinstance(a, torch.Tensor) and isinstance(b, torch.Tensor):
                if a.dtype != b.dtype or a.shape != b.shape:
                    return False
                if backend == "eager" or not a.is_floating_point():
                    return bool(((a == b) | (a != a) & (b != b)).all())
                half = a.dtype in (torch.float16, torch.bfloat16)
                return torch.allclose(a, b, rtol=2e-2 if half else 1e-4, atol=1e-2 if half else 1e-5, equal_nan=True)
            if isinstance(a, (list, tuple)) and isinstance(b, (list, tuple)):
                return type(a) is type(b) and len(a) == len(b) and all(map(same, a, b))
            if isinstance(a, dict) and isinstance(b, dict):
                return a.keys() == b.keys() and all(same(a[k], b[k]) for k in a)
            return a == b or (a != a and b != b)

        eager = run(False)
        try:
            compiled = run(True)
        except Exception as e:  # noqa: BLE001 - e.g. a compiler error that left torch unusable in this process
            print(f"compiled run broke the process: {type(e).__name__}: {str(e).splitlines()[0][:200]}")
            print(f"MISMATCH: eager vs {name} ({spec}), torch {torch.__version__}")
            return 1
        bad = [(i, k) for i in range(len(eager)) for k in eager[i] if not same(eager[i][k], compiled[i][k])]
        for i, k in bad:
            print(f"call {i + 1}: {k} differs\n  eager:    {eager[i][k]}\n  compiled: {compiled[i][k]}")
        print(f"{'MISMATCH' if bad else 'match'}: eager vs {name} ({spec}), torch {torch.__version__}")
        return 1 if bad else 0

    import collections
    import enum
    import types

    import torch  # a reduced program may not import it itself

    _sys.exit(_ngb_check())
