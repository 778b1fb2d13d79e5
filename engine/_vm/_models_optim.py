"""Models of `torch.optim` calls traced code makes around a training step.

`optimizer.zero_grad()` (`set_to_none=True`, the default) on a `torch.optim.Optimizer` whose class does not
override it: torch marks it to run eagerly (`torch._disable_dynamo`), so it was an eager op. What it does
to the program's state is `p.grad = None` for each parameter of each param group whose gradient is set,
which is what the model does for every parameter (a store of None over None changes nothing, so no
gradient is read or guarded): the parameters are read (guarded: the groups' count and sizes, each
parameter's metadata), each store is replayed after the graph
(`_models_py.clear_grad`), and later reads of `p.grad` in the segment see None. The group's other entries
(the learning rate...) are not read, so a scheduler changing them does not retrace. Its profiler range
(`record_function`) is the one thing left out: the model answers only while no profiler runs (guarded).
`zero_grad(set_to_none=False)`, a subclass's own `zero_grad`, and `step()` run eagerly.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

import torch

from .._guards import AttrSrc, ItemSrc
from ._iface import model
from ._models_py import clear_grad, leaf_input
from ._values import ConstVar, ObjVar, TensorVar

if TYPE_CHECKING:
    from ._interp import VM
    from ._values import Var


@model(torch.optim.Optimizer.zero_grad)
def _zero_grad(vm: VM, args: list[Var], kwargs: dict[str, Var]) -> Any:
    if not args or len(args) > 2 or set(kwargs) - {"set_to_none"} or (len(args) == 2 and kwargs):
        return NotImplemented
    opt = vm.resolve(args[0])
    flag = args[1] if len(args) == 2 else kwargs.get("set_to_none", ConstVar(True))
    if type(opt) is not ObjVar or opt.src is None or type(flag) is not ConstVar or flag.value is not True:
        return NotImplemented
    real = opt.obj
    if not isinstance(real, torch.optim.Optimizer) or type(real).zero_grad is not torch.optim.Optimizer.zero_grad \
            or not hasattr(real, "_zero_grad_profile_name") or torch.autograd._profiler_enabled() \
            or type(real.param_groups) is not list:
        return NotImplemented
    groups = real.param_groups
    if not all(type(g) is dict and type(g.get("params")) is list for g in groups):
        return NotImplemented
    e = opt.src.expr(vm.ns)
    g = vm.guards
    g.add(f"type({e}).zero_grad is {vm.ns.const(torch.optim.Optimizer.zero_grad, 'f')}")
    g.add(f"hasattr({e}, '_zero_grad_profile_name')")
    g.add(f"{vm.ns.const(torch.autograd._profiler_enabled, 'f')}() is False")
    gsrc = AttrSrc(opt.src, "param_groups")
    g.length(gsrc, len(groups))
    params: list[Var] = []
    for k, grp in enumerate(groups):
        psrc = ItemSrc(ItemSrc(gsrc, k), "params")
        g.length(psrc, len(grp["params"]))
        params += [vm.wrap(p, ItemSrc(psrc, j)) for j, p in enumerate(grp["params"])]
    if not all(type(p) is TensorVar and leaf_input(vm, p) for p in params):  # compute first
        return NotImplemented
    for p in params:  # None over None changes nothing: no gradient is read (nor guarded)
        clear_grad(vm, p, ConstVar(None))
    return ConstVar(None)
