"""Side effects of traced code on objects that existed before the segment, replayed in program order.

The VM logs them (`VM.effects`); the residual code replays each after the graph ran (`Emitter.effects`). A
logged mutation of a real container is also applied to its contents when traced code later reads them
(`_methods._replay_pending`), so `target` is the same field on every record.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from ._values import CellVar, Var


@dataclass(frozen=True, slots=True)
class CallEffect:
    """`target.name(*args)`: a mutating method of a real list whose contents were not read (append...)."""

    target: Var
    name: str
    args: list[Var]


@dataclass(frozen=True, slots=True)
class SetItemEffect:
    """`target[key] = value` on a real list or dict whose contents were not read; with `via` a builtin
    class, `via.__setitem__(target, key, value)` (a subclass's own `__setitem__` bypassed, as
    `super().__setitem__` does)."""

    target: Var
    key: Var
    value: Var
    via: type | None = None


@dataclass(frozen=True, slots=True)
class SetAttrEffect:
    """`setattr(target, name, value)`, or `object.__setattr__(...)` when `raw` (bypassing the class's own)."""

    target: Var
    name: str
    value: Var
    raw: bool = False


@dataclass(frozen=True, slots=True)
class GlobalEffect:
    """`target[name] = value` on a globals dict (STORE_GLOBAL)."""

    target: dict[str, Any]
    name: str
    value: Var


@dataclass(frozen=True, slots=True)
class CellEffect:
    """`target.cell_contents = value` on a cell that existed before the segment (nonlocal)."""

    target: CellVar
    value: Var


Effect = CallEffect | SetItemEffect | SetAttrEffect | GlobalEffect | CellEffect
