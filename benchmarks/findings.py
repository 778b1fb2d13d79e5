"""Reduction benchmark over fixed, unreduced findings saved from real campaigns (benchmarks/data/findings/).

Each ``*.py`` there is a campaign's unreduced repro (``# signature:``, ``# target:`` header); ``benchmarks/data/labels.json``
gives each its root cause, labeled by hand. For every finding: reduce it with ``reduce_program`` (the
generator's IR when the file is an unedited generated program), then check the result once more in full and
compare with the original: the signature kept (for a slow compile that, let finish, ends in a wrong value or a
crash, that finding's: ``fuzz.reduce._ends``), and eager's outcome (returned / raised the same type) kept.
Prints one row per finding and: median and p90 program lines after reduction, whole-file lines (header and
check included), reduction wall time, checks, signature kept %, eager outcome kept %, and buckets per root
cause (distinct campaign root causes, ``fuzz.campaign.loop.root_cause`` on the reduced repro, per labeled cause),
and the share that reached ``GOAL_LINES`` program lines, overall and for the large findings (``LARGE`` lines or
more: 500 to 1,000-line programs, from torch 2.13 and from torch 2.15 through ``python=``).

    nice -n 10 python benchmarks/findings.py --budget 60 --workers 2 [--only GLOB,...] [--json OUT] [--save DIR] [--no-ir]
        [--python 2.15=/venv215/bin/python]

A finding from another torch installation names it in its label's target as ``python=@NAME``; ``--python
NAME=PATH`` says where that interpreter is here, and a finding whose interpreter is not given is skipped (and
said so). The medians are printed for the whole set and for each source (the file name's prefix: ``torch``,
``aot``, ``t215``, ``fault``).

Only the public reducer API is used, so the same script measures an older checkout (PYTHONPATH=that tree).
Timings on a shared machine are noisy.
"""

from __future__ import annotations

import argparse
import collections
import fnmatch
import json
import statistics
import time
from pathlib import Path

DATA = Path(__file__).parent / "data"
ROOT = DATA.parents[1]
GOAL_LINES = 20  # a repro a reader takes in at once: the goal for every finding in the default budget
LARGE = 500  # program lines from which a finding counts as large


def _eager_outcome(runner, source: str, target: str) -> tuple[str, ...]:
    """What eager does on each of two calls, under the finding's interpreter: a repro must not drift on either."""
    import oracle
    from oracle._runner import eager_outcomes

    return eager_outcomes(runner.run(source, oracle.parse_target(target).eager, 2))


def _p90(values: list[float]) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, round(0.9 * (len(ordered) - 1)))]


def _resolved(target: str, pythons: dict[str, str]) -> str | None:
    """``target`` with ``python=@NAME`` replaced by the path given for NAME; None when it is not given."""
    if "python=@" not in target:
        return target
    name = target.split("python=@", 1)[1].split(",", 1)[0]
    return target.replace(f"python=@{name}", f"python={pythons[name]}") if name in pythons else None


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--budget", type=float, default=60.0, help="seconds per finding (default 60)")
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--only", default="*", help="glob on file names; several separated by commas")
    parser.add_argument("--json", help="write the rows here")
    parser.add_argument("--save", metavar="DIR", help="write every reduced repro into DIR")
    parser.add_argument("--no-ir", action="store_true", help="skip the IR stage (reduce the source alone)")
    parser.add_argument("--python", action="append", default=[], metavar="NAME=PATH",
                        help="the interpreter a label's python=@NAME stands for (repeatable)")
    args = parser.parse_args()
    pythons = dict(item.split("=", 1) for item in args.python)

    import oracle
    from fuzz.reduce import code_lines, reduce_program
    from fuzz.reduce._oracle import generator_ir
    try:
        from fuzz.triage.rootcause import behaviour_shape, root_cause
    except ImportError:  # a checkout from before fuzz/ had rooms (measuring the refactor against its past)
        from fuzz.rootcause import behaviour_shape, root_cause  # type: ignore[no-redef]

    # the unreduced findings saved from campaigns (data/findings/), by file name
    labels = {Path(f["file"]).name: f for f in json.loads((DATA / "labels.json").read_text())["findings"]
              if f["file"].startswith("benchmarks/data/findings/")}
    rows, skipped = [], []
    with oracle.Runner(workers=args.workers, timeout=60) as runner:
        for name in sorted(n for n in labels if any(fnmatch.fnmatch(n, g) for g in args.only.split(","))):
            label = labels[name]
            source = (ROOT / label["file"]).read_text()
            target, signature = _resolved(label["target"], pythons), label["signature"]
            if target is None:
                print(f"{name:18} skipped: its target {label['target']} needs --python NAME=PATH", flush=True)
                skipped.append(name)
                continue
            before = _eager_outcome(runner, source, target)
            started = time.monotonic()
            try:
                result = reduce_program(source, target, signature=signature, budget_s=args.budget,
                                        workers=args.workers, runner=runner, rechecks=0,
                                        ir=None if args.no_ir else generator_ir(source))
            except Exception as exc:  # noqa: BLE001 - a finding the reducer refuses counts as not kept
                print(f"{name:18} reducer refused: {type(exc).__name__}: {exc}", flush=True)
                rows.append({"file": name, "root_cause": label["root_cause"], "failed": str(exc)})
                continue
            wall = time.monotonic() - started
            if args.save:
                Path(args.save).mkdir(parents=True, exist_ok=True)
                (Path(args.save) / name).write_text(result.source)
            report = runner.check(result.source, [target])
            after = report.verdicts[target].signature
            kept = result.signature or signature  # a slow compile's: the wrong value it ends in, when it does
            row = {"file": name, "root_cause": label["root_cause"], "original_lines": code_lines(source),
                   "lines": code_lines(result.source), "file_lines": len(result.source.splitlines()),
                   "seconds": round(wall, 1), "checks": result.invocations, "stopped": result.stopped,
                   "signature_kept": after == kept and not report.flaky,
                   **({"ends_in": kept} if kept != signature else {}),
                   "goal": code_lines(result.source) <= GOAL_LINES,
                   "eager_kept": _eager_outcome(runner, result.source, target) == before,
                   "bucket": root_cause(kept, behaviour_shape(result.source, minimal=result.stopped == "fixpoint"))
                   or f"{target}|{kept}"}  # the campaign's rule
            rows.append(row)
            print(f"{name:18} {row['original_lines']:4} -> {row['lines']:3} lines (file {row['file_lines']:3}) "
                  f"{row['seconds']:6.1f}s {row['checks']:4} checks {row['stopped']:9} "
                  f"sig {'kept' if row['signature_kept'] else 'LOST(' + after + ')'} "
                  f"eager {'kept' if row['eager_kept'] else 'CHANGED'} "
                  f"{'<=' if row['goal'] else '> '}{GOAL_LINES}"
                  + (f"  (ends in {kept})" if kept != signature else ""), flush=True)
    done = [r for r in rows if "failed" not in r]
    if args.json:
        Path(args.json).write_text(json.dumps(rows, indent=1))
    if not done:
        return 1
    lines, files = [r["lines"] for r in done], [r["file_lines"] for r in done]
    secs, checks = [r["seconds"] for r in done], [r["checks"] for r in done]
    per_cause = collections.defaultdict(set)
    for r in done:
        per_cause[r["root_cause"]].add(r["bucket"])
    print(f"\nfindings: {len(rows)} ({len(rows) - len(done)} refused, {len(skipped)} skipped), "
          f"budget {args.budget:.0f}s, {args.workers} workers")
    print(f"program lines after reduction: median {statistics.median(lines):g}, p90 {_p90(lines):.0f}")
    groups = collections.defaultdict(list)
    for r in done:
        groups[r["file"].split("-")[0]].append(r["lines"])
    print("  by source:                   " + ", ".join(
        f"{g} median {statistics.median(v):g} (n={len(v)})" for g, v in sorted(groups.items())))
    print(f"whole-file lines:              median {statistics.median(files):g}, p90 {_p90(files):.0f}")
    print(f"reduction wall time:           median {statistics.median(secs):.1f}s, p90 {_p90(secs):.1f}s")
    print(f"checks:                        median {statistics.median(checks):.0f}, p90 {_p90(checks):.0f}")
    print(f"reached a fixpoint:            {sum(r['stopped'] == 'fixpoint' for r in done)}/{len(done)}")
    large = [r for r in done if r["original_lines"] >= LARGE]
    print(f"reached <= {GOAL_LINES} lines:           {sum(r['goal'] for r in done)}/{len(done)}; of those of {LARGE}+ "
          f"lines {sum(r['goal'] for r in large)}/{len(large)}"
          + "".join(f"\n  {r['file']:18} {r['original_lines']:4} -> {r['lines']:3} lines, {r['checks']} checks, "
                    f"{r['seconds']:.0f}s, {r['stopped']}" for r in large))
    print(f"signature kept:                {100 * sum(r['signature_kept'] for r in rows if 'failed' not in r) / len(rows):.0f}%")
    print(f"eager outcome kept:            {100 * sum(r['eager_kept'] for r in done) / len(rows):.0f}%")
    buckets = sum(len(v) for v in per_cause.values())
    print(f"buckets per root cause:        {buckets / len(per_cause):.2f} ({buckets} buckets, {len(per_cause)} causes: "
          + ", ".join(f"{k}={len(v)}" for k, v in sorted(per_cause.items())) + ")")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
