"""``ngb-fuzz reduce FILE --target SPEC``: shrink a failing program keeping its verdict signature.

``ngb-fuzz reduce --campaign DIR`` reduces the buckets of a campaign whose reduction did not finish (not reduced
yet, or cut short: gone on with from the smallest program so far).
"""

from __future__ import annotations

import argparse
import dataclasses
import re
import sys
import threading
import time
from pathlib import Path
from typing import TYPE_CHECKING

from . import UsageError
from ._common import (
    add_workers_option,
    check_output_file,
    check_workers,
    default_workers,
    known_bugs,
    program_problem,
    read_program,
)

if TYPE_CHECKING:
    from fuzz.campaign.bucket import Bucket
    from fuzz.reduce import ReduceResult


def register(subparsers: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    p = subparsers.add_parser("reduce", help="shrink a failing program while it fails the same way")
    p.add_argument("file", metavar="FILE", nargs="?", help="program file (docs/program-format.md)")
    p.add_argument("--target", metavar="SPEC", help="target it fails on, e.g. torch:ngb=off (required with FILE)")
    p.add_argument("--campaign", metavar="DIR",
                   help="instead of FILE: reduce every bucket of the campaign in DIR not reduced yet, and go on "
                        "with those cut short from where they stand (the budget is per bucket and round: a round cut short after taking a twentieth of the lines off is followed by another, up to 4; one bucket per worker at once, one check in flight each; a reduced bucket with the root "
                        "cause of a bug in ./corpus is KNOWN)")
    p.add_argument("--signature", help="signature to keep (default: the file's verdict on the target)")
    p.add_argument("--budget", default="60s", help="time budget, e.g. 60s, 5m (default 60s)")
    add_workers_option(p, None, "oracle worker processes (default: half the cores, as `run`)")
    p.add_argument("--rechecks", type=int, default=3, help="re-checks of the result in fresh processes (default 3)")
    p.add_argument("--out", metavar="FILE", help="where to write the result (default FILE.reduced.py; - for stdout)")
    p.add_argument("--corpus", metavar="DIR", help="also add the result to this corpus (status NEW)")
    p.add_argument("--no-ir", action="store_true",
                   help="skip the IR stage (used when FILE is a generated program: found-by 'ngb-fuzz run')")
    p.add_argument("--same-backend", action="store_true",
                   help="check every candidate on the target itself, even where the original shows the same "
                        "signature with the eager backend (by default candidates of an aot_eager or inductor "
                        "finding are checked there, and the result on the target)")
    p.add_argument("--quiet", action="store_true", help="no progress lines")
    p.set_defaults(handler=reduce)


def reduce(args: argparse.Namespace) -> int:
    from ._common import parse_duration, parse_targets

    text = args.budget.strip()
    budget = float(text) if text.replace(".", "", 1).isdigit() else parse_duration(text, "--budget")
    if not budget > 0:
        raise UsageError(f"--budget {args.budget!r} must be more than 0")
    if args.workers is None:
        args.workers = default_workers()
    else:
        check_workers(args.workers, args.oversubscribe)
    if args.rechecks < 0:
        raise UsageError("--rechecks must be 0 or more")
    if args.campaign:
        if args.file or args.out or args.corpus:
            raise UsageError("--campaign DIR takes no FILE, --out or --corpus: it reduces the campaign's repros "
                             "in place")
        return _reduce_campaign(Path(args.campaign), budget, args.workers)
    if not args.file or not args.target:
        raise UsageError("give FILE and --target SPEC, or --campaign DIR")
    target = parse_targets([args.target])[0]
    path = Path(args.file)
    source = read_program(path)
    problem = program_problem(source)
    if problem:
        raise UsageError(f"{path} is not a program that loads: {problem}")
    out = args.out or str(path.with_suffix("")) + ".reduced.py"
    if out != "-":
        check_output_file(out)  # before the long work, not after it
    if args.corpus and Path(args.corpus).exists() and not Path(args.corpus).is_dir():
        raise UsageError(f"--corpus {args.corpus} is not a directory")
    from fuzz.reduce import ReduceError, code_lines, reduce_program
    from fuzz.reduce._oracle import generator_ir

    ir = None if args.no_ir else generator_ir(source)
    if ir is not None and not args.quiet:
        print("generated program: IR stage first", file=sys.stderr)

    start = time.monotonic()
    beat = _Heartbeat(start, code_lines(source), quiet=args.quiet)

    def progress(pass_name: str, lines: int, invocations: int) -> None:
        beat.kept(lines)
        if not args.quiet:
            print(f"[{time.monotonic() - start:6.1f}s] {pass_name:<22} {lines:>4} lines  {invocations:>5} checks",
                  file=sys.stderr)

    try:
        with beat:
            result = reduce_program(source, target, signature=args.signature, budget_s=budget,
                                    workers=args.workers, rechecks=args.rechecks, progress=progress, ir=ir,
                                    cheaper=not args.same_backend)
    except ReduceError as exc:
        raise UsageError(str(exc)) from None
    result = dataclasses.replace(result, source=_recorded(result))
    if out == "-":
        sys.stdout.write(result.source)
    else:
        try:
            Path(out).write_text(result.source)
        except OSError as exc:  # the reduction is not lost: it goes to stdout
            sys.stdout.write(result.source)
            raise UsageError(f"cannot write {out}: {exc.strerror}; the reduced program was printed instead") \
                from None
    print(result.summary(), file=sys.stderr)
    if out != "-":
        from ..commands import replay_command, shell_command

        print(f"wrote {out}; replay: {replay_command(out, target)}  (or: {shell_command('python', out)})",
              file=sys.stderr)
    if args.corpus:
        from fuzz.corpus.manifest import Corpus

        store = Corpus(args.corpus)
        entry, added = store.add(result.source, target, result.signature)
        store.save()
        print(f"corpus: {'added' if added else 'already there as'} {entry.file}", file=sys.stderr)
    if result.stopped == "interrupted":  # the best-so-far is written; the exit code still says it was stopped
        import signal

        from ._signals import exit_code, last_signal

        signum = last_signal() or signal.SIGINT
        print(f"stopped by {signal.Signals(signum).name}: the reduction was cut short", file=sys.stderr)
        return exit_code(signum)
    return 0 if result.reproduced == result.rechecks else 1


class _Heartbeat:
    """A line every ``every`` seconds in which the reduction printed none: a progress line comes with each kept
    candidate only, and a slow compile's checks take minutes each (seen: a 413-line slow compile's reduction
    printed nothing for 26 minutes while its candidates were checked and none was kept)."""

    def __init__(self, start: float, lines: int, quiet: bool, every: float = 120.0) -> None:
        self.start, self.lines, self.quiet, self.every = start, lines, quiet, every
        self.last = start  # when the last line was printed
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._run, name="ngb-reduce-heartbeat", daemon=True)

    def kept(self, lines: int) -> None:
        self.lines, self.last = lines, time.monotonic()

    def __enter__(self) -> _Heartbeat:
        if not self.quiet:
            self._thread.start()
        return self

    def __exit__(self, *exc: object) -> None:
        self._stop.set()
        if self._thread.is_alive():
            self._thread.join()

    def _run(self) -> None:
        while not self._stop.wait(min(self.every, max(1.0, self.last + self.every - time.monotonic()))):
            now = time.monotonic()
            if now - self.last >= self.every:
                print(f"[{now - self.start:6.1f}s] still checking candidates: {self.lines} lines so far, none kept "
                      f"in the last {now - self.last:.0f}s", file=sys.stderr)
                self.last = now


def _said_reduced(bucket: Bucket) -> None:
    """One line as each bucket's reduction ends, so a long ``reduce --campaign`` shows its progress."""
    lines = f"{bucket.lines} lines" if bucket.lines else "as found"
    ends = f" (the slow compile ends in {bucket.ends_in})" if bucket.ends_in else ""
    print(f"[ngb-fuzz] reduced {bucket.repro}: {bucket.reduction}, {lines}, {bucket.status}{ends}", file=sys.stderr)


def _reduce_campaign(out: Path, budget: float, workers: int) -> int:
    import json

    import oracle
    from fuzz.campaign.loop import Campaign, CampaignConfig, CampaignError

    try:
        identity = json.loads((out / "state.json").read_text())["identity"]
        config = CampaignConfig(tuple(identity["targets"]), out, seed=identity["seed"], workers=workers,
                                reduce_seconds=budget, bias=bool(identity.get("bias")))
    except (OSError, ValueError, KeyError, TypeError) as exc:
        raise UsageError(f"{out} holds no campaign state ngb-fuzz can read ({type(exc).__name__})") from None
    known = known_bugs("corpus")  # as ``run`` by default: a reduced bucket with a corpus bug's root cause is KNOWN
    with oracle.Runner(workers=workers) as runner:
        try:
            campaign = Campaign(config, runner, known=known, on_reduced=_said_reduced,
                                on_notice=lambda message: print(f"[ngb-fuzz] {message}", file=sys.stderr))
        except CampaignError as exc:
            raise UsageError(str(exc)) from None
        before, lost = campaign.not_reduced, set(campaign.lost_repros)
        lines_before = {b.repro: b.lines for b in campaign.buckets.values() if b.unfinished}
        if before:  # a reduction can take minutes: say what is coming, then each one as it ends
            print(f"reducing {before} bucket(s), {workers} worker(s), about {budget:.0f}s each "
                  f"(stretched to follow the cost of a check)", file=sys.stderr)
        summary = campaign.reduce_pending()
    left = summary["not_reduced"]
    print(f"finished {before - left} of {before} bucket reduction(s) not finished before; {left} left",
          file=sys.stderr)
    for bucket in summary["buckets"]:
        state = {"done": f"{bucket['lines']} lines", "failed": "kept as found",
                 "cut short": f"cut short at {bucket['lines'] or 'its original'} lines (not minimal)"}
        if bucket["repro"] in lost:
            print(f"  {bucket['repro']}: deleted, and it cannot be regenerated: not reduced", file=sys.stderr)
        elif bucket["reduction"] in state:
            in_corpus = (f": corpus/{bucket['known']}" if bucket.get("known") else
                         f" (like corpus/{', corpus/'.join(bucket['like'])})" if bucket.get("like") else "")
            was = lines_before.get(bucket["repro"])
            went_on = f" (went on from {was} lines)" if was and bucket["repro"] in lines_before else ""
            if bucket.get("ends_in"):
                in_corpus += f"; the slow compile ends in {bucket['ends_in']}"
            print(f"  {bucket['repro']}: {state[bucket['reduction']]}{went_on}, {bucket['status']}{in_corpus}",
                  file=sys.stderr)
    return 0 if left == 0 and not lost else 1


def _recorded(result: ReduceResult) -> str:
    """The reduced program with its ``found-by`` saying what was done to it: a campaign's repro reduced again
    (its line said ``reduced 340 -> 100 lines; cut short ...``) now says ``340 -> 10 lines``. A ``found-by`` that
    names no generated program is left as it is."""
    from fuzz.reduce import described
    from oracle import ProgramFile, set_header

    found = ProgramFile.parse(result.source).found_by
    if found is None or found.seed is None:
        return result.source
    if result.lines >= result.original_lines and not (result.stopped == "fixpoint" and "cut short" in found.reduced):
        return result.source  # nothing taken off, and nothing to correct
    before = re.match(r"(\d+) -> ", found.reduced)
    return set_header(result.source, found_by=str(found.with_reduction(
        described(result, int(before.group(1)) if before else None))))
