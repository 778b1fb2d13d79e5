"""canonical-forms: reductions of one bug end at one program. In-process predicates (no oracle, no torch)."""

from __future__ import annotations

import ast

from fuzz.reduce import PASSES, reduce_source
from tests.reduce.helpers import HEAD, TAIL, pass_candidates


def _divides_by_zero(source: str) -> bool:
    namespace: dict = {}
    try:
        exec(compile(source, "candidate", "exec"), namespace)
        namespace["entry"](*namespace["make_inputs"]("cpu"))
    except ZeroDivisionError:
        return True
    except Exception:  # noqa: BLE001 - any other outcome is not the bug
        return False
    return False


# Two spellings of one bug, as two reductions left them: a display around the call, a store nothing reads.
DISPLAY = HEAD + '''def f1(x):
    y = x + 1
    return y / 0


def entry(x):
    z = [f1(x)]
''' + TAIL

STORE = HEAD + '''def entry(x):
    def f1():
        y = x + 1
        return y / 0
    z = f1()
''' + TAIL


def test_two_spellings_of_one_bug_reduce_to_one_program():
    passes = [p for p in PASSES if p.name in ("canonical-forms", "inline-calls", "inline-variables")]
    results = {reduce_source(s, _divides_by_zero, passes=passes).source for s in (DISPLAY, STORE)}
    assert results == {HEAD + "def entry(x):\n    (x + 1) / 0\n" + TAIL}


def test_a_store_read_by_a_nested_function_stays():
    source = HEAD + '''def entry(x):
    z = x + 1

    def f1():
        return z / 0
    return f1()
''' + TAIL
    assert not [c for c in pass_candidates("canonical-forms", source) if "z = x + 1" not in c]


def test_a_store_declared_global_stays():
    source = HEAD + '''Z = 0


def entry(x):
    global Z
    Z = x + 1
''' + TAIL
    assert not [c for c in pass_candidates("canonical-forms", source) if "Z = x + 1" not in c]


def test_step_breaks_become_graph_breaks_all_at_once_then_one_by_one():
    source = "import torch\n" + HEAD + '''def entry(x):
    torch._dynamo.step_unsupported()
    x = x + 1
    torch._dynamo.step_unsupported()
    return x
''' + TAIL
    every, first, second = pass_candidates("canonical-forms", source)[:3]
    assert "step_unsupported" not in every and every.count("torch._dynamo.graph_break()") == 2
    assert first.count("graph_break") == second.count("graph_break") == 1 and first != second


def test_a_step_break_the_bug_needs_stays():
    source = "import torch\n" + HEAD + '''def entry(x):
    torch._dynamo.step_unsupported()
    return x
''' + TAIL
    result = reduce_source(source, lambda s: "step_unsupported" in s,
                           passes=[p for p in PASSES if p.name == "canonical-forms"])
    assert "torch._dynamo.step_unsupported()" in result.source


def test_a_store_read_later_or_in_a_loop_stays_and_a_last_store_goes():
    source = HEAD + '''def entry(x):
    y = x + 1
    for k in range(2):
        z = y * k
    x = z / 0
''' + TAIL
    rewritten = [c for c in pass_candidates("canonical-forms", source)]
    assert any("\n    (z / 0)\n" in c or "\n    z / 0\n" in c for c in rewritten)  # x is not read after its store
    assert not [c for c in rewritten if "y = x + 1" not in c or "z = y * k" not in c]


def test_a_statement_that_can_only_break_becomes_graph_break_and_the_disabled_helper_goes():
    source = "import torch\n" + HEAD + '''@torch._dynamo.disable
def _helper():
    pass


def entry(x):
    _helper()
    for z in x:
        if z:
            pass
    x.item()

    class C1:
        pass
    for z in x:
        EFFECTS.append(z)
    return x
''' + TAIL
    result = reduce_source(source, lambda s: "EFFECTS.append(z)" in s,
                           passes=[p for p in PASSES if p.name == "canonical-forms"])
    body = result.source.split("def entry(x):\n")[1].split("\n\n")[0]
    # the loop that appends is not inert: it stays; the disabled call, the data-dependent loop and the
    # value read out and thrown away and the empty local class are breaks
    assert body == ("    torch._dynamo.graph_break()\n" * 4 + "    for z in x:\n        EFFECTS.append(z)\n    return x")
    assert "_helper" not in result.source


def test_statements_that_compile_to_nothing_go_with_any_kept_edit():
    source = HEAD + '''def f1(y):
    return y / 0


def entry(x):
    """doc"""
    y = x + 1
    pass
    None
    if y:
        pass
    return f1(y)
''' + TAIL
    # inline-calls never deletes a statement itself: the clean-up riding along with its edit does
    result = reduce_source(source, _divides_by_zero, passes=[p for p in PASSES if p.name == "inline-calls"])
    body = result.source.split("def entry(x):\n")[1].split("\n\n")[0]
    assert body == '    """doc"""\n    y = x + 1\n    if y:\n        pass\n    return y / 0'


def test_nested_with_blocks_become_one():
    source = "import contextlib\n" + HEAD + '''def entry(x):
    with contextlib.nullcontext():
        with contextlib.nullcontext(), contextlib.suppress(KeyError):
            x = x / 0
    with contextlib.nullcontext():
        y = 1
        with contextlib.nullcontext():
            y = 2
    return x + y
''' + TAIL
    (merged,) = pass_candidates("canonical-forms", source)  # the second outer with has more than the inner one in its body
    assert ("    with contextlib.nullcontext(), contextlib.nullcontext(), contextlib.suppress(KeyError):\n"
            "        x = x / 0\n") in merged
    assert _divides_by_zero(merged)


def test_a_data_dependent_branch_on_a_tensor_made_from_literals_is_a_break():
    # what local-inputs leaves of ``if x.sum(): pass`` once x is made in entry: inert, it only breaks the graph
    source = HEAD + "def entry():\n    if torch.ones(2).sum() > 0:\n        pass\n    return 1\n"
    assert any("    torch._dynamo.graph_break()\n    return 1" in c
               for c in pass_candidates("canonical-forms", "import torch\n" + source))
    kept = HEAD + "def entry():\n    if torch.ones(2).add_(1).sum():\n        pass\n    return 1\n"  # add_ does work
    assert not any("graph_break" in c for c in pass_candidates("canonical-forms", "import torch\n" + kept))


def test_a_data_dependent_branch_on_a_reduction_of_a_variable_is_a_break():
    # a torch 2.15 grad-leak repro ended with ``z = torch.ones(0)`` ... ``if z.sum(): pass`` as its break
    source = HEAD + "def entry(z):\n    if z.sum():\n        pass\n    return 1\n"
    assert any("    torch._dynamo.graph_break()\n    return 1" in c
               for c in pass_candidates("canonical-forms", "import torch\n" + source))
    kept = HEAD + "def entry(z):\n    if z.sum(1, keepdim=f(z)):\n        pass\n    return 1\n"  # calls f
    assert not any("graph_break" in c for c in pass_candidates("canonical-forms", "import torch\n" + kept))


def test_an_if_with_an_empty_branch_loses_it():
    # the generator's every-other-call gate, once its first branch is reduced to nothing
    source = HEAD + '''N = 0


def entry(x):
    global N
    N = N + 1
    if N % 2:
        pass
    else:
        x = x / 0
    if not x:
        pass
    else:
        pass
    if x > 1:
        x = x + 1
    else:
        pass
    return x
''' + TAIL
    candidates = pass_candidates("canonical-forms", source)
    (negated,) = [c for c in candidates if "if not N % 2:" in c]
    assert "    if not N % 2:\n        x = x / 0\n    if not x:" in negated
    assert [c for c in candidates if "    if x > 1:\n        x = x + 1\n    return x\n" in c]
    # the if with two empty branches is not folded here (the passes that delete statements take it whole)
    assert not [c for c in candidates if "    if x:\n" in c or "if not not" in c]
    # the same program: the second call divides by zero in both
    for candidate in (source, negated):
        namespace: dict = {}
        exec(compile(candidate, "candidate", "exec"), namespace)
        assert namespace["entry"](2) == 3
        try:
            namespace["entry"](2)
        except ZeroDivisionError:
            pass
        else:
            raise AssertionError("the second call did not divide by zero")
    # ``if not c: pass / else: body`` becomes ``if c: body``, not ``if not not c``
    double = HEAD + "def entry(x):\n    if not x:\n        pass\n    else:\n        x = x / 0\n    return x\n" + TAIL
    assert [c for c in pass_candidates("canonical-forms", double) if "    if x:\n        x = x / 0\n" in c]


def test_a_tensor_made_and_thrown_away_ends_its_function_wherever_a_reduction_left_it():
    early = "import torch\n" + HEAD + '''def entry(x):
    torch.ones(1)
    y = x + 1
    y / 0
''' + TAIL
    late = early.replace("    torch.ones(1)\n    y = x + 1\n    y / 0\n", "    y = x + 1\n    y / 0\n    torch.ones(1)\n")
    passes = [p for p in PASSES if p.name == "canonical-forms"]
    results = {ast.unparse(ast.parse(reduce_source(s, _divides_by_zero, passes=passes).source)) for s in (early, late)}
    (result,) = results  # one program, however the reduction found it
    assert "    y / 0\n    torch.ones(1)" in result
    # before a final return, and only in the function's own body
    source = "import torch\n" + HEAD + '''def entry(x):
    torch.zeros(2)
    if x > 0:
        torch.ones(1)
        x = x + 1
    return x / 0
''' + TAIL
    (moved,) = pass_candidates("canonical-forms", source)
    assert "        x = x + 1\n    torch.zeros(2)\n    return x / 0\n" in moved


def test_arithmetic_thrown_away_becomes_a_tensor_made_from_literals():
    source = "import torch\n" + HEAD + '''def entry(x):
    y = x + 1
    x * 1.0
    -y
    y
    y / 0
''' + TAIL
    candidates = pass_candidates("canonical-forms", source)
    assert sum("    torch.ones(1)\n    -y\n" in c for c in candidates) == 1
    assert sum("    x * 1.0\n    torch.ones(1)\n    y\n" in c for c in candidates) == 1
    assert all("    -y\n    y\n" in c or "    torch.ones(1)\n    y\n" in c for c in candidates)  # a bare name stays
    assert not pass_candidates("canonical-forms", source.replace("import torch\n", ""))  # no torch to make one
