"""``ngb-fuzz run``: a campaign with live progress, summary.json and one repro per bucket."""

from __future__ import annotations

import argparse
import sys
import threading
import time
from collections import Counter
from collections.abc import Collection, Mapping, Set
from pathlib import Path
from typing import TYPE_CHECKING, Any

from . import UsageError
from ._common import (
    add_workers_option,
    check_timeout,
    check_workers,
    default_workers,
    known_bugs,
    machine_workers,
    parse_budget,
    parse_duration,
    parse_targets,
)

EXIT_CODES = """exit codes: 0 the budget was spent; 1 the campaign stopped because its state or files could not be written
(disk full, read-only: what is on disk resumes), or a repro file was deleted and cannot be regenerated (a --bias
campaign's; others are regenerated from their program); 2 a usage error (bad option, --out unusable or in use by
another run); 3 the cluster's scheduler went away (state written: re-run to resume); 128+N stopped by signal N (130 SIGINT/Ctrl-C, 143 SIGTERM, 129 SIGHUP), after writing the summary
and state. Re-running the same command resumes a stopped campaign."""


if TYPE_CHECKING:
    from rich.console import Group, JustifyMethod
    from rich.live import Live
    from rich.table import Table

    from fuzz.campaign.loop import Bucket, Campaign, CampaignConfig

def register(subparsers: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    import argparse

    from oracle._runner import MAX_RSS_MB, RECYCLE_AFTER

    p = subparsers.add_parser("run", help="run a fuzz campaign against one or more targets",
                              description="Generate programs, run them under eager and each target, bucket "
                                          "what differs and write one repro file per bucket.",
                              epilog=EXIT_CODES, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--target", action="append", metavar="SPEC",
                   help="target spec, repeatable (default: torch); see `ngb-fuzz targets`")
    p.add_argument("--budget", default="100",
                   help="programs (500) or campaign time (30s, 10m, 1h), both counted across resumes: a resumed "
                        "campaign runs what is left; default 100")
    add_workers_option(p, None,
                       "programs checked at once: worker processes here (default: half the cores; at most the "
                       "cores and memory here hold), or tasks in flight on a cluster (default: its worker threads, growing as workers join)")
    p.add_argument("--cluster", metavar="ADDRESS",
                   help="check programs on a Dask cluster: tcp://HOST:PORT (a running `dask scheduler`) or "
                        "local:N (N worker processes on this machine); needs ngb-fuzz[cluster]. See docs/cluster.md")
    p.add_argument("--seed", type=int, default=0, help="campaign seed (program i of seed s is always the same)")
    p.add_argument("--out", default="runs/latest", help="campaign directory (resumed if it holds this campaign)")
    p.add_argument("--timeout", type=float, default=60.0, help="seconds per program and target; one that runs past it is re-run with 3x as long before it is a 'hang' (with nested graph breaks on: timed against them off first; no result there either is skip:too-slow)")
    p.add_argument("--recycle-after", type=int, default=RECYCLE_AFTER, metavar="N",
                   help=f"replace a worker after N program runs (each program runs twice under eager and once per "
                        f"target; default {RECYCLE_AFTER})")
    p.add_argument("--max-worker-mb", type=float, default=MAX_RSS_MB, metavar="MB",
                   help=f"replace a worker whose resident memory passed MB (default {MAX_RSS_MB:.0f})")
    p.add_argument("--reduce-budget", default="60s",
                   help="reduce each new bucket's repro within this time (e.g. 60s; 0 turns reduction off), "
                        "stretched to follow the cost of a check up to four times that")
    p.add_argument("--bias", action="store_true",
                   help="lean generation toward the features of programs that opened new buckets, met new break "
                        "reasons or unusual graph/break counts (programs then depend on the campaign's history)")
    p.add_argument("--corpus", default="corpus", metavar="DIR",
                   help="findings with the root cause of a bug in this corpus are KNOWN: not reduced, not news "
                        "for --bias (default: corpus, where it exists; 'none' turns it off)")
    p.add_argument("--weight", action="append", default=[], metavar="NAME=W",
                   help="generation weight of a feature family (iter=3: three times its features' catalog weights) "
                        "or of one feature (ctx.no_grad=0 switches it off); repeatable, recorded in every repro; "
                        "`ngb-fuzz features` lists them")
    p.add_argument("--no-avoid-known", dest="avoid_known", action="store_false",
                   help="draw the shapes of the corpus's open bugs as often as any other (by default their "
                        "characteristic features get lower weights, recorded in each repro's weights: line; "
                        "see fuzz/campaign/avoid.py)")
    p.set_defaults(handler=run)


def parse_weights(specs: list[str]) -> tuple[tuple[str, float], ...]:
    """``--weight NAME=W`` options as sorted (name, weight) pairs, checked against the catalog."""
    from fuzz.program.features import GenerationConfig

    weights: dict[str, float] = {}
    for spec in specs:
        name, sep, value = spec.partition("=")
        try:
            weights[name.strip()] = float(value)
        except ValueError:
            sep = ""
        if not sep or not name.strip():
            raise UsageError(f"--weight {spec!r}: expected NAME=W (a feature or family and a number, e.g. iter=3)")
    try:
        GenerationConfig(weights)
    except ValueError as exc:
        raise UsageError(f"--weight: {exc}") from None
    return tuple(sorted(weights.items()))


def run(args: argparse.Namespace) -> int:
    import oracle
    from fuzz.campaign.cluster import ClusterError, ClusterLost, connect, local_dispatcher
    from fuzz.campaign.loop import Campaign, CampaignConfig, CampaignError, StorageError
    from fuzz.campaign.timeline import Timeline

    from ._signals import exit_code, stop_on_signals

    if not args.out.strip():
        raise UsageError("--out is empty; name a campaign directory")
    if args.workers is not None:
        check_workers(args.workers, args.oversubscribe or bool(args.cluster))  # a cluster's slots are not ours
    programs, seconds = parse_budget(args.budget)
    check_timeout(args.timeout)
    if args.recycle_after < 1:
        raise UsageError("--recycle-after must be at least 1")
    check_timeout(args.max_worker_mb, "--max-worker-mb")
    targets = parse_targets(args.target)
    reduce_seconds = 0.0 if args.reduce_budget.strip() in ("0", "0s") else \
        parse_duration(args.reduce_budget, "--reduce-budget")
    dispatcher = None
    if args.cluster:
        try:
            dispatcher = connect(args.cluster, timeout=args.timeout)
        except ClusterError as exc:
            raise UsageError(str(exc)) from None
    slots = args.workers or (dispatcher.slots if dispatcher else default_workers())
    weights = parse_weights(args.weight)
    config = CampaignConfig(tuple(targets), Path(args.out), programs, seconds, slots, args.seed,
                            args.timeout, reduce_seconds, args.bias, weights)
    view = _Progress(config)
    known = known_bugs(args.corpus)
    avoid = None
    if known is not None and args.avoid_known:
        from fuzz.campaign.avoid import Avoidance

        avoid = Avoidance.from_corpus(args.corpus, targets)
    try:  # the directory is locked and writable (state written) before any worker starts
        campaign = Campaign(config, None, on_new_bucket=view.new_bucket, on_reduced=view.reduced,
                            on_notice=view.notice, known=known, avoid=avoid)
    except CampaignError as exc:
        if dispatcher is not None:
            dispatcher.close()
        raise UsageError(str(exc)) from None
    timeline, report = Timeline(config.out, interval=30.0), _LiveReport(config.out)

    def on_progress(campaign: Campaign) -> None:
        view.update(campaign)
        timeline.tick(campaign)
        report.tick(campaign)

    campaign.on_progress, campaign.on_recorded = on_progress, timeline.program
    failed = lost = None
    with stop_on_signals(campaign.stop) as received:
        # on a cluster the local runner only serves reduction (one worker process, started on first use)
        with oracle.Runner(workers=1 if dispatcher else slots, timeout=args.timeout,
                           recycle_after=args.recycle_after, max_rss_mb=args.max_worker_mb) as runner, view:
            dispatcher = dispatcher or local_dispatcher(runner, slots)
            campaign.runner, campaign.check = runner, dispatcher.check
            campaign.memory_of_workers = dispatcher.memory
            if args.cluster and args.workers is None:  # workers that join the cluster later get programs too
                campaign.slots = dispatcher.current_slots
            try:
                summary = campaign.run()
            except StorageError as exc:
                failed, summary = exc, campaign.summary()
            except ClusterLost as exc:  # run() has written state and summary before re-raising
                lost, summary = str(exc) or "the cluster went away", campaign.summary()
            finally:
                dispatcher.close()
            timeline.tick(campaign, force=True)
    report.final(summary)
    state = (f"stopped by {_signal_name(received.signum)}" if received.signum
             else "stopped" if failed or lost else "done")
    deleted = set(campaign.lost_repros)
    _print_summary(summary, config.out, state, written="summary.json" in campaign.dir.written, lost=deleted,
                   workers=config.workers)
    if failed is not None:
        print(f"ngb-fuzz run: error: {failed}", file=sys.stderr)
        return 1
    if lost is not None:
        print(f"ngb-fuzz run: {lost}; state written to {config.out}: run the same command again to resume",
              file=sys.stderr)
        return 3
    if received.signum:
        return exit_code(received.signum)
    if deleted:
        print(f"ngb-fuzz run: error: repro file(s) deleted and not regenerated: {', '.join(sorted(deleted))} (see "
              "above); their buckets are counted but cannot be replayed", file=sys.stderr)
        return 1
    return 0


def _signal_name(signum: int) -> str:
    import signal

    return signal.Signals(signum).name


class _LiveReport:
    """report.html in the campaign directory: refreshed every ``interval`` seconds while running, written at the
    end; without plotly, one line saying how to get it, once."""

    def __init__(self, out: Path, interval: float = 60.0) -> None:
        self.out, self.interval = out, interval
        self.last = time.monotonic()
        self.busy = threading.Lock()
        try:
            import plotly  # noqa: F401
            self.available = True
        except ImportError:
            from ..report import INSTALL_HINT

            self.available = False
            print(f"[ngb-fuzz] no campaign report (report.html): it needs plotly: {INSTALL_HINT}", file=sys.stderr)

    def tick(self, campaign: Campaign) -> None:
        if not self.available or time.monotonic() - self.last < self.interval or not self.busy.acquire(False):
            return
        try:
            self.last = time.monotonic()
            self._write(campaign.summary(), running=True)
        finally:
            self.busy.release()

    def final(self, summary: dict) -> None:
        if self.available:
            with self.busy:
                self._write(summary, running=False)

    def _write(self, summary: dict, running: bool) -> None:
        from ..report import write_report

        try:
            write_report(self.out, summary, running=running)
        except Exception as exc:  # noqa: BLE001 - a report that fails must not take the campaign down with it
            print(f"[ngb-fuzz] report not written: {type(exc).__name__}: {exc}", file=sys.stderr)


class _Progress:
    """Live view on a terminal (rich); one line every 10 s elsewhere (CI logs)."""

    def __init__(self, config: CampaignConfig) -> None:
        self.config = config
        self.live: Live | None = None
        self.last_line = 0.0
        self.last_features = 0.0
        self.campaign: Campaign | None = None
        self._drawn: tuple[str, ...] | None = None  # the features the campaign can draw (``drawn``)

    def drawn(self, campaign: Campaign) -> tuple[str, ...]:
        """``fuzz.program.features.drawable`` of the campaign's generator config: fixed for the run, found once
        (the live view renders four times a second)."""
        if self._drawn is None:
            from fuzz.program.features import drawable

            self._drawn = drawable(campaign.base_config)
        return self._drawn

    def __enter__(self) -> _Progress:
        if sys.stderr.isatty():
            from rich.console import Console
            from rich.live import Live

            self.live = Live(console=Console(stderr=True), refresh_per_second=4, transient=False)
            self.live.__enter__()
        return self

    def __exit__(self, *exc: Any) -> None:
        if self.live is not None:
            if self.campaign is not None:
                self.live.update(self._table(self.campaign))
            self.live.__exit__(*exc)

    def _figures(self, campaign: Campaign) -> tuple[int, float, dict[str, int], str]:
        from fuzz.campaign.bucket import STATUSES

        seconds = max(campaign.seconds, 1e-9)
        statuses = Counter(b.status for b in list(campaign.buckets.values()))
        tags = [f"{statuses[s]} {s}" for s in STATUSES if statuses[s]]
        buckets = f"{len(campaign.buckets)}" + (f" ({', '.join(tags)})" if tags else "")
        return campaign.programs, campaign.programs / seconds, dict(campaign.verdicts), buckets

    def _table(self, campaign: Campaign) -> Group:
        from rich.console import Group
        from rich.table import Table

        programs, rate, verdicts, buckets = self._figures(campaign)
        table = Table(title=f"ngb-fuzz run  seed {self.config.seed}  targets {', '.join(self.config.targets)}")
        for col in ("programs", "rate", *sorted(verdicts), "buckets", "not reduced", "worker MB", "elapsed"):
            table.add_column(col, justify="right")
        table.add_row(str(programs), f"{rate:.2f}/s", *(str(verdicts[k]) for k in sorted(verdicts)),
                      str(buckets), _not_reduced(campaign), worker_memory(campaign),
                      f"{campaign.seconds:.0f}s")
        return Group(table, self._features_table(campaign))

    def _features_table(self, campaign: Campaign) -> Table:
        """Feature coverage so far: per family, the share of programs and its rarest tag (and bias boosts)."""
        from rich.table import Table

        with campaign._lock:
            rows = feature_rows(campaign.programs, campaign.families, campaign.features,
                                campaign.bias.boosts() if campaign.bias is not None else {}, self.drawn(campaign))
        table = Table(title="features generated", title_justify="left", show_edge=False, pad_edge=False)
        columns: tuple[tuple[str, JustifyMethod], ...] = (
            ("family", "left"), ("programs", "right"), ("", "left"), ("rarest", "left"), ("boosted", "left"))
        for col, justify in columns:
            table.add_column(col, justify=justify)
        for family, share, rarest, boosted in rows:
            bar = "#" * round(share * 20)
            table.add_row(family, f"{share:6.1%}", bar, rarest, boosted)
        return table

    def update(self, campaign: Campaign) -> None:
        self.campaign = campaign
        if self.live is not None:
            self.live.update(self._table(campaign))
        elif time.monotonic() - self.last_line >= 10:
            self.last_line = time.monotonic()
            programs, rate, verdicts, buckets = self._figures(campaign)
            counts = " ".join(f"{k}={v}" for k, v in sorted(verdicts.items()))
            print(f"[ngb-fuzz] {programs} programs  {rate:.2f}/s  {counts}  buckets={buckets}  "
                  f"not reduced={campaign.not_reduced}  worker MB={worker_memory(campaign)}",
                  file=sys.stderr, flush=True)
            if programs and time.monotonic() - self.last_features >= 60:
                self.last_features = time.monotonic()
                with campaign._lock:
                    rare = rarest_tags(campaign.features, 5, self.drawn(campaign))
                print(f"[ngb-fuzz] rarest features: {', '.join(f'{t}={n}' for t, n in rare)}", file=sys.stderr,
                      flush=True)

    def _say(self, message: str) -> None:
        if self.live is not None:
            self.live.console.print(message)
        else:
            print(f"[ngb-fuzz] {message}", file=sys.stderr, flush=True)

    def notice(self, message: str) -> None:
        print(f"[ngb-fuzz] {message}", file=sys.stderr, flush=True)

    def new_bucket(self, bucket: Bucket, source: str) -> None:
        known = ""
        if bucket.known:
            known = (f" (corpus/{bucket.known} was FIXED: it came back)" if bucket.regression
                     else f" (corpus/{bucket.known}; not reduced)")
        self._say(f"new bucket, {bucket.status}{known}: {bucket.signature} on {bucket.target}: {bucket.repro}")

    def reduced(self, bucket: Bucket) -> None:
        status = f", {bucket.status}" + (f": corpus/{bucket.known}" if bucket.known else
                                         f" (like corpus/{bucket.like[0]})" if bucket.like else "")
        if bucket.ends_in:
            status += f"; let finish, the slow compile ends in {bucket.ends_in}"
        if bucket.same_as:
            self._say(f"{bucket.repro}: same root cause as {bucket.same_as} ({bucket.lines} lines){status}")
        elif bucket.reduction == "done":
            self._say(f"reduced {bucket.repro} to {bucket.lines} lines{status}")
        elif bucket.reduction == "cut short":
            self._say(f"reduction of {bucket.repro} cut short at {bucket.lines or 'its original'} lines "
                      f"(smaller, not minimal){status}")
        else:
            self._say(f"{bucket.repro}: no smaller program kept its signature{status}")


def _not_reduced(campaign: Campaign) -> str:
    """The live view's "not reduced" count, with the hangs and slow compiles among them (reduced after the other
    buckets, within a budget of waiting out timeouts)."""
    waiting = [b.finding for b in list(campaign.buckets.values()) if b.unfinished]
    hangs, slow = waiting.count("hang"), sum(1 for s in waiting if s.startswith("slow:"))
    said = [f"{n} {what}{'s' if n > 1 else ''}" for n, what in ((hangs, "hang"), (slow, "slow compile")) if n]
    return f"{campaign.not_reduced}" + (f" ({', '.join(said)})" if said else "")


def skip_reasons(skips: Mapping[str, int]) -> str:
    """Why target runs were skipped, for the closing line: " (too-slow 1, eager-failed 1)"; "" when not
    recorded (a campaign journaled before skip reasons were)."""
    if not skips:
        return ""
    return " (" + ", ".join(f"{sig.removeprefix('skip:')} {n}" for sig, n in skips.items()) + ")"


def worker_memory(campaign: Campaign) -> str:
    """Resident MB of each worker that checks programs now (a cluster's too), e.g. '412 398' ('-' before any
    started)."""
    memory = campaign.memory_of_workers or getattr(campaign.runner, "memory", None)
    rows = memory().get("rss_mb", []) if callable(memory) else []
    return " ".join(f"{mb:.0f}" for mb in rows) or "-"


def _print_summary(summary: dict, out: Path, state: str, written: bool = True, lost: Set[str] = frozenset(),
                   workers: int = 1) -> None:
    """The campaign's closing lines on stdout; ``written``: whether summary.json was written (not on a full disk);
    ``lost``: repro files deleted that could not be regenerated (``fuzz.campaign.files``); ``workers``: the
    run's, given to the ``reduce --campaign`` it prints where that is not reduce's default."""
    from fuzz.campaign.bucket import beside, shown
    from fuzz.campaign.reductions import wait_budget

    from ..commands import replay_command, shell_command

    verdicts = " ".join(f"{k}={v}" + (skip_reasons(summary.get("skips", {})) if k == "skip" else "")
                        for k, v in sorted(summary["verdicts"].items()))
    print(f"{state}: {summary['programs']} programs in {summary['seconds']:.1f}s  {verdicts}  "
          f"buckets={len(summary['buckets'])} root causes={summary['root_causes']}")
    # pasted, it reduces with this run's workers (a cluster's: as many as this machine holds)
    local = min(workers, machine_workers()[0])
    more = ("--workers", str(local)) if local > default_workers() else ()
    reduce = shell_command("ngb-fuzz", "reduce", "--campaign", out, *more)
    first_of: dict[str, str] = {}  # root cause -> the first bucket's repro with it
    for bucket in summary["buckets"]:
        path = out / bucket["repro"]
        earlier = first_of.setdefault(bucket.get("root_cause") or "", bucket["repro"])
        size = {"done": f"  (reduced to {bucket['lines']} lines)",
                "cut short": f"  (reduction cut short at {bucket['lines'] or 'its original'} lines: not minimal)",
                "failed": "  (not reduced: no smaller program kept the signature)",
                "pending": "  (not reduced)"}.get(bucket.get("reduction") or "", "")
        print(f"  {bucket['count']:5d}  {bucket.get('status', 'NEW'):<6}  {bucket['signature']}  "
              f"[{bucket['target']}]{size}")
        if bucket.get("ends_in"):
            print(f"         let finish, it ends in {bucket['ends_in']}: its repro shows that, and its root cause "
                  "is that finding's")
        if bucket.get("known"):
            what = "regression of the FIXED bug" if bucket.get("regression") else "known bug"
            lines = bucket.get("known_lines")
            print(f"         {what}: corpus/{bucket['known']}" + (f"  ({lines} lines: its repro, "
                  f"{shell_command('python', 'corpus/' + bucket['known'])})" if lines and not bucket.get("reduction")
                  else ""))
        if bucket.get("same_as"):
            print(f"         same root cause as {bucket['same_as']} (its reduced repro; not reduced again)")
        elif bucket.get("root_cause") and earlier != bucket["repro"]:
            print(f"         same root cause as {earlier} (found by its own reduction)")
        elif bucket.get("reduction") in ("pending", "cut short"):
            what = "not reduced" if bucket["reduction"] == "pending" else "reduction not finished"
            reached = bucket.get("partial_lines")
            if reached:  # a round the stop cut off: its smallest program is where the next round starts
                what = (f"{what}: a round the stop cut off got to {reached} lines "
                        f"({beside(bucket['repro'], 'partial')}, not re-checked)")
            print(f"         {what}: {reduce}  (or the next run) "
                  + ("goes on from there" if reached else "reduces it" if bucket["reduction"] == "pending"
                     else "goes on with it"))
        waiting = wait_budget(shown(bucket["signature"], bucket.get("ends_in")))
        if waiting and bucket.get("reduction") in ("pending", "cut short"):
            what = "a hang" if bucket["signature"] == "hang" else "a slow compile"
            print(f"         {what}: each check that keeps it waits out a (short) timeout, so a campaign's reduction "
                  f"of it stops after {waiting:.0f}s of such waiting and comes after every other")
        if bucket.get("status") == "NEW?":
            print("         NEW?: its root cause is decided once its reduction finishes (it may be a known bug)")
        if bucket.get("like") and not bucket.get("known"):
            like = ", ".join(f"corpus/{file}" for file in bucket["like"])
            calls = ", ".join(bucket.get("trigger") or []) or "the same calls"
            print(f"         KNOWN?: needs the compiler to trace {calls}, as {like} "
                  f"does: probably a new form of it (confirm, then "
                  f"{shell_command('ngb-fuzz', 'corpus', 'add', path, '--target', bucket['target'], '--same-as', bucket['like'][0])})")
        elif bucket.get("looks_like"):
            alike = ", ".join(f"corpus/{file} ({score:.2f})" for file, score in bucket["looks_like"])
            print(f"         looks like: {alike}: shares their constructs (a hint, not a verdict); if it is that bug, "
                  f"{shell_command('ngb-fuzz', 'corpus', 'add', path, '--target', bucket['target'], '--same-as', bucket['looks_like'][0][0])}")
        if bucket["repro"] in lost:
            print(f"         {bucket['repro']}: deleted, and it cannot be regenerated: nothing to replay")
            continue
        print(f"         replay: {replay_command(path, bucket['target'])}")
    share = summary.get("known_share")
    if share and share["buckets"]:
        print(f"KNOWN: {share['known_findings']} of {share['findings']} findings "
              f"({share['findings_share']:.0%}), {share['known_buckets']} of {share['buckets']} buckets "
              f"({share['buckets_share']:.0%})")
    if "avoid" in summary:
        avoid = summary["avoid"]
        print(f"known-bug avoidance: {len(avoid['lowered'])} features drawn less for {avoid['known_bugs']} "
              f"open corpus bugs; {avoid['programs_with_known_shape']} programs still had a known shape "
              "(--no-avoid-known turns it off)")
    if "bias" in summary:
        events = " ".join(f"{k}={v}" for k, v in sorted(summary["bias"]["events"].items())) or "none"
        boosted = " ".join(f"{t}x{m:.1f}" for t, m in list(summary["bias"]["boosted_now"].items())[:6]) or "nothing"
        print(f"bias: interesting programs {events}; boosted now: {boosted}")
    if summary.get("memory"):
        w = summary["memory"]
        print(f"workers: peak {w['peak_rss_mb']:.0f} MB resident, {w['recycled']} recycled")
    print(f"summary: {out / 'summary.json'}" if written else "summary: not written (see the error below)")
    if (out / "report.html").exists():
        print(f"report: {out / 'report.html'}")


def rarest_tags(features: Mapping[str, int], n: int, drawn: Collection[str]) -> list[tuple[str, int]]:
    """The ``n`` features of ``drawn`` (``fuzz.program.features.drawable``: those the campaign's programs may hold)
    generated least so far."""
    return sorted(((tag, features.get(tag, 0)) for tag in drawn), key=lambda kv: (kv[1], kv[0]))[:n]


def feature_rows(programs: int, families: Mapping[str, int], features: Mapping[str, int],
                 boosts: Mapping[str, float], drawn: Collection[str]) -> list[tuple[str, float, str, str]]:
    """(family, share of programs, its rarest tag of ``drawn`` with count, its most boosted tags) for every catalog
    family."""
    from fuzz.program.features import families as all_families

    rows = []
    for family in all_families():
        tags = [t for t in drawn if t.split(".", 1)[0] == family]
        rare = min(tags, key=lambda t: (features.get(t, 0), t)) if tags else ""
        boosted = [f"{t.split('.', 1)[1]}x{boosts[t]:.1f}" for t in boosts if t.split(".", 1)[0] == family][:2]
        rows.append((family, families.get(family, 0) / max(programs, 1),
                     f"{rare.split('.', 1)[1]}={features.get(rare, 0)}" if rare else "", " ".join(boosted)))
    return rows
