"""``ngb-fuzz reduce FILE --target SPEC``: shrink a failing program keeping its verdict signature."""

from __future__ import annotations

import sys
import time
from pathlib import Path

from . import UsageError


def register(subparsers) -> None:
    p = subparsers.add_parser("reduce", help="shrink a failing program while it fails the same way")
    p.add_argument("file", metavar="FILE", help="program file (docs/program-format.md)")
    p.add_argument("--target", required=True, metavar="SPEC", help="target it fails on, e.g. torch:ngb=off")
    p.add_argument("--signature", help="signature to keep (default: the file's verdict on the target)")
    p.add_argument("--budget", default="60s", help="time budget, e.g. 60s, 5m (default 60s)")
    p.add_argument("--workers", type=int, default=1, help="oracle worker processes (default 1)")
    p.add_argument("--rechecks", type=int, default=3, help="re-checks of the result in fresh processes (default 3)")
    p.add_argument("--out", metavar="FILE", help="where to write the result (default FILE.reduced.py; - for stdout)")
    p.add_argument("--corpus", metavar="DIR", help="also add the result to this corpus (status NEW)")
    p.add_argument("--no-ir", action="store_true",
                   help="skip the IR stage (used when FILE is a generated program: found-by 'ngb-fuzz run')")
    p.add_argument("--quiet", action="store_true", help="no progress lines")
    p.set_defaults(handler=reduce)


def reduce(args) -> int:
    from ._common import parse_duration, parse_targets

    budget = parse_duration(args.budget) if not args.budget.replace(".", "").isdigit() else float(args.budget)
    if args.workers < 1:
        raise UsageError("--workers must be at least 1")
    target = parse_targets([args.target])[0]
    path = Path(args.file)
    try:
        source = path.read_text()
    except OSError as exc:
        raise UsageError(f"cannot read {args.file}: {exc.strerror}") from None
    from fuzz.reduce import ReduceError, reduce_program
    from fuzz.reduce._oracle import generator_ir

    ir = None if args.no_ir else generator_ir(source)
    if ir is not None and not args.quiet:
        print("generated program: IR stage first", file=sys.stderr)

    start = time.monotonic()

    def progress(pass_name: str, lines: int, invocations: int) -> None:
        if not args.quiet:
            print(f"[{time.monotonic() - start:6.1f}s] {pass_name:<22} {lines:>4} lines  {invocations:>5} checks",
                  file=sys.stderr)

    try:
        result = reduce_program(source, target, signature=args.signature, budget_s=budget, workers=args.workers,
                                rechecks=args.rechecks, progress=progress, ir=ir)
    except ReduceError as exc:
        raise UsageError(str(exc)) from None
    out = args.out or str(path.with_suffix("")) + ".reduced.py"
    if out == "-":
        sys.stdout.write(result.source)
    else:
        Path(out).write_text(result.source)
    print(result.summary(), file=sys.stderr)
    if out != "-":
        print(f"wrote {out}; replay: ngb-fuzz repro {out} --target {target}  (or: python {out})", file=sys.stderr)
    if args.corpus:
        from fuzz.corpus import Corpus

        store = Corpus(args.corpus)
        entry, added = store.add(result.source, target, result.signature)
        store.save()
        print(f"corpus: {'added' if added else 'already there as'} {entry.file}", file=sys.stderr)
    return 0 if result.reproduced == result.rechecks else 1
