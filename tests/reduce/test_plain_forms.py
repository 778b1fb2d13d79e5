"""The passes that spell generated constructs as a reader would: fold-constants, shrink-loops. In-process predicates (no oracle, no torch): the expected program out, and the cases where a
pass must not apply because eager would run something else."""

from __future__ import annotations

import types

from fuzz.reduce import PASSES, reduce_source
from fuzz.reduce._tree import Program

HEAD = "EFFECTS = []\n\n\n"
TAIL = "\n\ndef make_inputs(device):\n    return (2,)\n"


def _run(source: str):
    module = types.ModuleType("candidate")
    try:
        exec(compile(source, "candidate", "exec"), module.__dict__)
        return module.entry(*module.make_inputs("cpu")), module.EFFECTS
    except Exception as exc:  # noqa: BLE001 - the outcome is what the predicate looks at
        return type(exc), module.EFFECTS


def _same_as(source: str):
    expected = _run(source)
    return lambda candidate: _run(candidate) == expected


def _one_pass(name: str, source: str, predicate=None):
    chosen = [p for p in PASSES if p.name == name]
    assert chosen, name
    return reduce_source(source, predicate or _same_as(source), passes=chosen).source


def _candidates(name: str, source: str) -> list[str]:
    (chosen,) = [p for p in PASSES if p.name == name]
    return [c.source for c in (edit() for edit in chosen.edits(Program.parse(source))) if c is not None]


def _entry(source: str) -> str:
    return source.split("def entry(x):\n")[1].split("\n\n")[0]


# ---- fold-constants -------------------------------------------------------------------------------------------


def test_pure_expressions_of_literals_fold_and_their_import_goes():
    source = "import math\nimport zlib\n" + HEAD + '''def entry(x):
    x = x + zlib.crc32(b'f6.24') % 7 * 0.01
    return x * math.sqrt(4.0) + len('ab') + (1, 2)[0] - ('ab'.upper() == 'AB')
''' + TAIL
    out = _one_pass("fold-constants", source)
    assert "import" not in out
    assert _entry(out) == "    x = x + 0.03\n    return x * 2.0 + 2 + 1 - True"


def test_nothing_impure_shadowed_or_huge_is_folded():
    source = "import random\nimport zlib\n" + HEAD + '''def entry(x):
    len = lambda s: 0
    x = x + random.random() * 0 + len('ab') + zlib.crc32(str(x).encode()) % 1
    return x + 2 ** 100000 + id(3) * 0 + abs(-2)
''' + TAIL
    out = _one_pass("fold-constants", source)
    assert _entry(out) == _entry(source).replace("abs(-2)", "2")  # the builtin that is not shadowed, only


def test_a_fold_is_kept_only_where_the_bug_survives_it():
    source = HEAD + "def entry(x):\n    return x / (abs(-3) - 3) + len('abc')\n" + TAIL
    out = _one_pass("fold-constants", source, lambda s: "abs" in s and _run(s)[0] is ZeroDivisionError)
    assert _entry(out) == "    return x / (abs(-3) - 3) + 3"


# ---- shrink-loops ---------------------------------------------------------------------------------------------

LOOP = HEAD + '''def entry(x):
    for k in range(1, 7, 2):
        EFFECTS.append(k)
        x = x * 2
    return x
''' + TAIL


def test_a_loop_is_unrolled_to_its_first_iteration_with_its_variable_bound():
    out = _one_pass("shrink-loops", LOOP, lambda s: _run(s)[1][:1] == [1])
    assert _entry(out) == "    k = 1\n    EFFECTS.append(k)\n    x = x * 2\n    return x"


def test_a_loop_that_needs_two_iterations_runs_twice():
    out = _one_pass("shrink-loops", LOOP, lambda s: _run(s)[1][:2] == [1, 3])
    assert "for k in range(1, 5, 2):" in out
    assert _run(out) == (8, [1, 3])


def test_a_loop_that_breaks_is_not_unrolled_but_may_run_twice():
    source = LOOP.replace("x = x * 2", "if x > 100:\n            break")
    candidates = _candidates("shrink-loops", source)
    assert len(candidates) == 1 and "range(1, 5, 2)" in candidates[0]
