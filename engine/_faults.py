"""Fault switches: the classic nested-graph-break bugs, re-created on purpose at the real mechanism.

`engine.compile(fn, fault=NAME)` (target `engine:fault=NAME`) turns one on; off by default. They exist so the
fuzzer's power can be measured against bugs whose root cause is known. Every hook asks `fault(ctx, NAME)`
at the one place the real bug would live; this table is the only list of names.
"""

from __future__ import annotations

from ._errors import EngineError

FAULTS: dict[str, str] = {
    "forget-upper-cm": "on resume after a break in a callee, the grad mode of an upper frame's with-block is "
                       "forgotten (the resumed code runs under the mode before that block)",
    "closure-root-globals": "a nested function (a closure) traced inside runs with the root frame's globals",
    "drop-decorator-cm": "a grad-mode decorator (@torch.no_grad(), torch.enable_grad()(f)) is dropped: the "
                         "decorated function is traced under the caller's mode",
    "corrupt-parent-slot": "on a step break (step_unsupported), a caller's top operand-stack slot (a tensor) "
                           "is persisted from another tensor of that frame (a slot below, else a local)",
    "replay-effect-twice": "a replayed mutating call on a pre-existing object (list.append...) runs twice",
    "lose-cell-write": "a store into a cell that existed before the segment (nonlocal) is not replayed",
    "leave-grad-changed": "a segment that returns after a grad-mode block leaves grad mode flipped",
}


def check_fault(name: str | None) -> str | None:
    if name is not None and name not in FAULTS:
        raise EngineError(f"unknown engine fault {name!r}; valid: {', '.join(FAULTS)}")
    return name


def fault(ctx: object, name: str) -> bool:
    """Whether fault `name` is on for the compiled function `ctx` (a Compiled, or the VM's ctx)."""
    assert name in FAULTS, name
    return getattr(ctx, "fault", None) == name
