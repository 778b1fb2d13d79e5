"""Which torch callables become graph nodes, which are markers, which must run eagerly. Tables, not ifs."""

from __future__ import annotations

import os
import sys
import types

import torch
import torch._dynamo

GRAPH_MODULES = {"torch", "torch._C._nn", "torch._C._linalg", "torch._C._special", "torch._C._fft",
                 "torch.nn.functional", "torch.functional", "torch._C._VariableFunctions"}

# Names that look like ops but have global effects, touch data, or are compiler machinery.
DENY_PREFIXES = ("_", "set_", "get_", "use_", "manual_seed", "is_grad", "is_inference", "is_autocast",
                 "is_deterministic", "is_warn", "is_anomaly", "compile", "save", "load", "from_numpy",
                 "from_file", "frombuffer", "seed", "initial_seed", "vmap", "cond", "autocast", "inference",
                 "enable_grad", "no_grad", "is_storage", "typename", "is_nonzero", "equal", "allclose")

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


def is_graph_op(obj):
    """A torch callable whose call becomes one graph node (its metadata is computed on fake tensors)."""
    if not isinstance(obj, (types.BuiltinFunctionType, types.FunctionType)):
        return False
    mod = getattr(obj, "__module__", None)
    name = getattr(obj, "__name__", "")
    if mod not in GRAPH_MODULES:
        return False
    if name.startswith(DENY_PREFIXES):
        return False
    if mod in ("torch", "torch._C._VariableFunctions") and getattr(torch, name, None) is not obj:
        return False
    return True


def is_disabled(obj):
    return bool(getattr(obj, "_torchdynamo_disable", False))


def is_tensor_method(name):
    if name in TENSOR_METHOD_DENY:
        return False
    if name.startswith("_") and not (name.startswith("__") and name.endswith("__")):
        return False
    attr = getattr(torch.Tensor, name, None)
    return callable(attr)


_STDLIB = os.path.dirname(os.__file__)
_TORCH = os.path.dirname(torch.__file__)
_SKIP_PREFIXES = tuple(p for p in {_STDLIB, _TORCH, sys.prefix + "/lib"} if p)


_NN_MODULES = os.path.join(_TORCH, "nn", "modules") + os.sep


def skip_inline(code):
    """Library code (stdlib, torch, site-packages) is called eagerly, never traced; torch.nn's module
    classes are the exception (their forward methods are short Python over functional ops)."""
    fn = code.co_filename
    if fn.startswith(_NN_MODULES):
        return False
    return fn.startswith(_SKIP_PREFIXES) or "site-packages" in fn or fn.startswith("<frozen")


def module_plain(m):
    """Calling the module is calling its forward: no hooks anywhere, not compiled, not traced by jit."""
    import torch.nn.modules.module as mm

    return (m._compiled_call_impl is None and "forward" not in m.__dict__
            and not (m._backward_hooks or m._backward_pre_hooks or m._forward_hooks or m._forward_pre_hooks
                     or mm._global_backward_pre_hooks or mm._global_backward_hooks
                     or mm._global_forward_hooks or mm._global_forward_pre_hooks)
            and not torch._C._get_tracing_state())
