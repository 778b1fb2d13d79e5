"""``ngb-fuzz repro FILE``: re-run a program file and print a readable diff.

Exit codes never say "no mismatch" for a program that did not run: 0 only when the program ran and matched on
every target.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from ._common import check_timeout, parse_targets, program_problem, read_program

EXIT_OK, EXIT_FINDING, EXIT_USAGE, EXIT_NO_LOAD, EXIT_EAGER_FAILED = 0, 1, 2, 3, 4
EXIT_CODES = """exit codes: 0 the program ran and matched eager on every target; 1 a finding (mismatch, crash or hang);
2 a usage error (bad option, no such file, not a text file); 3 the program does not load (syntax error, no
top-level entry, raises or exits at import); 4 its eager run failed, hung or disagrees with itself
(flaky): nothing could be compared."""


def register(subparsers: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    p = subparsers.add_parser("repro", help="re-run a repro file against a target and show what differs",
                              epilog=EXIT_CODES, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("file", help="program file (see docs/program-format.md)")
    p.add_argument("--target", action="append", metavar="SPEC",
                   help="target spec, repeatable (default: the file's '# target:' line, else torch)")
    p.add_argument("--timeout", type=float, default=120.0, help="seconds per target; one that runs past it is re-run with 3x as long before it is a 'hang' (with nested graph breaks on: timed against them off first; no result there either is skip:too-slow)")
    p.set_defaults(handler=repro)


def repro(args: argparse.Namespace) -> int:
    import oracle

    from ..commands import replay_command

    path = Path(args.file)
    check_timeout(args.timeout)
    source = read_program(path)
    problem = program_problem(source)
    if problem:
        print(f"ngb-fuzz repro: {path} does not load: {problem}", file=sys.stderr)
        return EXIT_NO_LOAD
    header = oracle.ProgramFile.parse(source).fields
    targets = parse_targets(args.target, default=header.get("target", "torch"))
    report = oracle.check_source(source, targets, timeout=args.timeout)
    status = EXIT_OK
    for spec, verdict in report.verdicts.items():
        stats = report.stats.get(spec, {})
        figures = "  ".join(f"{k}={v}" for k, v in stats.items() if k != "break_reasons")
        print(f"{spec}: {verdict.kind}  {verdict.signature}  {figures}")
        for reason in stats.get("break_reasons", ()):
            print(f"  break: {reason}")
        if verdict.detail and verdict.kind != "ok":
            print("  " + verdict.detail.replace("\n", "\n  "))
        if verdict.is_finding:
            status = max(status, EXIT_FINDING)
            expected = header.get("signature")
            if expected and expected != verdict.signature:
                print(f"  note: the file's header names {expected}")
            print(f"  replay: {replay_command(path, spec)}")
        elif verdict.signature == "skip:invalid-program":
            status = max(status, EXIT_NO_LOAD)
        elif verdict.kind != "ok":  # eager failed or hung, flaky: nothing was compared
            status = max(status, EXIT_EAGER_FAILED)
    return status
