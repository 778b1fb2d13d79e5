"""A campaign directory you can trust after faults: a full disk names no file it did not write and leaves no
temporary file; a deleted repro is regenerated (or named, with a non-zero exit); a state without its journal
never writes a bucket again under a new number beside its old file. A scripted runner stands in for the oracle
where the test is about bookkeeping (tests/campaign/test_state.py)."""

import errno
import os
import pathlib

from fuzz.cli import main
from oracle._verdict import ProgramReport, Verdict


class OkRunner:
    """Stands in for oracle.Runner in the CLI: every program matches on every target, no worker is started."""

    def __init__(self, *args, **kwargs):
        self.workers = kwargs.get("workers", 1)

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        pass

    def check(self, source, targets, **kwargs):
        return ProgramReport({t: Verdict("ok", "", "ok") for t in targets}, False, {t: {} for t in targets})

    def memory(self):
        return {}


def test_a_full_disk_names_no_summary_it_did_not_write_and_leaves_no_tmp_file(tmp_path, monkeypatch, capsys):
    import oracle
    from fuzz import campaign_dir

    out = tmp_path / "run"
    real_open, real_write_text = open, pathlib.Path.write_text
    writes = {"left": 1}  # the first state snapshot is written; the disk is full from then on

    def filling_open(path, mode="r", *args, **kwargs):
        if any(m in mode for m in "wa"):
            writes["left"] -= 1
            if writes["left"] < 0:
                f = real_open(path, mode, *args, **kwargs)  # created, as on a full disk, then the write fails
                f.close()
                raise OSError(errno.ENOSPC, os.strerror(errno.ENOSPC))
        return real_open(path, mode, *args, **kwargs)

    def filling_write_text(self, *args, **kwargs):
        real_write_text(self, "<html>half a pa", encoding="utf-8")
        raise OSError(errno.ENOSPC, os.strerror(errno.ENOSPC))

    monkeypatch.setattr(oracle, "Runner", OkRunner, raising=False)
    monkeypatch.setattr(campaign_dir, "open", filling_open, raising=False)
    monkeypatch.setattr(pathlib.Path, "write_text", filling_write_text)
    code = main(["run", "--out", str(out), "--budget", "3", "--workers", "1", "--corpus", "none"])
    monkeypatch.undo()
    captured = capsys.readouterr()
    assert code == 1 and "No space left on device" in captured.err
    assert not (out / "summary.json").exists()
    assert "summary.json" not in captured.out, captured.out
    assert not list(out.glob("*.tmp")), sorted(p.name for p in out.iterdir())
