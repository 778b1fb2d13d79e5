"""``ngb-fuzz run``: a campaign with live progress, summary.json and one repro per bucket."""

from __future__ import annotations

import os
import signal
import sys
import threading
import time
from pathlib import Path

from . import UsageError
from ._common import parse_budget, parse_duration, parse_targets


def register(subparsers) -> None:
    p = subparsers.add_parser("run", help="run a fuzz campaign against one or more targets",
                              description="Generate programs, run them under eager and each target, bucket "
                                          "what differs and write one repro file per bucket.")
    p.add_argument("--target", action="append", metavar="SPEC",
                   help="target spec, repeatable (default: torch); see `ngb-fuzz targets`")
    p.add_argument("--budget", default="100", help="programs (500) or wall time (30s, 10m, 1h); default 100")
    p.add_argument("--workers", type=int, default=None,
                   help="programs checked at once: worker processes here (default: half the cores), or tasks in "
                        "flight on a cluster (default: its worker threads)")
    p.add_argument("--cluster", metavar="ADDRESS",
                   help="check programs on a Dask cluster: tcp://HOST:PORT (a running `dask scheduler`) or "
                        "local:N (N worker processes on this machine); needs ngb-fuzz[cluster]. See docs/cluster.md")
    p.add_argument("--seed", type=int, default=0, help="campaign seed (program i of seed s is always the same)")
    p.add_argument("--out", default="runs/latest", help="campaign directory (resumed if it holds this campaign)")
    p.add_argument("--timeout", type=float, default=60.0, help="seconds per program and target before 'hang'")
    p.add_argument("--reduce-budget", default="60s",
                   help="reduce each new bucket's repro within this time (e.g. 60s; 0 turns reduction off)")
    p.add_argument("--bias", action="store_true",
                   help="lean generation toward the features of programs that opened new buckets, met new break "
                        "reasons or unusual graph/break counts (programs then depend on the campaign's history)")
    p.set_defaults(handler=run)


def run(args) -> int:
    import oracle

    from ..campaign import Campaign, CampaignConfig, CampaignError
    from ..cluster import ClusterError, ClusterLost, connect, local_dispatcher
    from ..timeline import Timeline

    if args.workers is not None and args.workers < 1:
        raise UsageError("--workers must be at least 1")
    programs, seconds = parse_budget(args.budget)
    targets = parse_targets(args.target)
    reduce_seconds = 0.0 if args.reduce_budget.strip() == "0" else parse_duration(args.reduce_budget)
    dispatcher = None
    if args.cluster:
        try:
            dispatcher = connect(args.cluster, timeout=args.timeout)
        except ClusterError as exc:
            raise UsageError(str(exc)) from None
    slots = args.workers or (dispatcher.slots if dispatcher else max(1, (os.cpu_count() or 2) // 2))
    config = CampaignConfig(tuple(targets), Path(args.out), programs, seconds, slots, args.seed,
                            args.timeout, reduce_seconds, args.bias)
    # Ctrl-C must stop a campaign even where the parent started us with SIGINT ignored (pytest-xdist workers)
    signal.signal(signal.SIGINT, signal.default_int_handler)
    view = _Progress(config)
    # On a cluster the local runner only serves reduction (one worker process, started on first use).
    with oracle.Runner(workers=1 if dispatcher else slots, timeout=args.timeout) as runner:
        dispatcher = dispatcher or local_dispatcher(runner, slots)
        timeline, report = Timeline(config.out, interval=30.0), _LiveReport(config.out)

        def on_progress(campaign) -> None:
            view.update(campaign)
            timeline.tick(campaign)
            report.tick(campaign)

        try:
            campaign = Campaign(config, runner, on_progress=on_progress, on_new_bucket=view.new_bucket,
                                on_reduced=view.reduced, check=dispatcher.check, on_recorded=timeline.program)
        except CampaignError as exc:
            dispatcher.close()
            raise UsageError(str(exc)) from None
        interrupted, lost = False, None
        try:
            with view:
                summary = campaign.run()
        except KeyboardInterrupt:
            interrupted = True
            summary = campaign.finish()
        except ClusterLost as exc:  # run() has written state and summary before re-raising
            lost = str(exc) or "the cluster went away"
            summary = campaign.summary()
        finally:
            dispatcher.close()
        timeline.tick(campaign, force=True)
    report.final(summary)
    _print_summary(summary, config.out, interrupted or lost is not None)
    if lost is not None:
        print(f"ngb-fuzz run: {lost}; state written to {config.out}: run the same command again to resume",
              file=sys.stderr)
        return 3
    return 130 if interrupted else 0


class _LiveReport:
    """report.html in the campaign directory: refreshed every ``interval`` seconds while running, written at the
    end; without plotly, one line saying how to get it, once."""

    def __init__(self, out: Path, interval: float = 60.0):
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

    def tick(self, campaign) -> None:
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

    def __init__(self, config):
        self.config = config
        self.live = None
        self.last_line = 0.0
        self.last_features = 0.0
        self.campaign = None

    def __enter__(self):
        if sys.stderr.isatty():
            from rich.console import Console
            from rich.live import Live

            self.live = Live(console=Console(stderr=True), refresh_per_second=4, transient=False)
            self.live.__enter__()
        return self

    def __exit__(self, *exc):
        if self.live is not None:
            if self.campaign is not None:
                self.live.update(self._table(self.campaign))
            self.live.__exit__(*exc)

    def _figures(self, campaign) -> tuple[int, float, dict, int]:
        seconds = max(campaign.seconds, 1e-9)
        return campaign.programs, campaign.programs / seconds, dict(campaign.verdicts), len(campaign.buckets)

    def _table(self, campaign):
        from rich.console import Group
        from rich.table import Table

        programs, rate, verdicts, buckets = self._figures(campaign)
        table = Table(title=f"ngb-fuzz run  seed {self.config.seed}  targets {', '.join(self.config.targets)}")
        for col in ("programs", "rate", *sorted(verdicts), "buckets", "elapsed"):
            table.add_column(col, justify="right")
        table.add_row(str(programs), f"{rate:.2f}/s", *(str(verdicts[k]) for k in sorted(verdicts)),
                      str(buckets), f"{campaign.seconds:.0f}s")
        return Group(table, self._features_table(campaign))

    def _features_table(self, campaign):
        """Feature coverage so far: per family, the share of programs and its rarest tag (and bias boosts)."""
        from rich.table import Table

        with campaign._lock:
            rows = feature_rows(campaign.programs, campaign.families, campaign.features,
                                campaign.bias.boosts() if campaign.bias is not None else {})
        table = Table(title="features generated", title_justify="left", show_edge=False, pad_edge=False)
        for col, justify in (("family", "left"), ("programs", "right"), ("", "left"), ("rarest", "left"),
                             ("boosted", "left")):
            table.add_column(col, justify=justify)
        for family, share, rarest, boosted in rows:
            bar = "#" * round(share * 20)
            table.add_row(family, f"{share:6.1%}", bar, rarest, boosted)
        return table

    def update(self, campaign) -> None:
        self.campaign = campaign
        if self.live is not None:
            self.live.update(self._table(campaign))
        elif time.monotonic() - self.last_line >= 10:
            self.last_line = time.monotonic()
            programs, rate, verdicts, buckets = self._figures(campaign)
            counts = " ".join(f"{k}={v}" for k, v in sorted(verdicts.items()))
            print(f"[ngb-fuzz] {programs} programs  {rate:.2f}/s  {counts}  buckets={buckets}", file=sys.stderr,
                  flush=True)
            if programs and time.monotonic() - self.last_features >= 60:
                self.last_features = time.monotonic()
                with campaign._lock:
                    rare = rarest_tags(campaign.features, 5)
                print(f"[ngb-fuzz] rarest features: {', '.join(f'{t}={n}' for t, n in rare)}", file=sys.stderr,
                      flush=True)

    def _say(self, message: str) -> None:
        if self.live is not None:
            self.live.console.print(message)
        else:
            print(f"[ngb-fuzz] {message}", file=sys.stderr, flush=True)

    def new_bucket(self, bucket, source) -> None:
        self._say(f"new bucket {bucket.signature} on {bucket.target}: {bucket.repro}")

    def reduced(self, bucket) -> None:
        self._say(f"reduced {bucket.repro} to {bucket.lines} lines")


def _print_summary(summary: dict, out: Path, interrupted: bool) -> None:
    verdicts = " ".join(f"{k}={v}" for k, v in sorted(summary["verdicts"].items()))
    state = "interrupted" if interrupted else "done"
    print(f"{state}: {summary['programs']} programs in {summary['seconds']:.1f}s  {verdicts}  "
          f"buckets={len(summary['buckets'])} root causes={summary['root_causes']}")
    for bucket in summary["buckets"]:
        path = out / bucket["repro"]
        size = f"  ({bucket['lines']} lines)" if bucket.get("lines") else ""
        print(f"  {bucket['count']:5d}  {bucket['signature']}  [{bucket['target']}]{size}")
        if bucket.get("same_as"):
            print(f"         same root cause as {bucket['same_as']} (not reduced again)")
        print(f"         replay: ngb-fuzz repro {path} --target '{bucket['target']}'")
    if "bias" in summary:
        events = " ".join(f"{k}={v}" for k, v in sorted(summary["bias"]["events"].items())) or "none"
        boosted = " ".join(f"{t}x{m:.1f}" for t, m in list(summary["bias"]["boosted_now"].items())[:6]) or "nothing"
        print(f"bias: interesting programs {events}; boosted now: {boosted}")
    print(f"summary: {out / 'summary.json'}")
    if (out / "report.html").exists():
        print(f"report: {out / 'report.html'}")


def rarest_tags(features, n: int) -> list[tuple[str, int]]:
    """The ``n`` catalog features generated least so far (weight-0 features left out)."""
    from ..features import CATALOG

    drawn = [(f.name, features.get(f.name, 0)) for f in CATALOG if f.weight > 0]
    return sorted(drawn, key=lambda kv: (kv[1], kv[0]))[:n]


def feature_rows(programs: int, families, features, boosts) -> list[tuple[str, float, str, str]]:
    """(family, share of programs, its rarest tag with count, its most boosted tags) for every catalog family."""
    from ..features import CATALOG
    from ..features import families as all_families

    rows = []
    for family in all_families():
        tags = [f.name for f in CATALOG if f.family == family and f.weight > 0]
        rare = min(tags, key=lambda t: (features.get(t, 0), t)) if tags else ""
        boosted = [f"{t.split('.', 1)[1]}x{boosts[t]:.1f}" for t in boosts if t.split(".", 1)[0] == family][:2]
        rows.append((family, families.get(family, 0) / max(programs, 1),
                     f"{rare.split('.', 1)[1]}={features.get(rare, 0)}" if rare else "", " ".join(boosted)))
    return rows
