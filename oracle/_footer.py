"""The standalone check appended to every program file.

With it, ``python FILE [TARGET]`` needs nothing but torch: it runs the program above the marker under eager
and under ``torch.compile`` (TARGET like ``torch:ngb=off,backend=aot_eager``; default: the file's ``#
target:`` line, else ``torch``; an ``engine`` target runs ``engine.compile``, which needs ngb-fuzz), compares
return values, exceptions (by type, with an exception group's member types and the cause's), effects, globals
and grad mode over two calls (three when ``make_inputs`` takes ``size``: the third on inputs of other sizes),
each side on a fresh run of the program (a new module, torch's grad mode and default dtype at their defaults:
as the oracle runs each side), prints what differs and exits 1 on a mismatch, 0 on a match. It is a compact
version of the oracle for pasting into an issue; the oracle itself observes more (see docs/program-format.md).
"""

from __future__ import annotations

__all__ = ["standalone_footer", "with_footer"]

from oracle._checks import check_for, on_device, target_device, target_options
from oracle._programfile import FOOTER_BANNER, FOOTER_MARKER, ProgramFile, defines, imports_torch, takes_size

_FOOTER = (
    FOOTER_BANNER
    + '''
if __name__ == "__main__":
    import sys as _sys

    def _ngb_check():
        src = open(__file__, encoding="utf-8-sig").read().split("'''
    + FOOTER_MARKER
    + """")[0]
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
            for _ in range(2):
                log = vars(mod).get("EFFECTS", [])  # optional: a program may record no effects
                first, inputs = len(log), mod.make_inputs("cpu") if hasattr(mod, "make_inputs") else ()
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
        bad = [(i, k) for i in range(2) for k in eager[i] if not same(eager[i][k], compiled[i][k])]
        for i, k in bad:
            print(f"call {i + 1}: {k} differs\\n  eager:    {eager[i][k]}\\n  compiled: {compiled[i][k]}")
        print(f"{'MISMATCH' if bad else 'match'}: eager vs {name} ({spec}), torch {torch.__version__}")
        return 1 if bad else 0

    import collections
    import enum
    import types

    import torch  # a reduced program may not import it itself

    _sys.exit(_ngb_check())
"""  # noqa: E501 - the lines of the generated check, as repro files hold them
)


# What the footer becomes for a target with Dynamo's own axes (dynamic=, config=) and for a program with
# inputs of other sizes; without either it stays the text above, so older files keep their footer byte for
# byte.
_BACKEND_LINE = '        backend = opts.get("backend", "eager")\n'
_COMPILE = "torch.compile(mod.entry, backend=backend)"
_CALLS = (
    "            for _ in range(2):\n",
    '                first, inputs = len(log), mod.make_inputs("cpu")'
    ' if hasattr(mod, "make_inputs") else ()\n',
)
_RESIZED_CALLS = (
    "            for size in (0, 0, 1):  # the third call on inputs of other sizes (a recompile)\n",
    '                first, inputs = len(log), mod.make_inputs("cpu", size=size)\n',
)
_COMPARED = "for i in range(2) for k in eager[i]"


def _axes_lines() -> str:
    from oracle._configs import CONFIGS

    table = "".join(f"            {name!r}: {config.flags!r},\n" for name, config in CONFIGS.items())
    return (
        _BACKEND_LINE
        + '        dynamic = {"true": True, "false": False}.get(opts.get("dynamic"))'
        + "  # torch.compile(dynamic=)\n"
        + "        import torch._inductor.config  # noqa: F401 - config= may set Inductor flags\n\n"
        + "        configs = {  # ngb-fuzz's config=NAME sets: (module, flag, value)\n"
        + table
        + "        }\n"
        + '        for config in opts.get("config", "none").split("+"):\n'
        + "            for module, flag, value in configs.get(config, ()):\n"
        + '                setattr(getattr(torch, "_" + module).config, flag, value)\n'
    )


def _has_axes(target: str | None) -> bool:
    options = target_options(target) if target else {}
    return options.get("dynamic", "auto") != "auto" or options.get("config", "none") != "none"


def standalone_footer(target: str | None = None, resize: bool = False) -> str:
    """The footer text (starts with FOOTER_MARKER, ends with a newline). ``target``: the file's ``# target:``,
    whose ``dynamic=`` and ``config=`` the footer then sets too; ``resize``: the program's ``make_inputs``
    takes ``size``, and a third call on inputs of other sizes is compared as well."""
    text = _FOOTER
    if _has_axes(target):
        text = text.replace(_BACKEND_LINE, _axes_lines()).replace(
            _COMPILE, _COMPILE[:-1] + ", dynamic=dynamic)"
        )
    if resize:
        for old, new in zip(_CALLS, _RESIZED_CALLS):
            text = text.replace(old, new)
        text = text.replace(_COMPARED, "for i in range(len(eager)) for k in eager[i]")
    return on_device(text, target_device(target)) if target else text


def with_footer(source: str) -> str:
    """``source`` with its standalone check (if any) replaced by the current one, two blank lines above it:
    the short check for its header's ``# signature:`` on its ``# target:`` when that class has one (comparing
    as printed under ``# compare: plain``), else the generic footer."""
    pf = ProgramFile.parse(source)
    fields, code = pf.fields, pf.code  # not the old footer: the generic one makes an ngb_ module of its own
    helpers = "types.ModuleType(\"ngb_" in code or "ModuleType('ngb_" in code
    check = check_for(
        fields.get("signature"),
        fields.get("target"),
        fields.get("eager"),
        helpers=helpers,
        imports_torch=imports_torch(code),
        inputs=defines(code, "make_inputs"),
        compare=fields.get("compare"),
    ) or standalone_footer(fields.get("target"), takes_size(code))
    return pf.with_footer(check).text
