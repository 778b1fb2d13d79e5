"""--weight NAME=W: the user's generation weights, and programs regenerated as the campaign drew them."""

import subprocess
import sys

import pytest

from fuzz.campaign.avoid import Avoidance, KnownShape
from fuzz.campaign.loop import Campaign, CampaignConfig
from fuzz.program.generate import generate_program
from oracle import header_fields
from oracle._verdict import ProgramReport, Verdict


class _Runner:
    """Program 2 is a crash; every other program is fine."""

    def check(self, source, targets):
        index = int(source.split("(program ")[1].split(")")[0])
        verdict = Verdict("crash", "c", "crash:E@torch._dynamo.x:y", "x") if index == 2 else Verdict("ok", "", "ok")
        return ProgramReport({"torch": verdict}, False, {})


def _generate(seen):
    def generate(seed, index, config=None):
        seen.append(config)
        return generate_program(seed, index, config)
    return generate


def test_user_weights_reach_every_program_and_the_repro_says_them(tmp_path):
    seen = []
    config = CampaignConfig(("torch",), tmp_path, programs=4, weights=(("flow", 0.0), ("iter.sorted_key", 5.0)))
    summary = Campaign(config, _Runner(), generate=_generate(seen)).run()
    assert len(seen) == 4 and all(c is not None for c in seen)
    assert all(c.weight("flow.loop") == 0.0 and c.weight("iter.sorted_key") == 5.0 for c in seen)
    repro = (tmp_path / summary["buckets"][0]["repro"]).read_text()
    fields = header_fields(repro)
    assert "--weight flow=0 --weight iter.sorted_key=5" in fields["found-by"]
    assert "iter.sorted_key=5" in fields["weights"]
    # a different --weight is another campaign: the directory is not resumed with it
    other = CampaignConfig(("torch",), tmp_path, programs=4, weights=(("flow", 1.0),))
    assert config.identity() != other.identity()


def test_a_deleted_repro_is_regenerated_with_the_avoiding_weights(tmp_path):
    """A repro regenerated after deletion is the program the campaign found, not the catalog-weighted one."""
    avoid = Avoidance([KnownShape("known.py", frozenset({"flow.loop", "call.kwargs"}))])
    config = CampaignConfig(("torch",), tmp_path, programs=4)
    summary = Campaign(config, _Runner(), generate=_generate([]), avoid=avoid).run()
    path = tmp_path / summary["buckets"][0]["repro"]
    original = path.read_text()
    assert generate_program(0, 2).source.split("\n", 3)[3] not in original  # the weights changed program 2
    path.unlink()
    for orig in tmp_path.glob("*.orig.py"):
        orig.unlink()
    Campaign(config, _Runner(), generate=_generate([]), avoid=avoid).run()
    assert path.read_text() == original


@pytest.mark.parametrize("spec, message", [("iter", "NAME=W"), ("nosuch=2", "unknown feature"),
                                           ("iter=-1", ">= 0"), ("iter=x", "NAME=W")])
def test_a_bad_weight_is_one_line_and_exit_2(tmp_path, spec, message):
    done = subprocess.run([sys.executable, "-m", "fuzz.cli", "run", "--budget", "1", "--weight", spec,
                           "--out", str(tmp_path / "c")], capture_output=True, text=True, timeout=120)
    assert done.returncode == 2, done.stderr
    assert message in done.stderr and len(done.stderr.strip().splitlines()) == 1
    assert not (tmp_path / "c").exists()
