"""Conformance table: every scenario of tests/engine/test_conformance_*.py under the engine and under
torch.compile (nested_graph_breaks=True, backend "eager", dynamo reset between scenarios), side by side.

Per scenario: correct? (result or exception, effect log, arguments, module state and global torch state equal
to eager on both calls) and graphs compiled over both calls. torch's graphs are counted by a counting
backend. Scenarios are imported from the test modules, never copied. A scenario where the engine ran a
frame eagerly or restarted a trace never counts as "fewer graphs", and one where torch compiled nothing
(Dynamo skipped the frame) is counted as "torch fell back", not as the engine having more; the op nodes in
each side's graphs tell fewer graphs from fewer ops compiled. Run from the repository root:

    python tools/conformance_table.py [-k SUBSTRING] [-f FAMILY[,FAMILY...]]
"""

from __future__ import annotations

import contextlib
import importlib
import io
import os
import sys
from dataclasses import dataclass

import torch
import torch._dynamo

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))

import engine  # noqa: E402
from tests.engine.conformance import Scenario, difference, run_pair  # noqa: E402

FAMILIES = ["ctx", "closures", "effects", "stack", "control", "data", "classes", "markers", "exc", "cms", "gens",
            "py_stdlib", "py_builtins", "py_classes", "py_training"]


def scenarios(families: list[str] = FAMILIES) -> list[tuple[str, Scenario]]:
    out = []
    for fam in families:
        mod = importlib.import_module(f"tests.engine.test_conformance_{fam}")
        out += [(fam, sc) for sc in mod.SCENARIOS]
    return out


def _verdict(sc: Scenario, compiled) -> tuple[bool, str]:
    try:
        with contextlib.redirect_stdout(io.StringIO()):
            pairs = run_pair(sc, compiled)
    except Exception as e:  # the harness itself failed (e.g. a compiler poisoned the process state)
        return False, f"harness: {type(e).__name__}: {e}"[:120]
    for k, (ref, got) in enumerate(pairs):
        diff = difference(ref, got)
        if diff is not None:
            return False, f"call {k + 1}: {diff}"[:120]
    return True, ""


@dataclass(frozen=True)
class Row:
    family: str
    name: str
    e_ok: bool
    e_graphs: int
    e_eager: int  # calls the engine ran eagerly as a whole
    e_restarts: int  # traces the engine restarted with a callee made eager
    t_ok: bool
    t_graphs: int
    e_why: str
    t_why: str
    e_ops: int = 0  # op nodes in the engine's graphs
    t_ops: int = 0  # op nodes in torch's graphs

    @property
    def e_fallback(self) -> bool:
        """The engine ran something eagerly that it was meant to trace: its graph count is no win."""
        return bool(self.e_eager or self.e_restarts)

    @property
    def t_fell_back(self) -> bool:
        """torch compiled nothing (Dynamo skipped the frame) while the engine compiled something."""
        return self.t_graphs == 0 and self.e_graphs > 0

    @property
    def t_partly_eager(self) -> bool:
        """torch has fewer graphs but also fewer ops in them: it ran part of the program eagerly (a resume
        function skipped, e.g. after a break in a loop), which the graph count alone hides."""
        return self.t_graphs < self.e_graphs and self.t_ops < self.e_ops

    @property
    def e_partly_eager(self) -> bool:
        """The same for the engine: fewer graphs, fewer ops (e.g. a mode entered as an eager op)."""
        return self.e_graphs < self.t_graphs and self.e_ops < self.t_ops

    @property
    def mark(self) -> str:
        base = "<" if self.e_graphs < self.t_graphs else ("=" if self.e_graphs == self.t_graphs else ">")
        return base + ("*" if self.e_fallback else "")


def _ops(gms) -> int:
    """Op nodes (calls) over a list of graph modules: what was compiled, as opposed to how many graphs."""
    return sum(n.op in ("call_function", "call_method", "call_module") for gm in gms for n in gm.graph.nodes)


def run_engine(sc: Scenario) -> tuple[bool, int, int, int, str, int]:
    c = engine.compile(sc.fn)
    ok, why = _verdict(sc, c)
    rec = c.record
    if rec.eager_calls or rec.restarts:
        why = (why + f" (eager calls {rec.eager_calls}, restarts {rec.restarts})").strip()
    return ok, rec.graphs, rec.eager_calls, rec.restarts, why, _ops(rec.graph_modules)


def run_torch(sc: Scenario) -> tuple[bool, int, str, int]:
    torch._dynamo.reset()
    gms = []

    def counting(gm, example_inputs):
        gms.append(gm)
        return gm.forward

    ok, why = _verdict(sc, torch.compile(sc.fn, backend=counting))
    torch._dynamo.reset()
    return ok, len(gms), why, _ops(gms)


def totals(rows: list[Row]) -> str:
    """The summary line. "Fewer graphs" counts only scenarios the engine traced without a fallback (a frame
    run eagerly or a restarted trace compiles fewer graphs by not compiling), and neither side's fewer graphs
    count where it also put fewer ops into them (it ran part of the program eagerly); "more" counts only
    scenarios where torch compiled at least one graph (0 graphs is Dynamo skipping the frame: listed as
    torch fell back). Op counts are a rough measure (mode changes are nodes on one side, eager ops on the
    other, and a recompile counts its graph's ops again: closure_counter's 3 torch graphs are recompiles), good
    enough to tell "ran it eagerly" from "traced it in fewer pieces"."""
    n = len(rows)
    fewer = sum(r.e_graphs < r.t_graphs and not r.e_fallback and not r.e_partly_eager for r in rows)
    e_partly = [r.name for r in rows if r.e_partly_eager and not r.e_fallback]
    more = [r.name for r in rows if r.e_graphs > r.t_graphs and not r.t_fell_back and not r.t_partly_eager]
    partly = [r.name for r in rows if r.t_partly_eager and not r.t_fell_back]
    fell = [r.name for r in rows if r.t_fell_back]
    fb = [r for r in rows if r.e_fallback]
    return (f"totals: {n} scenarios; engine correct {sum(r.e_ok for r in rows)}/{n}, "
            f"graphs {sum(r.e_graphs for r in rows)}, fallbacks on {len(fb)} (eager calls "
            f"{sum(r.e_eager for r in fb)}, restarts {sum(r.e_restarts for r in fb)}); "
            f"torch correct {sum(r.t_ok for r in rows)}/{n}, graphs {sum(r.t_graphs for r in rows)}; "
            f"engine fewer graphs (no fallback) on {fewer}, fewer graphs but fewer ops on {len(e_partly)}"
            f"{': ' + ', '.join(e_partly) if e_partly else ''}; "
            f"more on {len(more)}{': ' + ', '.join(more) if more else ''}; "
            f"torch fell back (0 graphs) on {len(fell)}{': ' + ', '.join(fell) if fell else ''}; "
            f"torch fewer graphs but fewer ops in them (ran part eagerly) on {len(partly)}"
            f"{': ' + ', '.join(partly) if partly else ''}")


def issue_line(rows: list[Row]) -> str:
    """The plain graph-count comparison (issue #29's measure): where torch compiled at least one graph, the
    share of scenarios where the engine's graphs are no more than torch's; and the scenarios where the engine
    compiled nothing while torch compiled something."""
    both = [r for r in rows if r.t_graphs > 0]
    le = sum(r.e_graphs <= r.t_graphs for r in both)
    none = [r.name for r in both if r.e_graphs == 0]
    share = f"{100 * le / len(both):.0f}%" if both else "-"
    return (f"graphs <= torch's on {le}/{len(both)} ({share}) where torch compiles >= 1 graph; engine compiles "
            f"nothing where torch does on {len(none)}{': ' + ', '.join(none) if none else ''}")


def main(argv: list[str]) -> int:
    pick = argv[argv.index("-k") + 1] if "-k" in argv else ""
    families = argv[argv.index("-f") + 1].split(",") if "-f" in argv else FAMILIES
    torch._dynamo.config.nested_graph_breaks = True
    rows = []
    for fam, sc in scenarios(families):
        if pick not in sc.name:
            continue
        e_ok, e_graphs, e_eager, e_restarts, e_why, e_ops = run_engine(sc)
        t_ok, t_graphs, t_why, t_ops = run_torch(sc)
        rows.append(Row(fam, sc.name, e_ok, e_graphs, e_eager, e_restarts, t_ok, t_graphs, e_why, t_why,
                        e_ops, t_ops))
    width = max((len(r.name) for r in rows), default=10)
    print(f"{'family':9} {'scenario':{width}}  engine graphs/ops   torch graphs/ops   note")
    for r in rows:
        note = "; ".join(x for x in (f"engine: {r.e_why}" if r.e_why else "",
                                     f"torch: {r.t_why}" if r.t_why else "") if x)
        print(f"{r.family:9} {r.name:{width}}  {'ok ' if r.e_ok else 'BAD'} {r.e_graphs:3d}/{r.e_ops:<4d} {r.mark:2}  "
              f"{'ok ' if r.t_ok else 'BAD'} {r.t_graphs:3d}/{r.t_ops:<4d}     {note}")
    print("(* : the engine fell back -- ran a call eagerly or restarted a trace; never counted as fewer graphs)")
    print(totals(rows))
    print(issue_line(rows))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
