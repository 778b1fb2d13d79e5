"""Eager forms by opcode, for when a handler failed with an engine error (not an Unsupported).

Handlers compute before they commit, so the frame is still in the state before the instruction: running
the instruction for real from that state is right, and better than giving up on the frame -- except for a
call that reads the calling frame (zero-argument super(), locals()...), which has no eager form outside it.
"""

from __future__ import annotations

import operator

from . import _version as V
from ._opcodes import EagerSpec


def eager_form(frame, ins):
    from ._ops_build import _unpack_adapter
    from ._ops_calls import _call_ex, call_adapter
    from ._ops_jumps import _next_or_exhausted
    from ._ops_ops import _getattr_adapter, _method_adapter, _setattr_adapter, _store_subscr_eager

    op = ins.opname
    if op == "CALL":
        if _reads_frame(frame, ins.arg + 2):
            return None
        return EagerSpec(call_adapter(frame.kw_names or ()), ins.arg + 2, label="call")
    if op == "CALL_FUNCTION_EX":
        if _reads_frame(frame, 4 if ins.arg & 1 else 3):
            return None
        return EagerSpec(_call_ex, 4 if ins.arg & 1 else 3, label="call")
    if op == "BINARY_OP":
        return EagerSpec(V.BINARY_OPS[ins.arg][1], 2)
    if op == "COMPARE_OP":
        return EagerSpec(V.COMPARE_OPS[ins.argval], 2)
    if op == "BINARY_SUBSCR":
        return EagerSpec(operator.getitem, 2)
    if op == "STORE_SUBSCR":
        return EagerSpec(_store_subscr_eager, 3, resume="none")
    if op == "LOAD_ATTR":
        return EagerSpec(_getattr_adapter(ins.argval), 1)
    if op == "LOAD_METHOD":
        return EagerSpec(_method_adapter(ins.argval), 1, resume="pushn")
    if op == "STORE_ATTR":
        return EagerSpec(_setattr_adapter(ins.argval), 2, resume="none")
    if op == "GET_ITER":
        return EagerSpec(iter, 1)
    if op == "FOR_ITER":
        return EagerSpec(_next_or_exhausted, 1, npop=0, resume="foriter")
    if op == "UNPACK_SEQUENCE":
        return EagerSpec(_unpack_adapter(ins.arg), 1, resume="pushn")
    if op in V.UNARY_OPS:
        return EagerSpec(V.UNARY_OPS[op], 1)
    if op in V.CONDITIONAL_POP_JUMPS and V.CONDITIONAL_POP_JUMPS[op] in ("true", "false"):
        return EagerSpec(bool, 1, resume="retry")
    return None


def _reads_frame(frame, nitems):
    """The callable of the top `nitems` stack items ([NULL|callable, callable|self, ...]) reads the
    calling frame. Only a known object is looked at: anything else keeps the call as its eager form."""
    from ._values import NULL, FuncVar, ObjVar

    items = frame.stack[len(frame.stack) - nitems:]
    fn = items[1] if items[0] is NULL else items[0]
    if type(fn) is FuncVar:  # a reader written in Python (inspect.currentframe)
        return fn.real is not None and V.reads_calling_frame(fn.real, 0)
    if type(fn) is not ObjVar:
        return False
    return fn.obj is super or V.reads_calling_frame(fn.obj, 0)
