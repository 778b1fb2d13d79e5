"""The passes that spell generated constructs as a reader would: fold-constants, shrink-loops, inline-wrappers and
plain-parameters. In-process predicates (no oracle, no torch): the expected program out, and the cases where a
pass must not apply because eager would run something else."""

from __future__ import annotations

import types

from fuzz.reduce import PASSES, reduce_source
from tests.reduce.helpers import HEAD, TAIL, pass_candidates


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


def test_a_method_a_constant_lacks_or_one_that_fails_or_makes_something_huge_is_not_folded():
    # an earlier candidate folded a name to 0.25 where the program called its method: ``0.25.mix()`` raised
    # AttributeError out of the pass, and the campaign reducing it stopped
    source = HEAD + """def entry(x):
    a = 0.25.mix()
    b = 'a'.encode('no-such-codec') + 'a'.ljust(10 ** 9)
    return x + len('ab'.upper())
""" + TAIL
    folded = pass_candidates("fold-constants", source)[0]  # every fold at once
    assert _entry(folded) == _entry(source).replace("10 ** 9", "1000000000").replace("len('ab'.upper())", "2")


def test_a_helper_modules_import_is_its_own():
    source = "import types\n" + HEAD + '''_h = types.ModuleType("ngb_h")
exec(compile(\'\'\'
import zlib
def scaled(x):
    return x + zlib.crc32(b'a') % 3
\'\'\', "ngb_h", "exec"), _h.__dict__)


def entry(x):
    return _h.scaled(x) + zlib.crc32(b'b') % 5
''' + TAIL
    (folded,) = pass_candidates("fold-constants", source)  # main never imported zlib: its call is not folded
    assert "return x + 0\n" in folded and "zlib.crc32(b'b') % 5" in folded


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
    candidates = pass_candidates("shrink-loops", source)
    assert len(candidates) == 1 and "range(1, 5, 2)" in candidates[0]


# ---- inline-wrappers ------------------------------------------------------------------------------------------

WRAPPERS = HEAD + '''def f2(x):
    EFFECTS.append(1)
    return x + 1


def f3(x):
    x = f2(x)
    return x


f7 = lambda x, y: 0.5 * f3(x) * y


def entry(x):
    for z in range(3):
        x = f3(x)
    return (lambda a: f7(a, 2) + a)(x)
''' + TAIL


def test_a_wrapper_is_inlined_at_every_call_and_a_called_lambda_becomes_its_body():
    out = _one_pass("inline-wrappers", WRAPPERS)
    assert "def f3" not in out and "f7" not in out and "lambda" not in out
    assert _entry(out) == "    for z in range(3):\n        x = f2(x)\n    return 0.5 * f2(x) * 2 + x"


def test_an_argument_is_not_moved_past_something_eager_evaluates_before_it():
    source = HEAD + '''def g():
    EFFECTS.append('g')
    return 2


def f7(x, y):
    return g() + y


def entry(x):
    return f7(x, x * 2) + f7(x, x) + (lambda a, b: b + a)(g(), g())
''' + TAIL
    # y = x * 2 would be evaluated after g(); the lambda's arguments would swap their order
    assert pass_candidates("inline-wrappers", source) == []
    shadowed = source.replace("return f7(x, x * 2) + f7(x, x)", "g = 1\n    return f7(x, x)")
    assert not any("def f7" not in c for c in pass_candidates("inline-wrappers", shadowed))
    in_comprehension = source.replace("\n\ndef entry(x):", "\n\nVALUES = [f7(1, 2) for g in [1]]\n\n\ndef entry(x):")
    in_comprehension = in_comprehension.replace(
        "return f7(x, x * 2) + f7(x, x) + (lambda a, b: b + a)(g(), g())", "return f7(x, x)")
    assert not any("def f7" not in c for c in pass_candidates("inline-wrappers", in_comprehension))


# ---- plain-parameters -----------------------------------------------------------------------------------------


def test_kwargs_read_by_key_become_parameters_and_keyword_calls_positional():
    source = HEAD + '''def f4(a, **y):
    x = y['x']
    for z in range(2):
        x = x + y['w'] * a
    return x


def entry(x):
    return f4(1, x=x, w=2) + f4(a=2, w=3, x=x)
''' + TAIL
    out = _one_pass("plain-parameters", source)
    assert "def f4(a, x, w):\n    for z in range(2):\n        x = x + w * a\n    return x" in out
    assert _entry(out) == "    return f4(1, x, 2) + f4(2, x, 3)"


def test_kwargs_stay_when_a_key_is_missing_or_its_name_is_bound_before():
    source = HEAD + '''def f4(**y):
    x = 1
    x = y['x']
    return x


def entry(x):
    return f4(x=x)
''' + TAIL
    assert pass_candidates("plain-parameters", source) == []
    missing = source.replace("    x = 1\n", "").replace("f4(x=x)", "f4(w=x)")
    assert pass_candidates("plain-parameters", missing) == []


def test_kwargs_of_a_function_decorated_only_with_a_context_manager_become_parameters():
    # a torch grad-mode decorator passes the call's arguments through: the parameters are the calls' own
    source = "import torch\n" + HEAD + '''@torch.no_grad()
def f1(**y):
    return y['x'] * 2


def entry(x):
    return f1(x=x)
''' + TAIL
    out = _one_pass("plain-parameters", source)
    assert "@torch.no_grad()\ndef f1(x):\n    return x * 2" in out and _entry(out) == "    return f1(x)"
    for other in ("@torch._dynamo.disable()", "@functools.wraps(len)"):  # may read or change the arguments
        assert pass_candidates("plain-parameters", source.replace("@torch.no_grad()", other)) == []


def test_varargs_read_by_index_become_parameters():
    source = HEAD + '''def f1(a, *x):
    y = x[0]
    return a + y * x[2]


def entry(x):
    return f1(1, x, 5, 3) + f1(2, 1, 2, x)
''' + TAIL
    out = _one_pass("plain-parameters", source)
    assert "def f1(a, y, x1, x2):\n    return a + y * x2" in out and _entry(out) == _entry(source)
    # calls packing different counts, or an index no call reaches: left alone
    for changed in (source.replace("f1(2, 1, 2, x)", "f1(2, 1, 2, x, 4)"), source.replace("x[2]", "x[3]")):
        assert pass_candidates("plain-parameters", changed) == []
