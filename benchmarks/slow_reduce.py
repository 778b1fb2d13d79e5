"""Slow-compile reduction benchmark: candidates kept by their count of traced instructions, or by time alone.

    nice -n 10 python benchmarks/slow_reduce.py [--count 4] [--seed 7] [--min-lines 250] [--budget 60]
        [--python PATH] [--arms steps,time] [--json OUT]

A slow compile (``slow:compile``) is rare in a campaign and costs the most to reduce: every kept candidate waited
out 1.5 times the slow limit (22 s and more). Here one is planted in generated programs: a user iterator whose
``__next__`` breaks, unpacked by ``list`` (Dynamo never returns from compiling it with nested graph breaks on,
2.10 to 2.15; ``corpus/torch-ngb-list-user-iterator-item-break-in-next-hang.py``), called first in ``entry``
of a generated program of ``--min-lines`` or more. Each is reduced as a campaign reduces a slow bucket (its
signature given, the campaign's budget and ceiling, ``SLOW_WAIT_S`` of waiting, one re-check under the full
rule) in each arm: ``steps`` (the default: a candidate is kept once Dynamo traced ``oracle._slow.step_limit``
of its twin's instructions) and ``time`` (``REDUCE_BY_STEPS`` off: it must not finish within its time limit).

Prints per program and arm: lines before and after, how the reduction stopped, seconds, checks, whether the
result is slow under the full rule, and for each arm the median lines and seconds and the share at <= 20 lines.
"""

from __future__ import annotations

import argparse
import json
import re
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

LOOP = Path(__file__).resolve().parent.parent / "corpus" / "torch-ngb-list-user-iterator-item-break-in-next-hang.py"
GOAL_LINES = 20


def _loop_class() -> str:
    """The corpus repro's iterator class, renamed ``_Items``."""
    import ast

    from oracle import ProgramFile

    tree = ast.parse(ProgramFile.parse(LOOP.read_text(encoding="utf-8")).code)
    (cls,) = [node for node in tree.body if isinstance(node, ast.ClassDef)]
    cls.name = "_Items"
    return ast.unparse(cls) + "\n"


def planted(source: str) -> str:
    """``source`` (a generated program) with the slow loop defined before ``entry`` and called first in it."""
    match = re.search(r"^def entry\(.*?\):\n", source, re.S | re.M)
    if match is None:
        raise ValueError("the program has no entry")
    call = "    _planted = list(_Items(torch.ones(1)))\n"
    return source[:match.start()] + _loop_class() + "\n\n" + match.group(0) + call + source[match.end():]


def programs(count: int, seed: int, min_lines: int) -> list[tuple[str, str]]:
    from fuzz.program.generate import generate_program

    found, index = [], 0
    while len(found) < count:
        source = generate_program(seed, index).source
        if len(source.splitlines()) >= min_lines:
            found.append((f"s{seed}p{index}", planted(source)))
        index += 1
    return found


def reduce_one(runner, source: str, target: str, budget: float, by_steps: bool) -> dict:
    from fuzz.campaign.reductions import SLOW_WAIT_S
    from fuzz.reduce import code_lines, reduce_program
    from oracle import _slow

    _slow.REDUCE_BY_STEPS = by_steps
    started = time.monotonic()
    result = reduce_program(source, target, signature="slow:compile", runner=runner, budget_s=budget,
                            rechecks=1, timeout=runner.timeout, ceiling_s=4 * budget, hang_wait_s=SLOW_WAIT_S,
                            cheaper=False)
    return {"before": code_lines(source), "after": result.lines, "stopped": result.stopped,
            "seconds": round(time.monotonic() - started, 1), "checks": result.invocations,
            "confirmed": result.reproduced == result.rechecks and result.rechecks > 0}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--count", type=int, default=4)
    parser.add_argument("--seed", type=int, default=7)
    parser.add_argument("--min-lines", type=int, default=250)
    parser.add_argument("--budget", type=float, default=60.0, help="the campaign's reduce budget (seconds)")
    parser.add_argument("--python", help="another interpreter with torch (a python= target)")
    parser.add_argument("--arms", default="steps,time")
    parser.add_argument("--json")
    args = parser.parse_args()

    import oracle

    target = f"torch:python={args.python}" if args.python else "torch"
    arms = [a for a in args.arms.split(",") if a]
    rows = []
    with oracle.Runner(workers=1, timeout=60.0) as runner:
        for name, source in programs(args.count, args.seed, args.min_lines):
            for arm in arms:
                row = {"program": name, "arm": arm, **reduce_one(runner, source, target, args.budget,
                                                               arm == "steps")}
                rows.append(row)
                print(f"{name:10} {arm:6} {row['before']:5} -> {row['after']:4} lines  {row['stopped']:24} "
                      f"{row['seconds']:7.1f} s {row['checks']:5} checks  slow under the full rule: "
                      f"{row['confirmed']}", flush=True)
    for arm in arms:
        mine = [r for r in rows if r["arm"] == arm]
        if mine:
            print(f"{arm}: median {statistics.median(r['after'] for r in mine)} lines, "
                  f"{statistics.median(r['seconds'] for r in mine):.0f} s; "
                  f"<= {GOAL_LINES} lines: {sum(r['after'] <= GOAL_LINES for r in mine)}/{len(mine)}; "
                  f"confirmed {sum(r['confirmed'] for r in mine)}/{len(mine)}")
    if args.json:
        Path(args.json).write_text(json.dumps(rows, indent=1))


if __name__ == "__main__":
    main()
