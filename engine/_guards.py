"""Sources (where a real value is re-read at run time) and the guards generated on them.

Guards are Python expressions over the segment's input list `env`; the residual code checks them before a
segment runs. Constants they compare against are bound by name in a `Namespace`.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import Any

import torch
import torch.nn.modules.module as _mm

from ._runtime import MISSING, iter_index, iter_seq


class Namespace:
    """Names for real objects referenced by generated code (graphs, code objects, guard constants)."""

    def __init__(self) -> None:
        self.values: dict[str, object] = {}
        self._by_id: dict[int, str] = {}

    def const(self, obj: object, hint: str = "c") -> str:
        key = id(obj)
        name = self._by_id.get(key)
        if name is None:
            name = f"{hint}{len(self.values)}"
            self._by_id[key] = name
            self.values[name] = obj
        return name


_LITERAL_TYPES = (int, str, bool, type(None))


def literal(ns: Namespace, value: object) -> str:
    """An expression for an immutable constant (a literal when it reads back exactly)."""
    t = type(value)
    if t in _LITERAL_TYPES:
        return repr(value)
    if t is float and value == value and value not in (float("inf"), float("-inf")):
        return repr(value)
    return ns.const(value)


class Src:
    """Where a real value is re-read when a segment starts: `expr(ns)` is a Python expression over `env`."""

    __slots__ = ()

    def expr(self, ns: Namespace) -> str:
        raise NotImplementedError


class EnvSrc(Src):
    """The segment's input `env[index]`."""

    __slots__ = ("index",)

    def __init__(self, index: int) -> None:
        self.index = index

    def expr(self, ns: Namespace) -> str:
        return f"env[{self.index}]"


class ConstSrc(Src):
    """A fixed object of the program (bound by name in the namespace; never re-read)."""

    __slots__ = ("obj",)

    def __init__(self, obj: object) -> None:
        self.obj = obj

    def expr(self, ns: Namespace) -> str:
        return ns.const(self.obj, "k")


class GlobalSrc(Src):
    """A name in a globals dict."""

    __slots__ = ("gdict", "name")

    def __init__(self, gdict: dict[str, Any], name: str) -> None:
        self.gdict = gdict
        self.name = name

    def expr(self, ns: Namespace) -> str:
        return f"{ns.const(self.gdict, 'G')}[{self.name!r}]"


class AttrSrc(Src):
    """An attribute of another source."""

    __slots__ = ("base", "name")

    def __init__(self, base: Src, name: str) -> None:
        self.base = base
        self.name = name

    def expr(self, ns: Namespace) -> str:
        b = self.base.expr(ns)
        return f"{b}.{self.name}" if self.name.isidentifier() else f"getattr({b}, {self.name!r})"


class ItemSrc(Src):
    """An item (constant key) of another source."""

    __slots__ = ("base", "key")

    def __init__(self, base: Src, key: object) -> None:
        self.base = base
        self.key = key

    def expr(self, ns: Namespace) -> str:
        return f"{self.base.expr(ns)}[{literal(ns, self.key)}]"


class CellSrc(Src):
    """The contents of a cell read from another source."""

    __slots__ = ("base",)

    def __init__(self, base: Src) -> None:
        self.base = base

    def expr(self, ns: Namespace) -> str:
        return f"{self.base.expr(ns)}.cell_contents"


class IterSeqSrc(Src):
    """The sequence a real sequence iterator reads (`_runtime.iter_seq`: its `__reduce__` gives it back)."""

    __slots__ = ("base",)

    def __init__(self, base: Src) -> None:
        self.base = base

    def expr(self, ns: Namespace) -> str:
        return f"_iter_seq({self.base.expr(ns)})"


class CallSrc(Src):
    """The result of calling the base with no arguments: a weak reference's referent."""

    __slots__ = ("base",)

    def __init__(self, base: Src) -> None:
        self.base = base

    def expr(self, ns: Namespace) -> str:
        return f"{self.base.expr(ns)}()"


def tensor_meta(t: torch.Tensor) -> tuple[object, ...]:
    return (type(t), t.dtype, t.device, t.shape, t.stride(), t.requires_grad)


class Guards:
    """An ordered, de-duplicated list of boolean expressions; all must hold for a segment to run."""

    def __init__(self, ns: Namespace) -> None:
        self.ns = ns
        self.exprs: list[str] = []
        self._seen: set[str] = set()
        self._unless: dict[str, str] = {}  # a guard -> a stronger one that makes it redundant when present
        self.distinct: list[Src] = []  # sources of mutable inputs that must be distinct objects

    def add(self, expr: str, unless: str | None = None) -> None:
        """Adds `expr`; `unless` is a stronger guard that, if some other part of the trace adds it too,
        makes `expr` redundant (it is then left out of `final()`)."""
        if expr not in self._seen:
            self._seen.add(expr)
            self.exprs.append(expr)
            if unless is not None:
                self._unless[expr] = unless

    def final(self) -> list[str]:
        """The guards in order, less those a stronger guard of the list implies."""
        seen = self._seen
        return [e for e in self.exprs if self._unless.get(e) not in seen]

    def type_is(self, src: Src, t: type) -> None:
        self.add(f"type({src.expr(self.ns)}) is {self.ns.const(t, 'T')}")

    def identity(self, src: Src, obj: object) -> None:
        self.add(f"{src.expr(self.ns)} is {self.ns.const(obj, 'k')}")

    def global_identity(self, gdict: dict[str, Any], name: str, obj: object) -> None:
        g = self.ns.const(gdict, "G")
        self.add(f"{g}.get({name!r}, _MISSING) is {self.ns.const(obj, 'k')}")

    def global_absent(self, gdict: dict[str, Any], name: str) -> None:
        self.add(f"{name!r} not in {self.ns.const(gdict, 'G')}")

    def tensor(self, src: Src, t: torch.Tensor) -> None:
        self.add(f"_tmeta({src.expr(self.ns)}) == {self.ns.const(tensor_meta(t), 'm')}")

    def length(self, src: Src, n: int) -> None:
        self.add(f"len({src.expr(self.ns)}) == {n}")

    def const(self, src: Src, value: object) -> None:
        e = src.expr(self.ns)
        t = type(value)
        if value is None or t is bool:
            self.add(f"{e} is {value!r}")
        elif type(value) is float:
            self.add(f"type({e}) is float and {e}.hex() == {value.hex()!r}")
        elif t in (int, str, bytes):
            self.add(f"type({e}) is {t.__name__} and {e} == {value!r}")
        elif isinstance(value, torch.dtype):
            self.add(f"{e} is {self.ns.const(value, 'k')}")
        else:
            self.add(f"type({e}) is {self.ns.const(t, 'T')} and {e} == {self.ns.const(value, 'k')}")

    def grad_mode(self, enabled: bool) -> None:
        self.add(f"_grad_enabled() is {enabled!r}")
        self.add(f"_torch_state() == {self.ns.const(torch_state(), 'state')}")


def torch_state() -> tuple[object, ...]:
    """Global torch state that changes what ops compute (dtype, kind of tensor) as it is when a segment
    starts (traced autocast / inference-mode blocks change it inside the graph only, and a segment ending
    inside one enters it again for real: the next segment starts in it). The autocast
    dtype counts as much as whether autocast is on: a graph traced under bfloat16 autocast has bfloat16
    metadata, wrong under float16 autocast."""
    return (
        torch.is_autocast_enabled("cpu"),
        torch.is_autocast_enabled("cuda"),
        torch.get_autocast_dtype("cpu"),
        torch.get_autocast_dtype("cuda"),
        torch.is_inference_mode_enabled(),
        torch.get_default_dtype(),
        torch._C._len_torch_function_stack(),
    )


def module_plain(m: torch.nn.Module) -> bool:
    """Calling the module is calling its forward: no hooks anywhere, not compiled, not traced by jit. As
    guards: `_module_unhooked(m)` per module and `_no_global_hooks()` once per segment."""
    return module_unhooked(m) and no_global_hooks()


def module_unhooked(m: torch.nn.Module) -> bool:
    """The module's own part of `module_plain`."""
    return (m._compiled_call_impl is None and "forward" not in m.__dict__
            and not (m._backward_hooks or m._backward_pre_hooks or m._forward_hooks or m._forward_pre_hooks))


def no_global_hooks() -> bool:
    """The global part of `module_plain`: no module hooks registered for all modules, no jit tracing."""
    return not (_mm._global_backward_pre_hooks or _mm._global_backward_hooks or _mm._global_forward_hooks
                or _mm._global_forward_pre_hooks or torch._C._get_tracing_state())


def module_hooks(
    m: torch.nn.Module,
) -> tuple[tuple[Callable[..., Any], ...], tuple[Callable[..., Any], ...]] | None:
    """(pre-hooks, hooks) when they are the module's only hooks and take no kwargs; None otherwise."""
    if (m._compiled_call_impl is not None or "forward" in m.__dict__ or m._backward_hooks
            or m._backward_pre_hooks or m._forward_pre_hooks_with_kwargs or m._forward_hooks_with_kwargs
            or m._forward_hooks_always_called or _mm._global_backward_pre_hooks or _mm._global_backward_hooks
            or _mm._global_forward_hooks or _mm._global_forward_pre_hooks
            or torch._C._get_tracing_state()):
        return None
    return tuple(m._forward_pre_hooks.values()), tuple(m._forward_hooks.values())


GUARD_GLOBALS = {"_torch_state": torch_state, "_module_unhooked": module_unhooked,
                 "_no_global_hooks": no_global_hooks, "_module_hooks": module_hooks,
                 "_tmeta": tensor_meta, "_MISSING": MISSING, "_grad_enabled": torch.is_grad_enabled,
                 "_inference_mode": torch.is_inference_mode_enabled,
                 "_iter_index": iter_index, "_iter_seq": iter_seq}


# -- the guard block: repeated source paths read once --------------------------------------------------------

# A source path as Src.expr writes it: a constant, an env slot or a global, then attributes and constant
# subscripts (a method call ends it: `.get(` is not a step). String literals are matched first so that
# nothing inside one is taken for a path.
_STR = r"'(?:[^'\\\n]|\\.)*'|\"(?:[^\"\\\n]|\\.)*\""
_STEP = rf"\.[A-Za-z_]\w*(?![\w(])|\[(?:-?\d+|{_STR}|[kT]\d+|True|False|None)\]"
_PATH = re.compile(rf"({_STR})|\b((?:[kTG]\d+|env\[\d+\])(?:{_STEP})+)")
_TOKENS = re.compile(rf"{_STR}|[()\[\]{{}}]| and ")
_KEYWORDS = re.compile(r"\b(or|if|for|lambda)\b")
_STEPS = re.compile(rf"^(?:[kTG]\d+|env\[\d+\])|{_STEP}")
# a conjunct whose parts may not all run: it may use paths read before, never read one first
_CONDITIONAL = re.compile(rf"{_STR}|\b(or|if|for|lambda)\b")


def _conjuncts(expr: str) -> list[str]:
    """`expr` split at its top-level ` and `s (outside brackets and string literals)."""
    if " and " not in expr:
        return [expr]
    out, depth, start = [], 0, 0
    for m in _TOKENS.finditer(expr):  # string literals, brackets and ` and `s only
        tok = m.group(0)
        if tok in "([{":
            depth += 1
        elif tok in ")]}":
            depth -= 1
        elif tok == " and " and depth == 0:
            out.append(expr[start:m.start()])
            start = m.end()
    out.append(expr[start:])
    return out


def _conditional(expr: str) -> bool:
    return _KEYWORDS.search(expr) is not None and any(m.group(1) for m in _CONDITIONAL.finditer(expr))


def guard_block(exprs: list[str], indent: str) -> list[str]:
    """The lines that check `exprs` in order and return _MISS at the first that fails. A source path read
    by more than one guard (`k1._modules['layers']._modules['0']`, a module's `__dict__`) is read once,
    into a local, just before the first guard that reads it -- never earlier, so no path is read before
    the guards that precede it hold -- and the later guards use the local."""
    conj = [c for e in exprs for c in _conjuncts(e)]
    b = _Block(conj, indent, "_p")
    for k, c in enumerate(conj):
        b.pending.append(b.rewrite(k, not _conditional(c)))
    return b.finish()


def read_block(reads: list[str]) -> list[str]:
    """`name = path` lines (a segment's reads of its sources, in order) with the path prefixes they share
    read once: the parameters of one submodule are read from it, not each from the root module."""
    pairs = [r.split(" = ", 1) for r in reads]
    b = _Block([rhs for _, rhs in pairs], "", "_r")
    for k, (lhs, _) in enumerate(pairs):
        b.lines.append(f"{lhs} = {b.rewrite(k, True)}")
    return b.finish()


class _Block:
    """Lines that read source paths, each prefix read twice or more read once into a local (named
    `prefix` + a number): the texts cut into plain pieces and paths (as lists of steps), how often each
    prefix is read, the locals made so far, the lines, and the guards waiting to be written out (a local
    is read after the guards before it, never in the middle of one)."""

    def __init__(self, texts: list[str], indent: str, prefix: str) -> None:
        self.indent = indent
        self.prefix = prefix
        self.uses: dict[str, int] = {}
        self.pieces = [self._cut(t) for t in texts]
        self.names: dict[str, str] = {}
        self.lines: list[str] = []
        self.pending: list[str] = []

    def _cut(self, text: str) -> list[str | list[str]]:
        """`text` as plain pieces and paths; counts each path's prefixes."""
        out: list[str | list[str]] = []
        last = 0
        uses = self.uses
        for m in _PATH.finditer(text):
            path = m.group(2)
            if not path:
                continue  # a string literal: plain text
            out.append(text[last:m.start()])
            steps = _STEPS.findall(path)
            out.append(steps)
            last = m.end()
            key = steps[0]
            for step in steps[1:]:
                key += step
                uses[key] = uses.get(key, 0) + 1
        out.append(text[last:])
        return out

    def rewrite(self, k: int, may_read: bool) -> str:
        """Text `k` with the paths it reads through locals; when `may_read`, it reads the new ones first."""
        return "".join(p if isinstance(p, str) else self._path(p, may_read) for p in self.pieces[k])

    def finish(self) -> list[str]:
        self._flush()
        if self.names:  # hold nothing past the block (a path may reach a tensor)
            self.lines.append(f"{self.indent}del {', '.join(self.names.values())}")
        return self.lines

    def _flush(self) -> None:
        if self.pending:
            sep = "\n" + self.indent + "        and "
            self.lines.append(f"{self.indent}if not ({sep.join(self.pending)}):")
            self.lines.append(f"{self.indent}    return _MISS")
            self.pending.clear()

    def _path(self, steps: list[str], may_read: bool) -> str:
        cur, i, key = steps[0], 1, steps[0]
        while i < len(steps):
            key += steps[i]
            if key in self.names:
                cur = self.names[key]
            elif may_read and self.uses.get(key, 0) > 1:
                self._flush()
                name = self.names[key] = f"{self.prefix}{len(self.names)}"
                self.lines.append(f"{self.indent}{name} = {cur}{steps[i]}")
                cur = name
            else:
                break
            i += 1
        return cur + "".join(steps[i:])
