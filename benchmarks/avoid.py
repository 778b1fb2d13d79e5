"""Known-bug avoidance in figures: per open corpus bug, how many of N generated programs have its characterising
features, with the catalog's weights and with the avoiding ones (fuzz/campaign/avoid.py); and the generation rate of both.

    python benchmarks/avoid.py [--programs 1000] [--seed 0] [--corpus corpus]
"""

from __future__ import annotations

import argparse
import time

from fuzz.campaign.avoid import Avoidance, covers
from fuzz.program.generate import generate_program


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--programs", type=int, default=1000)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--corpus", default="corpus")
    args = parser.parse_args()
    avoid = Avoidance.from_corpus(args.corpus)
    sets = {}
    for name, config in (("catalog", None), ("avoiding", avoid.config())):
        started = time.perf_counter()
        sets[name] = [generate_program(args.seed, i, config).features for i in range(args.programs)]
        print(f"{name}: {args.programs / (time.perf_counter() - started):.0f} programs/s")
    print(f"lowered: {' '.join(f'{t}x{m:g}' for t, m in avoid.multipliers().items())}")
    print(f"{'open corpus bug':<64} {'features':<48} {'catalog':>8} {'avoiding':>8}")
    for shape in avoid.shapes:
        counts = [sum(covers(f, shape) for f in sets[name]) for name in ("catalog", "avoiding")]
        print(f"{shape.file[:64]:<64} {' '.join(sorted(shape.features))[:48]:<48} {counts[0]:>8} {counts[1]:>8}")
    any_known = [sum(bool(avoid.matching(f)) for f in sets[name]) for name in ("catalog", "avoiding")]
    print(f"{'programs with any known shape':<113} {any_known[0]:>8} {any_known[1]:>8}  (of {args.programs})")


if __name__ == "__main__":
    main()
