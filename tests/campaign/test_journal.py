"""The campaign directory's journal reader and completed-index set, byte for byte: what a killed run left on
disk is repaired to exactly the records that were whole, and nothing else is ever taken for a record."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from fuzz.campaign.directory import JOURNAL, SNAPSHOT, STATE_VERSION, CampaignDir, CampaignError, IndexSet

IDENTITY = {"seed": 7, "target": "scripted"}


def state_dir(tmp_path: Path, journal: bytes) -> Path:
    root = tmp_path / "campaign"
    root.mkdir()
    snapshot = {"version": STATE_VERSION, "seq": 0, "identity": IDENTITY, "completed": {"below": 0, "also": []},
                "verdicts": {}, "features": {}, "seconds": 0.0, "buckets": {}}
    (root / SNAPSHOT).write_text(json.dumps(snapshot))
    (root / JOURNAL).write_bytes(journal)
    return root


def load_records(root: Path) -> list[int]:
    d = CampaignDir(root)
    try:
        return [r["n"] for r in d.load(IDENTITY)[1]]
    finally:
        d.close()


def test_index_set_iterates_every_completed_index_in_order():
    done = IndexSet([0, 1, 2, 9, 5, 7])
    assert list(done) == [0, 1, 2, 5, 7, 9]
    assert len(done) == 6 and 5 in done and 2 in done and 3 not in done and 10 not in done
    again = IndexSet.from_json(json.loads(json.dumps(done.to_json())))
    assert list(again) == list(done)
    assert list(IndexSet.from_json([4, 0, 1])) == [0, 1, 4]  # state version 1 kept every index


@pytest.mark.parametrize(("journal", "kept", "left"), [
    # killed mid-line: the torn line goes, the blank line between records stays
    (b'{"n":1}\n\n{"n":2}\n{"n":3,"ver', [1, 2], b'{"n":1}\n\n{"n":2}\n'),
    # the last record is whole JSON but its newline never made it: it may be cut short, so it goes too
    (b'{"n":1}\n{"n":2}', [1], b'{"n":1}\n'),
    # a torn line followed only by its newline is still the line being written
    (b'{"n":1}\n{"n":2,\n', [1], b'{"n":1}\n'),
    # an intact journal is left alone
    (b'{"n":1}\n{"n":2}\n', [1, 2], b'{"n":1}\n{"n":2}\n'),
])
def test_a_killed_write_is_cut_back_to_exactly_the_whole_records(tmp_path, journal, kept, left):
    root = state_dir(tmp_path, journal)
    assert load_records(root) == kept
    assert (root / JOURNAL).read_bytes() == left
    d = CampaignDir(root)  # the next record lands on a line of its own
    d.load(IDENTITY)
    d.append({"event": "program"})
    d.close()
    assert [json.loads(line)["n"] for line in (root / JOURNAL).read_text().splitlines() if line] == kept + [
        kept[-1] + 1]


@pytest.mark.parametrize("middle", [b'[1]', b'"text"', b'{"event":"program"}', b'{"n":"2"}', b'{"n":2'])
def test_a_line_that_is_not_a_record_before_the_end_is_corruption(tmp_path, middle):
    root = state_dir(tmp_path, b'{"n":1}\n' + middle + b'\n{"n":3}\n')
    with pytest.raises(CampaignError, match="corrupt at line 2"):
        load_records(root)
    assert (root / JOURNAL).read_bytes().count(b"\n") == 3  # refused, not repaired
