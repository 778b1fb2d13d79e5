"""The report page: one self-contained HTML file (plotly's JS inlined once, no network needed to view it)."""

from __future__ import annotations

import datetime
import html

from ..commands import replay_command
from ._data import CampaignData, Finding

__all__ = ["render"]

_STYLE = """
body { font-family: system-ui, sans-serif; margin: 24px; color: #222; max-width: 1400px; }
h1 { font-size: 22px; margin-bottom: 4px; } h2 { font-size: 18px; margin-top: 32px; border-bottom: 1px solid #ddd; }
.meta { color: #555; font-size: 14px; } .meta b { color: #222; }
.cards { display: flex; gap: 12px; flex-wrap: wrap; margin: 14px 0; }
.card { border: 1px solid #ddd; border-radius: 6px; padding: 8px 14px; min-width: 90px; }
.card .n { font-size: 22px; font-weight: 600; } .card .l { font-size: 12px; color: #666; }
table.findings { border-collapse: collapse; width: 100%; font-size: 13px; table-layout: fixed; }
table.findings th, table.findings td { border-bottom: 1px solid #e4e4e4; padding: 6px 8px; text-align: left;
  vertical-align: top; overflow-wrap: anywhere; }
th.c-status { width: 62px; } th.c-signature { width: 30%; } th.c-root { width: 30%; } th.c-target { width: 12%; }
th.c-count { width: 48px; } th.c-first { width: 92px; } th.c-triage { width: 12%; }
tr.finding td { border-bottom: none; } tr.repro td { padding-top: 0; }
table.findings th { background: #f4f4f4; position: sticky; top: 0; }
td.num { text-align: right; font-variant-numeric: tabular-nums; }
code, pre { font-family: ui-monospace, Menlo, Consolas, monospace; font-size: 12px; }
pre { background: #f7f7f7; border: 1px solid #e2e2e2; padding: 8px; overflow: auto; max-height: 420px;
  overflow-wrap: normal; white-space: pre; }
.badge { border-radius: 4px; padding: 1px 6px; font-size: 11px; font-weight: 600; color: #fff; }
.NEW { background: #d62728; } .NEW-undecided { background: #e3a1a1; } .KNOWN-probably { background: #b59a5a; } .KNOWN { background: #7f7f7f; } .REGRESSION { background: #9467bd; }
button.copy { font-size: 11px; margin-left: 6px; cursor: pointer; }
.replay { margin: 2px 0 4px; font-size: 12px; color: #555; } .muted { color: #888; } details summary { cursor: pointer; color: #1f5fa8; }
"""

_SCRIPT = """
function ngbCopy(id, button) {
  const text = document.getElementById(id).textContent;
  const done = () => { const old = button.textContent; button.textContent = 'copied'; setTimeout(() => button.textContent = old, 1200); };
  if (navigator.clipboard && window.isSecureContext) { navigator.clipboard.writeText(text).then(done, () => fallback(text, done)); }
  else { fallback(text, done); }
}
function fallback(text, done) {
  const area = document.createElement('textarea'); area.value = text; document.body.appendChild(area);
  area.select(); document.execCommand('copy'); document.body.removeChild(area); done();
}
"""


def _e(value) -> str:
    return html.escape(str(value), quote=True)


def _duration(seconds: float | None) -> str:
    if seconds is None:
        return ""
    seconds = int(seconds)
    if seconds < 120:
        return f"{seconds}s"
    if seconds < 7200:
        return f"{seconds // 60}m{seconds % 60:02d}s"
    return f"{seconds // 3600}h{seconds % 3600 // 60:02d}m"


def _copyable(element_id: str, text: str, tag: str = "code") -> str:
    return (f'<{tag} id="{element_id}">{_e(text)}</{tag}>'
            f'<button class="copy" onclick="ngbCopy(\'{element_id}\', this)">copy</button>')


# How a bucket's reduction ended, as its repro's heading says it (a cut-short one is never called reduced).
_REDUCTION_WORDS = {"done": "reduced", "cut short": "reduction cut short: smaller, not minimal",
                    "failed": "reduction failed: as found", "pending": "not reduced yet"}


def _size(f: Finding) -> str:
    lines = f.lines or len(f.source.splitlines())
    if f.status == "KNOWN" and f.known and f.reduction is None:  # a known bug is not reduced again
        return f"{len(f.source.splitlines())} lines as found, not reduced: a known bug, reduced in corpus/{f.known}"
    if f.reduction in _REDUCTION_WORDS:
        return f"{lines} lines, {_REDUCTION_WORDS[f.reduction]}"
    return f"{lines} lines, reduced" if f.lines else f"{lines} lines"  # a summary from before reductions were tracked


def _finding_row(i: int, f: Finding, data: CampaignData, show_status: bool, show_triage: bool) -> str:
    replay = replay_command(data.out / f.repro, f.target)
    cells = []
    if show_status:
        badge = {"NEW?": "NEW-undecided", "KNOWN?": "KNOWN-probably"}.get(f.status or "", f.status or "")
        title = {"NEW?": ' title="not reduced to a root cause yet: may be a known bug"',
                 "KNOWN?": ' title="needs the calls a corpus bug needs: probably a new form of it"'}.get(f.status or "", "")
        cells.append(f'<td><span class="badge {_e(badge)}"{title}>{_e(f.status)}</span></td>' if f.status
                     else "<td></td>")
    cause = _e(f.cause_label or f.root_cause) if f.root_cause else '<span class="muted">(not reduced yet)</span>'
    if f.same_as:
        cause += f'<br><span class="muted">same root cause as {_e(f.same_as)}</span>'
    if f.known:
        cause += f'<br><span class="muted">known bug: corpus/{_e(f.known)}</span>'
    if f.like:
        like = ", ".join(f"corpus/{_e(file)}" for file in f.like)
        cause += (f'<br><span class="muted" title="the finding goes when these calls run outside the compiler, as '
                  f'the corpus bug\'s does: evidence, not proof">needs {_e(", ".join(f.trigger))}, as {like} does: '
                  f'probably a new form of it</span>')
    elif f.looks_like:
        alike = ", ".join(f"corpus/{_e(file)} ({score:.2f})" for file, score in f.looks_like)
        cause += f'<br><span class="muted" title="shares their constructs: a hint, not a verdict">looks like: {alike}</span>'
    first = "" if f.first_program is None else f"program {f.first_program}"
    if f.first_seen_s is not None:
        first += f"<br><span class='muted'>≈ {_duration(f.first_seen_s)} in</span>"
    signature = f"<code>{_e(f.signature)}</code>"
    if f.ends_in:
        signature += (f'<br><span class="muted" title="its run, let finish, showed this: its repro and root cause are '
                      f'that finding\'s">ends in <code>{_e(f.ends_in)}</code></span>')
    cells += [f"<td>{signature}</td>", f"<td>{cause}</td>", f"<td><code>{_e(f.target)}</code></td>",
              f'<td class="num">{f.count}</td>', f"<td>{first}</td>"]
    if show_triage:
        cells.append(f"<td>{_e(f.triage) if f.triage else ''}</td>")
    # Replay command and repro get a full-width row under their finding: code needs the width, not a column.
    if f.source is not None:
        size = _size(f)
        repro = (f"<details><summary>repro {_e(f.repro)} ({size})</summary>"
                 f"{_copyable(f'repro-{i}', f.source, 'pre')}</details>")
    else:
        repro = f'<span class="muted">repro {_e(f.repro)}: file missing</span>'
    return (f'<tr class="finding">{"".join(cells)}</tr>'
            f'<tr class="repro"><td colspan="{len(cells)}"><div class="replay">replay: '
            f'{_copyable(f"replay-{i}", replay)}</div>{repro}</td></tr>')


def _findings(data: CampaignData) -> str:
    if not data.findings:
        return "<p>No findings: every program agreed with eager on every target (or was skipped).</p>"
    show_status = any(f.status for f in data.findings)
    show_triage = any(f.triage for f in data.findings)
    head = ([("status", "c-status")] if show_status else []) + [
        ("signature", "c-signature"), ("root cause", "c-root"), ("target", "c-target"), ("count", "c-count"),
        ("first seen", "c-first")] + ([("triage", "c-triage")] if show_triage else [])
    rows = "\n".join(_finding_row(i, f, data, show_status, show_triage) for i, f in enumerate(data.findings))
    header = "".join(f'<th class="{css}">{name}</th>' for name, css in head)
    return f'<table class="findings"><thead><tr>{header}</tr></thead><tbody>{rows}</tbody></table>'


def _known_share(summary: dict) -> dict | None:
    """The summary's KNOWN shares, or computed from its buckets where they carry a status (older summaries);
    None where the campaign knew no corpus (no bucket has a status) or found nothing."""
    from fuzz.campaign.avoid import known_shares

    buckets = summary.get("buckets") or []
    if not buckets or not any(isinstance(b, dict) and b.get("status") for b in buckets):
        return None
    share = summary.get("known_share")
    return share if isinstance(share, dict) and "buckets_share" in share else known_shares(buckets)


def _cards(data: CampaignData) -> str:
    s = data.summary
    programs, seconds = int(s.get("programs", 0) or 0), float(s.get("seconds", 0) or 0)
    verdicts = s.get("verdicts", {})
    cards = [("programs", programs), ("programs/s", f"{programs / seconds:.2f}" if seconds else "–"),
             ("elapsed", _duration(seconds)), ("buckets", len(s.get("buckets", []))),
             ("root causes", s.get("root_causes", "–"))]
    share = _known_share(s)
    if share is not None:
        cards += [("KNOWN findings", f"{share['findings_share']:.0%} ({share['known_findings']}/{share['findings']})"),
                  ("KNOWN buckets", f"{share['buckets_share']:.0%} ({share['known_buckets']}/{share['buckets']})")]
    cards += [(kind, n) for kind, n in sorted(verdicts.items(), key=lambda kv: (kv[0] != "ok", kv[0]))]
    return '<div class="cards">' + "".join(
        f'<div class="card"><div class="n">{_e(n)}</div><div class="l">{_e(label)}</div></div>'
        for label, n in cards) + "</div>"


def render(data: CampaignData, figures, plotly_js: str, refreshed: bool) -> str:
    """The page; ``figures`` are (title, plotly figure); ``refreshed``: the campaign is still running."""
    s = data.summary
    now = datetime.datetime.now(datetime.timezone.utc)  # noqa: UP017 - datetime.UTC is 3.11+
    state = "running (this page is rewritten every minute; reload to update)" if refreshed else "run stopped"
    meta = (f'<div class="meta"><b>{_e(data.out)}</b> · seed <b>{_e(s.get("seed"))}</b> · targets '
            f'<b>{_e(", ".join(data.targets))}</b> · {state} · written {now:%Y-%m-%d %H:%M} UTC</div>')
    plots = []
    for i, (title, fig) in enumerate(figures):
        div = fig.to_html(full_html=False, include_plotlyjs=False, div_id=f"plot-{i}",
                          config={"displaylogo": False, "responsive": True})
        plots.append(f"<h2>{_e(title)}</h2>\n{div}")
    if not data.timeline:
        plots.insert(0, '<p class="muted">No timeline.jsonl in this directory (a campaign from before timelines, '
                        "or one shorter than its first interval): no plots over time.</p>")
    return f"""<!DOCTYPE html>
<html lang="en"><head><meta charset="utf-8"><title>ngb-fuzz campaign report: {_e(data.out.name)}</title>
<style>{_STYLE}</style><script>{plotly_js}</script><script>{_SCRIPT}</script></head>
<body>
<h1>ngb-fuzz campaign report</h1>
{meta}
{_cards(data)}
<h2>Findings ({len(data.findings)} bucket{'' if len(data.findings) == 1 else 's'})</h2>
{_findings(data)}
{"".join(plots)}
</body></html>
"""
