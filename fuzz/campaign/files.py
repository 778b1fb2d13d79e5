"""A campaign's repro files checked against its state whenever the campaign is opened (``ngb-fuzz run`` resuming,
``ngb-fuzz reduce --campaign``), so the summary never names a file that is gone and no bucket is written twice.

- A bucket whose repro file was deleted gets it back: from its ``*.orig.py`` (the program as found, kept by a
  reduction) or else regenerated from the journal's facts (program ``first_program`` of the campaign's seed is
  always the same program, so the file comes back byte for byte). Its reduction, if it had one, is redone
  ("pending"). A ``--bias`` campaign's program depends on the generation weights of its moment, which the state
  does not keep: without an ``*.orig.py`` its file cannot come back, and it is named as lost (``lost``); the CLI
  says so and exits non-zero.
- Repro files that no bucket of the state names (``state.json`` or ``journal.jsonl`` moved away or lost: their
  programs run again) are said once, and a bucket that shows up again takes its old file back (``untracked``)
  instead of a new file under a new number beside it.
"""

from __future__ import annotations

import types
from pathlib import Path
from typing import Any, Protocol

from oracle import ProgramFile, read_program_text

from .bucket import BESIDE, Bucket, beside


class Campaign(Protocol):
    """What these checks use of the campaign (``fuzz.campaign.loop.Campaign``): its buckets, directory and
    settings, and how it regenerates a program, writes a repro and journals."""

    buckets: dict[tuple[str, str], Bucket]
    dir: Any
    bias: Any
    config: Any

    def regenerate(self, index: int) -> Any: ...

    def _repro_source(self, program: Any, spec: str, verdict: Any, index: int) -> str: ...

    def _journal(self, record: dict) -> None: ...

__all__ = ["check_files", "partial_lines", "untracked_repros"]

# the files kept beside a repro (``BESIDE``), and `ngb-fuzz reduce FILE`'s output beside FILE
_NOT_REPROS = tuple(f".{kind}.py" for kind in (*BESIDE, "reduced"))


def check_files(campaign: Campaign) -> tuple[list[str], dict[tuple[str, str], str]]:
    """(repro files deleted that could not come back, {(target, signature): repro file no bucket names})."""
    lost = [bucket.repro for bucket in list(campaign.buckets.values()) if not _restored(campaign, bucket)]
    untracked = untracked_repros(campaign.dir.root, {b.repro for b in campaign.buckets.values()})
    for name in untracked.values():
        path = campaign.dir.root / name
        if "same-root-cause-as" in _header(path):  # its bucket starts again unreduced: from its own program
            campaign.dir.write_text(name, read_program_text(_original(path)))
    if untracked:
        names = sorted(untracked.values())
        shown = ", ".join(names[:4]) + (f" and {len(names) - 4} more" if len(names) > 4 else "")
        campaign.dir.notice(f"{len(names)} repro file(s) in {campaign.dir.root} are in no bucket of its state "
                            f"({shown}): was journal.jsonl or state.json moved away? The programs the state lacks "
                            "run again, and a bucket one of those files shows takes that file back")
    return lost, untracked


def _restored(campaign: Campaign, bucket: Bucket) -> bool:
    """Whether ``bucket``'s repro file is there (again): restored from its original or regenerated."""
    root = campaign.dir.root
    if (root / bucket.repro).exists():
        return True
    orig = _original(root / bucket.repro)
    if orig.is_file():
        text, how = read_program_text(orig), f"restored from {orig.name}"
    elif campaign.bias is not None:
        campaign.dir.notice(f"{bucket.repro} was deleted and cannot be regenerated: a --bias campaign's program "
                            "depends on the generation weights of its moment, which the state does not keep")
        return False
    else:
        try:
            program = campaign.regenerate(bucket.first_program)
        except Exception as exc:  # noqa: BLE001 - a generator that changed since: the file is named as lost
            campaign.dir.notice(f"{bucket.repro} was deleted and cannot be regenerated: program "
                                f"{bucket.first_program} fails to generate ({type(exc).__name__}: {exc})")
            return False
        text = campaign._repro_source(program, bucket.target, types.SimpleNamespace(signature=bucket.signature),
                                      bucket.first_program)
        how = f"regenerated from program {bucket.first_program} of seed {campaign.config.seed}"
    campaign.dir.write_text(bucket.repro, text)
    redo = bucket.has_reduced_repro
    if redo:  # the reduced file is what was lost: the next reduction redoes it
        campaign._journal({"k": "reduced", "repro": bucket.repro, "reduction": "pending", "lines": None})
    campaign.dir.notice(f"{bucket.repro} was deleted: {how}" + ("; it will be reduced again" if redo else ""))
    return True


def untracked_repros(root: Path, tracked: set[str]) -> dict[tuple[str, str], str]:
    """{(target, signature): name} of the repro files in ``root`` (``NNN-*.py`` with those header lines) that are
    not in ``tracked``; the lowest-numbered file of each bucket."""
    found: dict[tuple[str, str], str] = {}
    for path in sorted(root.glob("[0-9]*-*.py")):
        name = path.name
        if name in tracked or name.endswith(_NOT_REPROS) or not name.split("-", 1)[0].isdigit():
            continue
        fields = _header(path)
        if "same-root-cause-as" in fields:  # the reduced repro of another bucket: its own bucket is its original's
            fields = _header(_original(path))
        if fields.get("target") and fields.get("signature"):
            found.setdefault((fields["target"], fields["signature"]), name)
    return found


def partial_lines(root: Path, bucket: Bucket) -> int | None:
    """The lines of the smallest program an interrupted round of ``bucket`` reached (its ``*.partial.py``, not
    re-checked in a fresh process; where its next round starts) while its reduction is unfinished and that is
    smaller than its repro; else None. The summary says how far a round the stop cut off got."""
    from fuzz.reduce import code_lines

    if not bucket.unfinished:
        return None
    try:
        partial = read_program_text(root / beside(bucket.repro, "partial"))
        repro = read_program_text(root / bucket.repro)
    except (OSError, UnicodeDecodeError):
        return None
    lines = code_lines(partial)
    return lines if lines < code_lines(repro) else None


def _original(path: Path) -> Path:
    return path.with_name(beside(path.name, "orig"))


def _header(path: Path) -> dict[str, str]:
    try:
        return ProgramFile.read(path).fields
    except (OSError, UnicodeDecodeError):
        return {}
