"""Why target runs were skipped is kept with the campaign (journal, state, summary) and said in its closing line:
a user reading ``skip=2`` learns whether programs were too slow to compile, or did not load."""

from fuzz.campaign.loop import Campaign
from fuzz.cli._run import _print_summary
from oracle._verdict import ProgramReport, Verdict
from tests.campaign.test_state import ScriptedRunner, config, generate


class SkippingRunner(ScriptedRunner):
    """As ScriptedRunner, but program i with i % 4 == 3 is too slow on torch, and program 0 does not load."""

    def check(self, source, targets):
        report = super().check(source, targets)
        index = int(source.split("# program ")[1].split("\n")[0]) if "# program " in source else -1
        verdicts = dict(report.verdicts)
        if index % 4 == 3:
            verdicts["torch"] = Verdict("skip", "", "skip:too-slow", "no result either way")
        elif index == 0:
            verdicts = {t: Verdict("skip", "", "skip:invalid-program", "does not load") for t in targets}
        return ProgramReport(verdicts, False, report.stats)


def test_skip_reasons_survive_a_resume_and_are_named_in_the_closing_line(tmp_path, capsys):
    whole = Campaign(config(tmp_path / "whole", programs=12), SkippingRunner(), generate=generate).run()
    for budget in (5, 12):
        stepped = Campaign(config(tmp_path / "steps", programs=budget), SkippingRunner(), generate=generate).run()
    assert whole["skips"] == stepped["skips"] == {"skip:too-slow": 3, "skip:invalid-program": 2}
    assert whole["verdicts"]["skip"] == 5
    _print_summary(stepped, tmp_path / "steps", "done")
    line = capsys.readouterr().out.splitlines()[0]
    assert "skip=5 (too-slow 3, invalid-program 2)" in line, line
