"""Programs written like user code nobody wrote for the engine (the sweep of engine/README.md's "real code"):
each is compiled whole, called several times, and compared with eager -- outputs, parameter gradients,
buffers, plain attributes stored on the module, the global torch state -- and its graphs and breaks are
asserted, since each one exposed a divergence or a fallback that is now fixed."""

from __future__ import annotations

import collections
from collections.abc import Callable
from typing import NamedTuple

import pytest
import torch
import torch.nn as nn

import engine

from .helpers import same, torch_state


def _attrs(m: nn.Module) -> dict:
    """What a forward can change on a module tree besides parameters: buffers and plain attributes."""
    out = {}
    for name, sub in m.named_modules():
        for k, v in vars(sub).items():
            if not k.startswith("_") and k != "training":
                out[f"{name}.{k}"] = v
        out[f"{name}._buffers"] = dict(sub._buffers)
        out[f"{name}._non_persistent"] = sorted(sub._non_persistent_buffers_set)
    return out


def _loss(out: object) -> torch.Tensor | None:
    ts = [t for t in (out if isinstance(out, (tuple, list)) else [out])
          if isinstance(t, torch.Tensor) and t.requires_grad]
    return sum(t.sum() for t in ts) if ts else None


def compare(make: Callable[[], nn.Module], args: Callable[[int], tuple], calls: int = 3,
            backend: str = "eager", modes: tuple[bool, ...] = (True,)) -> engine._segments.Compiled:
    """Build the module twice (seeded), run eager and compiled `calls` times per train/eval mode, and assert
    equal outputs, gradients, buffers, attributes and torch state after each call."""
    __tracebackhide__ = True
    torch.manual_seed(0)
    ref = make()
    torch.manual_seed(0)
    mod = make()
    c = engine.compile(mod, backend=backend)
    k = 0
    for mode in modes:
        ref.train(mode)
        mod.train(mode)
        for _ in range(calls):
            torch.manual_seed(k)
            expected = ref(*args(k))
            state = torch_state()
            torch.manual_seed(k)
            out = c(*args(k))
            assert torch_state() == state
            same(expected, out)
            for o in (expected, out):
                loss = _loss(o)
                if loss is not None:
                    loss.backward()
            for (name, p), q in zip(ref.named_parameters(), mod.parameters()):
                assert (p.grad is None) == (q.grad is None), name
                if p.grad is not None:
                    same(p.grad, q.grad)
            same(_attrs(ref), _attrs(mod))
            k += 1
    for gm in c.record.graph_modules:
        gm.graph.lint()
    assert c.record.graphs >= 1 and c.record.eager_calls == 0, "the module was not compiled"
    return c


def _x(k: int) -> tuple:
    return (torch.randn(3, 4, generator=torch.Generator().manual_seed(k)),)


# -- Module.__setattr__ in forward ---------------------------------------------------------------------------

class StepCounter(nn.Module):
    """Buffers updated by assignment (`+=` on a buffer stores through Module.__setattr__) and in place."""

    def __init__(self) -> None:
        super().__init__()
        self.register_buffer("steps", torch.zeros((), dtype=torch.long))
        self.register_buffer("avg", torch.zeros(4), persistent=False)
        self.lin = nn.Linear(4, 4)

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        self.steps += 1
        self.avg = 0.9 * self.avg + 0.1 * x.detach().mean(0)
        return self.lin(x - self.avg) * self.steps


def test_buffer_assignment_is_one_graph():
    c = compare(StepCounter, _x)
    assert c.stats()["graphs"] == 1 and c.stats()["breaks"] == 0 and c.stats()["recompiles"] == 0


class Memo(nn.Module):
    """Plain attributes set in forward: a Python counter, a detached tensor, a list appended to."""

    def __init__(self) -> None:
        super().__init__()
        self.lin = nn.Linear(4, 4)
        self.calls = 0
        self.last = None
        self.sizes = []

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        self.calls += 1
        y = self.lin(x)
        self.last = y.detach()
        self.sizes.append(y.shape[0])
        return y * self.calls + self.last.mean()


def test_plain_attributes_set_in_forward():
    c = compare(Memo, _x)
    assert c.stats()["breaks"] == 0  # one graph per value of the int counter (guarded), as torch.compile
    assert c.stats()["graphs"] == 3


class StoresOthers(nn.Module):
    """Stores the model leaves to Module.__setattr__ itself: a parameter, a submodule, a property setter."""

    def __init__(self) -> None:
        super().__init__()
        self.w = nn.Parameter(torch.ones(4))
        self._scale = 1.0

    @property
    def scale(self) -> float:
        return self._scale

    @scale.setter
    def scale(self, v: float) -> None:
        self._scale = v * 2

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        self.scale = 1.5
        if not hasattr(self, "extra"):
            self.extra = nn.Identity()
        self.w = nn.Parameter(self.w.detach() + 1)
        return self.extra(x) * self.w * self.scale


def test_stores_not_modeled_are_traced_and_correct():
    compare(StoresOthers, _x)


def test_buffer_store_with_a_global_buffer_hook_runs_the_hook():
    seen = []

    def hook(module: nn.Module, name: str, t: torch.Tensor) -> torch.Tensor:
        seen.append(name)
        return t + 1

    handle = nn.modules.module.register_module_buffer_registration_hook(hook)
    try:
        compare(StepCounter, _x, calls=2)
    finally:
        handle.remove()
    assert seen == ["steps", "avg"] * 6  # two builds, then two calls eager and compiled


class StoreThenBreak(StepCounter):
    """The stores are replayed before a break in a helper; what is read after it is the stored value."""

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        self.steps = self.steps + 1
        self.note = x.sum()
        _pause()
        self.avg = self.avg + self.note
        return self.lin(x) * self.steps + self.avg


def _pause() -> None:
    torch._dynamo.graph_break()


def test_stores_before_a_nested_break():
    c = compare(StoreThenBreak, _x)
    assert c.stats()["graphs"] == 2 and c.stats()["breaks"] == 1 and c.stats()["recompiles"] == 0


# -- Module.parameters() / named_modules() / children(): generators with `yield from` --------------------------

class EMA(nn.Module):
    """An exponential moving average of a net's parameters, updated under no_grad in forward."""

    def __init__(self) -> None:
        super().__init__()
        self.net = nn.Sequential(nn.Linear(4, 4), nn.Tanh(), nn.Linear(4, 4))
        self.ema = nn.Sequential(nn.Linear(4, 4), nn.Tanh(), nn.Linear(4, 4))

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        with torch.no_grad():
            for p, q in zip(self.ema.parameters(), self.net.parameters()):
                p.mul_(0.9).add_(q, alpha=0.1)
            for (_name, b), c in zip(self.ema.named_buffers(), self.net.buffers()):
                b.copy_(c)
        return self.net(x) + self.ema(x)


def test_zip_over_parameters_is_one_graph():
    c = compare(EMA, _x)
    assert c.stats() == {"graphs": 1, "breaks": 0, "recompiles": 0, "frames_traced": c.stats()["frames_traced"]}
    assert c.record.restarts == 0


class Walk(nn.Module):
    """Walks the tree: named_modules with a prefix and a shared child, children, train/eval of a child
    (torch's train() loops over children()), apply() and requires_grad_() (loops over parameters())."""

    def __init__(self) -> None:
        super().__init__()
        shared = nn.Linear(4, 4)
        self.a = nn.Sequential(shared, nn.ReLU())
        self.b = nn.Sequential(shared, nn.BatchNorm1d(4), nn.Dropout(0.2))
        self.count = 0

    def forward(self, x: torch.Tensor) -> tuple:
        names = [n for n, m in self.named_modules(prefix="root") if isinstance(m, nn.Linear)]
        dup = len(list(self.modules(remove_duplicate=False)))
        was = self.b.training
        self.b.eval()
        y = self.b(self.a(x))
        self.b.train(was)
        self.apply(self._visit)
        self.a.requires_grad_(True)
        n = sum(p.numel() for p in self.parameters()) + len(list(self.named_parameters(recurse=False)))
        return y * n, names, dup, [type(m).__name__ for m in self.children()]

    def _visit(self, m: nn.Module) -> None:
        self.count += 1


def test_module_tree_walks_are_traced():
    c = compare(Walk, _x, modes=(True, False))
    # the only breaks: Tensor.requires_grad_ inside torch's loop (two parameters, the child is shared)
    assert {b.reason for b in c.record.break_records} == {"Tensor.requires_grad_ is not traced"}
    assert c.record.restarts == 0


class ClipWeights(nn.Module):
    """A break inside a loop over parameters (Tensor.data): the iterator is made real and read back."""

    def __init__(self) -> None:
        super().__init__()
        self.lin = nn.Linear(4, 4)
        self.out = nn.Linear(4, 2)

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        n = 0
        for p in self.parameters():
            p.data.clamp_(-0.3, 0.3)
            n += p.numel()
        return self.out(self.lin(x)) * n


def test_break_inside_a_parameters_loop():
    c = compare(ClipWeights, _x)
    assert c.stats()["breaks"] == 4  # one per parameter, at p.data; no break at the loop itself
    assert c.record.restarts == 0


class ReplaceAhead(nn.Module):
    """Replaces a buffer the loop has not reached yet: eager's lazy generator sees the new one."""

    def __init__(self) -> None:
        super().__init__()
        self.register_buffer("a", torch.ones(4))
        self.register_buffer("b", torch.ones(4))

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        total = x
        for name, buf in self.named_buffers():
            if name == "a":
                self.b = buf * 3
            total = total + buf
        return total


def test_loop_sees_a_member_replaced_ahead():
    c = compare(ReplaceAhead, _x)
    assert c.stats()["breaks"] == 0


class Grows(nn.Module):
    """Adds a buffer while iterating: eager raises (the dict changed size); so must the compiled call."""

    def __init__(self) -> None:
        super().__init__()
        self.register_buffer("a", torch.ones(4))

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        for name, buf in self.named_buffers():
            self.register_buffer(name + "x", buf + 1)
        return x


def test_tree_growing_during_a_loop_raises_as_eager():
    for fn in (Grows(), engine.compile(Grows())):
        with pytest.raises(RuntimeError, match="changed size during iteration"):
            fn(torch.ones(4))


def test_an_iterator_held_in_a_local_is_not_viewed_twice():
    def pairs(m: nn.Module) -> list:
        it = m.parameters()
        return [a.sum() + b.sum() for a, b in zip(it, it)]

    torch.manual_seed(0)
    m = nn.Sequential(nn.Linear(2, 2), nn.Linear(2, 2))
    c = engine.compile(pairs)
    same(pairs(m), c(m))
    same(pairs(m), c(m))
    assert c.record.graphs >= 1


def test_len_of_a_modules_hook_dicts():
    def hooked(m: nn.Module, x: torch.Tensor) -> torch.Tensor:
        n = sum(len(getattr(sub, "_forward_hooks", {})) + len(sub._forward_pre_hooks) for sub in m.modules())
        return m(x) * (n + 1)

    torch.manual_seed(0)
    m = nn.Sequential(nn.Linear(2, 2), nn.ReLU())
    c = engine.compile(hooked)
    same(hooked(m, torch.ones(2)), c(m, torch.ones(2)))
    m[1].register_forward_hook(lambda mod, args, out: out * 2)
    same(hooked(m, torch.ones(2)), c(m, torch.ones(2)))  # the length is guarded: a new segment
    assert c.stats()["breaks"] == 0 and c.stats()["recompiles"] == 1 and c.record.restarts == 0


# -- module containers: enumerate/zip, Sequential indexing, hook dicts -----------------------------------------

class MoE(nn.Module):
    """A mixture of experts: enumerate over a ModuleList, zip with a ModuleDict's names, Sequential[-1]."""

    def __init__(self) -> None:
        super().__init__()
        self.gate = nn.Linear(4, 3)
        self.experts = nn.ModuleList(nn.Sequential(nn.Linear(4, 4), nn.GELU(), nn.Linear(4, 4)) for _ in range(3))
        self.heads = nn.ModuleDict({"x": nn.Linear(4, 1), "y": nn.Linear(4, 2)})

    def forward(self, x: torch.Tensor) -> tuple:
        w = self.gate(x).softmax(-1)
        top = w.topk(2, dim=-1).indices
        out = torch.zeros_like(x)
        for i, expert in enumerate(self.experts):
            sel = (top == i).any(-1, keepdim=True).float()
            out = out + sel * w[:, i:i + 1] * expert(x) + expert[-1].bias
        named = {name: head(out) for name, head in zip(self.heads, self.heads.values())}
        return out, named, len(self.experts[0]), self.experts[1][0].weight.shape


def test_enumerate_and_zip_over_module_containers():
    c = compare(MoE, _x)
    assert c.stats()["graphs"] == 1 and c.stats()["breaks"] == 0 and c.record.restarts == 0


def test_sequential_index_out_of_range_raises_as_eager():
    def pick(seq: nn.Sequential, x: torch.Tensor) -> torch.Tensor:
        return seq[5](x)

    seq = nn.Sequential(nn.Linear(2, 2), nn.ReLU())
    for fn in (pick, engine.compile(pick)):
        with pytest.raises(IndexError, match="index 5 is out of range"):
            fn(seq, torch.ones(2))


class PreNormEncoder(nn.Module):
    """A ViT-style encoder: norm_first layers with dropout; torch's fast-path check walks self.modules()
    inside any(...) and takes len() of every module's hook OrderedDicts."""

    def __init__(self) -> None:
        super().__init__()
        self.cls = nn.Parameter(torch.zeros(1, 1, 8))
        layer = nn.TransformerEncoderLayer(8, 2, 16, dropout=0.1, batch_first=True, norm_first=True)
        self.enc = nn.TransformerEncoder(layer, 1, enable_nested_tensor=False)

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        x = torch.cat([self.cls.expand(x.shape[0], -1, -1), x], dim=1)
        return self.enc(x)[:, 0]


def test_encoder_fast_path_check_is_traced():
    c = compare(PreNormEncoder, lambda k: (torch.randn(2, 3, 8, generator=torch.Generator().manual_seed(k)),),
                calls=1, modes=(True, False))
    assert c.stats()["breaks"] == 0 and c.record.restarts == 0
    assert c.stats()["graphs"] == 2  # train and eval


# -- outputs and dynamic attribute names -------------------------------------------------------------------------

class Output(NamedTuple):
    logits: torch.Tensor
    loss: torch.Tensor
    aux: int = 0

    def scaled(self, k: float) -> torch.Tensor:
        return self.logits * k


Pair = collections.namedtuple("Pair", "first second", defaults=[None])


class Classifier(nn.Module):
    """Returns typing.NamedTuple / collections.namedtuple outputs built in forward, using their methods."""

    def __init__(self) -> None:
        super().__init__()
        self.lin = nn.Linear(4, 3)

    def forward(self, x: torch.Tensor) -> tuple:
        logits = self.lin(x)
        out = Output(logits, loss=logits.logsumexp(-1).mean())
        return out, Pair(out.scaled(2.0)), out._fields


def test_namedtuple_outputs_are_traced():
    c = compare(Classifier, _x)
    assert c.stats()["graphs"] == 1 and c.stats()["breaks"] == 0


class Dynamic(nn.Module):
    """setattr/getattr with computed names, get_submodule (str.split inside torch)."""

    def __init__(self) -> None:
        super().__init__()
        for i in range(2):
            setattr(self, f"layer{i}", nn.Linear(4, 4))
        self.register_buffer("scale", torch.ones(4))

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        for i in range(2):
            x = getattr(self, f"layer{i}")(x)
        setattr(self, "scale", self.scale * 1.5)  # noqa: B010 -- the builtin is what is tested
        return x * self.scale + self.get_submodule("layer0").bias


def test_setattr_and_get_submodule_are_traced():
    c = compare(Dynamic, _x)
    assert c.stats()["graphs"] == 1 and c.stats()["breaks"] == 0


def test_isinstance_buffer_and_parameter_flags_on_plain_tensors():
    def kinds(t: torch.Tensor) -> tuple:
        return isinstance(t, nn.Buffer), isinstance(t, nn.Parameter), isinstance(t * 2, nn.Buffer), t + 1

    flagged = nn.Buffer(torch.ones(2))  # a plain torch.Tensor with the Buffer flag
    assert type(flagged) is torch.Tensor
    c = engine.compile(kinds)
    for t in (flagged, torch.ones(2), flagged):
        same(kinds(t), c(t))
    assert c.stats()["breaks"] == 0 and c.stats()["graphs"] == 2  # the flag is guarded


class Stack(nn.Module):
    """reversed() over a ModuleList, zip with a slice of one (torch builds it with self.__class__)."""

    def __init__(self) -> None:
        super().__init__()
        self.layers = nn.ModuleList(nn.Linear(4, 4) for _ in range(3))
        self.norms = nn.ModuleList(nn.LayerNorm(4) for _ in range(3))

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        for layer in reversed(self.layers):
            x = torch.tanh(layer(x))
        for layer, norm in zip(self.layers[1:], self.norms):
            x = norm(layer(x))
        return x


def test_reversed_and_sliced_module_lists():
    c = compare(Stack, _x)
    # the only break: building the sliced ModuleList (constructing a module runs eagerly)
    assert {b.reason for b in c.record.break_records} == {"calling ModuleList is not modeled"}


def test_reversed_module_dict_raises_as_eager():
    def names(d: nn.ModuleDict) -> list:
        return [k for k in reversed(d)]

    d = nn.ModuleDict({"a": nn.ReLU(), "b": nn.Tanh()})
    for fn in (names, engine.compile(names)):
        with pytest.raises(KeyError):
            fn(d)


class CopyWithBreaks(nn.Module):
    """Breaks inside enumerate(zip(a.parameters(), b.named_parameters())) and between next() on modules()
    and the rest of that iterator: the iterators become the real generators at the same position."""

    def __init__(self) -> None:
        super().__init__()
        self.a = nn.Sequential(nn.Linear(2, 2), nn.Linear(2, 2))
        self.b = nn.Sequential(nn.Linear(2, 2), nn.Linear(2, 2))

    def forward(self, x: torch.Tensor) -> tuple:
        n = 0
        with torch.no_grad():
            for i, (p, (name, q)) in enumerate(zip(self.a.parameters(), self.b.named_parameters())):
                p.add_(q)
                _pause()
                n += i * len(name)
        it = self.a.modules()
        first = next(it)
        _pause()
        return self.a(x) * n, [type(m).__name__ for m in it], type(first).__name__


def test_member_iterators_across_breaks():
    c = compare(CopyWithBreaks, lambda k: (torch.ones(2) * k,))
    assert c.record.restarts == 0


class Scales(nn.Module):
    """enumerate() and reversed() over a ParameterList (its __iter__ is a generator expression)."""

    def __init__(self) -> None:
        super().__init__()
        self.ps = nn.ParameterList(nn.Parameter(torch.full((4,), float(i))) for i in range(3))

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        for i, p in enumerate(self.ps):
            x = x * p + i
        for p in reversed(self.ps):
            x = x - p
        return x


def test_parameter_list_iteration():
    c = compare(Scales, _x)
    assert c.stats()["graphs"] == 1 and c.stats()["breaks"] == 0 and c.record.restarts == 0
