"""Locals, constants, globals, cells and free variables."""

from __future__ import annotations

from typing import TYPE_CHECKING

import torch

from .. import _runtime as R
from .._errors import Unsupported
from .._guards import CellSrc, GlobalSrc
from . import _version as V
from ._consts import is_const_value
from ._effects import CellEffect, GlobalEffect
from ._opcodes import EagerSpec, Resume, handles, raising
from ._values import EMPTY, NULL, UNREAD, CellVar, ConstVar, ObjVar
from ._wrap import wrap, wrap_fixed

if TYPE_CHECKING:
    from ._code import Instr
    from ._frame import Frame
    from ._interp import VM
    from ._values import Var


def _unbound_local_eager(frame: Frame, ins: Instr) -> EagerSpec | None:
    """LOAD_FAST/DELETE_FAST of an unbound local: CPython's UnboundLocalError (None while it is bound)."""
    if frame.locals[ins.arg] is not None:
        return None
    return EagerSpec(raising(UnboundLocalError, V.unbound_local_message(ins.argval)), 0)


@handles("LOAD_FAST", eager=_unbound_local_eager)
def _load_fast(vm: VM, frame: Frame, ins: Instr) -> None:
    v = frame.locals[ins.arg]
    if v is None:
        raise Unsupported("unbound-local", f"local {ins.argval} is unbound")
    frame.stack.append(v)
    frame.ip += 1


@handles("STORE_FAST")
def _store_fast(vm: VM, frame: Frame, ins: Instr) -> None:
    v = frame.stack.pop()
    frame.locals[ins.arg] = None if v is NULL else v  # (3.12: LOAD_FAST_AND_CLEAR's NULL puts it back unbound)
    frame.ip += 1


@handles("DELETE_FAST", eager=_unbound_local_eager)
def _delete_fast(vm: VM, frame: Frame, ins: Instr) -> None:
    if frame.locals[ins.arg] is None:
        raise Unsupported("unbound-local", f"local {ins.argval} is unbound")
    frame.locals[ins.arg] = None
    frame.ip += 1


@handles("LOAD_CONST")
def _load_const(vm: VM, frame: Frame, ins: Instr) -> None:
    frame.stack.append(ConstVar(ins.argval))
    frame.ip += 1


def load_global(vm: VM, frame: Frame, ins: Instr):
    name = ins.argval
    g = frame.fglobals
    over = vm.gover.get((id(g), name))
    if over is not None:
        return over
    if name in g:
        value = g[name]
        src = GlobalSrc(g, name)
        if is_const_value(value) or isinstance(value, torch.Tensor):
            return wrap(vm, value, src)
        vm.guards.global_identity(g, name, value)
        return wrap_fixed(vm, value)
    b = frame.builtins
    if name in b:
        vm.guards.global_absent(g, name)
        value = b[name]
        vm.guards.global_identity(b, name, value)
        return wrap_fixed(vm, value)
    raise Unsupported("name-error", f"global {name} is not defined")


def _load_global_eager(frame: Frame, ins: Instr) -> EagerSpec:
    """LOAD_GLOBAL for real: the lookup CPython does at the time the op runs (after the segment's own
    global stores were replayed), NameError included; with the low bit set, NULL is pushed first."""
    g, b, name = frame.fglobals, frame.builtins, ins.argval
    null = bool(ins.arg & 1)

    def load_global():
        if name in g:
            value = g[name]
        elif name in b:
            value = b[name]
        else:
            raise NameError(f"name '{name}' is not defined")
        return [R.NULL, value] if null else [value]

    return EagerSpec(load_global, 0, resume=Resume.PUSHN, label="global")


@handles("LOAD_GLOBAL", eager=_load_global_eager)
def _load_global(vm: VM, frame: Frame, ins: Instr) -> None:
    v = load_global(vm, frame, ins)
    if ins.arg & 1:
        frame.stack.append(NULL)
    frame.stack.append(v)
    frame.ip += 1


@handles("STORE_GLOBAL")
def _store_global(vm: VM, frame: Frame, ins: Instr) -> None:
    v = vm.pop()
    vm.gover[(id(frame.fglobals), ins.argval)] = v
    vm.effects.append(GlobalEffect(frame.fglobals, ins.argval, v))
    frame.ip += 1


def _delete_global_eager(frame: Frame, ins: Instr) -> EagerSpec:
    g, name = frame.fglobals, ins.argval

    def delete_global() -> None:
        del g[name]

    return EagerSpec(delete_global, 0, resume=Resume.NONE)


@handles("DELETE_GLOBAL", eager=_delete_global_eager)
def _delete_global(vm: VM, frame: Frame, ins: Instr) -> None:
    raise Unsupported("delete-global", "del of a global")


@handles("LOAD_ASSERTION_ERROR")
def _load_assertion_error(vm: VM, frame: Frame, ins: Instr) -> None:
    frame.stack.append(ObjVar(AssertionError, None))
    frame.ip += 1


# -- cells ------------------------------------------------------------------------------------------------

def make_cell(vm: VM, frame: Frame, index: int) -> None:
    """Local `index` becomes a cell holding its value (empty if unbound), as MAKE_CELL does."""
    v = frame.locals[index]
    frame.locals[index] = CellVar(EMPTY if v is None else vm.resolve(v))


@handles("MAKE_CELL")
def _make_cell(vm: VM, frame: Frame, ins: Instr) -> None:
    make_cell(vm, frame, ins.arg)
    frame.ip += 1


@handles("LOAD_CLOSURE")
def _load_closure(vm: VM, frame: Frame, ins: Instr) -> None:
    frame.stack.append(frame.locals[ins.arg])
    frame.ip += 1


def cell_get(vm: VM, cell: CellVar):
    if cell.contents is UNREAD:
        try:
            real = cell.real.cell_contents
        except ValueError:
            vm.guards.add(f"_cell_empty({cell.src.expr(vm.ns)})")
            cell.contents = EMPTY
        else:
            cell.contents = wrap(vm, real, CellSrc(cell.src))
    return cell.contents


def _cell(vm: VM, frame: Frame, ins: Instr):
    c = vm.resolve(frame.locals[ins.arg])
    frame.locals[ins.arg] = c
    return c


def _empty_cell_eager(frame: Frame, ins: Instr) -> EagerSpec:
    """LOAD_DEREF of an empty cell: CPython's error. Not LOAD_DEREF's eager form in general: the cell's
    contents are not on the stack, so an op run for real cannot read them."""
    name = ins.argval
    if name in frame.info.code.co_freevars:
        return EagerSpec(raising(NameError, V.unbound_free_message(name)), 0)
    return EagerSpec(raising(UnboundLocalError, V.unbound_local_message(name)), 0)


@handles("LOAD_DEREF")
def _load_deref(vm: VM, frame: Frame, ins: Instr) -> None:
    cell = _cell(vm, frame, ins)
    v = cell_get(vm, cell)
    if v is EMPTY:
        raise Unsupported("unbound-cell", f"cell {ins.argval} is empty", eager=_empty_cell_eager(frame, ins))
    frame.stack.append(v)
    frame.ip += 1


def cell_set(vm: VM, cell: CellVar, v: Var) -> None:
    cell.contents = v
    if cell.real is not None:
        vm.effects.append(CellEffect(cell, v))


@handles("STORE_DEREF")
def _store_deref(vm: VM, frame: Frame, ins: Instr) -> None:
    cell = _cell(vm, frame, ins)
    cell_set(vm, cell, vm.pop())
    frame.ip += 1


@handles("DELETE_DEREF")
def _delete_deref(vm: VM, frame: Frame, ins: Instr) -> None:
    cell = _cell(vm, frame, ins)
    if cell.real is not None or cell_get(vm, cell) is EMPTY:
        raise Unsupported("delete-deref", "del of a shared cell")
    cell.contents = EMPTY
    frame.ip += 1
