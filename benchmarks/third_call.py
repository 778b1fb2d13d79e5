"""What the third call (inputs of other sizes) costs: seconds per program checked with two calls and with three.

    python benchmarks/third_call.py [--programs 10] [--seed 3] [--target torch]

Both runs check the same generated programs, alternating per program so that load on the machine falls on both
alike; prints the totals, the ratio, and how many programs recompiled on the third call. Not a test: figures only.
"""

from __future__ import annotations

import argparse
import time

import oracle
from fuzz.program.generate import generate_program


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--programs", type=int, default=10)
    parser.add_argument("--seed", type=int, default=3)
    parser.add_argument("--target", default="torch")
    args = parser.parse_args()
    spent = {2: 0.0, 3: 0.0}
    differs = 0
    with oracle.Runner(workers=1) as runner:
        runner.warm_up()
        for index in range(args.programs):
            source = generate_program(args.seed, index).source
            verdicts = {}
            for calls in ((2, 3) if index % 2 else (3, 2)):
                started = time.monotonic()
                report = runner.check(source, [args.target], calls=calls)
                spent[calls] += time.monotonic() - started
                verdicts[calls] = report.verdicts[oracle.parse_target(args.target).spec].signature
            differs += verdicts[2] != verdicts[3]
            print(f"program {index}: two calls {verdicts[2]}, three calls {verdicts[3]}", flush=True)
    print(f"{args.programs} programs on {args.target}: two calls {spent[2]:.1f}s, three calls {spent[3]:.1f}s, "
          f"ratio {spent[3] / spent[2]:.2f}; verdicts that differ: {differs}")


if __name__ == "__main__":
    main()
