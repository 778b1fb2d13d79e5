"""strip-observations: effect-log and data-global writes removed in one check. In-process predicates."""

from __future__ import annotations

from fuzz.reduce import PASSES, reduce_source

SOURCE = '''EFFECTS = []
LOG = []
TABLE = {}


def _effect(tag, value):
    EFFECTS.append((tag, value))


def f1(x):
    _effect("f1.1", x)
    LOG.append(x)
    TABLE["f1"] = x
    return x / 0


def entry(x):
    EFFECTS.append(("entry", x))
    _effect("entry.2", x)
    return f1(x)


def make_inputs(device):
    return (2,)
'''


def _outcome(source: str):
    namespace: dict = {}
    exec(compile(source, "candidate", "exec"), namespace)
    try:
        namespace["entry"](*namespace["make_inputs"]("cpu"))
    except ZeroDivisionError:
        return "raised", namespace["EFFECTS"], namespace["LOG"]
    return "returned", namespace["EFFECTS"], namespace["LOG"]


def _strip(predicate):
    checked: list[str] = []

    def counted(source: str) -> bool:
        checked.append(source)
        return predicate(source)

    result = reduce_source(SOURCE, counted, passes=[p for p in PASSES if p.name == "strip-observations"])
    return result.source, len(checked) - 1  # the original's check aside


def test_a_crash_loses_every_observation_and_data_write_in_two_checks():
    source, checks = _strip(lambda s: _outcome(s)[0] == "raised")
    assert "_effect" not in source and "EFFECTS.append" not in source
    assert "LOG.append" not in source and "TABLE[" not in source
    assert "EFFECTS = []" in source and "LOG = []" in source  # the data itself stays: the oracle reads it
    assert checks == 2


def test_writes_the_bug_is_seen_through_stay():
    source, _ = _strip(lambda s: _outcome(s)[2] == [2])  # the bug is seen in LOG
    assert "LOG.append(x)" in source and "_effect" not in source and "EFFECTS.append" not in source
    source, _ = _strip(lambda s: len(_outcome(s)[1]) == 3)  # ... in the effect log
    assert source.count("_effect(") == 3 and "EFFECTS.append((tag, value))" in source
