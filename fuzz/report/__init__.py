"""The campaign report: ``report.html`` in a campaign's directory, one self-contained page (plotly's JS inlined).

Needs plotly (``pip install 'ngb-fuzz[report]'``); without it ``write_report`` raises ReportUnavailable, whose
message is the one line to show. ``ngb-fuzz run`` writes the report at the end and refreshes it while running.
"""

from __future__ import annotations

import os
from pathlib import Path

__all__ = ["write_report", "ReportUnavailable", "REPORT", "INSTALL_HINT"]

REPORT = "report.html"
INSTALL_HINT = "pip install 'ngb-fuzz[report]'"


class ReportUnavailable(Exception):
    """plotly is not installed."""


def write_report(out: Path, summary: dict | None = None, dest: Path | None = None, running: bool = False) -> Path:
    """Write the report of the campaign in ``out`` (to ``dest``, default ``out/report.html``); returns its path.

    ``summary``: a running campaign's own summary (else read from the directory). Raises ReportUnavailable without
    plotly, FileNotFoundError if ``out`` holds no campaign.
    """
    try:
        import plotly.offline
    except ImportError:
        raise ReportUnavailable(f"the campaign report needs plotly: {INSTALL_HINT}") from None
    from ._data import load
    from ._figures import figures
    from ._html import render

    data = load(Path(out), summary)
    page = render(data, figures(data), plotly.offline.get_plotlyjs(), refreshed=running)
    dest = Path(dest) if dest is not None else Path(out) / REPORT
    tmp = dest.with_name(dest.name + ".tmp")
    try:
        tmp.write_text(page, encoding="utf-8")
        os.replace(tmp, dest)  # a browser reloading mid-refresh sees the old page or the new one, never half of one
    except OSError:
        tmp.unlink(missing_ok=True)  # a full disk leaves the last whole page, never a half-written .tmp beside it
        raise
    return dest
