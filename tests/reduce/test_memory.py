"""A reduction going on from where an earlier one of the same bug stopped (a campaign's next round) does not check
again the candidates that one found not interesting (``reduce_source``'s ``rejected``)."""

from __future__ import annotations

from fuzz.reduce import reduce_source
from tests.reduce.test_reduce import PROGRAM


def _counting(calls: list[str]):
    from tests.reduce.helpers import raises_zero_division

    def predicate(source: str) -> bool:
        calls.append(source)
        return raises_zero_division(source)

    return predicate


def test_a_reduction_gone_on_with_skips_what_the_last_one_rejected():
    rejected: set = set()
    first_calls: list[str] = []
    first = reduce_source(PROGRAM, _counting(first_calls), check_original=False, rejected=rejected)
    assert first.stopped == "fixpoint" and first.lines < first.original_lines
    assert len(rejected) == len(first_calls) - sum(p.successes for p in first.passes)  # every check not kept

    again_calls: list[str] = []
    again = reduce_source(first.source, _counting(again_calls), check_original=False, rejected=rejected)
    assert again_calls == []  # its fixpoint round checked every candidate of this very program
    assert again.source == first.source and again.cache_hits > 0

    fresh_calls: list[str] = []
    fresh = reduce_source(first.source, _counting(fresh_calls), check_original=False)
    assert len(fresh_calls) > 0 and fresh.source == first.source  # without it: every one checked again


def test_with_checks_in_flight_only_candidates_not_interesting_are_rejected():
    from fuzz.reduce._tree import Program
    from tests.reduce.helpers import raises_zero_division

    interesting: list[str] = []
    not_interesting: list[str] = []

    def predicate(source: str) -> bool:
        kept = raises_zero_division(source)
        (interesting if kept else not_interesting).append(Program.parse(source).key)
        return kept

    rejected: set = set()
    result = reduce_source(PROGRAM, predicate, check_original=False, workers=3, rejected=rejected)
    assert result.stopped == "fixpoint" and interesting and not_interesting
    assert not rejected & set(interesting)
    # a check in flight when an earlier candidate won is not decided: it is left out, never wrongly recorded
    assert rejected <= set(not_interesting)
    assert len(rejected) >= len(set(not_interesting)) // 2
