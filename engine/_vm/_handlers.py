"""Importing this module registers every opcode handler family in the dispatch table, binds every VM
operation of `_iface.VMOps` and registers every model of the registry (`_iface.MODELS`)."""

from . import (  # noqa: F401  (operations)
    _arith,
    _attrs,
    _builtins,
    _calls,
    _iters,
    _methods,
    _models_py,
    _objects,
    _ops_build,
    _ops_calls,
    _ops_exc,
    _ops_jumps,
    _ops_locals,
    _ops_match,
    _ops_ops,
    _ops_py312,
    _ops_py313,
    _ops_stack,
    _wrap,
)
from ._iface import OPERATIONS, VMOps

_unbound = [n for n in OPERATIONS if getattr(VMOps.__dict__[n], "_unbound", False)]
assert not _unbound, f"VM operations with no implementation: {_unbound}"
