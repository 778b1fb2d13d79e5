"""The feature catalog, generation config, tag extraction and per-campaign histograms.

A *feature* is a tag such as ``break.graph_break`` or ``stack.tuple_display``; its *family* is the part before the
first dot. The strategies consult the catalog's weights at every choice point (weight 0 switches a feature off);
:func:`extract` recomputes the tags of a program from its IR, so tags are true by construction, including the
derived ``shape.*`` tags that name the bug shapes of the seeds' May-2026 update.
"""

from __future__ import annotations

import dataclasses
import sys
from collections import Counter
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from types import MappingProxyType

from fuzz.program import families as registry
from fuzz.program import ir
from fuzz.program.families import CONSTRUCTS, construct

__all__ = [
    "CATALOG",
    "DERIVED",
    "Feature",
    "GenerationConfig",
    "boosted",
    "drawable",
    "extract",
    "families",
    "family_histogram",
    "histogram",
]


@dataclass(frozen=True, slots=True)
class Feature:
    name: str
    weight: float
    description: str

    @property
    def family(self) -> str:
        return self.name.split(".", 1)[0]


def _f(name: str, weight: float, description: str) -> Feature:
    return Feature(name, weight, description)


# Every construct of the registry (fuzz/program/families), in registry order.
CATALOG: tuple[Feature, ...] = tuple(_f(c.name, c.weight, c.description) for c in CONSTRUCTS.values())

_BY_NAME = MappingProxyType({f.name: f for f in CATALOG})

# Derived tags: computed by :func:`extract`, never drawn directly.
DERIVED: tuple[Feature, ...] = (
    _f("shape.upper_ctx_break", 0, "a callee that breaks, called inside a with-block of an upper frame"),
    _f("shape.helper_closure_globals", 0, "a helper-module closure that breaks, then reads its module's globals"),
    _f("shape.decorator_ctx_break", 0, "a decorator-form context manager around a callee that breaks"),
    _f("shape.step_break_stack", 0, "a step break in a callee called with a non-empty operand stack"),
    _f("shape.cm_disable_init", 0, "a @contextmanager over a disabled function, entered in compiled code"),
)


@dataclass(frozen=True)
class GenerationConfig:
    """Knobs of the generator. ``weights`` overrides catalog weights by feature name or by family (``"ctx"``).
    ``python`` is the oldest Python the programs must parse and run on: constructs whose ``min_python`` is newer are
    never drawn (None: this interpreter's version; a campaign sets the oldest of its targets' interpreters)."""

    weights: Mapping[str, float] = field(default_factory=dict)
    max_depth: int = 100
    max_functions: int = 120
    python: tuple[int, int] | None = None

    def __post_init__(self):
        if self.python is not None:
            python = tuple(int(v) for v in self.python)
            if len(python) != 2 or not (3, 10) <= python < (4, 0):
                raise ValueError(f"python must be (3, minor) with minor >= 10, not {self.python!r}")
            object.__setattr__(self, "python", python)
        unknown = [k for k in self.weights if k not in _BY_NAME and k not in families()]
        if unknown:
            raise ValueError(f"unknown feature(s) {sorted(unknown)}; `ngb-fuzz features` lists them")
        if not 1 <= self.max_depth <= 1000:
            raise ValueError("max_depth must be in 1..1000")
        if any(float(w) < 0 for w in self.weights.values()):
            raise ValueError("weights must be >= 0")

        resolved = {}
        for f in CATALOG:
            if f.name in self.weights:
                resolved[f.name] = float(self.weights[f.name])
            elif f.family in self.weights:
                resolved[f.name] = f.weight * float(self.weights[f.family])
            else:
                resolved[f.name] = f.weight
        object.__setattr__(self, "_resolved", resolved)

    def weight(self, name: str) -> float:
        return self._resolved[name]

    def key(self) -> tuple:
        """A hashable, order-independent identity (for caching strategies per config)."""
        return (tuple(sorted(self.weights.items())), self.max_depth, self.max_functions, self.for_python)

    @property
    def for_python(self) -> tuple[int, int]:
        """The Python the programs are generated for (``python``, or this interpreter's version)."""
        return self.python or sys.version_info[:2]


def boosted(config: GenerationConfig, tags: Iterable[str], factor: float = 2.0) -> GenerationConfig:
    """``config`` with the weights of ``tags`` multiplied by ``factor`` (e.g. the tags of programs that just
    produced a new signature or unusual compiler behaviour). Derived ``shape.*`` tags boost nothing."""
    weights = dict(config.weights)
    for tag in tags:
        if tag in _BY_NAME:
            weights[tag] = config.weight(tag) * factor
    return dataclasses.replace(config, weights=weights)


def drawable(config: GenerationConfig | None = None) -> tuple[str, ...]:
    """The catalog features programs under ``config`` (None: the catalog's weights, this interpreter's Python) may
    hold: weight above 0 and written for a Python no newer than ``config.for_python`` (a PEP 695 class is never
    drawn for a 3.11 target)."""
    config = config or GenerationConfig()
    return tuple(f.name for f in CATALOG
                 if config.weight(f.name) > 0 and CONSTRUCTS[f.name].available(config.for_python))


def families() -> tuple[str, ...]:
    seen: dict[str, None] = {}
    for f in CATALOG:
        seen.setdefault(f.family, None)
    return tuple(seen)


# ---- extraction -----------------------------------------------------------------------------------------------

def _traits(slot: str, kind: str) -> frozenset[str]:
    return registry.piece(slot, kind).traits


def _depth_tag(depth: int) -> str:
    """The depth bucket of ``depth``: the last whose ``lo`` it reaches (the last takes every longer path)."""
    out = registry.pieces("depth")[0][0].name
    for c, p in registry.pieces("depth"):
        if depth >= int(p.part("lo")):
            out = c.name
    return out


def _breaking_decorator(kind: str) -> bool:
    return "breaks" in _traits("ctx", kind)


def _breaks(program: ir.Program) -> list[bool]:
    """Per function: does calling it (transitively) break? Callees have larger indices: go bottom-up."""
    out = [False] * len(program.functions)
    for fn in reversed(program.functions):
        hit = "cm" in _sig_traits(fn.signature) or any(_breaking_decorator(d) for d in fn.decorators)
        for stmt, _ in ir.walk(fn.body):
            if isinstance(stmt, ir.Break) or (isinstance(stmt, ir.CallSite) and out[stmt.callee]):
                hit = True
            elif isinstance(stmt, ir.DataIf) and stmt.cond == "tensor":
                hit = True
            elif isinstance(stmt, ir.TensorLoop) and stmt.exit == "data":
                hit = True
            elif isinstance(stmt, ir.With) and _breaking_decorator(stmt.kind):
                hit = True
            elif isinstance(stmt, ir.Construct) and construct(stmt.name).breaks:
                hit = True
        out[fn.index] = hit
    return out


def _step_breaks(program: ir.Program) -> list[bool]:
    """Per function: does it contain a step break directly (not through a callee)?"""
    return [
        any(isinstance(s, ir.Break) and "step" in _traits("break", s.kind) for s, _ in ir.walk(fn.body))
        for fn in program.functions
    ]


def extract(program: ir.Program) -> frozenset[str]:
    tags: set[str] = set()
    fns = program.functions
    breaks = _breaks(program)
    steps = _step_breaks(program)
    depth = [0] * len(fns)
    callees: list[set[int]] = [set() for _ in fns]
    for fn in reversed(fns):
        recursive = False
        for stmt, enclosing in ir.walk(fn.body):
            if isinstance(stmt, ir.CallSite):
                callees[fn.index].add(stmt.callee)
                depth[fn.index] = max(depth[fn.index], depth[stmt.callee] + 1)
                tags.add(registry.tag("stack", stmt.context))
                callee = fns[stmt.callee]
                if "plain_signature" in _traits("stack", stmt.context) and breaks[stmt.callee]:
                    tags.add("shape.decorator_ctx_break")  # the decorator form: a manager around the call
                if breaks[stmt.callee] and any(isinstance(e, ir.With) for e in enclosing):
                    tags.add("shape.upper_ctx_break")
                if breaks[stmt.callee] and any(_is_cm(d) for d in callee.decorators):
                    tags.add("shape.decorator_ctx_break")
                if steps[stmt.callee] and "operands" in _traits("stack", stmt.context):
                    tags.add("shape.step_break_stack")
            elif isinstance(stmt, ir.Recurse):
                recursive = True
            elif isinstance(stmt, ir.Construct):
                tags.add(stmt.name)
            elif isinstance(stmt, ir.With):
                tags.add(registry.tag("ctx", stmt.kind))
                if _breaking_decorator(stmt.kind):
                    tags.add("shape.cm_disable_init")
            elif isinstance(stmt, ir.Break):
                tags.add(registry.tag("break", stmt.kind))
            elif not isinstance(stmt, ir.Arith | ir.Effect | ir.Probe):
                tag = registry.read(stmt)  # a record of its own (a loop, a try ...): its piece reads it
                if tag is None:
                    raise TypeError(f"no construct of the registry reads {stmt!r}")
                tags.add(tag)
                if isinstance(stmt, ir.Closure) and fn.module and _closure_reads_globals_after_break(stmt):
                    tags.add("shape.helper_closure_globals")
        if recursive:  # f(x, 2) -> f(x, 1) -> f(x, 0): two more frames above the callees
            depth[fn.index] += 2
        if fn.module:
            tags.add(registry.tag("placed", "helpers"))
        if fn.signature != "plain":
            tags.add(registry.tag("signature", fn.signature))
        cm_decorators = [d for d in fn.decorators if _is_cm(d)]
        for deco in cm_decorators:
            tags.add(registry.tag("stack", "decorator"))  # ctx.decorator: the def-site form
            tags.add(registry.tag("ctx", deco))
            if _breaking_decorator(deco):
                tags.add("shape.cm_disable_init")
        if len(cm_decorators) >= 2:
            tags.add(registry.tag("placed", "nested_decorators"))
    tags.add(_depth_tag(depth[0]))
    tags.add(registry.tag("shape", "tree" if any(len(c) >= 2 for c in callees) else "chain"))
    return frozenset(tags | _input_tags(program))


def _sig_traits(signature: str) -> frozenset[str]:
    return frozenset() if signature == "plain" else _traits("signature", signature)


def _is_cm(decorator: str) -> bool:
    return "not_cm" not in _traits("ctx", decorator)


def _input_tags(program: ir.Program) -> set[str]:
    inputs = program.inputs
    flags = {"wants_grad": program.wants_grad, "requires_grad": inputs.requires_grad,
             "noncontiguous": inputs.layout != "contiguous", "mark_dynamic": inputs.mark_dynamic,
             "other_sizes": inputs.other_sizes}
    tags = {registry.tag("placed", kind) for kind, on in flags.items() if on}
    tags |= {registry.tag("extra", kind) for kind in inputs.extras}
    if inputs.dtype != "float32":
        tags.add(registry.tag("dtype", inputs.dtype))
    if inputs.rank != 2:
        tags.add(registry.tag("rank", str(inputs.rank)))
    return tags


def _closure_reads_globals_after_break(closure: ir.Closure) -> bool:
    seen_break = False
    for stmt, _ in ir.walk(closure.body):
        if (
            isinstance(stmt, ir.Break | ir.CallSite)
            or (isinstance(stmt, ir.DataIf) and stmt.cond == "tensor")
            or (isinstance(stmt, ir.TensorLoop) and stmt.exit == "data")
        ):
            seen_break = True
        elif seen_break and isinstance(stmt, ir.Arith) and stmt.op in ("global_affine", "global_tensor"):
            return True
    return False


def histogram(programs: Iterable) -> dict[str, int]:
    """Count programs per feature tag. Accepts GeneratedPrograms, Programs or tag sets; sorted by name."""
    counts: Counter[str] = Counter()
    for p in programs:
        if isinstance(p, ir.Program):
            tags = extract(p)
        else:
            tags = getattr(p, "features", p)
        counts.update(tags)
    return dict(sorted(counts.items()))


def family_histogram(programs: Iterable) -> dict[str, int]:
    """Count programs per family (a program counts once per family it touches)."""
    counts: Counter[str] = Counter()
    for p in programs:
        tags = extract(p) if isinstance(p, ir.Program) else getattr(p, "features", p)
        counts.update({t.split(".", 1)[0] for t in tags})
    return dict(sorted(counts.items()))
