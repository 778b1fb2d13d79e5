"""The feature catalog, generation config, tag extraction and per-campaign histograms.

A *feature* is a tag such as ``break.graph_break`` or ``stack.tuple_display``; its *family* is the part before the
first dot. The strategies consult the catalog's weights at every choice point (weight 0 switches a feature off);
:func:`extract` recomputes the tags of a program from its IR, so tags are true by construction, including the
derived ``shape.*`` tags that name the bug shapes of the seeds' May-2026 update.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from types import MappingProxyType

from fuzz.program import ir
from fuzz.program.families import CONSTRUCTS, construct

__all__ = [
    "CATALOG",
    "DERIVED",
    "Feature",
    "GenerationConfig",
    "boosted",
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


CATALOG: tuple[Feature, ...] = (
    # call shapes
    _f("call.chain", 3, "a chain of calls entry -> f1 -> ... -> fN"),
    _f("call.tree", 2, "a tree of calls: functions with several callees"),
    _f("call.recursion", 0.6, "a self-recursive function f(x, n)"),
    _f("call.method", 0.6, "a callee that is a method of a generated class"),
    _f("call.lambda", 0.4, "a callee that is a lambda bound to a global"),
    _f("call.varargs", 0.4, "a callee taking *args"),
    _f("call.kwargs", 0.4, "a callee taking **kwargs"),
    _f("call.nonstrict", 0.4, "a pure leaf decorated with torch._dynamo.nonstrict_trace"),
    _f("call.callable", 0.4, "a callee that is an instance with __call__"),
    _f("depth.1", 1.5, "longest call path has 1 frame below entry"),
    _f("depth.2-3", 3, "longest call path of 2-3 frames"),
    _f("depth.4-9", 3, "longest call path of 4-9 frames"),
    _f("depth.10+", 1.2, "longest call path of 10-29 frames"),
    _f("depth.30+", 0.4, "longest call path of 30-100 frames"),
    # break kinds
    _f("break.graph_break", 3, "torch._dynamo.graph_break()"),
    _f("break.step_unsupported", 2, "torch._dynamo.step_unsupported() (a step graph break)"),
    _f("break.print", 1, "print(...)"),
    _f("break.disable", 2, "a call to a torch._dynamo.disable'd function"),
    _f("break.data_if", 1.5, "if on a tensor value: if x.sum() > 0"),
    _f("break.item", 1.5, ".item() mixed back into the tensor"),
    _f("break.tolist", 0.7, ".tolist() mixed back into the tensor"),
    _f("break.builtin", 0.7, "an unsupported stdlib call (copy.deepcopy of a dict)"),
    _f("break.numpy", 0.5, "numpy interop: .numpy(), numpy ops, torch.from_numpy"),
    _f("break.attr_store", 0.5, "storing an attribute on a tensor"),
    # operand-stack context of the call that breaks
    _f("stack.plain", 3, "x = f(x): empty operand stack"),
    _f("stack.tuple_display", 1, "t = (x, f(x))"),
    _f("stack.list_display", 1, "l = [x, f(x), ...]"),
    _f("stack.dict_display", 1, "d = {'a': x, 'b': f(x)}"),
    _f("stack.binop", 1, "x * c + f(x)"),
    _f("stack.call_arg", 1, "torch.add(x * c, f(x))"),
    _f("stack.method", 1, "(x * c).add(f(x))"),
    _f("stack.fstring", 0.6, "f'{k}:{_keep(box, f(x))}'"),
    _f("stack.subscript", 0.6, "(a, b)[_keep(box, f(x))]"),
    _f("stack.comprehension", 0.6, "[f(x + c) for c in (...)]"),
    _f("stack.conditional", 0.6, "f(x) if flag else x - c"),
    _f("stack.unpack", 0.6, "a, *rest = [x, f(x), x]"),
    _f("stack.star_args", 0.5, "torch.add(*[x * c, f(x)])"),
    _f("stack.kwargs", 0.5, "torch.add(**{'input': x, 'other': f(x)})"),
    # closures, helper modules
    _f("closure.nonlocal", 1.2, "a nested function writing a nonlocal cell around the call/break"),
    _f("module.helper", 1.2, "a callee defined in an in-memory helper module with its own globals"),
    # context managers
    _f("ctx.no_grad", 2, "with torch.no_grad()"),
    _f("ctx.enable_grad", 1, "with torch.enable_grad()"),
    _f("ctx.set_grad_enabled", 1, "with torch.set_grad_enabled(flag)"),
    _f("ctx.autocast", 0.5, "with torch.autocast('cpu', dtype=torch.bfloat16)"),
    _f("ctx.inference_mode", 0.5, "with torch.inference_mode()"),
    _f("ctx.user_class", 1, "with an instance of a user class with __enter__/__exit__"),
    _f("ctx.contextmanager", 1, "with a contextlib.contextmanager function"),
    _f("ctx.contextmanager_disabled", 0.7, "@contextmanager over @torch._disable_dynamo(recursive=False)"),
    _f("ctx.decorator", 1, "a context manager applied as a decorator (def-site or torch.no_grad()(f)(x))"),
    _f("ctx.nested_decorators", 0.5, "two context-manager decorators stacked on one function"),
    _f("ctx.disable_ngb", 0.4, "@torch._dynamo.disable_nested_graph_breaks on a callee"),
    _f("ctx.as_value", 0.4, "a context manager created by the caller, entered by the callee after a break"),
    # control flow
    _f("flow.loop", 0.8, "for loops around calls and breaks"),
    _f("flow.try_except", 0.6, "try/except catching a deliberate raise"),
    _f("flow.try_finally", 0.6, "try/finally"),
    _f("flow.early_return", 0.5, "an early return behind a constant flag"),
    _f("flow.generator", 0.6, "a generator function run around calls and breaks"),
    _f("flow.tensor_loop", 0.6, "a loop over x's data (for r in x / x.unbind(0)) accumulating, a call inside"),
    _f("flow.recompile", 0.5, "a branch on a global call counter: the second call takes the other path"),
    # inputs and gradients
    _f("grad.backward", 0.5, "WANTS_GRAD: backward through the result"),
    _f("input.requires_grad", 0.6, "x requires grad"),
    _f("input.noncontiguous", 0.5, "x is a transposed (non-contiguous) tensor"),
    _f("input.main_float64", 0.4, "x is float64"),
    _f("input.main_bfloat16", 0.3, "x is bfloat16"),
    _f("input.rank1", 0.5, "x is 1-d"),
    _f("input.rank3", 0.5, "x is 3-d"),
    _f("input.scalar", 0.5, "an extra 0-d input"),
    _f("input.empty", 0.3, "an extra empty input"),
    _f("input.double", 0.3, "an extra float64 input"),
    _f("input.int", 0.3, "an extra int64 input"),
    _f("input.mark_dynamic", 0.3, "x's leading dimension marked dynamic (torch._dynamo.maybe_mark_dynamic)"),
    _f("input.other_sizes", 0.5, "make_inputs(device, size=1): a third call on inputs of other sizes (recompiles)"),
    # deliberate exceptions, filler
    _f("raise.deliberate", 0.4, "a ValueError raised on purpose (caught by try/except or escaping entry)"),
    _f("filler.hypothesmith", 0.1, "a hypothesmith statement block (screened to run under eager) in a nested def"),
    # the construct registry: side effects, classes, modules, builtins with callbacks, ... (fuzz/program/families)
    *(_f(c.name, c.weight, c.description) for c in CONSTRUCTS.values()),
)

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
    """Knobs of the generator. ``weights`` overrides catalog weights by feature name or by family (``"ctx"``)."""

    weights: Mapping[str, float] = field(default_factory=dict)
    max_depth: int = 100
    max_functions: int = 120

    def __post_init__(self):
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
        return (tuple(sorted(self.weights.items())), self.max_depth, self.max_functions)


def boosted(config: GenerationConfig, tags: Iterable[str], factor: float = 2.0) -> GenerationConfig:
    """``config`` with the weights of ``tags`` multiplied by ``factor`` (e.g. the tags of programs that just
    produced a new signature or unusual compiler behaviour). Derived ``shape.*`` tags boost nothing."""
    weights = dict(config.weights)
    for tag in tags:
        if tag in _BY_NAME:
            weights[tag] = config.weight(tag) * factor
    return GenerationConfig(weights, config.max_depth, config.max_functions)


def families() -> tuple[str, ...]:
    seen: dict[str, None] = {}
    for f in CATALOG:
        seen.setdefault(f.family, None)
    return tuple(seen)


# ---- extraction -----------------------------------------------------------------------------------------------

_STACK_CONTEXTS = frozenset(f.name.split(".", 1)[1] for f in CATALOG if f.family == "stack")
_NONEMPTY_STACK = _STACK_CONTEXTS - {"plain", "conditional"}
_CTX_WITH = {
    "no_grad": "ctx.no_grad",
    "enable_grad": "ctx.enable_grad",
    "set_grad_enabled_false": "ctx.set_grad_enabled",
    "set_grad_enabled_true": "ctx.set_grad_enabled",
    "autocast": "ctx.autocast",
    "inference_mode": "ctx.inference_mode",
    "user_class": "ctx.user_class",
    "contextmanager": "ctx.contextmanager",
    "contextmanager_disabled": "ctx.contextmanager_disabled",
    "param": "ctx.as_value",
    "disable_ngb": "ctx.disable_ngb",
}
_SIG_TAGS = {
    "recursive": "call.recursion",
    "method": "call.method",
    "lambda": "call.lambda",
    "varargs": "call.varargs",
    "kwargs": "call.kwargs",
    "cm_param": "ctx.as_value",
    "nonstrict": "call.nonstrict",
    "callable": "call.callable",
}
_TRY = {"except": "flow.try_except", "finally": "flow.try_finally"}
def _depth_tag(depth: int) -> str:
    if depth <= 1:
        return "depth.1"
    if depth <= 3:
        return "depth.2-3"
    if depth <= 9:
        return "depth.4-9"
    if depth <= 29:
        return "depth.10+"
    return "depth.30+"


def _breaks(program: ir.Program) -> list[bool]:
    """Per function: does calling it (transitively) break? Callees have larger indices: go bottom-up."""
    out = [False] * len(program.functions)
    for fn in reversed(program.functions):
        hit = fn.signature == "cm_param" or any(d == "contextmanager_disabled" for d in fn.decorators)
        for stmt, _ in ir.walk(fn.body):
            if isinstance(stmt, ir.Break) or (isinstance(stmt, ir.CallSite) and out[stmt.callee]):
                hit = True
            elif isinstance(stmt, ir.DataIf) and stmt.cond == "tensor":
                hit = True
            elif isinstance(stmt, ir.TensorLoop) and stmt.exit == "data":
                hit = True
            elif isinstance(stmt, ir.With) and stmt.kind == "contextmanager_disabled":
                hit = True
            elif isinstance(stmt, ir.Construct) and construct(stmt.name).breaks:
                hit = True
        out[fn.index] = hit
    return out


def _step_breaks(program: ir.Program) -> list[bool]:
    """Per function: does it contain a step break directly (not through a callee)?"""
    return [
        any(isinstance(s, ir.Break) and s.kind == "step_unsupported" for s, _ in ir.walk(fn.body))
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
                if stmt.context != "decorator":
                    tags.add("stack." + stmt.context)
                callee = fns[stmt.callee]
                if stmt.context == "decorator":
                    tags.add("ctx.decorator")
                    if breaks[stmt.callee]:
                        tags.add("shape.decorator_ctx_break")
                if breaks[stmt.callee] and any(isinstance(e, ir.With) for e in enclosing):
                    tags.add("shape.upper_ctx_break")
                if breaks[stmt.callee] and any(d != "nonstrict" for d in callee.decorators):
                    tags.add("shape.decorator_ctx_break")
                if steps[stmt.callee] and stmt.context in _NONEMPTY_STACK:
                    tags.add("shape.step_break_stack")
            elif isinstance(stmt, ir.Recurse):
                recursive = True
            elif isinstance(stmt, ir.Break):
                tags.add("break." + stmt.kind)
            elif isinstance(stmt, ir.DataIf):
                tags.add("break.data_if" if stmt.cond == "tensor" else "flow.recompile")
            elif isinstance(stmt, ir.With):
                tags.add(_CTX_WITH[stmt.kind])
                if stmt.kind == "contextmanager_disabled":
                    tags.add("shape.cm_disable_init")
            elif isinstance(stmt, ir.Closure):
                tags.add("closure.nonlocal")
                if fn.module and _closure_reads_globals_after_break(stmt):
                    tags.add("shape.helper_closure_globals")
            elif isinstance(stmt, ir.Loop):
                tags.add("flow.loop")
            elif isinstance(stmt, ir.TensorLoop):
                tags.add("flow.tensor_loop")
            elif isinstance(stmt, ir.Try):
                tags.add(_TRY[stmt.kind])
            elif isinstance(stmt, ir.Return):
                tags.add("flow.early_return")
            elif isinstance(stmt, ir.Generator):
                tags.add("flow.generator")
            elif isinstance(stmt, ir.Raise):
                tags.add("raise.deliberate")
            elif isinstance(stmt, ir.Construct):
                tags.add(stmt.name)
            elif isinstance(stmt, ir.Filler):
                tags.add("filler.hypothesmith")
        if recursive:  # f(x, 2) -> f(x, 1) -> f(x, 0): two more frames above the callees
            depth[fn.index] += 2
        if fn.module:
            tags.add("module.helper")
        if fn.signature in _SIG_TAGS:
            tags.add(_SIG_TAGS[fn.signature])
        cm_decorators = [d for d in fn.decorators if d != "nonstrict"]
        for deco in cm_decorators:
            tags.add("ctx.decorator")
            if deco in _CTX_WITH:
                tags.add(_CTX_WITH[deco])
            if deco == "contextmanager_disabled":
                tags.add("shape.cm_disable_init")
        if len(cm_decorators) >= 2:
            tags.add("ctx.nested_decorators")
    tags.add(_depth_tag(depth[0]))
    tags.add("call.tree" if any(len(c) >= 2 for c in callees) else "call.chain")
    inputs = program.inputs
    if program.wants_grad:
        tags.add("grad.backward")
    if inputs.requires_grad:
        tags.add("input.requires_grad")
    if inputs.layout != "contiguous":
        tags.add("input.noncontiguous")
    if inputs.dtype != "float32":
        tags.add("input.main_" + inputs.dtype)
    if inputs.rank != 2:
        tags.add(f"input.rank{inputs.rank}")
    for extra in inputs.extras:
        tags.add("input." + extra)
    if inputs.mark_dynamic:
        tags.add("input.mark_dynamic")
    if inputs.other_sizes:
        tags.add("input.other_sizes")
    return frozenset(tags)


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
