"""What makes a large program's reduction finish: the first cut below the frames a crash's message names
(``passes._focus``), bisected shortcuts, and a reducer whose own work stays linear in the program. In-process
predicates."""

from __future__ import annotations

import ast
from collections.abc import Callable

import oracle
from fuzz.reduce import PASSES, reduce_program, reduce_source
from fuzz.reduce._tree import Program
from fuzz.reduce.passes._focus import failure_names
from tests.reduce.helpers import HEAD, TAIL, deep_chain, raises_zero_division

# what Dynamo appends to a crash's message (paths outside the program normalized by the oracle to <file>)
CRASH = '''AssertionError: resume instruction not found in original code - this is a bug.

from user code:
   File "ngb_program.py", line 224, in entry
    x = torch.add(x * 0.5, f1(x))
  File "ngb_program.py", line 218, in f1
    x = x * 0.5 + f2(x)
  File "<file>", line 124, in decorate_context
    return func(*args, **kwargs)
  File "ngb_program.py", line 200, in torch_dynamo_resume_in_f7_at_200
    x = _cm_disabled("f2.21.deco")(f3)(x)
  File "<file>", line 80, in torch_dynamo_resume_in_inner_at_80
    with self._recreate_cm():
'''


def test_a_crash_names_the_programs_frames_and_resume_functions_only():
    assert failure_names(CRASH) == {"entry", "f1", "f7"}
    assert failure_names("BackendCompilerFailed: backend='aot_eager' raised:\nAttributeError: x") == frozenset()


def _recording(checked: list[bool], lines: list[int] | None = None) -> Callable[[str], bool]:
    """The ZeroDivisionError predicate, each check's outcome appended to ``checked`` (and its candidate's lines
    to ``lines``)."""
    def predicate(candidate: str) -> bool:
        checked.append(raises_zero_division(candidate))
        if lines is not None:
            lines.append(len(candidate.splitlines()))
        return checked[-1]
    return predicate


CUTS = [p for p in PASSES if p.name == "cut-call-graph"]


def _defs(source: str) -> set[str]:
    return {n.name for n in ast.walk(ast.parse(source)) if isinstance(n, ast.FunctionDef)}


def test_the_named_frames_cut_the_program_below_them_in_one_check():
    source = deep_chain(40, needed=23)
    checked: list[bool] = []
    predicate = _recording(checked)

    result = reduce_source(source, predicate, passes=CUTS, names=frozenset({"f23", "entry"}), check_original=False)
    # the first candidate checked is the cut right below f23, and it is kept (without names, the bisection over
    # the depths loses the bug at 20 first)
    assert checked[0] is True
    assert _defs(result.source) == {"f23", "entry", "make_inputs"} and result.stopped == "fixpoint"
    assert result.passes[0].name == "focus" and result.passes[0].successes == 1


def test_names_that_lose_the_bug_cost_a_check_each_and_the_reduction_goes_on():
    source = deep_chain(12, needed=9)
    result = reduce_source(source, raises_zero_division, passes=CUTS, names=frozenset({"f3"}),
                           check_original=False)
    assert _defs(result.source) == {"f9", "entry", "make_inputs"}
    assert result.passes[0].name == "focus" and result.passes[0].successes == 0


class _CrashRunner:
    """One target run and eager runs: the bug shows where ``f23`` divides by zero, and its message names f23's
    frame as Dynamo would; records the sources the target ran."""

    def __init__(self):
        self.compiled: list[str] = []

    def check(self, source, targets, *, calls=1, repeat_eager=True):
        (target,) = targets
        verdict = self._verdict(source)
        return oracle.ProgramReport({target: verdict}, False, {}, 0.0, "returned")

    def _verdict(self, source):
        if raises_zero_division(source):
            detail = ('first call raised a compiler error where eager did not: ZeroDivisionError: x\n\nfrom user '
                      'code:\n  File "ngb_program.py", line 3, in f23\n    return f24(x) / (x - 2)\n')
            return oracle.Verdict("crash", "exception", "crash:ZeroDivisionError@m:f", detail)
        return oracle.Verdict("ok", "", "ok")

    def run(self, source, target, calls=1):
        if target.kind == "eager":
            return {"calls": [{"exception": None, "value": 0, "torch_state": {}}] * calls}
        self.compiled.append(source)
        return {"verdict": self._verdict(source)}


def test_reduce_program_cuts_below_the_frames_the_crash_names(monkeypatch):
    import oracle._runner  # noqa: F401 - bound to the real judge before the patch
    import oracle._verdict

    monkeypatch.setattr(oracle._verdict, "judge", lambda target, eager, result: result["verdict"])
    runner = _CrashRunner()
    source = deep_chain(40, needed=23)
    result = reduce_program(source, "torch", runner=runner, rechecks=0, budget_s=30.0)
    assert "focus" in {p.name for p in result.passes}
    # the first candidate compiled is the cut below f23: it has f23 and nothing deeper
    assert "def f23(" in runner.compiled[0] and "def f24(" not in runner.compiled[0]
    assert "/ (x - 2)" in result.source and "f24" not in result.source


def test_the_names_are_not_used_on_a_program_the_ir_stage_renumbered(monkeypatch):
    import fuzz.reduce._oracle as front

    given = []

    def spy(source, predicate, **kwargs):
        given.append(kwargs["names"])
        return reduce_source(source, predicate, **{**kwargs, "passes": []})

    def ir_stage(ir, predicate, **kwargs):  # the IR stage kept a smaller program: its functions renumbered
        from fuzz.reduce._driver import IRResult

        return IRResult(deep_chain(30, needed=23), "smaller", 40, 3, (), 1.0)

    monkeypatch.setattr(front, "reduce_source", spy)
    monkeypatch.setattr(front, "reduce_ir", ir_stage)
    import oracle._runner  # noqa: F401 - bound to the real judge before the patch
    import oracle._verdict

    monkeypatch.setattr(oracle._verdict, "judge", lambda target, eager, result: result["verdict"])
    source = deep_chain(40, needed=23)
    reduce_program(source, "torch", runner=_CrashRunner(), rechecks=0, budget_s=30.0)
    reduce_program(source, "torch", runner=_CrashRunner(), rechecks=0, budget_s=30.0, ir="original")
    assert given == [frozenset({"f23"}), frozenset()]


def test_shortcuts_are_bisected_when_the_bug_needs_the_frames_from_some_depth_down():
    # entry -> f1 -> ... -> f16; f5 adds one and f11 divides by x - 3 (x is 2): the bug needs f5 to f11 and none of
    # f1 to f4, so entry calling f5 directly keeps it and calling anything deeper loses it
    defs = [f"def f{k}(x):\n    return f{k + 1}(x{' + 1' if k == 5 else ''}){' / (x - 3)' if k == 11 else ''}\n"
            for k in range(1, 16)] + ["def f16(x):\n    return x + 1\n"]
    source = HEAD + "\n\n".join(defs) + "\n\ndef entry(x):\n    return f1(x)\n" + TAIL
    assert raises_zero_division(source)
    checked: list[bool] = []
    predicate = _recording(checked)

    result = reduce_source(source, predicate, passes=CUTS)
    assert _defs(result.source) == {f"f{k}" for k in range(5, 12)} | {"entry", "make_inputs"}
    assert "return f5(x) " in result.source or "return f5(x)\n" in result.source
    # the original, then the two bisections side by side, the candidate keeping less first: the cut at 8 lost,
    # the shortcut to f9 (keeping f9 to f16, less than the cut at 12 keeps) lost, the cut at 12 kept; then the
    # shortcuts on f1..f11: deepest first one by one, f11 down to f6 would lose the bug six times before f5
    # kept it; bisected, the next kept one comes second
    assert checked[:4] == [True, False, False, True] and checked.index(True, 4) <= 5, checked


def test_finding_unused_definitions_walks_the_tree_a_few_times_not_once_per_definition(monkeypatch):
    # a bypass candidate asks for them up to 20 times (its orphan clean-up); once a walk of the whole tree per
    # definition, which made every candidate of a 900-line program cost seconds of the reducer's own time
    import fuzz.reduce._tree as tree_module
    from fuzz.reduce.passes import _orphans, _statements

    source = HEAD + "".join(f"def f{k}(x):\n    return f{k + 1}(x) + {k}\n\n\n" for k in range(60)) + \
        "def f60(x):\n    return x\n\n\ndef spare(x):\n    return x\n\n\ndef entry(x):\n    return f0(x)\n" + TAIL
    prog = Program.parse(source)
    size = sum(1 for _ in tree_module.iter_nodes(prog.tree))
    visited = [0]
    real = tree_module.iter_nodes

    def counting(node):
        for sub in real(node):
            visited[0] += 1
            yield sub

    for module in (_statements, _orphans, tree_module):
        monkeypatch.setattr(module, "iter_nodes", counting, raising=False)
    monkeypatch.setattr(_statements, "_indexed", lambda tree: list(enumerate(counting(tree))))
    unused = _statements._unused_defs(prog.tree)
    assert [getattr(_nth_node(prog.tree, i), "name", "EFFECTS") for i in unused] == ["EFFECTS", "spare"]
    assert visited[0] <= 6 * size, (visited[0], size)


def _nth_node(tree, index):
    from fuzz.reduce.passes._edits import _nth

    return _nth(tree, index)


def test_each_kept_candidate_is_handed_over_as_a_program_file(monkeypatch):
    # what a campaign writes beside the repro as it comes (``*.partial.py``): a file that runs alone, smaller
    # each time, the last one the result's program
    import oracle._runner  # noqa: F401 - bound to the real judge before the patch
    import oracle._verdict
    from fuzz.reduce import code_lines
    from oracle import ProgramFile, with_footer

    monkeypatch.setattr(oracle._verdict, "judge", lambda target, eager, result: result["verdict"])
    kept: list[str] = []
    result = reduce_program(deep_chain(40, needed=23), "torch", runner=_CrashRunner(), rechecks=0,
                            budget_s=30.0, kept=kept.append)
    assert len(kept) >= 2
    sizes = [code_lines(text) for text in kept]
    assert sizes == sorted(sizes, reverse=True) and len(set(sizes)) == len(sizes)
    assert sizes[-1] == result.lines
    for text in kept:
        header = ProgramFile.parse(text)
        assert (header.get("signature"), header.get("target")) == ("crash:ZeroDivisionError@m:f", "torch")
        assert with_footer(text) == text and raises_zero_division(text)  # the standalone footer is there


def test_a_bug_in_the_deepest_function_costs_about_one_program_s_worth_of_checks():
    # entry -> f1 -> ... -> f24, each a few lines; only f23 is needed (it divides by x - 2, x passed on unchanged).
    # Each check compiles its candidate, so what the checks before the first kept one cost is their size: the cuts'
    # bisection alone (12, 18, 21, 23 lost, each keeping more of the chain) was nearly four programs' worth, a
    # 452-line chain's whole round at 71 s a check; side by side with the shortcuts, the cheaper first, about one
    defs = [f"def f{k}(x):\n    y = x * 1\n    z = y + 0\n    return f{k + 1}(z){' / (x - 2)' if k == 23 else ''}\n"
            for k in range(1, 24)] + ["def f24(x):\n    y = x * 1\n    z = y + 0\n    return z\n"]
    source = HEAD + "\n\n".join(defs) + "\n\ndef entry(x):\n    return f1(x)\n" + TAIL
    assert raises_zero_division(source)
    checked: list[bool] = []
    lines: list[int] = []
    result = reduce_source(source, _recording(checked, lines), passes=CUTS)
    assert _defs(result.source) <= {"f23", "f24", "entry", "make_inputs"} and "f23" in _defs(result.source)
    before_first_kept = lines[1:checked.index(True, 1)]
    assert sum(before_first_kept) <= 1.5 * len(source.splitlines()), (before_first_kept, len(source.splitlines()))


def test_the_shortcuts_bisection_steps_over_what_entry_cannot_call():
    # f1 -> ... -> f16, each passing x through a class of its own (B1 ... B16, as deep as the functions): a
    # class's slot in the shortcuts' bisection gives no candidate, and the step after it went shallower as if the
    # class had lost the bug; f15, near the bottom, is all the bug needs. 20 checks when the classes had slots
    parts = []
    for k in range(1, 17):
        call = f"f{k + 1}(B{k}(x).v)" if k < 16 else "B16(x).v"
        parts.append(f"class B{k}:\n    def __init__(self, v):\n        self.v = v\n")
        parts.append(f"def f{k}(x):\n    return {call}{' / (x - 2)' if k == 15 else ''}\n")
    source = HEAD + "\n\n".join(parts) + "\n\ndef entry(x):\n    return f1(x)\n" + TAIL
    assert raises_zero_division(source)
    checked: list[bool] = []
    predicate = _recording(checked)

    result = reduce_source(source, predicate, passes=CUTS)
    assert {"f15", "f16"} <= _defs(result.source) and not {f"f{k}" for k in range(1, 15)} & _defs(result.source)
    assert len(checked) <= 10, checked
