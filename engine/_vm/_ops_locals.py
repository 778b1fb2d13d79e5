"""Locals, constants, globals, cells and free variables."""

from __future__ import annotations

import torch

from .._errors import Unsupported
from .._guards import GlobalSrc
from . import _version as V
from ._opcodes import EagerSpec, handles
from ._values import EMPTY, NULL, UNREAD, CellVar, ConstVar, ObjVar
from ._wrap import is_const_value, wrap, wrap_fixed


def _raiser(exc_type, msg):
    def raise_it(*_):
        raise exc_type(msg)

    return raise_it


@handles("LOAD_FAST")
def _load_fast(vm, frame, ins):
    v = frame.locals[ins.arg]
    if v is None:
        raise Unsupported("unbound-local", f"local {ins.argval} is unbound", "",
                          EagerSpec(_raiser(UnboundLocalError, V.unbound_local_message(ins.argval)), 0))
    frame.stack.append(v)
    frame.ip += 1


@handles("STORE_FAST")
def _store_fast(vm, frame, ins):
    frame.locals[ins.arg] = frame.stack.pop()
    frame.ip += 1


@handles("DELETE_FAST")
def _delete_fast(vm, frame, ins):
    if frame.locals[ins.arg] is None:
        raise Unsupported("unbound-local", f"local {ins.argval} is unbound", "",
                          EagerSpec(_raiser(UnboundLocalError, V.unbound_local_message(ins.argval)), 0))
    frame.locals[ins.arg] = None
    frame.ip += 1


@handles("LOAD_CONST")
def _load_const(vm, frame, ins):
    frame.stack.append(ConstVar(ins.argval))
    frame.ip += 1


def load_global(vm, frame, name):
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
    raise Unsupported("name-error", f"global {name} is not defined", "",
                      EagerSpec(_raiser(NameError, f"name '{name}' is not defined"), 0))


@handles("LOAD_GLOBAL")
def _load_global(vm, frame, ins):
    v = load_global(vm, frame, ins.argval)
    if ins.arg & 1:
        frame.stack.append(NULL)
    frame.stack.append(v)
    frame.ip += 1


@handles("STORE_GLOBAL")
def _store_global(vm, frame, ins):
    v = vm.pop()
    vm.gover[(id(frame.fglobals), ins.argval)] = v
    vm.effects.append(("global", frame.fglobals, ins.argval, v))
    frame.ip += 1


@handles("DELETE_GLOBAL")
def _delete_global(vm, frame, ins):
    g, name = frame.fglobals, ins.argval

    def delete_global():
        del g[name]

    raise Unsupported("delete-global", "del of a global", "", EagerSpec(delete_global, 0, resume="none"))


@handles("LOAD_ASSERTION_ERROR")
def _load_assertion_error(vm, frame, ins):
    frame.stack.append(ObjVar(AssertionError, None))
    frame.ip += 1


# -- cells ------------------------------------------------------------------------------------------------

@handles("MAKE_CELL")
def _make_cell(vm, frame, ins):
    v = frame.locals[ins.arg]
    frame.locals[ins.arg] = CellVar(EMPTY if v is None else vm.resolve(v))
    frame.ip += 1


@handles("LOAD_CLOSURE")
def _load_closure(vm, frame, ins):
    frame.stack.append(frame.locals[ins.arg])
    frame.ip += 1


def cell_get(vm, cell):
    if cell.contents is UNREAD:
        from .._guards import CellSrc

        try:
            real = cell.real.cell_contents
        except ValueError:
            vm.guards.add(f"_cell_empty({cell.src.expr(vm.ns)})")
            cell.contents = EMPTY
        else:
            cell.contents = wrap(vm, real, CellSrc(cell.src))
    return cell.contents


def _cell(vm, frame, ins):
    c = vm.resolve(frame.locals[ins.arg])
    frame.locals[ins.arg] = c
    return c


@handles("LOAD_DEREF")
def _load_deref(vm, frame, ins):
    cell = _cell(vm, frame, ins)
    v = cell_get(vm, cell)
    if v is EMPTY:
        name = ins.argval
        msg = V.unbound_free_message(name) if name in frame.info.code.co_freevars \
            else V.unbound_local_message(name)
        exc = NameError if name in frame.info.code.co_freevars else UnboundLocalError
        raise Unsupported("unbound-cell", f"cell {name} is empty", "", EagerSpec(_raiser(exc, msg), 0))
    frame.stack.append(v)
    frame.ip += 1


def cell_set(vm, cell, v):
    cell.contents = v
    if cell.real is not None:
        vm.effects.append(("cell", cell, v))


@handles("STORE_DEREF")
def _store_deref(vm, frame, ins):
    cell = _cell(vm, frame, ins)
    cell_set(vm, cell, vm.pop())
    frame.ip += 1


@handles("DELETE_DEREF")
def _delete_deref(vm, frame, ins):
    cell = _cell(vm, frame, ins)
    if cell.real is not None or cell_get(vm, cell) is EMPTY:
        raise Unsupported("delete-deref", "del of a shared cell", "")
    cell.contents = EMPTY
    frame.ip += 1
