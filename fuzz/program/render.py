"""Render a :class:`fuzz.program.ir.Program` to the program file of ``docs/program-format.md``.

Every IR construct has one template (in :mod:`fuzz.program._templates`). Rendering is a pure function of the IR: names, effect tags and helper
counters are assigned in a fixed walk order, so the same IR gives the same bytes everywhere.
"""

from __future__ import annotations

import sys

from fuzz.program import families, ir
from fuzz.program._templates import (
    ARITH,
    ARITH_RANK1,
    IND,
    PREAMBLE,
    PREAMBLE_NAMES,
    PROBES,
    SQUASH_OPS,
)
from oracle import set_header, standalone_footer

__all__ = ["render", "ARITH", "SQUASH_OPS"]


def _signature(sig: str) -> families.Piece | None:
    """The registry's piece for signature ``sig`` (None for the plain ``f(x)``)."""
    return None if sig == "plain" else families.piece("signature", sig)


def _is_class(sig: str) -> bool:
    return sig != "plain" and "class" in families.piece("signature", sig).traits


def _ctx(kind: str, tag: str) -> str:
    return families.piece("ctx", kind).template.format(tag=tag)


def _fmt(value: float) -> str:
    return repr(float(value))


class _Scope:
    """Per-``def`` rendering state: unique counters and whether the def needs ``global COUNTER``."""

    def __init__(self, fname: str):
        self.fname = fname
        self.uses_global = False


class _Renderer:
    def __init__(self, program: ir.Program):
        self.program = program
        self.k = 0  # unique suffix across the whole program (effect tags, temporaries)
        self.modules = {m.name: m for m in program.modules}
        self.rank = program.inputs.rank
        self.arith = {**ARITH, **ARITH_RANK1} if self.rank == 1 else ARITH

    # ---- names -----------------------------------------------------------------------------------------------

    def fname(self, index: int) -> str:
        return "entry" if index == 0 else f"f{index}"

    def ref(self, caller_module: str, index: int) -> str:
        """How a function in ``caller_module`` names function ``index``."""
        fn = self.program.functions[index]
        base = f"C{index}" if _is_class(fn.signature) else self.fname(index)
        if fn.module and caller_module != fn.module and not caller_module:
            return f"ngb_{fn.module}.{base}"
        return base

    def call_expr(self, caller_module: str, index: int, arg: str, cm_var: str = "") -> str:
        fn = self.program.functions[index]
        name = self.ref(caller_module, index)
        piece = _signature(fn.signature)
        return piece.template.format(name=name, arg=arg, cm=cm_var) if piece else f"{name}({arg})"

    def next_k(self) -> int:
        self.k += 1
        return self.k

    # ---- statements ------------------------------------------------------------------------------------------

    def body(self, stmts, fn: ir.Function, scope: _Scope, depth: int) -> list[str]:
        lines: list[str] = []
        for stmt in stmts:
            lines.extend(self.stmt(stmt, fn, scope, depth))
        return lines or [IND * depth + "pass"]

    def stmt(self, s, fn: ir.Function, scope: _Scope, depth: int) -> list[str]:
        pad = IND * depth
        tag = f"{scope.fname}.{self.next_k()}"
        k = self.k

        def block(text: str) -> list[str]:
            return [pad + line for line in text.split("\n")]

        if isinstance(s, ir.Arith):
            tensor_global = f"T_{fn.module.upper()}" if fn.module else "T_MAIN"
            return block(self.arith[s.op].format(c=_fmt(s.const), tensor_global=tensor_global))
        if isinstance(s, ir.Effect):
            return block(f'_effect("{tag}", {s.what})')
        if isinstance(s, ir.Probe):
            return block(f'_effect("{tag}", {PROBES[s.kind]})')
        if isinstance(s, ir.Break):
            return block(families.piece("break", s.kind).template.format(tag=tag, k=k))
        if isinstance(s, ir.CallSite):
            return self.call_site(s, fn, tag, k, pad)
        if isinstance(s, ir.With):
            head = f"with {_ctx(s.kind, tag)}:"
            return [pad + head, *self.body(s.body, fn, scope, depth + 1)]
        if isinstance(s, ir.Construct):
            return self.construct(s, fn, scope, depth, tag, k)
        if isinstance(s, ir.Recurse):
            return [pad + "if n > 0:", pad + IND + f"x = {self.ref(fn.module, fn.index)}(x, n - 1)"]
        return self.record(s, fn, scope, depth, tag, k)

    def record(self, s, fn: ir.Function, scope: _Scope, depth: int, tag: str, k: int) -> list[str]:
        """A record of its own (a loop, a ``try``, a closure ...), printed by the registry piece that reads it."""

        def nested(stmts) -> tuple[list[str], bool]:
            inner = _Scope(scope.fname)
            return self.body(stmts, fn, inner, depth + 1), inner.uses_global

        def uses_global() -> None:
            scope.uses_global = True

        kit = families.RenderKit(IND * depth, IND, tag, k, self.rank,
                                 lambda stmts: self.body(stmts, fn, scope, depth + 1), nested, uses_global)
        return families.reader(s).render(s, kit)

    def call_site(self, s: ir.CallSite, fn: ir.Function, tag: str, k: int, pad: str) -> list[str]:
        callee = self.program.functions[s.callee]
        lines: list[str] = []
        cm_var = ""
        plainest = families.pieces("ctx")[0][1].kind  # the manager where none was drawn
        if "cm" in (_signature(callee.signature) or _PLAIN).traits:
            cm_var = f"cm{k}"
            lines.append(pad + f"{cm_var} = {_ctx(s.cm or plainest, tag + '.cm')}")
        call = self.call_expr(fn.module, s.callee, "x", cm_var)
        call_c = self.call_expr(fn.module, s.callee, f"x + c{k}", cm_var)
        deco = _ctx(s.cm or plainest, tag + ".deco")
        text = families.piece("stack", s.context).template.format(
            call=call, call_c=call_c, k=k, tag=tag, deco=deco, fn=self.ref(fn.module, s.callee), rank=self.rank
        )
        lines.extend(pad + line for line in text.split("\n"))
        return lines

    def construct(self, s: ir.Construct, fn: ir.Function, scope: _Scope, depth: int, tag: str, k: int) -> list[str]:
        """A registry construct: its hole (``def hole<k>(x)`` holding the body) just before its template."""
        c = families.construct(s.name)
        if not c.template:
            raise TypeError(f"{s.name} is made of pieces (its IR records), not an ir.Construct")
        pad = IND * depth
        lines: list[str] = []
        if c.hosts:
            inner = _Scope(scope.fname)
            body = self.body(s.body, fn, inner, depth + 1)
            decl = [pad + IND + "global COUNTER"] if inner.uses_global else []
            lines += [pad + f"def hole{k}(x):", *decl, *body, pad + IND + "return x"]
        if c.uses_global:
            scope.uses_global = True
        return lines + [pad + line for line in c.source(k, tag, f"hole{k}").split("\n")]

    # ---- functions -------------------------------------------------------------------------------------------

    def function(self, fn: ir.Function) -> list[str]:
        name = self.fname(fn.index)
        scope = _Scope(name)
        inputs = self.program.inputs
        sig = _signature(fn.signature) or _PLAIN
        if fn.index == 0:
            extras = "".join(f", e{i}" for i in range(len(inputs.extras)))
            params = f"x{extras}"
        else:
            params = sig.part("params", "x")
        depth = 2 if "class" in sig.traits else 1
        prologue = []
        if fn.index == 0:
            prologue = [IND + families.piece("extra", kind).template.format(i=i) for i, kind in enumerate(inputs.extras)]
        elif sig.part("prologue"):
            prologue = [IND + sig.part("prologue")]
        body = [IND * (depth - 1) + line for line in prologue] + self.body(fn.body, fn, scope, depth)
        if body and body[-1].strip() == "pass":
            body.pop()
        if scope.uses_global:
            body.insert(0, IND * depth + "global COUNTER")
        body.append(IND * depth + "return " + (_RETURNS[self.program.returns] if fn.index == 0 else "x"))
        decos = [f"@{_ctx(d, f'{name}.deco{i}')}" for i, d in enumerate(fn.decorators)]
        if "class" in sig.traits:
            return [
                f"class C{fn.index}:",
                IND + "def __init__(self, scale):",
                IND * 2 + "self.scale = scale",
                "",
                IND + f"def {sig.part('method')}(self, x):",
                *body,
            ]
        if "lambda" in sig.traits:
            return [*decos, f"def {name}_impl(x):", *body, "", "", f"{name} = lambda x: 0.0 + {name}_impl(x)"]
        return [*decos, f"def {name}({params}):", *body]


_PLAIN = families.Piece("signature", "plain", "{name}({arg})", parts=(("params", "x"),))
_RETURNS = {"x": "x", "tuple": "x, x.sum()", "dict": '{"out": x, "mean": x.mean()}'}


def _constructs(program: ir.Program) -> list[families.Construct]:
    """The registry constructs ``program`` uses, in first-use order (the renderer's walk order)."""
    seen: dict[str, families.Construct] = {}
    for fn in program.functions:
        for s, _ in ir.walk(fn.body):
            if isinstance(s, ir.Construct) and s.name not in seen:
                seen[s.name] = families.construct(s.name)
    return list(seen.values())


def _definitions(program: ir.Program) -> tuple[list[str], list[str]]:
    """The module-level definitions the program's constructs need (each text once) and the names they bind."""
    texts: dict[str, None] = {}
    names: dict[str, None] = {}
    for c in _constructs(program):
        if c.defs and c.defs not in texts:
            texts[c.defs] = None
            names.update(dict.fromkeys(sorted(families.defined_names(c))))
    return list(texts), list(names)


def _imports(program: ir.Program) -> list[str]:
    """The import lines: the standard library's, then (after a blank line) the others. The preamble's
    ``contextlib`` first and ``types`` (then ``zlib``) last, as programs have always been printed."""
    used = {s.kind for fn in program.functions for s, _ in ir.walk(fn.body) if isinstance(s, ir.Break)}
    modules = {m for c in _constructs(program) for m in c.imports}
    modules |= {m for kind in used for m in families.construct(families.tag("break", kind)).imports}
    last = ("types", "zlib")
    std = sorted(m for m in modules if m.split()[0] in sys.stdlib_module_names and m not in last)
    lines = [f"import {m}" for m in ("contextlib", *(m for m in std if m != "contextlib"), "types")]
    lines += [f"import {m}" for m in last[1:] if m in modules]
    lines.append("")
    lines += [f"import {m}" for m in sorted(modules) if m.split()[0] not in sys.stdlib_module_names]
    return lines + ["import torch", ""]


def _helper_source(renderer: _Renderer, module: ir.HelperModule) -> str:
    lines = [
        *_imports(renderer.program),
        f"G_SCALE = {_fmt(module.scale)}",
        f"G_BIAS = {_fmt(module.bias)}",
        f"T_{module.name.upper()} = torch.tensor({_fmt(module.bias * 2)})",
        "LOG = []",
        "TABLE = {}",
        "COUNTER = 0",
    ]
    for fn in renderer.program.functions:
        if fn.module == module.name:
            lines += ["", "", *renderer.function(fn)]
    return "\n".join(lines) + "\n"


def other_size(n: int) -> int:
    """A dimension's size in the third call's inputs (``make_inputs(device, size=1)``): another size, never 0 or 1
    (which Dynamo specializes) and at most one more, so the generator's value bounds, drawn for the first sizes,
    still hold."""
    return n - 1 if n >= 3 else n + 1


def _make_inputs(inputs: ir.Inputs) -> list[str]:
    names = ("batch", "rows", "cols")[3 - inputs.rank:]
    sizes = dict(zip(names, inputs.shape))
    if not inputs.other_sizes:  # the sizes as literals, as before the third call existed
        names = tuple(str(v) for v in inputs.shape)
    dtype = "" if inputs.dtype == "float32" else f", dtype=torch.{inputs.dtype}"
    if inputs.layout == "contiguous":
        x = f"torch.randn({', '.join(names)}, generator=g{dtype})"
    elif inputs.rank == 1:  # every other element of a (cols, 2) tensor: stride 2
        x = f"torch.randn({names[-1]}, 2, generator=g{dtype})[:, 0]"
    else:  # the last two dimensions swapped
        view = ".t()" if inputs.rank == 2 else ".transpose(-1, -2)"
        x = f"torch.randn({', '.join((*names[:-2], names[-1], names[-2]))}, generator=g{dtype}){view}"
    lines = ["def make_inputs(device):", IND + f"g = torch.Generator().manual_seed({inputs.seed})"]
    if inputs.other_sizes:
        first, other = tuple(sizes.values()), tuple(map(other_size, sizes.values()))
        if inputs.rank == 1:
            first, other = first[0], other[0]
        lines[0] = "def make_inputs(device, size=0):  # size=1: every dimension of another size (a third call)"
        lines.append(IND + f"{', '.join(names)} = {first} if size == 0 else {other}")
    lines.append(IND + f"x = {x}")
    cols = names[-1]
    names = ["x"]
    for i, kind in enumerate(inputs.extras):
        lines.append(IND + f"e{i} = {families.piece('extra', kind).part('make').format(cols=cols)}")
        names.append(f"e{i}")
    x_dev = "x.to(device)"
    if inputs.mark_dynamic:  # a hint, not a demand: mark_dynamic itself raises where the program specializes x
        lines += [IND + "x = x.to(device)", IND + "torch._dynamo.maybe_mark_dynamic(x, 0)"]
        x_dev = "x"
    x_dev += ".requires_grad_()" if inputs.requires_grad else ""
    outs = [x_dev] + [f"{n}.to(device)" for n in names[1:]]
    lines.append(IND + f"return ({', '.join(outs)},)")
    return lines


def render(program: ir.Program, *, found_by: str | None = None, features: frozenset[str] | None = None) -> str:
    """The full program file for ``program`` (header, preamble, functions, helper modules, inputs, footer).

    ``features``: the program's tags when the caller has them already (else extracted here).
    """
    if features is None:
        from fuzz.program.features import extract

        features = extract(program)
    r = _Renderer(program)
    out = set_header("", found_by=found_by, features=" ".join(sorted(features))).splitlines()
    out += _imports(program)
    out.append(PREAMBLE.strip("\n"))
    defs, def_names = _definitions(program)
    for text in defs:
        out += ["", "", text.strip("\n")]
    if program.wants_grad:
        out += ["", "WANTS_GRAD = True"]
    for fn in program.functions[::-1]:
        if not fn.module:
            out += ["", "", *r.function(fn)]
    main_names = [
        (f"C{fn.index}" if _is_class(fn.signature) else r.fname(fn.index))
        for fn in program.functions
        if not fn.module
    ]
    for module in program.modules:
        src = _helper_source(r, module)
        var = f"ngb_{module.name}"
        quoted = f"'''\n{src}'''" if "'''" not in src and "\\" not in src else repr(src)
        pre = ", ".join(f'"{name}": {name}' for name in (*PREAMBLE_NAMES, *def_names))
        out += [
            "",
            "",
            f'{var} = types.ModuleType("{var}")',
            f"{var}.__dict__.update({{{pre}}})",
            f'exec(compile({quoted}, "{var}", "exec"), {var}.__dict__)',
        ]
    for module in program.modules:
        links = list(main_names)
        for other in program.modules:
            if other.name != module.name:
                links += [
                    f"ngb_{other.name}." + (f"C{fn.index}" if _is_class(fn.signature) else r.fname(fn.index))
                    for fn in program.functions
                    if fn.module == other.name
                ]
        items = ", ".join(f'"{name.rsplit(".", 1)[-1]}": {name}' for name in links)
        out.append(f"ngb_{module.name}.__dict__.update({{{items}}})")
    out += ["", "", *_make_inputs(program.inputs), ""]
    out += ["", standalone_footer(resize=program.inputs.other_sizes).rstrip("\n")]
    return "\n".join(out) + "\n"
