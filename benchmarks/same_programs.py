"""Check that a change to the generator keeps programs byte-identical: same seed and index, same source.

    python benchmarks/same_programs.py --write /tmp/before.json   # on the old code
    python benchmarks/same_programs.py --compare /tmp/before.json # on the new code

Prints how many of the programs (seeds x indices) are identical, and the feature tags whose counts over the
programs changed (``--histogram N`` programs per seed for the histogram; ``--weights`` a generation config).
"""

from __future__ import annotations

import argparse
import hashlib
import json
from collections import Counter

from fuzz import generate_program
from fuzz.program.features import GenerationConfig


def _snapshot(seeds: list[int], count: int, histogram: int, config: GenerationConfig | None) -> dict:
    sources = {f"{s}:{i}": generate_program(s, i, config).source for s in seeds for i in range(count)}
    hist: Counter[str] = Counter()
    for s in seeds:
        for i in range(histogram):
            hist.update(generate_program(s, i, config).features)
    return {"sources": sources, "histogram": dict(sorted(hist.items()))}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--write")
    parser.add_argument("--compare")
    parser.add_argument("--seeds", default="1,2,3")
    parser.add_argument("--count", type=int, default=100)
    parser.add_argument("--histogram", type=int, default=0)
    parser.add_argument("--weights", default="", help="feature or family weights: ctx=3,stack.fstring=5")
    args = parser.parse_args()
    weights = {k: float(v) for k, v in (w.split("=") for w in args.weights.split(",") if w)}
    config = GenerationConfig(weights=weights) if weights else None
    snap = _snapshot([int(s) for s in args.seeds.split(",")], args.count, args.histogram, config)
    if args.write:
        with open(args.write, "w") as f:
            json.dump(snap, f)
        print(f"wrote {len(snap['sources'])} programs to {args.write}")
        return
    with open(args.compare) as f:
        old = json.load(f)
    same = [k for k, src in snap["sources"].items() if old["sources"].get(k) == src]
    print(f"identical: {len(same)} of {len(snap['sources'])} programs")
    for k, src in snap["sources"].items():
        if old["sources"].get(k) != src:
            print("  differs:", k, hashlib.sha1(src.encode()).hexdigest()[:12])
    a, b = old["histogram"], snap["histogram"]
    changed = {t: (a.get(t, 0), b.get(t, 0)) for t in sorted(set(a) | set(b)) if a.get(t, 0) != b.get(t, 0)}
    print(f"histogram tags: {len(b)}, changed counts: {changed or 'none'}")


if __name__ == "__main__":
    main()
