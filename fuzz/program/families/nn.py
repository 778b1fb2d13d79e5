"""torch.nn modules called from generated code."""

from __future__ import annotations

from fuzz.program.families._registry import Construct, Family

_MOD = '''
class _Mod(torch.nn.Module):
    def __init__(self):
        super().__init__()
        self.scale = torch.nn.Parameter(torch.full((), 0.5))

    def forward(self, x):
        # clone: x may be an inference tensor from an inference_mode block upstream
        return torch.tanh(x.clone() * self.scale + 0.1)


_MOD = _Mod()
'''

FAMILY = Family(
    "nn",
    "torch.nn modules",
    (Construct("nn.module", 0.4, "calling a small torch.nn.Module", "x = _MOD(x)", bound=lambda b, _: 1.0,
               defs=_MOD.lstrip("\n")),),
)
