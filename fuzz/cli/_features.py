"""``ngb-fuzz features``: print the feature catalog (and, with --sample N, how often each feature is generated)."""

from __future__ import annotations

import argparse
import json
from typing import Any


def register(subparsers: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    parser = subparsers.add_parser("features", help="list the generator's feature catalog and weights")
    parser.add_argument("--json", action="store_true", help="print the catalog as JSON")
    parser.add_argument(
        "--sample", type=int, default=0, metavar="N", help="also generate N programs and show how often each tag occurs"
    )
    parser.add_argument("--seed", type=int, default=0, help="seed for --sample (default 0)")
    parser.set_defaults(handler=_handle)


def _handle(args: argparse.Namespace) -> int:
    from fuzz.cli import UsageError
    from fuzz.program.features import CATALOG, DERIVED, histogram

    if args.sample < 0:
        raise UsageError("--sample must be >= 0")
    counts: dict[str, int] = {}
    if args.sample:
        from fuzz.program.generate import generate_program

        counts = histogram(generate_program(args.seed, i) for i in range(args.sample))
    rows: list[dict[str, Any]] = [
        {"name": f.name, "family": f.family, "weight": f.weight, "description": f.description}
        | ({"sampled": counts.get(f.name, 0)} if args.sample else {})
        for f in CATALOG + DERIVED
    ]
    if args.json:
        print(json.dumps(rows, indent=2))
        return 0
    family = None
    for row in rows:
        if row["family"] != family:
            family = row["family"]
            print(f"\n[{family}]")
        share = f"  {100.0 * row['sampled'] / args.sample:5.1f}%" if args.sample else ""
        weight = "derived" if row["name"].startswith("shape.") else f"{row['weight']:g}"
        print(f"  {row['name']:<30} {weight:>7}{share}  {row['description']}")
    return 0
