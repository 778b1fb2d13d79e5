"""Reducer benchmark: reduce failing generated programs and print what the issue asks for.

    python benchmarks/reduce.py [--count 20] [--seed 0] [--budget 60] [--workers 2] [--json OUT]

Failing programs come from fault-injection targets over generated programs: program i is checked against
``torch`` and the fault targets in turn; a (program, target) pair counts when ``torch`` says ok and the fault
target gives a finding (so the failure is the injected fault, not a torch bug). Each is reduced with
``fuzz.reduce.reduce_program`` (IR stage first when the generator's IR is at hand, then the source passes),
re-checked 3 times in fresh processes, then run standalone: ``python FILE`` in an empty directory with the
project's packages blocked, so only torch (and the standard library) can be imported.

Prints per program: target, signature, lines before/after (code lines above the footer), seconds, checks,
re-checks reproduced, standalone; then medians and the goals (<= 15 lines, <= 60 s, <= 1000 checks, 100%).
"""

from __future__ import annotations

import argparse
import ast
import json
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

FAULTS = ("fault:perturb", "fault:drop-effect", "fault:flip-grad", "fault:raise")
_BLOCK = (
    "import runpy, sys\n"
    "for name in ('fuzz', 'oracle', 'engine'):\n"
    "    sys.modules[name] = None\n"
    "sys.argv = [sys.argv[1]]\n"
    "runpy.run_path(sys.argv[0], run_name='__main__')\n"
)


def failing_programs(runner, count: int, seed: int, limit: int, targets=FAULTS):
    from fuzz.program.generate import generate_program

    found, turn = 0, 0
    for index in range(limit):
        program = generate_program(seed, index)
        report = runner.check(program.source, list(dict.fromkeys(["torch", *targets])))
        if report.flaky:
            continue
        # rotate over the targets so every kind is represented; a fault target counts only where torch is ok
        for k in range(len(targets)):
            target = targets[(turn + k) % len(targets)]
            verdict = report.verdicts[target]
            if target.startswith("fault:") and report.verdicts["torch"].kind != "ok":
                continue
            if verdict.is_finding:
                turn += 1
                yield index, program, target, verdict.signature
                found += 1
                break
        if found >= count:
            return


def imports_only_torch(source: str) -> bool:
    allowed = set(sys.stdlib_module_names) | {"torch"}
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.Import):
            if any(a.name.split(".")[0] not in allowed for a in node.names):
                return False
        elif isinstance(node, ast.ImportFrom) and (node.module or "").split(".")[0] not in allowed:
            return False
    return True


def runs_standalone(source: str) -> bool:
    """``python FILE`` with only torch: exit 0 (match) or 1 (mismatch it found itself), never a traceback."""
    with tempfile.TemporaryDirectory() as tmp:
        path = Path(tmp) / "repro.py"
        path.write_text(source)
        proc = subprocess.run([sys.executable, "-c", _BLOCK, str(path)], cwd=tmp, capture_output=True, text=True,
                              timeout=300)
    return proc.returncode in (0, 1) and "Traceback" not in proc.stderr and imports_only_torch(source)


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--count", type=int, default=20)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--budget", type=float, default=60.0)
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--rechecks", type=int, default=3)
    parser.add_argument("--no-ir", action="store_true", help="skip the IR stage")
    parser.add_argument("--target", action="append", help=f"targets to find failures on (default: {' '.join(FAULTS)})")
    parser.add_argument("--json", help="write per-program rows here")
    parser.add_argument("--save", metavar="DIR", help="write every reduced repro into DIR")
    args = parser.parse_args(argv)

    import oracle
    from fuzz.reduce import code_lines, reduce_program

    rows = []
    started = time.monotonic()
    with oracle.Runner(workers=args.workers, timeout=30.0) as runner:
        for index, program, target, signature in failing_programs(runner, args.count, args.seed, 40 * args.count,
                                                                          tuple(args.target or FAULTS)):
            result = reduce_program(program.source, target, signature=signature, budget_s=args.budget,
                                    workers=args.workers, runner=runner, rechecks=args.rechecks,
                                    ir=None if args.no_ir else program.ir)
            row = {
                "program": index, "target": target, "signature": signature,
                "before": code_lines(program.source), "after": result.lines,
                "seconds": round(result.elapsed_s, 1), "checks": result.invocations, "stopped": result.stopped,
                "reproduced": result.reproduced, "rechecks": result.rechecks,
                "kept": result.reproduced == result.rechecks and result.signature == signature,
                "standalone": runs_standalone(result.source), "stages": "+".join(result.stages),
            }
            rows.append(row)
            if args.save:
                Path(args.save).mkdir(parents=True, exist_ok=True)
                (Path(args.save) / f"program{index}-{target.replace(':', '-')}.py").write_text(result.source)
            print(f"program {index:>3} {target:<18} {signature:<42} {row['before']:>4} -> {row['after']:>3} lines "
                  f"{row['seconds']:>5.1f}s {row['checks']:>4} checks  re-check {row['reproduced']}/{row['rechecks']}"
                  f"  standalone {'yes' if row['standalone'] else 'NO'}  [{row['stages']}, {row['stopped']}]",
                  flush=True)
    if not rows:
        print("no failing programs found")
        return 1
    n = len(rows)
    median = {k: statistics.median(r[k] for r in rows) for k in ("after", "seconds", "checks", "before")}
    kept = 100.0 * sum(r["kept"] for r in rows) / n
    standalone = 100.0 * sum(r["standalone"] for r in rows) / n
    print(f"\n{n} failing programs (seed {args.seed}; {', '.join(sorted({r['target'] for r in rows}))}); "
          f"budget {args.budget:.0f}s, {args.workers} workers; wall {time.monotonic() - started:.0f}s")
    print(f"median size       {median['after']:>7.1f} lines (from {median['before']:.0f})   goal <= 15")
    print(f"median time       {median['seconds']:>7.1f} s                  goal <= 60")
    print(f"median checks     {median['checks']:>7.0f}                    goal <= 1000")
    print(f"signature kept    {kept:>7.1f} % (re-checked {args.rechecks}x in fresh processes)  goal 100%")
    print(f"runs standalone   {standalone:>7.1f} %                  goal 100%")
    if args.json:
        Path(args.json).write_text(json.dumps(rows, indent=1))
    return 0


if __name__ == "__main__":
    sys.exit(main())
