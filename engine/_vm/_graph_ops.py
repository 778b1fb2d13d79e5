"""Shortcuts from opcode handlers to the graph builder."""

from __future__ import annotations


def graph_fn(vm, fn, args, name):
    return vm.op("call_function", fn, args, {}, vm.grad, name)
