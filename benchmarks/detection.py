"""Programs-to-detection per fault-injection target: median and worst over several seeds.

    python benchmarks/detection.py [--seeds 5] [--limit 100]

A program on which plain torch.compile already differs from eager is generated and counted but cannot count as
the fault's detection (see fuzz.campaign.selftest).
"""

from __future__ import annotations

import argparse
import statistics

import oracle
from fuzz.campaign.selftest import programs_to_detection
from oracle._faults import FAULTS, fault_spec


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seeds", type=int, default=5)
    parser.add_argument("--limit", type=int, default=100)
    parser.add_argument("--timeout", type=float, default=15.0)
    args = parser.parse_args()
    print(f"{'fault':14} {'verdict':9} {'median':>7} {'worst':>6}  per seed")
    with oracle.Runner(workers=1, timeout=args.timeout) as runner:
        for fault, (_, kind) in FAULTS.items():
            counts, kinds = [], set()
            for seed in range(args.seeds):
                count, verdict = programs_to_detection(runner, fault_spec(fault), seed, args.limit)
                counts.append(count if count is not None else float("inf"))
                kinds.add(verdict.kind if verdict else "missed")
            shown = " ".join("-" if c == float("inf") else str(c) for c in counts)
            ok = "" if kinds == {kind} else f"  (expected {kind}, got {sorted(kinds)})"
            print(f"{fault:14} {kind:9} {statistics.median(counts):7} {max(counts):6}  {shown}{ok}")


if __name__ == "__main__":
    main()
