"""The driver's rounds: polish passes wait while a round's removing passes still take much off."""

from __future__ import annotations

import re

from fuzz.reduce import PASSES, ReductionPass, reduce_source
from fuzz.reduce._driver import POLISH_WHILE
from fuzz.reduce._tree import Program
from tests.reduce.helpers import raises_zero_division

SOURCE = ("def entry(x):\n" + "".join(f"    pad{k} = {k}\n" for k in range(6))
          + "".join(f"    junk{k} = {k}\n" for k in range(6))
          + "    return x / 0\n\ndef make_inputs(device):\n    return (1,)\n")


def _reduce(polish: bool) -> tuple[list[str], object]:
    checked: list[str] = []

    def pads(prog):  # removes: every pad in one candidate
        yield lambda: Program.parse(re.sub(r"    pad\d = \d\n", "", prog.source))

    def fruitless(prog):  # rewrites: candidates of the same size, none interesting (a NameError)
        for name in "abc":
            yield lambda name=name: Program.parse(prog.source.replace("x / 0", f"x / {name}"))

    def junk(prog):  # removes: every junk line in one candidate, after the rewriting pass in the order
        yield lambda: Program.parse(re.sub(r"    junk\d = \d\n", "", prog.source))

    def predicate(candidate: str) -> bool:
        checked.append(candidate)
        return raises_zero_division(candidate)

    passes = [ReductionPass("pads", pads, ""), ReductionPass("fruitless", fruitless, "", polish=polish),
              ReductionPass("junk", junk, "")]
    return checked, reduce_source(SOURCE, predicate, passes=passes, check_original=False)


def test_a_polish_pass_waits_for_a_round_that_takes_little_off():
    checked, result = _reduce(polish=True)
    rewrites = [c for c in checked if "x / 0" not in c]
    assert len(rewrites) == 3  # run once, on the program the removing passes left: a fixpoint is one
    assert all("junk" not in c and "pad" not in c for c in rewrites)
    assert "junk" not in result.source and "pad" not in result.source and result.stopped == "fixpoint"


def test_a_pass_not_marked_polish_runs_in_its_place_in_every_round():
    checked, result = _reduce(polish=False)
    rewrites = [c for c in checked if "x / 0" not in c]
    assert any("junk" in c for c in rewrites)  # checked before the junk went, in the first round
    assert "junk" not in result.source and result.stopped == "fixpoint"


def test_the_polish_passes_are_those_that_rewrite_and_come_late():
    polish = [p.name for p in PASSES if p.polish]
    assert set(polish) == {"simplify-expressions", "merge-variables", "shrink-tensors", "rename"}
    assert 0 < POLISH_WHILE < 0.5
