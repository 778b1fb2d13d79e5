"""Fault-injection backends: torch.compile backends that are wrong on purpose.

They prove the oracle catches each class of compiler bug with the right verdict kind (targets ``fault:NAME``).
Each one runs the captured graph correctly and then does one wrong thing, so the fault shows only where a real
compiler bug of that class would.
"""

from __future__ import annotations

import os
import signal
import time

import torch

__all__ = ["FAULTS", "ROUNDING", "make_backend"]


def _perturb(outputs, module):
    """Nudge the first floating-point output of the graph."""
    outputs = list(outputs)
    for i, out in enumerate(outputs):
        if isinstance(out, torch.Tensor) and out.is_floating_point() and out.numel():
            outputs[i] = out + 1e-3
            break
    return outputs


def _drop_effect(outputs, module):
    """From now on, effects logged through the program's ``_effect`` helper are lost.

    Done by swapping the helper, not by editing ``EFFECTS`` under the compiler's feet: Dynamo's residual code
    rebuilds a mutated list by index, so popping from it turns this fault into a crash of another kind.
    """
    if callable(module.__dict__.get("_effect")):
        module._effect = _forget
    return outputs


def _forget(tag, value):
    return None


def _flip_grad(outputs, module):
    """Leave grad mode disabled behind the graph."""
    torch.set_grad_enabled(False)
    return outputs


def _raise(outputs, module):
    raise RuntimeError("ngb-fuzz injected fault: compiled graph raised")


def _hang(outputs, module):
    time.sleep(24 * 3600)


def _kill(outputs, module):
    os.kill(os.getpid(), signal.SIGKILL)


# name -> (what it does wrong, verdict the oracle must give)
FAULTS = {
    "perturb": (_perturb, "mismatch"),
    "drop-effect": (_drop_effect, "mismatch"),
    "flip-grad": (_flip_grad, "mismatch"),
    "raise": (_raise, "crash"),
    "hang": (_hang, "hang"),
    "kill": (_kill, "crash"),
}


def _reround(outputs, module):
    """Round the first floating-point output of the graph another way: shift it by one unit in the last place of
    its largest element, as a fused or reordered kernel may. Not a bug for a backend compared with tolerances; a
    program whose result it changes beyond them is ill-conditioned, and the oracle must say so, not report it."""
    outputs = list(outputs)
    for i, out in enumerate(outputs):
        if isinstance(out, torch.Tensor) and out.is_floating_point() and out.numel():
            outputs[i] = out + torch.finfo(out.dtype).eps * out.detach().abs().max()
            break
    return outputs


# Backends that are right but round differently from eager, as inductor may: targets ``fault:NAME`` compared with
# tolerances (``Target.exact`` is false), which test that rounding never makes a finding.
ROUNDING = {"reround": _reround}


def make_backend(name: str, module):
    """A torch.compile backend that runs each graph and then applies fault ``name``."""
    fault = FAULTS[name][0] if name in FAULTS else ROUNDING[name]

    def backend(gm: torch.fx.GraphModule, example_inputs):
        def run(*args):
            return fault(gm(*args), module)

        return run

    return backend
