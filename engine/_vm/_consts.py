"""Which real values the VM holds as constants, and a dict key as a VM value (a leaf: any VM module may
import it)."""

from __future__ import annotations

import torch

from ._values import ConstVar, ObjVar, Var

SCALARS = (int, float, bool, str, type(None), bytes, complex)
IMMUTABLE = SCALARS + (torch.dtype, torch.device, torch.layout, torch.memory_format, range, torch.Size,
                        type(Ellipsis), type(NotImplemented))


def is_const_value(v: object) -> bool:
    t = type(v)
    if t in IMMUTABLE:
        return True
    if t is tuple or t is frozenset:
        return all(is_const_value(x) for x in v)
    return False


def key_var(k: object) -> Var:
    """A dict key as a VM value: a constant, or the real object the trace holds."""
    return ConstVar(k) if is_const_value(k) else ObjVar(k, None)
