"""Conformance table: every scenario of tests/engine/test_conformance_*.py under the engine and under
torch.compile (nested_graph_breaks=True, backend "eager", dynamo reset between scenarios), side by side.

Per scenario: correct? (result or exception, effect log, arguments, module state and global torch state equal
to eager on both calls) and graphs compiled over both calls. torch's graphs are counted by a counting
backend. Scenarios are imported from the test modules, never copied. Run from the repository root:

    python benchmarks/conformance_table.py [-k SUBSTRING]
"""

from __future__ import annotations

import contextlib
import importlib
import io
import os
import sys

import torch
import torch._dynamo

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))

import engine  # noqa: E402
from tests.engine.conformance import Scenario, difference, run_pair  # noqa: E402

FAMILIES = ["ctx", "closures", "effects", "stack", "control", "data", "classes", "markers"]


def scenarios() -> list[tuple[str, Scenario]]:
    out = []
    for fam in FAMILIES:
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


def run_engine(sc: Scenario) -> tuple[bool, int, str]:
    c = engine.compile(sc.fn)
    ok, why = _verdict(sc, c)
    rec = c.record
    if rec.eager_calls or rec.restarts:
        why = (why + f" (eager calls {rec.eager_calls}, restarts {rec.restarts})").strip()
    return ok, rec.graphs, why


def run_torch(sc: Scenario) -> tuple[bool, int, str]:
    torch._dynamo.reset()
    graphs = 0

    def counting(gm, example_inputs):
        nonlocal graphs
        graphs += 1
        return gm.forward

    ok, why = _verdict(sc, torch.compile(sc.fn, backend=counting))
    torch._dynamo.reset()
    return ok, graphs, why


def main(argv: list[str]) -> int:
    pick = argv[argv.index("-k") + 1] if "-k" in argv else ""
    torch._dynamo.config.nested_graph_breaks = True
    rows = []
    for fam, sc in scenarios():
        if pick not in sc.name:
            continue
        e_ok, e_graphs, e_why = run_engine(sc)
        t_ok, t_graphs, t_why = run_torch(sc)
        rows.append((fam, sc.name, e_ok, e_graphs, t_ok, t_graphs, e_why, t_why))
    width = max((len(r[1]) for r in rows), default=10)
    print(f"{'family':9} {'scenario':{width}}  engine       torch        note")
    for fam, name, e_ok, e_g, t_ok, t_g, e_why, t_why in rows:
        mark = "<" if e_g < t_g else ("=" if e_g == t_g else ">")
        note = "; ".join(x for x in (f"engine: {e_why}" if e_why else "", f"torch: {t_why}" if t_why else "") if x)
        print(f"{fam:9} {name:{width}}  {'ok ' if e_ok else 'BAD'} {e_g:3d} {mark}   {'ok ' if t_ok else 'BAD'} "
              f"{t_g:3d}     {note}")
    n = len(rows)
    e_correct = sum(r[2] for r in rows)
    t_correct = sum(r[4] for r in rows)
    fewer = sum(r[3] < r[5] for r in rows)
    more = [r[1] for r in rows if r[3] > r[5]]
    print(f"totals: {n} scenarios; engine correct {e_correct}/{n}, graphs {sum(r[3] for r in rows)}; "
          f"torch correct {t_correct}/{n}, graphs {sum(r[5] for r in rows)}; engine fewer graphs on {fewer}, "
          f"more on {len(more)}{': ' + ', '.join(more) if more else ''}")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
