"""Tensor methods and attributes the VM traces, and the markers. Which callables are graph ops, traced or
run eagerly is the policy table's job (engine/_policy.py)."""

from __future__ import annotations

import torch
import torch._dynamo

from .._guards import module_plain  # noqa: F401  (a guard predicate: lives with the guards)
from .._policy import is_graph_op, skip_inline  # noqa: F401  (what is a graph op / traced: one table)

TENSOR_METHOD_DENY = {"item", "tolist", "numpy", "data_ptr", "backward", "register_hook", "retain_grad",
                      "storage", "untyped_storage", "requires_grad_", "share_memory_", "pin_memory", "apply_",
                      "map_", "map2_", "record_stream", "set_", "detach_", "resize_", "resize_as_",
                      "__bool__", "__int__", "__float__", "__index__", "__iter__", "__len__", "__array__",
                      "__setstate__", "__reduce_ex__", "__deepcopy__", "register_post_accumulate_grad_hook",
                      "equal", "allclose", "is_nonzero", "type", "cpu_", "__dlpack__", "grad",
                      "data", "_version", "is_leaf", "grad_fn", "__format__", "__repr__", "__str__",
                      "__hash__", "__contains__", "__reversed__", "__class__", "__dict__", "new"}

TENSOR_ATTRS_CONST = {"shape", "dtype", "device", "ndim", "requires_grad", "is_cuda", "layout", "is_sparse",
                      "is_quantized", "is_meta", "is_mps", "is_nested"}
TENSOR_ATTRS_GRAPH = {"T", "mT", "H", "mH", "real", "imag"}

GRAPH_BREAK_FNS = {torch._dynamo.graph_break}
if hasattr(torch._dynamo, "step_unsupported"):
    GRAPH_BREAK_FNS.add(torch._dynamo.step_unsupported)


# "Am I being compiled?" markers: True while traced, as under torch.compile; code that runs eagerly (an eager
# op, a frame run for real) sees False there too. A program branching on them gives torch.compile's result.
COMPILING_MARKERS = {f for f in (getattr(torch.compiler, "is_compiling", None),
                                 getattr(torch.compiler, "is_dynamo_compiling", None),
                                 getattr(torch._dynamo, "is_compiling", None),
                                 getattr(torch._dynamo.external_utils, "is_compiling", None)) if f is not None}



def is_disabled(obj: object) -> bool:
    return bool(getattr(obj, "_torchdynamo_disable", False))


def is_tensor_method(name: str) -> bool:
    if name in TENSOR_METHOD_DENY:
        return False
    if name.startswith("_") and not (name.startswith("__") and name.endswith("__")):
        return False
    attr = getattr(torch.Tensor, name, None)
    return callable(attr)
