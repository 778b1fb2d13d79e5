"""The trigger rule's need of nested graph breaks (fuzz/triage/trigger.py, rule 6): a finding is like a corpus
bug only when both show with them off, or neither, unless the target took a graph break running neither; and
how the breaks are counted. Unit tests on the scripted checks of tests/triage/test_trigger.py."""

from __future__ import annotations

from fuzz.triage.trigger import EAGER, Form, Triggers
from tests.triage.test_trigger import FORMAT_BUG, FORMAT_FORM, _scripted


def test_the_need_of_nested_graph_breaks_must_match():
    # the finding shows with NGB off too; the bug does not: not like it
    check = _scripted({"'08b'": "format", "'b'": "format"}, shows_off={"'b'"})
    assert Triggers([FORMAT_BUG], check).like(FORMAT_FORM, "mismatch:value:value", "torch") == ([], [])
    # on a target with NGB off already there is nothing to turn off: not asked
    check = _scripted({"'08b'": "format", "'b'": "format"}, shows_off={"'b'", "'08b'"})
    assert Triggers([FORMAT_BUG], check).like(FORMAT_FORM, "mismatch:value:value", "torch:ngb=off")[0] == ["fmt.py"]


def test_the_need_of_nested_graph_breaks_is_compared_unless_neither_took_a_break():
    # a 2.13 campaign's form of the lost generator return value had no break and failed with NGB off too, where
    # the bug's repros take no break with them on and pass with them off (their break sends the generator to
    # eager): that need said where the break is, not what the bug is
    check = _scripted({"'08b'": "format", "'b'": "format"}, shows_off={"'b'"})
    taken = {"'08b'": 1, "'b'": 1}

    def breaks(source, target):
        return next(n for marker, n in taken.items() if marker in source)

    assert Triggers([FORMAT_BUG], check, breaks).like(FORMAT_FORM, "mismatch:value:value", "torch") == ([], [])
    for marker in taken:  # one took none: the other's need is compared still
        taken[marker] = 0
        assert Triggers([FORMAT_BUG], check, breaks).like(FORMAT_FORM, "mismatch:value:value", "torch") == ([], [])
        taken[marker] = 1
    taken.update({"'08b'": 0, "'b'": 0})  # neither took one: their needs say nothing of the bug
    assert Triggers([FORMAT_BUG], check, breaks).like(FORMAT_FORM, "mismatch:value:value", "torch")[0] == ["fmt.py"]
    taken["'b'"] = None  # not known: compared
    assert Triggers([FORMAT_BUG], check, breaks).like(FORMAT_FORM, "mismatch:value:value", "torch") == ([], [])


def test_breaks_a_check_already_counted_are_not_counted_again():
    # a campaign's reduction re-checked the finding and saw its breaks: the rule takes them from there
    check = _scripted({"'08b'": "format", "'b'": "format"}, shows_off={"'b'"})
    counted: list[str] = []

    def breaks(source, target):
        counted.append(source)
        return 0

    rule = Triggers([FORMAT_BUG], check, breaks)
    assert rule.like(FORMAT_FORM, "mismatch:value:value", "torch", breaks=0)[0] == ["fmt.py"]  # neither broke
    assert counted == [FORMAT_BUG.source]  # the form's own, once
    # the finding broke (said, not counted): needs compared, and they differ
    assert rule.like(FORMAT_FORM, "mismatch:value:value", "torch", breaks=2) == ([], [])
    assert FORMAT_FORM not in counted


def test_a_hang_s_need_of_nested_graph_breaks_is_compared_without_running_it_again():
    hang = Form("slow.py", "slow.py", "slow:compile", FORMAT_BUG.source)

    def check(source, target):
        if target.endswith("ngb=off"):
            return "ok" if "'08b'" in source else "slow:compile"  # the finding shows with NGB off: unlike
        return "ok" if EAGER in source else "slow:compile"

    def breaks(source, target):
        raise AssertionError("a hang's run is minutes of timeouts: not run to count its breaks")

    assert Triggers([hang], check, breaks).like(FORMAT_FORM, "slow:compile", "torch") == ([], [])


def test_the_rule_on_a_runner_counts_the_breaks_of_each_run():
    class Report:
        def __init__(self, signature, breaks):
            self.verdicts = {"torch": type("V", (), {"signature": signature})()}
            self.stats = {"torch": {"breaks": breaks}}

    class Runner:
        runs = 0

        def check(self, source, specs):
            Runner.runs += 1
            found = "mismatch:value:value" if EAGER not in source and "torch:ngb=off" not in specs else "ok"
            return Report(found, source.count("graph_break"))

    rule = Triggers.on_runner([FORMAT_BUG], Runner())
    assert rule._check(FORMAT_FORM, "torch") == "mismatch:value:value" and Runner.runs == 1
    assert rule._breaks(FORMAT_FORM, "torch") == 0 and Runner.runs == 1  # from that check: not run again
    broken = FORMAT_FORM.replace("    y = x + 1", "    torch._dynamo.graph_break()\n    y = x + 1")
    assert rule._breaks(broken, "torch") == 1 and Runner.runs == 2
