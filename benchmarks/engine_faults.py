"""Programs-to-detection of each engine fault switch (`engine:fault=NAME`): median and worst over seeds, and
the buckets (finding signatures) its detections fall into.

    python benchmarks/engine_faults.py [--seeds 5] [--limit 200] [--fault NAME ...]

The baseline is the engine without the fault: a program on which it already differs from eager is counted but
cannot be the fault's detection (as in benchmarks/detection.py, whose machinery this reuses). Each switch is
one root cause by construction, so "buckets" counts how many signatures that one bug shows up as.
"""

from __future__ import annotations

import argparse
import statistics

import oracle
from engine._faults import FAULTS
from fuzz.campaign.selftest import programs_to_detection


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seeds", type=int, default=5)
    parser.add_argument("--limit", type=int, default=200)
    parser.add_argument("--timeout", type=float, default=30.0)
    parser.add_argument("--fault", action="append", choices=sorted(FAULTS), help="only these (repeatable)")
    args = parser.parse_args()
    print(f"{'fault':22} {'median':>7} {'worst':>6} {'buckets':>7}  per seed | signatures")
    with oracle.Runner(workers=1, timeout=args.timeout) as runner:
        for fault in args.fault or FAULTS:
            counts, signatures = [], set()
            for seed in range(args.seeds):
                count, verdict = programs_to_detection(runner, f"engine:fault={fault}", seed, args.limit,
                                                       baseline="engine")
                counts.append(count if count is not None else float("inf"))
                if verdict is not None:
                    signatures.add(verdict.signature)
            shown = " ".join("-" if c == float("inf") else str(c) for c in counts)
            worst = max(counts)
            print(f"{fault:22} {statistics.median(counts):7} {worst:6} {len(signatures):7}  {shown} | "
                  + "; ".join(sorted(signatures)), flush=True)


if __name__ == "__main__":
    main()
