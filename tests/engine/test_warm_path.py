"""What a warm call does between its guards and its graph, kept small without changing what it checks.

The guard block reads a source path used by several guards once, into a local, just before the first guard
that reads it (`_guards.guard_block`); metadata queries on static shapes (`x.dim()`, `x.size(0)`) are
constants of the trace, not graph nodes. Speed is measured in benchmarks/models.py; here, that the block
checks the same things in the same order, and that the graph keeps every op with an effect.
"""

from __future__ import annotations

import operator

import pytest
import torch
from torch import nn

import engine
from engine._guards import guard_block, read_block
from engine._runtime import MISS

from .helpers import same, t


def _run(lines: list[str], **names: object) -> object:
    """The guard block as a function of its names: _MISS at the first failing guard, else True."""
    src = "def f():\n" + "\n".join("    " + line for line in lines) + "\n    return True\n"
    ns = {"_MISS": MISS, **names}
    exec(src, ns)
    return ns["f"]()


class Obj:
    pass


def _chain() -> Obj:
    k1 = Obj()
    k1.a = Obj()
    k1.a.b = 3
    k1.a.c = "k1.a.b"
    return k1


def test_a_path_read_by_two_guards_is_read_once_after_the_guards_before_it():
    lines = guard_block(["k2 is None", "k1.a.b == 3", "type(k1.a) is T1", "k1.a.c == 'k1.a.b'"], "")
    text = "\n".join(lines)
    assert text.count("= k1.a\n") == 1 and text.index("k2 is None") < text.index("= k1.a"), text
    assert "== 'k1.a.b'" in text  # a string literal is not a path
    assert _run(lines, k1=_chain(), k2=None, T1=Obj) is True
    assert _run(lines, k1=_chain(), k2=0, T1=Obj) is MISS
    assert _run(lines, k1=_chain(), k2=None, T1=int) is MISS


def test_a_path_is_not_read_first_where_the_guard_may_not_read_it():
    # `k1.a.b` is read by the second half of an `or` first: reading it before that guard could raise, or
    # run code, where the guards as written would not have read it yet
    lines = guard_block(["k2 is None or k1.a.b == 3", "k1.a.b == 3", "k1.a.b > 2"], "")
    text = "\n".join(lines)
    assert text.index("k2 is None or k1.a.b == 3") < text.index("= k1.a"), text
    assert _run(lines, k1=_chain(), k2=None) is True


def test_top_level_conjuncts_are_guards_of_their_own():
    # `type(x) is float and x.hex() == ...`: the path in the second half is read after the first half holds
    lines = guard_block(["type(k1.a) is T1 and k1.a.b == 3", "k1.a.b < 4"], "")
    text = "\n".join(lines)
    assert text.index("type(_p0) is T1") < text.index("= _p0.b"), text
    assert _run(lines, k1=_chain(), T1=Obj) is True
    k1 = _chain()
    k1.a = 7  # the type guard fails first: the second half's path is never read
    assert _run(lines, k1=k1, T1=Obj) is MISS


def test_reads_share_their_prefixes_and_keep_their_order():
    lines = read_block(["s1 = k1.a.b", "s2 = k1.a.c", "s3 = env[2].a"])
    ns = {"k1": _chain(), "env": [None, None, _chain()]}
    exec("\n".join(lines), ns)
    assert (ns["s1"], ns["s2"], ns["s3"]) == (3, "k1.a.b", ns["env"][2].a)
    assert "\n".join(lines).count("k1.a") == 1 and "_r0" not in ns, lines  # the local is dropped after


class Block(nn.Module):
    def __init__(self) -> None:
        super().__init__()
        self.body = nn.Sequential(nn.Linear(4, 4), nn.ReLU(), nn.Linear(4, 4))

    def forward(self, x):
        return self.body(x) + x


def test_a_submodule_swapped_for_another_type_misses_and_recompiles():
    torch.manual_seed(0)
    m = Block()
    c = engine.compile(m)
    x = t(2, 4)
    same(c(x), m(x))
    same(c(x), m(x))
    m.body[1] = nn.Tanh()  # the hoisted path `..._modules['body']` is the same object; its item is not
    same(c(x), m(x))
    assert c.record.recompiles == 1


def queries(x):
    n = x.dim() + x.size(0) + x.numel()
    y = x * n
    y[0] = 1.0  # a store: the graph keeps it
    return y


def test_metadata_queries_are_constants_and_stores_stay():
    c = engine.compile(queries)
    same(c(t(3, 2)), queries(t(3, 2)))
    gm = c.record.graph_modules[0]
    targets = [n.target for n in gm.graph.nodes if n.op in ("call_method", "call_function")]
    assert not {"dim", "size", "numel"} & set(targets), targets
    assert any("setitem" in str(tg) for tg in targets), targets


def first_of_pair(x):
    return torch.max(x, 0)[0] * 2  # max gives (values, indices): the indices are never used


def test_unused_items_of_a_tuple_output_leave_no_node():
    c = engine.compile(first_of_pair)
    same(c(t(3, 2)), first_of_pair(t(3, 2)))
    gm = c.record.graph_modules[0]
    items = [n.args[1] for n in gm.graph.nodes if n.op == "call_function" and n.target is operator.getitem]
    assert items == [0], gm.code


class Deep(nn.Module):
    """Two levels of submodules: the guards' paths to the inner layers share prefixes, read once."""

    def __init__(self) -> None:
        super().__init__()
        self.blocks = nn.ModuleList([Block(), nn.Sequential(Block(), nn.BatchNorm1d(4))])
        self.drop = nn.Dropout(0.0)

    def forward(self, x):
        for b in self.blocks:
            x = self.drop(b(x))
        return x


def _swap_weight(m: Deep) -> None:
    m.blocks[0].body[2].weight = nn.Parameter(torch.randn(4, 4, dtype=torch.float64))


def _freeze(m: Deep) -> None:
    m.blocks[0].body[0].bias.requires_grad_(False)


def _eval_inner(m: Deep) -> None:
    m.blocks[1][1].eval()  # BatchNorm: running statistics instead of the batch's


def _drop_p(m: Deep) -> None:
    m.drop.p = 0.5


CHANGES = {"weight swapped for another dtype": _swap_weight, "requires_grad flipped": _freeze,
           "an inner submodule in eval": _eval_inner, "dropout's p changed": _drop_p}


@pytest.mark.parametrize("change", list(CHANGES))
def test_a_change_deep_in_the_module_tree_is_seen(change):
    torch.manual_seed(0)
    m = Deep()
    c = engine.compile(m)
    x = t(2, 4)
    for _ in range(2):
        same(c(x), m(x))
    CHANGES[change](m)
    if change == "weight swapped for another dtype":
        x = x.double()
        m.double()
    torch.manual_seed(1)
    ref = m(x)
    torch.manual_seed(1)
    got = c(x)
    same(got, ref)
    assert c.record.recompiles == 1, c.record.recompiles
    if change == "requires_grad flipped":
        got.sum().backward()
        assert m.blocks[0].body[0].bias.grad is None and m.blocks[0].body[0].weight.grad is not None


class _Doubling(nn.Module):
    def forward(self, x):
        return x * 2


class _Outer(nn.Module):
    def __init__(self):
        super().__init__()
        self.inner = _Doubling()

    def helper(self, x):
        return x + 1

    def forward(self, x):
        return self.helper(self.inner(x))


@pytest.mark.parametrize("patch", ["forward-of-the-compiled-module", "forward-of-a-submodule", "method"])
def test_a_method_patched_on_the_class_after_the_first_call_is_seen(patch):
    # Eager looks a method up on the class at every call; the warm path must miss when it changed.
    cls, name = {"forward-of-the-compiled-module": (_Outer, "forward"),
                 "forward-of-a-submodule": (_Doubling, "forward"), "method": (_Outer, "helper")}[patch]
    m = _Outer()
    c = engine.compile(m)
    x = t(3)
    same(c(x), m(x))
    old = cls.__dict__[name]
    try:
        setattr(cls, name, lambda self, x: x * 7)
        same(c(x), m(x))
        assert c.record.recompiles == 1
    finally:
        setattr(cls, name, old)
    same(c(x), m(x))
