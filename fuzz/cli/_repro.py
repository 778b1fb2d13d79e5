"""``ngb-fuzz repro FILE``: re-run a program file and print a readable diff (exit 1 on a finding)."""

from __future__ import annotations

from pathlib import Path

from . import UsageError
from ._common import parse_targets


def register(subparsers) -> None:
    p = subparsers.add_parser("repro", help="re-run a repro file against a target and show what differs")
    p.add_argument("file", help="program file (see docs/program-format.md)")
    p.add_argument("--target", action="append", metavar="SPEC",
                   help="target spec, repeatable (default: the file's '# target:' line, else torch)")
    p.add_argument("--timeout", type=float, default=120.0, help="seconds before 'hang'")
    p.set_defaults(handler=repro)


def repro(args) -> int:
    import oracle
    from oracle import header_fields

    path = Path(args.file)
    if not path.is_file():
        raise UsageError(f"no such file: {path}")
    source = path.read_text()
    if "def entry(" not in source or "def make_inputs(" not in source:
        raise UsageError(f"{path} is not a program file: it needs entry() and make_inputs() "
                         "(see docs/program-format.md)")
    header = header_fields(source)
    targets = parse_targets(args.target, default=header.get("target", "torch"))
    report = oracle.check_source(source, targets, timeout=args.timeout)
    status = 0
    for spec, verdict in report.verdicts.items():
        stats = report.stats.get(spec, {})
        figures = "  ".join(f"{k}={v}" for k, v in stats.items() if k != "break_reasons")
        print(f"{spec}: {verdict.kind}  {verdict.signature}  {figures}")
        for reason in stats.get("break_reasons", ()):
            print(f"  break: {reason}")
        if verdict.detail and verdict.kind != "ok":
            print("  " + verdict.detail.replace("\n", "\n  "))
        if verdict.is_finding:
            status = 1
            expected = header.get("signature")
            if expected and expected != verdict.signature:
                print(f"  note: the file's header names {expected}")
            print(f"  replay: ngb-fuzz repro {path} --target '{spec}'")
    return status
