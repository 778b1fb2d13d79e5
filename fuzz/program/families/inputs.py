"""Inputs: x's dtype, rank, layout and grad, extra inputs of entry, dynamic and other sizes.

An ``extra`` piece's template mixes extra input ``e{i}`` into ``x`` in entry; part ``make`` builds it in
``make_inputs`` (``{cols}``: x's last dimension).
"""

from __future__ import annotations

from fuzz.program.families._registry import Construct, Family, Piece


def _placed(kind: str, weight: float, description: str) -> Construct:
    return Construct(f"input.{kind}", weight, description, pieces=(Piece("placed", kind),))


def _extra(kind: str, weight: float, description: str, mix: str, make: str) -> Construct:
    return Construct(f"input.{kind}", weight, description, pieces=(Piece("extra", kind, mix, parts=(("make", make),)),))


FAMILY = Family(
    "input",
    "the inputs: dtype, rank, layout, grad, extra inputs, sizes",
    (
        _placed("requires_grad", 0.6, "x requires grad"),
        _placed("noncontiguous", 0.5, "x is a transposed (non-contiguous) tensor"),
        Construct("input.main_float64", 0.4, "x is float64", pieces=(Piece("dtype", "float64", parts=(("dtype", "float64"),)),)),
        Construct("input.main_bfloat16", 0.3, "x is bfloat16",
                  pieces=(Piece("dtype", "bfloat16", parts=(("dtype", "bfloat16"),)),)),
        Construct("input.rank1", 0.5, "x is 1-d", pieces=(Piece("rank", "1", parts=(("rank", "1"),)),)),
        Construct("input.rank3", 0.5, "x is 3-d", pieces=(Piece("rank", "3", parts=(("rank", "3"),)),)),
        _extra("scalar", 0.5, "an extra 0-d input", "x = x + e{i} * 0.1", "torch.randn((), generator=g)"),
        _extra("empty", 0.3, "an extra empty input", "x = x + e{i}.sum() * 0.1", "torch.randn(0, {cols}, generator=g)"),
        _extra("double", 0.3, "an extra float64 input", "x = x + e{i}.mean() * 0.1",
               "torch.randn({cols}, generator=g, dtype=torch.float64)"),
        _extra("int", 0.3, "an extra int64 input", "x = x + e{i}.sum() * 0.01",
               "torch.randint(0, 5, ({cols},), generator=g)"),
        _placed("mark_dynamic", 0.3, "x's leading dimension marked dynamic (torch._dynamo.maybe_mark_dynamic)"),
        _placed("other_sizes", 0.5, "make_inputs(device, size=1): a third call on inputs of other sizes (recompiles)"),
    ),
)
