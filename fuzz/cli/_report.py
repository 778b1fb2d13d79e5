"""``ngb-fuzz report DIR``: the campaign's report as one self-contained HTML page."""

from __future__ import annotations

import argparse
from pathlib import Path

from . import UsageError


def register(subparsers: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    p = subparsers.add_parser("report", help="write a campaign's HTML report (findings, plots over time)",
                              description="Write one self-contained HTML page for the campaign in DIR: its "
                                          "findings with their repros and replay commands, throughput, verdicts "
                                          "and root causes over time, coverage and break reasons.")
    p.add_argument("dir", metavar="DIR", help="campaign directory (the --out of ngb-fuzz run)")
    p.add_argument("--out", metavar="FILE", help="where to write the page (default: DIR/report.html)")
    p.set_defaults(handler=run)


def run(args: argparse.Namespace) -> int:
    from ..report import ReportUnavailable, write_report

    try:
        path = write_report(Path(args.dir), dest=Path(args.out) if args.out else None)
    except ReportUnavailable as exc:
        raise UsageError(str(exc)) from None
    except FileNotFoundError as exc:
        raise UsageError(str(exc)) from None
    print(f"report: {path}")
    return 0
