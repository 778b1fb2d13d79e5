"""Graph breaks: one statement each (ir.Break), and the data-dependent ``if`` (ir.DataIf, trait ``branch``: its
template is the condition, the strategies put a filler statement in each branch; also a wrapper). Part ``call``:
the name of the call that breaks, which root-cause grouping looks for (``fuzz.triage.rootcause``); trait
``step``: a step graph break."""

from __future__ import annotations

from fuzz.program import ir
from fuzz.program.families._registry import Construct, Family, Piece
from fuzz.program.families.flow import branch, render_branch


def _break(kind: str, weight: float, description: str, template: str, bound=None, imports: tuple[str, ...] = (),
           traits: tuple[str, ...] = (), extra: tuple[Piece, ...] = (), call: str = "", reads=None,
           render=None) -> Construct:
    parts = (("call", call),) if call else ()
    piece = Piece("break", kind, template, traits=frozenset(traits), bound=bound, parts=parts, reads=reads,
                  render=render)
    return Construct(f"break.{kind}", weight, description, imports=imports, pieces=(piece, *extra))


_DATA = "x.sum() > 0"  # the data-dependent condition

FAMILY = Family(
    "break",
    "graph breaks of every kind",
    (
        _break("graph_break", 3, "torch._dynamo.graph_break()", "torch._dynamo.graph_break()", call="graph_break"),
        _break("step_unsupported", 2, "torch._dynamo.step_unsupported() (a step graph break)",
               "torch._dynamo.step_unsupported()", traits=("step",), call="step_unsupported"),
        _break("print", 1, "print(...)", 'print("ngb {tag}")', call="print"),
        _break("disable", 2, "a call to a torch._dynamo.disable'd function", "x = _ngb_disabled(x)",
               bound=lambda b, _: 0.5 * b + 0.25),
        _break("data_if", 1.5, "if on a tensor value: if x.sum() > 0", _DATA, traits=("branch",),
               reads=lambda s: isinstance(s, ir.DataIf) and s.cond == "tensor",
               render=lambda s, r: render_branch(s, r, [f"if {_DATA}:"]),
               extra=(Piece("wrapper", "data_if", share=0.7, draw=branch("tensor")),)),
        _break("item", 1.5, ".item() mixed back into the tensor", "x = x * 0.5 + x.mean().item() * 0.5", call="item"),
        _break("tolist", 0.7, ".tolist() mixed back into the tensor",
               "x = x * 0.5 + x.new_tensor(x.mean(dim=0).tolist()) * 0.5", call="tolist"),
        _break("builtin", 0.7, "an unsupported stdlib call (copy.deepcopy of a dict)",
               'x = x + (zlib.crc32(b"{tag}") % 7) * 0.01', bound=lambda b, _: b + 0.07, imports=("zlib",), call="crc32"),
        _break("numpy", 0.5, "numpy interop: .numpy(), numpy ops, torch.from_numpy",
               "x = x * 0.5 + torch.from_numpy(np.clip(x.detach().float().cpu().numpy(), -2.0, 2.0) * 0.5)"
               ".to(x.device, x.dtype)", bound=lambda b, _: 0.5 * b + 0.5, imports=("numpy as np",), call="numpy"),
        _break("attr_store", 0.5, "storing an attribute on a tensor",
               "y{k} = x * 1.0\ny{k}.ngb_note = 0.5\nx = y{k} * y{k}.ngb_note", bound=lambda b, _: 0.5 * b),
    ),
)
