"""Shortcuts from opcode handlers to the graph builder."""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from ._interp import VM
    from ._values import Var


def graph_fn(vm: VM, fn: Callable[..., Any], args: list[Var], name: str):
    return vm.op("call_function", fn, args, {}, vm.grad, name)
