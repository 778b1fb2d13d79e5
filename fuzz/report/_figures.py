"""The report's plots (plotly figures), one function per plot; each returns None where it has nothing to show."""

from __future__ import annotations

import collections

import plotly.graph_objects as go
from plotly.subplots import make_subplots

from ._data import CampaignData

__all__ = ["figures"]

_LAYOUT = dict(template="plotly_white", height=340, margin=dict(l=60, r=20, t=50, b=50),
               legend=dict(orientation="h", y=-0.25))
_VERDICT_COLORS = {"ok": "#4c9a2a", "mismatch": "#d62728", "crash": "#9467bd", "hang": "#ff7f0e", "slow": "#e377c2",
                   "skip": "#7f7f7f", "flaky": "#bcbd22", "error": "#17becf"}


def figures(data: CampaignData) -> list[tuple[str, go.Figure]]:
    """(section title, figure) for every plot that has data, in the order the report shows them."""
    makers = (("Throughput", throughput), ("Verdicts over time", verdicts_over_time),
              ("Root causes over time", root_causes_over_time), ("Feature-family coverage", family_coverage),
              ("Break reasons per target", break_reasons), ("Graphs and breaks per program", per_program),
              ("Memory per worker", memory))
    out = []
    for title, make in makers:
        fig = make(data)
        if fig is not None:
            fig.update_layout(**_LAYOUT)
            out.append((title, fig))
    return out


def _minutes(records: list[dict]) -> list[float]:
    return [r["t"] / 60 for r in records]


def throughput(data: CampaignData) -> go.Figure | None:
    """Programs/s per timeline interval (and the running mean), against campaign minutes."""
    records = data.timeline
    if len(records) < 2:
        return None
    xs, rates = [], []
    for before, after in zip(records, records[1:]):
        dt = after["t"] - before["t"]
        if dt > 0:  # a resumed campaign's first record may repeat the last one's time: no interval there
            xs.append(after["t"] / 60)
            rates.append(max(0, after["programs"] - before["programs"]) / dt)
    fig = go.Figure()
    fig.add_scatter(x=xs, y=rates, mode="lines+markers", name="programs/s in the interval")
    last = records[-1]
    if last["t"] > 0:
        fig.add_scatter(x=_minutes(records), y=[r["programs"] / r["t"] if r["t"] else None for r in records],
                        mode="lines", line=dict(dash="dot"), name="mean since start")
    fig.update_layout(title="programs/s", xaxis_title="campaign minutes", yaxis_title="programs/s",
                      yaxis_rangemode="tozero")
    return fig


def verdicts_over_time(data: CampaignData) -> go.Figure | None:
    """Cumulative verdict counts (stacked areas): how the mix of ok/skip/findings evolves."""
    records = data.timeline
    if not records:
        return None
    kinds = sorted({k for r in records for k in r.get("verdicts", {})}, key=lambda k: (k != "ok", k))
    fig = go.Figure()
    for kind in kinds:
        fig.add_scatter(x=_minutes(records), y=[r.get("verdicts", {}).get(kind, 0) for r in records],
                        mode="lines", stackgroup="v", name=kind, line=dict(color=_VERDICT_COLORS.get(kind)))
    fig.update_layout(title="verdicts (cumulative, one per program and target)", xaxis_title="campaign minutes",
                      yaxis_title="verdicts")
    return fig


def root_causes_over_time(data: CampaignData) -> go.Figure | None:
    """Root causes and buckets found so far, and the new root causes in each interval (bars)."""
    records = data.timeline
    if not records:
        return None
    causes = [r.get("root_causes", 0) for r in records]
    new = [causes[0]] + [max(0, b - a) for a, b in zip(causes, causes[1:])]
    fig = go.Figure()
    fig.add_bar(x=_minutes(records), y=new, name="new root causes in the interval", opacity=0.6)
    fig.add_scatter(x=_minutes(records), y=causes, mode="lines+markers", name="root causes so far")
    fig.add_scatter(x=_minutes(records), y=[r.get("buckets", 0) for r in records], mode="lines",
                    line=dict(dash="dot"), name="buckets so far")
    fig.update_layout(title="root causes over time", xaxis_title="campaign minutes", yaxis_title="count",
                      yaxis_rangemode="tozero")
    return fig


def family_coverage(data: CampaignData) -> go.Figure | None:
    """Share of programs that use each feature family (every catalog family, also those never generated)."""
    programs = max(int(data.summary.get("programs", 0) or 0), 1)
    families = dict(data.summary.get("families", {}))
    try:
        from fuzz.program.features import families as catalog_families

        for family in catalog_families():
            families.setdefault(family, 0)
    except ImportError:  # pragma: no cover - the catalog is part of ngb-fuzz; a report of an old run still builds
        pass
    if not families:
        return None
    rows = sorted(families.items(), key=lambda kv: kv[1])
    fig = go.Figure(go.Bar(x=[n / programs for _, n in rows], y=[f for f, _ in rows], orientation="h",
                           text=[f"{n}" for _, n in rows], textposition="outside",
                           hovertemplate="%{y}: %{x:.1%} of programs<extra></extra>"))
    fig.update_layout(title=f"feature families (share of {programs} programs)", xaxis_tickformat=".0%",
                      xaxis_range=[0, 1.1], height=max(300, 26 * len(rows) + 120))
    return fig


def break_reasons(data: CampaignData, top: int = 12) -> go.Figure | None:
    """Programs per graph-break reason, one bar group per target (the ``top`` reasons of each target)."""
    per_target: dict[str, collections.Counter] = collections.defaultdict(collections.Counter)
    for key, count in data.summary.get("break_reasons", {}).items():
        target, sep, reason = key.partition(": ")
        if sep:
            per_target[target][reason] += count
    if not per_target:
        return None
    shown = {target: reasons.most_common(top)[::-1] for target, reasons in per_target.items()}
    bars = sum(len(common) for common in shown.values())
    fig = make_subplots(rows=len(shown), cols=1, subplot_titles=list(shown),
                        row_heights=[len(common) for common in shown.values()],
                        vertical_spacing=min(0.3, 90 / (28 * bars + 90 * len(shown))))
    for row, (target, common) in enumerate(shown.items(), start=1):
        fig.add_bar(x=[n for _, n in common], y=[_short(r) for r, _ in common], orientation="h", name=target,
                    hovertext=[r for r, _ in common], hoverinfo="text+x", showlegend=False, row=row, col=1)
    fig.update_yaxes(dtick=1)  # every reason labelled, however crowded
    fig.update_layout(title="graph-break reasons (programs that met each)", height=140 + 28 * bars + 90 * len(shown),
                      margin=dict(l=340))
    return fig


def _short(text: str, limit: int = 56) -> str:
    return text if len(text) <= limit else text[: limit - 1] + "…"


def per_program(data: CampaignData) -> go.Figure | None:
    """Distribution of graphs and of breaks per program, per target (from the timeline's per-program counts)."""
    totals: dict[str, dict[str, collections.Counter]] = {}
    for record in data.timeline:
        for spec, stats in record.get("per_program", {}).items():
            for key, hist in stats.items():
                counter = totals.setdefault(spec, {}).setdefault(key, collections.Counter())
                counter.update({int(k): v for k, v in hist.items()})
    if not any(c for stats in totals.values() for c in stats.values()):
        return None
    fig = make_subplots(rows=1, cols=2, subplot_titles=("graphs per program", "breaks per program"))
    for spec, stats in totals.items():
        for col, key in enumerate(("graphs", "breaks"), start=1):
            hist = stats.get(key, collections.Counter())
            xs = sorted(hist)
            fig.add_bar(x=xs, y=[hist[x] for x in xs], name=spec, legendgroup=spec, showlegend=col == 1,
                        row=1, col=col)
    fig.update_layout(barmode="group", title="per program, per target")
    fig.update_xaxes(title_text="count in one program", tickformat="d", rangemode="tozero")
    fig.update_yaxes(title_text="programs", row=1, col=1)
    return fig


def _memory_series(value) -> dict[str, float]:
    """{worker: MB} from a campaign's ``memory`` entry (``oracle.Runner.memory()``: {"workers": {name: MB}, ...});
    empty where there is none (a cluster campaign: its workers are on other machines)."""
    workers = value.get("workers") if isinstance(value, dict) else None
    if not isinstance(workers, dict):
        return {}
    return {str(name): float(mb) for name, mb in workers.items() if isinstance(mb, int | float)}


def memory(data: CampaignData) -> go.Figure | None:
    """Memory per worker over time (timeline records that carry it), or as it stands in the summary."""
    points = [(r["t"] / 60, _memory_series(r["memory"])) for r in data.timeline if "memory" in r]
    points = [(t, m) for t, m in points if m]
    fig = go.Figure()
    if len(points) >= 2:
        for worker in sorted({w for _, m in points for w in m}):
            fig.add_scatter(x=[t for t, m in points if worker in m], y=[m[worker] for _, m in points if worker in m],
                            mode="lines+markers", name=worker)
        fig.update_layout(title="memory per worker (MB)", xaxis_title="campaign minutes", yaxis_title="MB")
        return fig
    now = _memory_series(data.summary.get("memory"))
    if not now:
        return None
    fig.add_bar(x=list(now), y=list(now.values()))
    fig.update_layout(title="memory per worker (MB, at the end)", yaxis_title="MB")
    return fig
