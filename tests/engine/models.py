"""Real models, built only from torch and torch.nn, shared by tests/engine/test_models.py and
benchmarks/models.py (one definition of each).

Each `ModelCase` builds a fresh module (seeded, so two builds have equal weights) and fresh inputs, and
states how many graph breaks compiling it must give: 0 for plain library code, 1 for the models with a
break in a nested helper (a `print`, an `.item()`, a `torch._dynamo.disable`d logging call). Shapes are
small: the tests run every model several times; the benchmark passes `scale` to make them larger.
"""

from __future__ import annotations

import logging
from collections.abc import Callable
from dataclasses import dataclass

import torch
import torch.nn as nn
import torch.nn.functional as F

LOG = logging.getLogger("ngb_fuzz.models")


@dataclass(frozen=True)
class ModelCase:
    name: str
    family: str
    build: Callable[[int], nn.Module]  # build(scale) -> module, weights seeded
    inputs: Callable[[int], tuple]  # inputs(scale) -> positional arguments, seeded
    breaks: int = 0  # graph breaks the engine must report on the first call

    def make(self, scale: int = 1) -> tuple[nn.Module, tuple]:
        torch.manual_seed(0)
        module = self.build(scale)
        torch.manual_seed(1)
        return module, self.inputs(scale)


def _randn(*shape: int) -> torch.Tensor:
    return torch.randn(*shape)


# -- plain library models ---------------------------------------------------------------------------------

def mlp(s: int) -> nn.Module:
    return nn.Sequential(nn.Linear(16 * s, 32 * s), nn.ReLU(), nn.Linear(32 * s, 32 * s), nn.GELU(),
                         nn.Dropout(0.0), nn.Linear(32 * s, 4))


def convnet(s: int) -> nn.Module:
    c = 8 * s
    return nn.Sequential(nn.Conv2d(3, c, 3, padding=1), nn.BatchNorm2d(c), nn.ReLU(), nn.MaxPool2d(2),
                         nn.Conv2d(c, 2 * c, 3, padding=1), nn.BatchNorm2d(2 * c), nn.ReLU(),
                         nn.AdaptiveAvgPool2d(1), nn.Flatten(), nn.Linear(2 * c, 10))


class BasicBlock(nn.Module):
    def __init__(self, cin: int, cout: int, stride: int) -> None:
        super().__init__()
        self.conv1 = nn.Conv2d(cin, cout, 3, stride, 1, bias=False)
        self.bn1 = nn.BatchNorm2d(cout)
        self.conv2 = nn.Conv2d(cout, cout, 3, 1, 1, bias=False)
        self.bn2 = nn.BatchNorm2d(cout)
        self.down = None
        if stride != 1 or cin != cout:
            self.down = nn.Sequential(nn.Conv2d(cin, cout, 1, stride, bias=False), nn.BatchNorm2d(cout))

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        out = F.relu(self.bn1(self.conv1(x)))
        out = self.bn2(self.conv2(out))
        identity = x if self.down is None else self.down(x)
        return F.relu(out + identity)


class ResNet(nn.Module):
    def __init__(self, s: int) -> None:
        super().__init__()
        c = 8 * s
        self.stem = nn.Sequential(nn.Conv2d(3, c, 3, 1, 1, bias=False), nn.BatchNorm2d(c), nn.ReLU())
        self.layers = nn.Sequential(BasicBlock(c, c, 1), BasicBlock(c, 2 * c, 2), BasicBlock(2 * c, 2 * c, 1))
        self.head = nn.Linear(2 * c, 10)

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        x = self.layers(self.stem(x))
        return self.head(torch.flatten(F.adaptive_avg_pool2d(x, 1), 1))


class RecurrentTagger(nn.Module):
    def __init__(self, cell: type[nn.Module], s: int, **kw) -> None:
        super().__init__()
        self.rnn = cell(8, 16 * s, num_layers=2, batch_first=True, **kw)
        out = 16 * s * (2 if kw.get("bidirectional") else 1)
        self.head = nn.Linear(out, 5)

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        out, _ = self.rnn(x)
        return self.head(out[:, -1])


class SelfAttention(nn.Module):
    def __init__(self, s: int) -> None:
        super().__init__()
        self.attn = nn.MultiheadAttention(16 * s, 4, batch_first=True)
        self.norm = nn.LayerNorm(16 * s)

    def forward(self, x: torch.Tensor, pad: torch.Tensor) -> torch.Tensor:
        y, _ = self.attn(x, x, x, key_padding_mask=pad, need_weights=False)
        return self.norm(x + y)


def encoder(s: int) -> nn.Module:
    layer = nn.TransformerEncoderLayer(16 * s, 4, 32 * s, dropout=0.0, batch_first=True)
    return nn.TransformerEncoder(layer, 2, enable_nested_tensor=False)


class Decoder(nn.Module):
    def __init__(self, s: int) -> None:
        super().__init__()
        self.layer = nn.TransformerDecoderLayer(16 * s, 4, 32 * s, dropout=0.0, batch_first=True,
                                                norm_first=True)

    def forward(self, tgt: torch.Tensor, memory: torch.Tensor) -> torch.Tensor:
        mask = nn.Transformer.generate_square_subsequent_mask(tgt.shape[1])
        return self.layer(tgt, memory, tgt_mask=mask, tgt_is_causal=True)


class TextClassifier(nn.Module):
    """Embedding, masked mean pooling over the non-padding tokens, a linear head."""

    def __init__(self, s: int) -> None:
        super().__init__()
        self.emb = nn.Embedding(50, 16 * s, padding_idx=0)
        self.head = nn.Linear(16 * s, 3)

    def forward(self, tokens: torch.Tensor) -> torch.Tensor:
        mask = (tokens != 0).unsqueeze(-1).float()
        pooled = (self.emb(tokens) * mask).sum(1) / mask.sum(1).clamp(min=1.0)
        return self.head(pooled)


class MessagePassing(nn.Module):
    """One GNN layer in plain torch: messages along edges, summed per node with index_add."""

    def __init__(self, s: int) -> None:
        super().__init__()
        self.msg = nn.Linear(2 * 8 * s, 8 * s)
        self.upd = nn.Linear(2 * 8 * s, 8 * s)

    def forward(self, h: torch.Tensor, edges: torch.Tensor) -> torch.Tensor:
        src, dst = edges[0], edges[1]
        m = F.relu(self.msg(torch.cat([h[src], h[dst]], dim=-1)))
        agg = torch.zeros_like(h).index_add(0, dst, m)
        deg = torch.zeros(h.shape[0], 1).index_add(0, dst, torch.ones(dst.shape[0], 1)).clamp(min=1.0)
        return self.upd(torch.cat([h, agg / deg], dim=-1))


class DetectionHead(nn.Module):
    """A shared head over feature-pyramid levels: Python loops over levels, per-level scales."""

    def __init__(self, s: int, levels: int = 3) -> None:
        super().__init__()
        c = 8 * s
        self.lateral = nn.ModuleList(nn.Conv2d(c * 2 ** k, c, 1) for k in range(levels))
        self.tower = nn.Sequential(nn.Conv2d(c, c, 3, padding=1), nn.GroupNorm(4, c), nn.ReLU())
        self.cls = nn.Conv2d(c, 4, 3, padding=1)
        self.box = nn.Conv2d(c, 4, 3, padding=1)
        self.scales = nn.ParameterList(nn.Parameter(torch.ones(())) for _ in range(levels))

    def forward(self, *feats: torch.Tensor) -> torch.Tensor:
        outs = []
        prev = None
        for k in reversed(range(len(feats))):
            x = self.lateral[k](feats[k])
            if prev is not None:
                x = x + F.interpolate(prev, size=x.shape[-2:], mode="nearest")
            prev = x
            t = self.tower(x)
            cls = self.cls(t).flatten(2)
            box = (self.box(t) * self.scales[k]).exp().flatten(2)
            outs.append(torch.cat([cls, box], dim=1))
        return torch.cat(outs, dim=2)


# -- models with a graph break in a nested helper ------------------------------------------------------------

def _report(x: torch.Tensor) -> torch.Tensor:
    print(f"activations: {tuple(x.shape)}")  # a break two calls deep
    return x


def _normalize_by_max(x: torch.Tensor) -> torch.Tensor:
    peak = x.abs().max().item()  # data-dependent Python float: a break inside the helper
    return x / (peak + 1.0)


@torch._dynamo.disable
def _log_stats(x: torch.Tensor) -> None:
    LOG.debug("mean %s", x.mean())  # the logger is disabled: nothing is printed, the call still breaks


def _stage(block: nn.Module, x: torch.Tensor, helper: Callable) -> torch.Tensor:
    y = block(x)
    return helper(y) if helper is not _log_stats else _logged(y)


def _logged(y: torch.Tensor) -> torch.Tensor:
    _log_stats(y)
    return y * 2


class NestedBreak(nn.Module):
    """Two MLP stages; between them, a helper that breaks at depth 2 or 3."""

    def __init__(self, s: int, helper: Callable) -> None:
        super().__init__()
        self.a = nn.Sequential(nn.Linear(16 * s, 32 * s), nn.Tanh())
        self.b = nn.Sequential(nn.Linear(32 * s, 32 * s), nn.ReLU(), nn.Linear(32 * s, 4))
        self.helper = helper

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        return self.b(_stage(self.a, x, self.helper))


def _edges(n: int, e: int) -> torch.Tensor:
    return torch.randint(0, n, (2, e))


def _tokens(s: int) -> torch.Tensor:
    t = torch.randint(1, 50, (4, 12 * s))
    t[:, -3:] = 0
    return t


def _padding(s: int) -> torch.Tensor:
    pad = torch.zeros(3, 6 * s, dtype=torch.bool)
    pad[:, -2:] = True
    return pad


MODELS: tuple[ModelCase, ...] = (
    ModelCase("mlp", "MLP", mlp, lambda s: (_randn(8, 16 * s),)),
    ModelCase("convnet_bn", "ConvNet + BatchNorm", convnet, lambda s: (_randn(4, 3, 8 * s, 8 * s),)),
    ModelCase("resnet", "ResNet blocks", ResNet, lambda s: (_randn(2, 3, 8 * s, 8 * s),)),
    ModelCase("lstm", "LSTM", lambda s: RecurrentTagger(nn.LSTM, s), lambda s: (_randn(3, 6 * s, 8),)),
    ModelCase("gru_bi", "GRU", lambda s: RecurrentTagger(nn.GRU, s, bidirectional=True),
              lambda s: (_randn(3, 6 * s, 8),)),
    ModelCase("mha", "MultiheadAttention", SelfAttention, lambda s: (_randn(3, 6 * s, 16 * s), _padding(s))),
    ModelCase("encoder", "TransformerEncoder", encoder, lambda s: (_randn(3, 6 * s, 16 * s),)),
    ModelCase("decoder", "TransformerDecoderLayer", Decoder,
              lambda s: (_randn(3, 5 * s, 16 * s), _randn(3, 7 * s, 16 * s))),
    ModelCase("text", "Embedding + pooling", TextClassifier, lambda s: (_tokens(s),)),
    ModelCase("gnn", "message passing", MessagePassing,
              lambda s: (_randn(10 * s, 8 * s), _edges(10 * s, 30 * s))),
    ModelCase("detection", "detection head", DetectionHead,
              lambda s: tuple(_randn(2, 8 * s * 2 ** k, 16 // 2 ** k, 16 // 2 ** k) for k in range(3))),
    ModelCase("print_helper", "break: print in a helper", lambda s: NestedBreak(s, _report),
              lambda s: (_randn(4, 16 * s),), breaks=1),
    ModelCase("item_helper", "break: .item() in a helper", lambda s: NestedBreak(s, _normalize_by_max),
              lambda s: (_randn(4, 16 * s),), breaks=1),
    ModelCase("disabled_log", "break: disabled logging call", lambda s: NestedBreak(s, _log_stats),
              lambda s: (_randn(4, 16 * s),), breaks=1),
)

BY_NAME = {m.name: m for m in MODELS}


def loss_of(out: torch.Tensor) -> torch.Tensor:
    """A scalar that depends on every output element differently (a plain sum hides sign errors)."""
    w = torch.linspace(-1.0, 1.0, out.numel()).reshape(out.shape)
    return (out * w).sum()
