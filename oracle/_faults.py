"""Fault-injection backends: torch.compile backends that are wrong on purpose.

They prove the oracle catches each class of compiler bug with the right verdict kind (targets ``fault:NAME``).
Each one runs the captured graph correctly and then does one wrong thing, so the fault shows only where a real
compiler bug of that class would.
"""

from __future__ import annotations

import os
import signal
import time
import types
from collections.abc import Callable, Sequence
from typing import Any, NoReturn

import torch

__all__ = ["FAULTS", "ROUNDING", "DYNAMIC_ONLY", "fault_spec", "make_backend"]

# A fault: given the graph's outputs and the program's module, the outputs the compiled graph returns.
Fault = Callable[[Sequence[Any], types.ModuleType], Any]


def _perturb(outputs: Sequence[Any], module: types.ModuleType) -> Sequence[Any]:
    """Nudge the first floating-point output of the graph."""
    outputs = list(outputs)
    for i, out in enumerate(outputs):
        if isinstance(out, torch.Tensor) and out.is_floating_point() and out.numel():
            outputs[i] = out + 1e-3
            break
    return outputs


def _drop_effect(outputs: Sequence[Any], module: types.ModuleType) -> Sequence[Any]:
    """From now on, effects logged through the program's ``_effect`` helper are lost.

    Done by swapping the helper, not by editing ``EFFECTS`` under the compiler's feet: Dynamo's residual code
    rebuilds a mutated list by index, so popping from it turns this fault into a crash of another kind.
    """
    if callable(module.__dict__.get("_effect")):
        module.__dict__["_effect"] = _forget
    return outputs


def _forget(tag: str, value: object) -> None:
    return None


def _flip_grad(outputs: Sequence[Any], module: types.ModuleType) -> Sequence[Any]:
    """Leave grad mode disabled behind the graph."""
    torch.set_grad_enabled(False)
    return outputs


def _raise(outputs: Sequence[Any], module: types.ModuleType) -> NoReturn:
    raise RuntimeError("ngb-fuzz injected fault: compiled graph raised")


def _hang(outputs: Sequence[Any], module: types.ModuleType) -> None:
    time.sleep(24 * 3600)


def _slow_ngb(outputs: Sequence[Any], module: types.ModuleType) -> Sequence[Any]:
    """Never return while nested graph breaks are on (the target's ``ngb=on``); right with them off: what the
    oracle must call ``slow``, not ``hang`` (``oracle._slow``)."""
    if torch._dynamo.config.nested_graph_breaks:
        time.sleep(24 * 3600)
    return outputs


def _kill(outputs: Sequence[Any], module: types.ModuleType) -> None:
    os.kill(os.getpid(), signal.SIGKILL)


# name -> (what it does wrong, verdict the oracle must give)
FAULTS: dict[str, tuple[Fault, str]] = {
    "perturb": (_perturb, "mismatch"),
    "drop-effect": (_drop_effect, "mismatch"),
    "flip-grad": (_flip_grad, "mismatch"),
    "raise": (_raise, "crash"),
    "hang": (_hang, "hang"),
    "slow-ngb": (_slow_ngb, "slow"),
    "kill": (_kill, "crash"),
}


def fault_spec(name: str) -> str:
    """The target spec on which fault ``name`` (of ``FAULTS``) shows its verdict: ``fault:<name>``, with
    nested graph breaks off for ``hang``. That fault hangs with them on or off, and a target with a twin calls
    a run whose twin gives no result either ``skip:too-slow`` (``oracle._slow``)."""
    return f"fault:{name}" + (",ngb=off" if FAULTS[name][1] == "hang" else "")


def _reround(outputs: Sequence[Any], module: types.ModuleType) -> Sequence[Any]:
    """Round the first floating-point output of the graph another way: shift it by one unit in the last place
    of its largest element, as a fused or reordered kernel may. Not a bug for a backend compared with
    tolerances; a program whose result it changes beyond them is ill-conditioned, and the oracle must say so,
    not report it."""
    outputs = list(outputs)
    for i, out in enumerate(outputs):
        if isinstance(out, torch.Tensor) and out.is_floating_point() and out.numel():
            outputs[i] = out + torch.finfo(out.dtype).eps * out.detach().abs().max()
            break
    return outputs


# Backends that are right but round differently from eager, as inductor may: targets ``fault:NAME`` compared
# with tolerances (``Target.exact`` is false), which test that rounding never makes a finding.
ROUNDING: dict[str, Fault] = {"reround": _reround}


def _symbolic(example_inputs: Sequence[Any]) -> bool:
    """Whether a graph was compiled with dynamic shapes: a SymInt input, or a tensor input with a symbolic
    size."""
    for value in example_inputs:
        sizes = value.shape if isinstance(value, torch.Tensor) else (value,)
        if any(isinstance(size, torch.SymInt) for size in sizes):
            return True
    return False


# Faults that strike only graphs compiled with dynamic shapes (``dynamic=true``, or the recompile after a call
# on other input sizes): the oracle must catch a bug seen only on the third call, whose inputs have other
# sizes. Not in FAULTS: a program without inputs of other sizes, compiled with the defaults, never meets them
# (verdict ok).
DYNAMIC_ONLY = {"perturb-dynamic": "perturb"}


def make_backend(name: str, module: types.ModuleType) -> Callable[..., Any]:
    """A torch.compile backend that runs each graph and then applies fault ``name``."""
    base = DYNAMIC_ONLY.get(name, name)
    fault: Fault = FAULTS[base][0] if base in FAULTS else ROUNDING[base]

    def backend(gm: torch.fx.GraphModule, example_inputs: Sequence[Any]) -> Callable[..., Any]:
        if name in DYNAMIC_ONLY and not _symbolic(example_inputs):
            return gm

        def run(*args: Any) -> Any:
            return fault(gm(*args), module)

        return run

    return backend
