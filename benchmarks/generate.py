"""Generator figures: generation+render rate, family coverage and accidental eager exceptions of a sample, and
how soon each May-2026 bug shape appears.

    python benchmarks/generate.py [--programs 1000] [--seed 0] [--no-eager]
"""

from __future__ import annotations

import argparse
import time

from fuzz.program.features import CATALOG, families, family_histogram, histogram
from fuzz.program.generate import generate_program
from fuzz.program.selfcheck import run_eager

SHAPES = {
    "upper-frame ctx + break": {"shape.upper_ctx_break"},
    "helper closure globals": {"shape.helper_closure_globals"},
    "decorator ctx + break": {"shape.decorator_ctx_break"},
    "step break + stack": {"shape.step_break_stack"},
    "contextmanager over disable": {"shape.cm_disable_init"},
}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--programs", type=int, default=1000)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--no-eager", action="store_true", help="skip running the sample under eager")
    args = parser.parse_args()

    generate_program(args.seed, 0)  # warm caches (strategy construction, imports)
    started = time.perf_counter()
    programs = [generate_program(args.seed, i) for i in range(args.programs)]
    elapsed = time.perf_counter() - started
    print(f"generation+render: {args.programs / elapsed:.0f} programs/s ({1000 * elapsed / args.programs:.2f} ms each)")
    sizes = sorted(len(p.ir.functions) for p in programs)
    print(f"functions per program: median {sizes[len(sizes) // 2]}, max {sizes[-1]}; "
          f"source bytes median {sorted(len(p.source) for p in programs)[len(programs) // 2]}")

    fam = family_histogram(programs)
    print("\nfamily coverage (share of programs touching the family):")
    for family in families():
        print(f"  {family:<8} {100.0 * fam.get(family, 0) / len(programs):6.1f}%")
    hist = histogram(programs)
    never = [f.name for f in CATALOG if f.weight > 0 and not hist.get(f.name)]
    print(f"features with weight > 0 never generated: {never or 'none'}")
    rare = sorted((hist.get(f.name, 0), f.name) for f in CATALOG if f.weight > 0)[:5]
    print("rarest features: " + ", ".join(f"{name} {100.0 * n / len(programs):.1f}%" for n, name in rare))

    print("\nbug shapes (first program index per seed 0/1/2):")
    for name, needed in SHAPES.items():
        firsts = []
        for seed in (0, 1, 2):
            first = next((i for i in range(1000) if needed <= generate_program(seed, i).features), None)
            firsts.append("-" if first is None else str(first))
        print(f"  {name:<30} {' / '.join(firsts)}")

    if not args.no_eager:
        started = time.perf_counter()
        accidents, deliberate = [], 0
        for p in programs:
            run = run_eager(p.source)
            if run.accident():
                accidents.append((p.index, run.accident()))
            elif any(r[0] == "raised" for r in run.results):
                deliberate += 1
        elapsed = time.perf_counter() - started
        print(f"\neager: {len(programs)} programs in {elapsed:.1f}s; deliberate raises {deliberate}; "
              f"accidental exceptions {len(accidents)} ({100.0 * len(accidents) / len(programs):.2f}%)")
        for index, message in accidents[:10]:
            print(f"  program {index}: {message}")


if __name__ == "__main__":
    main()
