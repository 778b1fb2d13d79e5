"""Named sets of Dynamo/Inductor config flags: what a ``config=NAME[+NAME...]`` target option turns on.

One table, ``CONFIGS``: each entry a name, what it changes, and its flags as ``("dynamo"|"inductor", flag,
value)``. The worker applies a target's flags with ``torch._dynamo.config.patch`` (and Inductor's) around the
compile and every call, so they are restored after each job; the standalone footer and the short checks set
the same flags (``assignments``), so ``python repro.py`` checks what the campaign checked. A flag that the
torch running a target does not have (an older one through ``python=``) refuses the target in one line
(``missing_flags``), never a crash. Every flag here runs programs the same way eager does: a different result
under any of them is a bug.
"""

from __future__ import annotations

import dataclasses

from ._errors import TargetError

__all__ = [
    "ConfigSet",
    "CONFIGS",
    "parse_config",
    "flags_of",
    "assignments",
    "missing_flags",
    "MISSING_PROBE",
]


@dataclasses.dataclass(frozen=True, slots=True)
class ConfigSet:
    name: str
    description: str
    flags: tuple[tuple[str, str, object], ...]  # (module: "dynamo" | "inductor", flag, value)


CONFIGS: dict[str, ConfigSet] = {
    c.name: c
    for c in (
        ConfigSet(
            "capture_scalar_outputs",
            "trace Tensor.item() into the graph (unbacked symbols) instead of breaking",
            (("dynamo", "capture_scalar_outputs", True),),
        ),
        ConfigSet(
            "capture_dynamic_output_shape_ops",
            "trace ops whose output shape depends on data (nonzero, ...)",
            (("dynamo", "capture_dynamic_output_shape_ops", True),),
        ),
        ConfigSet(
            "no_inline_nn_modules",
            "treat torch.nn modules as opaque (inline_inbuilt_nn_modules off; a no-op from torch 2.15 on)",
            (("dynamo", "inline_inbuilt_nn_modules", False),),
        ),
        ConfigSet(
            "specialize_int", "specialize every int input to its value", (("dynamo", "specialize_int", True),)
        ),
        ConfigSet(
            "specialize_float",
            "specialize every float input to its value",
            (("dynamo", "specialize_float", True),),
        ),
        ConfigSet(
            "recompile_limit_1",
            "one compiled version per frame: a recompile falls back to running it eagerly",
            (("dynamo", "recompile_limit", 1),),
        ),
        ConfigSet(
            "dynamic_by_default",
            "every dimension dynamic from the first call (assume_static_by_default off)",
            (("dynamo", "assume_static_by_default", False),),
        ),
        ConfigSet(
            "no_automatic_dynamic",
            "a new input size recompiles static again (automatic_dynamic_shapes off)",
            (("dynamo", "automatic_dynamic_shapes", False),),
        ),
        ConfigSet(
            "deferred_runtime_asserts",
            "check shape facts at run time rather than by guards",
            (("dynamo", "prefer_deferred_runtime_asserts_over_guards", True),),
        ),
        ConfigSet(
            "graph_deduplication",
            "merge identical regions of a graph into one subgraph",
            (("dynamo", "use_graph_deduplication", True),),
        ),
        ConfigSet(
            "inductor_precision_casts",
            "Inductor rounds intermediates as eager does (emulate_precision_casts)",
            (("inductor", "emulate_precision_casts", True),),
        ),
        ConfigSet(
            "inductor_no_pattern_matcher",
            "Inductor without its pattern-matcher rewrites",
            (("inductor", "pattern_matcher", False),),
        ),
    )
}


def parse_config(value: str) -> str:
    """The canonical form of a ``config=`` value (names sorted, no repeats; ``none`` for none); TargetError
    with the valid names on an unknown one."""
    names = [n.strip() for n in value.split("+")]
    if names == ["none"]:
        return "none"
    for name in names:
        if name not in CONFIGS:
            raise TargetError(f"unknown config {name!r} in config={value}; valid: {', '.join(CONFIGS)} "
                              "(joined with +)")
    return "+".join(sorted(set(names)))


def flags_of(value: str) -> list[tuple[str, str, object]]:
    """The flags of a canonical ``config=`` value, its names in the value's (sorted) order."""
    if value in ("", "none"):
        return []
    return [flag for name in value.split("+") for flag in CONFIGS[name].flags]


def assignments(value: str, indent: str = "") -> list[str]:
    """Python statements that set the flags of ``value`` (for standalone checks, which run one program)."""
    return [f"{indent}torch._{module}.config.{flag} = {val!r}" for module, flag, val in flags_of(value)]


# Run by an interpreter (``python -c``) with the flags as JSON on argv[1]: prints those it does not have.
MISSING_PROBE = (
    "import json,sys,torch._dynamo.config as d,torch._inductor.config as i;"
    "print(' '.join(m+'.'+f for m,f,_ in json.loads(sys.argv[1]) if not hasattr(d if m=='dynamo' else i,f)))"
)


def missing_flags(flags: list[tuple[str, str, object]]) -> list[str]:
    """The flags (``dynamo.NAME``) this interpreter's torch does not have."""
    import torch._dynamo.config as dynamo_config
    import torch._inductor.config as inductor_config

    modules = {"dynamo": dynamo_config, "inductor": inductor_config}
    return [f"{m}.{f}" for m, f, _ in flags if not hasattr(modules[m], f)]
