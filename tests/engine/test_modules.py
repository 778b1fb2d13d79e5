"""nn.Module calls: forward traced when calling the module means calling forward (no hooks)."""

from __future__ import annotations

import torch

import engine

from .helpers import check, same, t

gb = torch._dynamo.graph_break


class Block(torch.nn.Module):
    def __init__(self):
        super().__init__()
        self.lin = torch.nn.Linear(4, 4)
        self.scale = torch.nn.Parameter(torch.full((), 0.5))
        self.register_buffer("shift", torch.ones(4))
        self.act = torch.nn.ReLU()
        self.calls = 0

    def forward(self, x):
        y = self.act(self.lin(x)) * self.scale
        gb()
        return y + self.shift


BLOCK = Block()
SEQ = torch.nn.Sequential(torch.nn.Linear(4, 3), torch.nn.Tanh(), torch.nn.Linear(3, 2))


def uses_modules(x):
    return BLOCK(x), SEQ(x)


def test_module_calls_match_eager():
    torch.manual_seed(0)
    c = check(uses_modules, lambda: (t(2, 4, requires_grad=True),))
    assert c.stats()["graphs"] >= 2


def test_hooks_are_respected():
    calls = []
    h = BLOCK.register_forward_hook(lambda m, i, o: calls.append(1))
    try:
        c = engine.compile(uses_modules)
        x = t(2, 4)
        same(c(x), uses_modules(x))
        assert calls == [1, 1]
        # The hooked module was traced, not called eagerly: its forward's graph_break is a break of the
        # compiled function (an eager call of BLOCK would hide it), and both calls gave graphs.
        assert [b.gb_id for b in c.record.break_records] == ["graph_break"]
        assert c.stats()["graphs"] == 2
    finally:
        h.remove()


def make_net():
    torch.manual_seed(0)
    return torch.nn.Sequential(torch.nn.Conv2d(2, 3, 3, padding=1), torch.nn.BatchNorm2d(3),
                               torch.nn.ReLU(), torch.nn.Dropout(0.0), torch.nn.Flatten())


def test_library_modules_with_buffers():
    for backend in ("eager", "aot_eager"):
        ref_net, net = make_net(), make_net()
        c = engine.compile(lambda x, net=net: net(x), backend=backend)
        for _ in range(2):
            x = t(2, 2, 4, 4)
            out, ref = c(x), ref_net(x)
            torch.testing.assert_close(out, ref)
        torch.testing.assert_close(net[1].running_mean, ref_net[1].running_mean)
        assert int(net[1].num_batches_tracked) == int(ref_net[1].num_batches_tracked) == 2
        assert c.stats()["breaks"] == 0, c.record.break_records
        assert c.stats()["graphs"] == 1  # compiled once (not run eagerly), warm on the second call
        ops = [n.target for n in c.record.graph_modules[0].graph.nodes if n.op == "call_function"]
        assert torch.nn.functional.batch_norm in ops  # the running stats are updated by the graph
