"""The graph builder: wraps an `fx.Graph` and a FakeTensorMode; opcode handlers only call its methods."""

from __future__ import annotations

import contextlib
import logging
import operator
from collections.abc import Sequence
from contextlib import AbstractContextManager
from typing import TYPE_CHECKING, Any

import torch
import torch.fx as fx
from torch._subclasses.fake_tensor import FakeTensorMode

from ._errors import Unsupported
from ._vm._values import ConstVar, ListVar, SliceVar, TensorVar, TupleVar

if TYPE_CHECKING:
    from ._guards import Src
    from ._vm._interp import OpKind
    from ._vm._values import Var

_FAKE_LOG = logging.getLogger("torch._subclasses.fake_tensor")

# Results of these may be plain Python values (metadata); any other op must produce tensors.
METADATA_OK = {
    "size",
    "dim",
    "ndimension",
    "numel",
    "nelement",
    "stride",
    "is_contiguous",
    "is_floating_point",
    "is_complex",
    "element_size",
    "storage_offset",
    "get_device",
    "is_tensor",
    "setitem",
    "shape",
    "dtype",
    "device",
    "ndim",
    "requires_grad",
    "is_cuda",
    "layout",
    "is_sparse",
    "is_signed",
}
_QUERIES = METADATA_OK - {"setitem"}  # metadata queries without side effects (setitem is a store)


class GraphBuilder:
    """The graph of one segment: an `fx.Graph` and the FakeTensorMode its metadata is computed in.

    Owns the placeholders (`inputs`: the source each is re-read from, and the real tensor it was made from,
    in placeholder order) and the op count. Invariants: every op is run on fake tensors under the traced grad
    mode before its node is added, so a failing op adds nothing (it raises Unsupported); an op's result is
    tensors or plain metadata; placeholders stay before every op; consecutive grad-mode changes collapse."""

    def __init__(self) -> None:
        self.graph = fx.Graph()
        self.fake_mode = FakeTensorMode()
        self.inputs: list[tuple[Src, torch.Tensor]] = []  # (src, real tensor) per placeholder, in order
        self.n_ops = 0
        self._last_ph: fx.Node | None = None
        # the last grad-mode node, with the mode before it
        self._grad_node: tuple[fx.Node, bool] | None = None

    # -- inputs ---------------------------------------------------------------------------------------
    def placeholder(self, real: torch.Tensor, src: Src) -> TensorVar:
        name = f"in{len(self.inputs)}"
        if self._last_ph is not None:
            ctx = self.graph.inserting_after(self._last_ph)
        else:
            first = next(iter(self.graph.nodes), None)
            ctx = self.graph.inserting_before(first)
        with ctx:
            node = self.graph.placeholder(name)
        self._last_ph = node
        fake = self.fake_mode.from_tensor(real)
        node.meta["example_value"] = fake
        self.inputs.append((src, real))
        return TensorVar(node, fake, type(real), src)

    # -- ops -------------------------------------------------------------------------------------------
    def _arg(self, v: Var, to_fake: bool) -> Any:
        if isinstance(v, TensorVar):
            return v.fake if to_fake else v.node
        if isinstance(v, ConstVar):
            return v.value
        if isinstance(v, TupleVar):
            return tuple(self._arg(x, to_fake) for x in v.items)
        if isinstance(v, ListVar) and v.items is not None:
            return [self._arg(x, to_fake) for x in v.items]
        if isinstance(v, SliceVar):
            return slice(self._arg(v.start, to_fake), self._arg(v.stop, to_fake), self._arg(v.step, to_fake))
        raise Unsupported("graph-arg", f"a {type(v).__name__} cannot be an argument of a graph op")

    def call(self, kind: OpKind, target: Any, args: list[Var], kwargs: dict[str, Var], grad_enabled: bool,
             opname: str, modes: AbstractContextManager[object] | None = None) -> Var:
        """Add one op; its metadata is computed on fake tensors under the traced grad mode and `modes` (the
        traced autocast / inference modes applied for real)."""
        if torch._C._len_torch_function_stack():
            raise Unsupported("function-mode", "a torch function mode is active")
        fargs = [self._arg(a, True) for a in args]
        fkwargs = {k: self._arg(v, True) for k, v in kwargs.items()}
        prev = torch.is_grad_enabled()
        level = _FAKE_LOG.level
        _FAKE_LOG.setLevel(logging.CRITICAL)  # a failing op is a break, not an error worth logging
        try:
            with modes or contextlib.nullcontext(), self.fake_mode:
                torch._C._set_grad_enabled(grad_enabled)  # (inside: inference mode sets grad mode too)
                if kind == "call_method":
                    out = getattr(fargs[0], target)(*fargs[1:], **fkwargs)
                else:
                    out = target(*fargs, **fkwargs)
        except Unsupported:
            raise
        except Exception as e:  # data-dependent, dynamic shape, or a real error: eager decides
            raise Unsupported(
                "op-on-fake", f"{opname} cannot be traced: {type(e).__name__}: {e}"[:300]
            ) from None
        finally:
            _FAKE_LOG.setLevel(level)
            torch._C._set_grad_enabled(prev)
        if not _has_tensor(out):
            if opname not in METADATA_OK:
                raise Unsupported(
                    "non-tensor-result", f"{opname} returned {type(out).__name__}, not a tensor"
                )
            if opname in _QUERIES and _is_const(out):  # static metadata: a constant, no node to run
                return ConstVar(out)
        nargs = tuple(self._arg(a, False) for a in args)
        nkwargs = {k: self._arg(v, False) for k, v in kwargs.items()}
        if kind == "call_method":
            node = self.graph.call_method(target, nargs, nkwargs)
        else:
            node = self.graph.call_function(target, nargs, nkwargs)
        self.n_ops += 1
        return self._wrap_out(node, out, args)

    def set_grad(self, enabled: bool, before: bool) -> None:
        """A grad-mode change. One that directly follows another (no op saw the mode between) replaces it,
        and a pair that cancels out leaves no node: an empty `with torch.no_grad():` adds nothing."""
        last = self._grad_node
        if last is not None and next(reversed(self.graph.nodes)) is last[0]:
            self.graph.erase_node(last[0])
            self._grad_node = None
            before = last[1]
            if before == enabled:
                return
        self._grad_node = (self.graph.call_function(torch._C._set_grad_enabled, (enabled,)), before)

    def forget_grad_node(self) -> None:
        """A mode node set grad mode since the last grad-mode node: the next one must not replace it."""
        self._grad_node = None

    def mode_node(self, fn: Any, args: tuple[Any, ...]) -> fx.Node:
        """An autocast / inference-mode enter or exit node (not an op: a graph of these alone is not run)."""
        return self.graph.call_function(fn, args)

    def _wrap_out(self, node: fx.Node, out: Any, args: Sequence[Var]) -> Var:
        if isinstance(out, torch.Tensor):
            for a in args:  # in-place ops return their input: keep identity
                if isinstance(a, TensorVar) and a.fake is out:
                    return a
            node.meta["example_value"] = out
            return TensorVar(node, out, torch.Tensor)
        if isinstance(out, (tuple, list)) and _has_tensor(out):
            items = []
            for k, o in enumerate(out):
                sub = self.graph.call_function(operator.getitem, (node, k))
                items.append(self._wrap_out(sub, o, ()))
            return TupleVar(items, type(out)) if isinstance(out, tuple) else ListVar(items)
        if _is_const(out):
            return ConstVar(out)
        raise Unsupported("non-tensor-result", f"op returned {type(out).__name__}")

    def finish(self, out_nodes: list[fx.Node], close: Sequence[tuple[Any, fx.Node]] = ()) -> fx.GraphModule:
        """The graph module returning `out_nodes`; `close`: (exit function, enter node) of the mode blocks
        still open, innermost first, closed at its end so that it leaves the state it started in."""
        for fn, node in close:
            self.graph.call_function(fn, (node,))
        self.graph.output(tuple(out_nodes))
        for node in reversed(self.graph.nodes):  # items of a tuple output nobody used (mha's weights)
            if node.target is operator.getitem and node.op == "call_function" and not node.users:
                self.graph.erase_node(node)
        gm = fx.GraphModule(torch.nn.Module(), self.graph)
        return gm


def _has_tensor(out: object) -> bool:
    if isinstance(out, torch.Tensor):
        return True
    if isinstance(out, (tuple, list)):
        return any(_has_tensor(o) for o in out)
    return False


_CONST_TYPES = (int, float, bool, str, type(None), complex, torch.dtype, torch.device, torch.layout,
                torch.memory_format)


def _is_const(v: object) -> bool:
    if isinstance(v, _CONST_TYPES):
        return True
    if isinstance(v, tuple):
        return all(_is_const(x) for x in v)
    return False
