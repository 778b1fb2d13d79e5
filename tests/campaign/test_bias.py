"""``--bias``: feedback from findings and compiler behaviour raises the weights of what produced it."""

import json

import pytest

from fuzz.campaign.bias import NEW_BREAK_REASON, NEW_BUCKET, REPEAT, UNUSUAL_COUNT, Bias, weights_header
from fuzz.campaign.loop import Campaign, CampaignConfig, CampaignError
from fuzz.program.features import GenerationConfig
from fuzz.program.generate import generate_program
from oracle import header_fields
from oracle._verdict import ProgramReport, Verdict

COMMON = "call.chain"  # in every program below
RARE = "flow.generator"


def stats(graphs=1, reasons=()):
    return {"torch": {"graphs": graphs, "breaks": 0, "recompiles": 0, "break_reasons": list(reasons)}}


def test_a_new_bucket_boosts_the_rare_tags_of_its_program_and_not_the_universal_ones():
    bias = Bias(warmup=0)
    for _ in range(9):
        assert bias.observe({COMMON}, stats()) == []
    assert bias.observe({COMMON, RARE}, stats(), new_buckets=1) == [NEW_BUCKET]
    boosts = bias.boosts()
    assert COMMON not in boosts  # every program has it: it explains nothing
    assert 1.7 < boosts[RARE] <= 2.0
    config = bias.config()
    assert config.weight(RARE) == pytest.approx(GenerationConfig().weight(RARE) * boosts[RARE], rel=1e-3)
    assert config.weight(COMMON) == GenerationConfig().weight(COMMON)


def test_new_break_reasons_and_counts_beyond_the_range_seen_are_interesting_once():
    bias = Bias(warmup=2)
    assert bias.observe({RARE}, stats(graphs=1, reasons=["a"])) == [NEW_BREAK_REASON]
    assert bias.observe({RARE}, stats(graphs=5, reasons=["a"])) == []  # still warming up: 5 is not unusual yet
    assert bias.observe({RARE}, stats(graphs=3, reasons=["a"])) == []  # inside the range seen
    assert bias.observe({RARE}, stats(graphs=9, reasons=["a"])) == [UNUSUAL_COUNT]
    assert bias.observe({RARE}, stats(graphs=9, reasons=["a", "b"])) == [NEW_BREAK_REASON]
    assert dict(bias.events) == {NEW_BREAK_REASON: 2, UNUSUAL_COUNT: 1}


def test_boosts_are_capped_and_decay_back_to_the_catalog_weights():
    bias = Bias(cap=4.0, decay=0.9, warmup=0)
    bias.observe({COMMON}, stats())
    for _ in range(20):
        bias.observe({RARE}, stats(), new_buckets=1)
    assert bias.boosts()[RARE] <= 4.0
    for _ in range(200):
        bias.observe({COMMON}, stats())
    assert bias.boosts() == {} and bias.config() == bias.base


def test_state_round_trips_through_json():
    bias = Bias(warmup=0)
    bias.observe({COMMON}, stats(graphs=2, reasons=["x"]))
    bias.observe({RARE, COMMON}, stats(graphs=4), new_buckets=1)
    again = Bias(warmup=0)
    again.load_json(json.loads(json.dumps(bias.to_json())))
    assert again.to_json() == bias.to_json()
    assert again.observe({RARE}, stats(graphs=4, reasons=["x"])) == []  # nothing new to the restored state


def test_boosted_weights_change_what_the_generator_draws():
    boosted = GenerationConfig({RARE: GenerationConfig().weight(RARE) * 8})
    base_hits = sum(RARE in generate_program(0, i).features for i in range(150))
    boosted_hits = sum(RARE in generate_program(0, i, boosted).features for i in range(150))
    assert boosted_hits > 2 * max(base_hits, 1), (base_hits, boosted_hits)
    program = generate_program(0, 7, boosted)
    header = weights_header(program.config)
    assert header == f"{RARE}=4.8"
    # the header is enough to regenerate the same bytes
    weights = dict(kv.split("=") for kv in header.split())
    again = generate_program(0, 7, GenerationConfig({k: float(v) for k, v in weights.items()}))
    assert again.source == program.source


class FakeRunner:
    """A finding on program 3 only; stats with a break reason per program index parity."""

    def __init__(self):
        self.calls = 0

    def check(self, source, targets):
        index = int(source.split("(program ")[1].split(")")[0])
        bad = index == 3
        verdict = Verdict("mismatch", "value", "mismatch:value:values", "x") if bad else Verdict("ok", "", "ok")
        return ProgramReport({"torch": verdict}, False, stats(graphs=1, reasons=[f"r{index % 2}"]))


def test_a_biased_campaign_feeds_back_records_why_and_resumes(tmp_path):
    configs = []

    def generate(seed, index, config=None):
        configs.append((index, config))
        return generate_program(seed, index, config)

    config = CampaignConfig(("torch",), tmp_path, programs=8, seed=4, bias=True)
    summary = Campaign(config, FakeRunner(), generate=generate).run()
    assert summary["bias"]["events"] == {NEW_BREAK_REASON: 2, NEW_BUCKET: 1}
    assert summary["break_reasons"] == {"torch: r0": 4, "torch: r1": 4}
    assert sum(summary["families"].values()) >= 8 and max(summary["families"].values()) == 8
    after_finding = [c for i, c in configs if i > 3]
    assert all(c is not None and c.weights for c in after_finding)  # the finding's tags are boosted from then on
    [bucket] = summary["buckets"]
    header = header_fields((tmp_path / bucket["repro"]).read_text())
    assert header["found-by"] == "ngb-fuzz run --seed 4 --bias (program 3)"

    state = json.loads((tmp_path / "state.json").read_text())
    assert state["bias"]["multipliers"] and state["identity"]["bias"] is True
    resumed = Campaign(CampaignConfig(("torch",), tmp_path, programs=8, seed=4, bias=True), FakeRunner(),
                       generate=generate)
    assert resumed.bias.to_json() == state["bias"]
    with pytest.raises(CampaignError):  # the same directory without --bias is another campaign
        Campaign(CampaignConfig(("torch",), tmp_path, programs=8, seed=4), FakeRunner(), generate=generate)


def test_the_live_view_shows_feature_coverage_and_boosts(tmp_path):
    from rich.console import Console

    from fuzz.cli._run import _Progress

    config = CampaignConfig(("torch",), tmp_path, programs=6, seed=4, bias=True)
    campaign = Campaign(config, FakeRunner())
    campaign.run()
    console = Console(record=True, width=140)
    console.print(_Progress(config)._table(campaign))
    text = console.export_text()
    assert "features generated" in text
    call_row = next(line for line in text.splitlines() if line.lstrip().startswith("call "))
    assert "100.0%" in call_row  # every program has a call structure
    booster, factor = next(iter(campaign.bias.boosts().items()))
    assert f"{booster.split('.', 1)[1]}x{factor:.1f}" in text


def test_repeating_an_open_bucket_lowers_the_weights_that_led_there():
    bias = Bias(cap=4.0, warmup=0)
    bias.observe({COMMON}, stats())
    assert bias.observe({COMMON, RARE}, stats(), repeats=1) == [REPEAT]
    assert bias.boosts()[RARE] < 1 and COMMON not in bias.boosts()
    for _ in range(50):
        bias.observe({COMMON, RARE}, stats(), repeats=1)
    assert bias.boosts()[RARE] >= 1 / 4.0
    assert bias.config().weight(RARE) < GenerationConfig().weight(RARE)
    # a new finding outweighs the repeats: the program is interesting again
    assert bias.observe({COMMON, RARE}, stats(), new_buckets=1, repeats=2) == [NEW_BUCKET]

