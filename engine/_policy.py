"""The one policy table: for every callable the VM meets, is it traced, a graph op, modeled, or run eagerly?

Three kinds of entries, looked up in this order (first match wins), each with the reason it is what it is:

1. `CALLABLES` — exact objects (functions, builtins) with a decision of their own: models of builtins and
   library queries (`is_scripting()` is False, `has_torch_function*` on plain tensors), and side effects
   that must run for real (`print`, `warnings.warn`).
2. Graph ops (`is_graph_op`) — torch callables whose call becomes one FX node, metadata from fake tensors:
   the public functions of the torch namespaces in `GRAPH_MODULES` (`torch.nn.functional` included: its
   Python runs under fake tensors while tracing, for real in the graph, and AOT backends trace through it).
3. `PATH_RULES` — Python functions by where their code lives: torch.nn's modules and functional helpers,
   torch.backends flags and user code (in site-packages too) are traced; other torch internals, the stdlib
   and array libraries run eagerly (a break).

Opcode-level facts (tensor methods and attributes) stay in `_vm/_torchops.py`; markers (`graph_break`,
`disable`) are decided by the call path before this table is consulted.
"""

from __future__ import annotations

import builtins
import enum
import functools
import math
import operator
import os
import sys
import types
import warnings
import weakref
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import torch
import torch._jit_internal
import torch.backends.mha
import torch.jit

# The markers' objects (torch's region factories, the exit callable, torch's traced wrappers); data only, that
# module imports no VM machinery.
from ._vm._regions import TRACED_WRAPPERS, RegionExit, region_factories


class Decision(enum.Enum):
    """What the VM does with a callable."""

    TRACE = "trace"  # its bytecode runs on the VM, as user code does
    GRAPH_OP = "graph op"  # one FX node; the call runs on fake tensors for its metadata
    MODEL = "model"  # a model computes the result from VM values (engine/_vm/_library.py)
    EAGER = "eager"  # it runs for real at its point in the program: a break


@dataclass(frozen=True, slots=True)
class Rule:
    """One policy entry: a decision and the reason for it.

    A MODEL rule's model lives with the other models, keyed by the rule (`engine._vm._library.MODELS`, which
    checks at import that every MODEL rule here has one), so this table stays data and imports no VM code.
    `model` may name the model directly instead. A model returns NotImplemented when the call must run
    eagerly, and None when the callable (Python code) is better traced as usual for these arguments.
    """

    decision: Decision
    reason: str
    model: Callable[..., Any] | None = None  # for MODEL: model(vm, fn, args, kwargs) -> Var | NotImplemented | None


T, G, M, E = Decision.TRACE, Decision.GRAPH_OP, Decision.MODEL, Decision.EAGER

TORCH_FUNCTION_CHECK = Rule(M, "False when every argument is a plain tensor or a constant and no torch-function "
                               "mode is active (the mode stack is part of every segment's guards)")
FOLD_FALSE = Rule(M, "TorchScript never runs the engine's code: always False")
TRACING = Rule(M, "whether the JIT tracer is running: read now and guarded")
STATE_NOW = Rule(M, "a query of torch's global state with no argument (export running, dispatch modes pushed): "
                    "read now and guarded, as torch.nn's inference fast paths ask it")
OPERATOR = Rule(M, "operator functions are the operators: modeled as the opcodes are")
MATH = Rule(M, "pure functions of numbers: folded on constants")
HASATTR = Rule(M, "answered from the trace's own attribute lookup, guarded on the object")
GETATTR = Rule(M, "LOAD_ATTR's lookup; with a default, answered like hasattr first")
WEAKREF_CALL = Rule(M, "ref() is the referent, re-read and guarded at each segment start (recurrent modules "
                       "keep weak references to their weights)")
PARTIAL_CALL = Rule(M, "a partial is its function with arguments prepended: the function is traced or "
                       "modeled as any other call")
REGION = Rule(M, "makes a compile-time region (error_on_graph_break, disable_nested_graph_breaks) whose meaning "
                 "is decided at a break")
MODULE_SETATTR = Rule(M, "the stores forward code makes (a tensor into an existing buffer, a plain value under a "
                         "new name) are one guarded store, with no global hooks; other stores (parameters, "
                         "submodules) trace Module.__setattr__ itself")
MODULE_MEMBERS = Rule(M, "parameters()/named_modules()/children()... are generators built with `yield from`: "
                         "modeled as a live view of the module tree (_vm/_members.py), the real generator when "
                         "it must become real")
REGION_EXIT = Rule(M, "leaving a compile-time region: nothing happens at run time")

CALLABLES: dict[object, Rule] = {
    torch._C._has_torch_function: TORCH_FUNCTION_CHECK,
    torch._C._has_torch_function_unary: TORCH_FUNCTION_CHECK,
    torch._C._has_torch_function_variadic: TORCH_FUNCTION_CHECK,
    torch._jit_internal.is_scripting: FOLD_FALSE,
    torch.jit._trace.is_tracing: TRACING,  # (torch.jit.is_tracing)
    torch._C._is_tracing: TRACING,
    torch.compiler.is_exporting: STATE_NOW,
    torch.utils._python_dispatch._get_current_dispatch_mode_stack: STATE_NOW,
    hasattr: HASATTR,
    torch.nn.Module.__setattr__: MODULE_SETATTR,
    **{getattr(torch.nn.Module, n): MODULE_MEMBERS for n in ("parameters", "named_parameters", "buffers",
                                                             "named_buffers", "children", "named_children",
                                                             "modules", "named_modules")},
    getattr: GETATTR,
    **{f: REGION for f in region_factories()},
    builtins.print: Rule(E, "output is a side effect at its point in the program"),
    warnings.warn: Rule(E, "a warning is output (or an exception under an 'error' filter) at its point"),
    **{getattr(math, n): MATH for n in dir(math) if isinstance(getattr(math, n), types.BuiltinFunctionType)},
    **{f: OPERATOR for f in (operator.add, operator.sub, operator.mul, operator.truediv, operator.floordiv, operator.mod,
                 operator.pow, operator.neg, operator.eq, operator.ne, operator.lt, operator.le, operator.gt,
                 operator.ge, operator.getitem, operator.index, operator.not_, operator.and_, operator.or_)},
}

# Calling an *instance* of these types.
INSTANCE_CALLS: dict[type, Rule] = {
    weakref.ReferenceType: WEAKREF_CALL,
    RegionExit: REGION_EXIT,
    functools.partial: PARTIAL_CALL,
}

# Torch namespaces whose public functions are graph ops; names that look like ops but are not.
GRAPH_MODULES = {"torch", "torch._C._nn", "torch._C._linalg", "torch._C._special", "torch._C._fft",
                 "torch.nn.functional", "torch.functional", "torch._C._VariableFunctions"}
DENY_PREFIXES = ("_", "set_", "get_", "use_", "manual_seed", "is_grad", "is_inference", "is_autocast",
                 "is_deterministic", "is_warn", "is_anomaly", "compile", "save", "load", "from_numpy",
                 "from_file", "frombuffer", "seed", "initial_seed", "vmap", "cond", "autocast", "inference",
                 "enable_grad", "no_grad", "is_storage", "typename", "is_nonzero", "equal", "allclose")


# Private torch ops that are graph ops all the same: the fused inference kernels torch.nn's fast paths call
# (nn.TransformerEncoderLayer and nn.MultiheadAttention under no_grad in eval mode).
GRAPH_OPS_PRIVATE = frozenset({torch._transformer_encoder_layer_fwd, torch._native_multi_head_attention})


def is_graph_op(obj: object) -> bool:
    """A torch callable whose call becomes one graph node (its metadata is computed on fake tensors)."""
    if obj in GRAPH_OPS_PRIVATE:
        return True
    if not isinstance(obj, (types.BuiltinFunctionType, types.FunctionType)):
        return False
    mod = getattr(obj, "__module__", None)
    name = getattr(obj, "__name__", "")
    if mod not in GRAPH_MODULES or name.startswith(DENY_PREFIXES):
        return False
    if mod in ("torch", "torch._C._VariableFunctions") and getattr(torch, name, None) is not obj:
        return False
    return True


_TORCH = os.path.dirname(torch.__file__) + os.sep
_STDLIB = os.path.dirname(os.__file__) + os.sep
_SITE = ("site-packages" + os.sep, "dist-packages" + os.sep)

# (path prefix inside torch, decision, reason) — the first matching prefix decides for torch's own code.
TORCH_PATH_RULES: tuple[tuple[str, Decision, str], ...] = (
    ("nn/modules/", T, "module classes: forward is short Python over functional ops; tracing it makes "
                       "parameters and buffers graph inputs"),
    ("nn/functional.py", T, "the private helpers of torch.nn.functional (masks, dtypes, argument checks); "
                            "its public functions are graph ops (see is_graph_op)"),
    ("nn/utils/rnn.py", T, "PackedSequence helpers used by the recurrent modules' forward"),
    ("nn/parameter.py", T, "Parameter/Buffer helpers are plain Python"),
    ("nn/init.py", T, "weight initialisers: argument checks and fan computations over in-place tensor ops"),
    ("backends/mha/", T, "the attention fast-path switch: a module global, read with a guard"),
    ("_jit_internal.py", T, "TorchScript queries; is_scripting() itself is modeled (False)"),
    ("", E, "torch internals (compiler machinery, C bindings, global state) run for real"),
)

# Packages outside torch that are not user model code: their Python wraps C (arrays, solvers) or the
# test harness, so tracing gains no graph ops and only adds breaks inside them.
EAGER_PACKAGES = ("numpy", "scipy", "pandas", "sympy", "triton", "hypothesis", "_pytest", "pytest", "pluggy")


# Code traced wherever it lives: torch's wrappers for context-manager decorators and nonstrict_trace.
TRACED_CODES: dict[types.CodeType, str] = dict(TRACED_WRAPPERS)
# `@torch.autocast(...)`'s wrapper is `with autocast_instance: return func(...)`: traced, it is the with-block
# form (entering and leaving autocast are graph nodes, see _vm/_modes.py), rather than the whole decorated
# function running eagerly.
TRACED_CODES[torch.autocast("cpu")(lambda: None).__code__] = "torch.autocast's decorator wrapper (a with-block)"
# The same for torch's other decorator context managers (`with ctx_factory(): return func(...)`, e.g.
# `@torch.inference_mode()`); the grad modes' decorators are modeled before this rule (GradWrappedVar).
TRACED_CODES[torch.inference_mode()(lambda: None).__code__] = "torch's context-manager decorator wrapper"


def code_rule(code: types.CodeType) -> tuple[Decision, str]:
    """Whether a Python function's code is traced, by where it lives."""
    if code in TRACED_CODES:
        return T, TRACED_CODES[code]
    fn = code.co_filename
    if fn.startswith(_TORCH):
        rel = fn[len(_TORCH):]
        for prefix, decision, reason in TORCH_PATH_RULES:
            if rel.startswith(prefix):
                return decision, reason
    if fn.startswith("<frozen") or (fn.startswith(_STDLIB) and not any(s in fn for s in _SITE)):
        return E, "the standard library runs for real; what library code needs of it is modeled (CALLABLES)"
    for s in _SITE:
        k = fn.find(s)
        if k >= 0:
            top = fn[k + len(s):].split(os.sep, 1)[0].split(".", 1)[0]
            if top in EAGER_PACKAGES:
                return E, f"{top} is array/harness code over C: tracing it gains no graph ops"
            return T, "user code installed as a package is user code"
    return T, "user code"


def skip_inline(code: types.CodeType) -> bool:
    return code_rule(code)[0] is not T


def rule_for(obj: object) -> Rule | None:
    """The CALLABLES or INSTANCE_CALLS entry of a callable, if it has one."""
    try:
        rule = CALLABLES.get(obj)
    except TypeError:  # unhashable callables have no entry of their own
        rule = None
    return rule if rule is not None else INSTANCE_CALLS.get(type(obj))


def describe() -> str:
    """The whole policy as text (for docs and `python -m engine._policy`)."""
    lines = ["callables:"]
    groups: dict[int, tuple[Rule, list[str]]] = {}
    for obj, rule in CALLABLES.items():
        mod = getattr(obj, "__module__", "") or ""
        name = f"{mod + '.' if mod and not mod.startswith('torch._C.') else ''}{getattr(obj, '__qualname__', obj)}"
        groups.setdefault(id(rule), (rule, []))[1].append(name)
    for rule, names in groups.values():
        shown = ", ".join(names[:6]) + (f" (+{len(names) - 6} more)" if len(names) > 6 else "")
        lines.append(f"  {shown}: {rule.decision.value} — {rule.reason}")
    lines += [f"  calling a {t.__module__}.{t.__qualname__}: {r.decision.value} — {r.reason}"
              for t, r in INSTANCE_CALLS.items()]
    lines.append(f"graph ops: public functions of {', '.join(sorted(GRAPH_MODULES))}")
    lines.append("torch code by path:")
    lines += [f"  torch/{p or '*'}: {d.value} — {r}" for p, d, r in TORCH_PATH_RULES]
    lines.append(f"stdlib: eager; site-packages: traced, except {', '.join(EAGER_PACKAGES)} (eager)")
    return "\n".join(lines)


if __name__ == "__main__":
    print(describe())
    sys.exit(0)
