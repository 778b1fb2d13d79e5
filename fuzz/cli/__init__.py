"""The ``ngb-fuzz`` command line: a thin layer over library functions.

Each subcommand lives in its own module, which exposes ``register(subparsers)``; registering adds a parser whose
``handler`` default is a function ``(args) -> int`` (the exit code). Usage errors exit with code 2 and one line;
SIGINT, SIGTERM and SIGHUP stop any command with exit code 128 + the signal number (``_signals``).
"""

from __future__ import annotations

import argparse
import importlib
import sys

from fuzz.errors import FuzzError

__all__ = ["main", "UsageError"]

# Subcommand modules, in the order ``ngb-fuzz --help`` lists them.
_COMMANDS = (
    "fuzz.cli._run",
    "fuzz.cli._report",
    "fuzz.cli._repro",
    "fuzz.cli._targets",
    "fuzz.cli._features",
    "fuzz.cli._reduce",
    "fuzz.cli._corpus",
    "fuzz.cli._triage",
)


class UsageError(FuzzError):
    """Bad input from the user: printed as one line, exit code 2."""


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="ngb-fuzz",
        description="Find correctness bugs in compilers that resume tracing after nested graph breaks.",
    )
    subparsers = parser.add_subparsers(dest="command", metavar="COMMAND")
    for name in _COMMANDS:
        try:
            module = importlib.import_module(name)
        except ModuleNotFoundError as exc:
            if exc.name != name:
                raise
            continue
        module.register(subparsers)
    return parser


def main(argv: list[str] | None = None) -> int:
    import signal
    import threading

    from ._signals import exit_code, install

    parser = build_parser()
    args, extra = parser.parse_known_args(argv)
    # argparse takes a command's positionals in one go: in `corpus matrix --python P A.py`, the FILEs after the
    # option are left over. Where the command takes a list of files, leftover plain words are more of them.
    if extra and isinstance(getattr(args, "files", None), list) and not any(w.startswith("-") for w in extra):
        args.files.extend(extra)
    elif extra:
        parser.error(f"unrecognized arguments: {' '.join(extra)}")
    if not getattr(args, "handler", None):
        parser.print_help()
        return 2
    previous = install() if threading.current_thread() is threading.main_thread() else {}
    try:
        return int(args.handler(args) or 0)
    except FuzzError as exc:  # UsageError and every other error raised on purpose: one line, no traceback
        print(f"ngb-fuzz {args.command}: error: {exc}", file=sys.stderr)
        return 2
    except KeyboardInterrupt as exc:
        signum = getattr(exc, "signum", signal.SIGINT)
        print(f"stopped by {signal.Signals(signum).name}", file=sys.stderr)
        return exit_code(signum)
    finally:
        for signum, handler in previous.items():
            signal.signal(signum, handler)


if __name__ == "__main__":
    sys.exit(main())
