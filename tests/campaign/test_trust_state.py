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
    from fuzz.campaign import directory as campaign_dir

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


# -- a deleted repro file ---------------------------------------------------------------------------------------
def test_a_deleted_repro_is_regenerated_from_its_program_as_it_was(tmp_path):
    from tests.campaign.test_state import repro_files, run

    first = run(tmp_path, programs=20)
    before = repro_files(tmp_path)
    gone = first["buckets"][1]["repro"]
    (tmp_path / gone).unlink()
    notices = []
    again = _campaign(tmp_path, on_notice=notices.append).run()
    assert repro_files(tmp_path) == before  # the same bytes: program i of seed s is always the same program
    assert [b["repro"] for b in again["buckets"]] == [b["repro"] for b in first["buckets"]]
    assert any(gone in n and "regenerated" in n for n in notices), notices


def test_a_deleted_reduced_repro_comes_back_as_its_original_and_is_reduced_again(tmp_path, monkeypatch):
    import fuzz.reduce as reduce_module
    from tests.campaign.test_state import FakeResult, run

    reduced = "import torch\n\ndef entry(x):\n    return x\n"
    monkeypatch.setattr(reduce_module, "reduce_program", lambda source, target, **kw: FakeResult(reduced))
    first = run(tmp_path, programs=3, reduce_seconds=600)
    bucket = next(b for b in first["buckets"] if b["reduction"] == "done" and not b["same_as"])
    path = tmp_path / bucket["repro"]
    original = (tmp_path / bucket["repro"].replace(".py", ".orig.py")).read_text()
    path.unlink()
    resumed = _campaign(tmp_path, programs=3)  # no reduction: what the file and the bucket say after the restore
    after = next(b for b in resumed.summary()["buckets"] if b["repro"] == bucket["repro"])
    resumed.close()
    assert path.read_text() == original and after["reduction"] == "pending" and after["lines"] is None
    again = run(tmp_path, programs=3, reduce_seconds=600)  # the next run reduces it again
    assert next(b for b in again["buckets"] if b["repro"] == bucket["repro"])["reduction"] == "done"
    assert "return x" in path.read_text()


def _campaign(out, **kw):
    from fuzz.campaign.loop import Campaign
    from tests.campaign.test_state import ScriptedRunner, config, generate

    on_notice = kw.pop("on_notice", None)
    return Campaign(config(out, **kw), ScriptedRunner(), generate=generate, on_notice=on_notice)


class FindingRunner(OkRunner):
    """Every program is a value mismatch on 'torch': one bucket, whatever the generator made."""

    def check(self, source, targets, **kwargs):
        return ProgramReport({t: Verdict("mismatch", "value", "mismatch:value:values") for t in targets}, False,
                             {t: {} for t in targets})


def test_a_deleted_repro_that_cannot_be_regenerated_is_named_and_the_exit_is_not_0(tmp_path, monkeypatch, capsys):
    import oracle

    monkeypatch.setattr(oracle, "Runner", FindingRunner, raising=False)
    out = tmp_path / "biased"  # --bias: a program depends on the weights of its moment, which are not kept
    argv = ["run", "--out", str(out), "--budget", "2", "--workers", "1", "--corpus", "none", "--bias",
            "--reduce-budget", "0"]
    assert main(argv) == 0
    [repro] = [p.name for p in out.glob("0*.py")]
    (out / repro).unlink()
    capsys.readouterr()
    assert main(argv) == 1
    captured = capsys.readouterr()
    assert repro in captured.err and "deleted" in captured.err, captured.err
    [line] = [line for line in captured.out.splitlines() if repro in line]
    assert "deleted" in line and "replay:" not in line, captured.out
    assert main(["reduce", "--campaign", str(out)]) == 1
    err = capsys.readouterr().err
    assert repro in err and "deleted" in err, err


# -- a state without its journal (or both moved away) -------------------------------------------------------------
def _numbers(out):
    numbers = [p.name.split("-", 1)[0] for p in out.glob("0*.py") if not p.name.endswith(".orig.py")]
    return sorted(numbers)


def test_a_fresh_start_beside_old_repros_takes_them_back_instead_of_numbering_anew(tmp_path):
    from tests.campaign.test_state import repro_files, run

    first = run(tmp_path, programs=20)
    before = repro_files(tmp_path)
    for name in ("state.json", "journal.jsonl"):  # as the tool's own advice for a fresh start says
        (tmp_path / name).unlink()
    notices = []
    second = _campaign(tmp_path, on_notice=notices.append).run()
    assert repro_files(tmp_path) == before  # nothing written again, nothing overwritten
    assert sorted(b["repro"] for b in second["buckets"]) == sorted(b["repro"] for b in first["buckets"])
    assert len(set(_numbers(tmp_path))) == len(_numbers(tmp_path))  # never two files with one number
    assert any("in no bucket of its state" in n for n in notices), notices


def test_a_lost_journal_beside_an_older_state_never_writes_a_bucket_twice(tmp_path):
    from tests.campaign.test_state import repro_files

    campaign = _campaign(tmp_path)  # writes the first, empty, state.json
    empty_state = (tmp_path / "state.json").read_bytes()
    first = campaign.run()
    before = repro_files(tmp_path)
    (tmp_path / "state.json").write_bytes(empty_state)  # as if killed before any snapshot, and the journal lost
    (tmp_path / "journal.jsonl").unlink()
    second = _campaign(tmp_path).run()
    assert repro_files(tmp_path) == before
    assert [b[k] for b in second["buckets"] for k in ("repro", "count")] == \
        [b[k] for b in first["buckets"] for k in ("repro", "count")]


def test_a_new_bucket_never_takes_a_number_an_old_file_has(tmp_path):
    from tests.campaign.test_state import run

    (tmp_path / "001-someone-elses-notes.py").write_text("# not a repro of this campaign\n")
    run(tmp_path, programs=20)
    assert len(set(_numbers(tmp_path))) == len(_numbers(tmp_path)), _numbers(tmp_path)


def test_a_bucket_taking_back_a_file_that_pointed_at_another_gets_its_own_program_back(tmp_path, monkeypatch):
    import fuzz.reduce as reduce_module
    from tests.campaign.test_state import FakeResult, run

    monkeypatch.setattr(reduce_module, "reduce_program", lambda source, target, **kw: FakeResult())
    first = run(tmp_path, programs=3, reduce_seconds=600)
    twin = next(b for b in first["buckets"] if b["same_as"])  # the ngb=off crash: the torch crash's reduced repro
    for name in ("state.json", "journal.jsonl"):
        (tmp_path / name).unlink()
    second = run(tmp_path, programs=3)
    again = next(b for b in second["buckets"] if b["target"] == twin["target"])
    assert again["repro"] == twin["repro"]
    original = (tmp_path / twin["repro"].replace(".py", ".orig.py")).read_text()
    assert (tmp_path / twin["repro"]).read_text() == original
