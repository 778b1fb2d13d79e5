"""The first cut of a large program (``passes._focus``): the frames a crash's message names say where it is, and
one check cuts the program below them. In-process predicates."""

from __future__ import annotations

import ast

import oracle
from fuzz.reduce import PASSES, reduce_program, reduce_source
from fuzz.reduce.passes._focus import failure_names
from tests.reduce.helpers import HEAD, TAIL

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


def _deep_chain(depth: int, needed: int) -> str:
    """entry -> f1 -> ... -> f<depth>; f<needed> divides by ``x - 2`` (x is 2)."""
    defs = [f"def f{k}(x):\n    return f{k + 1}(x){' / (x - 2)' if k == needed else ''}\n" for k in range(1, depth)]
    defs.append(f"def f{depth}(x):\n    return x + 1\n")
    return HEAD + "\n\n".join(defs) + "\n\ndef entry(x):\n    return f1(x)\n" + TAIL


def _raises_zero_division(source: str) -> bool:
    namespace: dict = {}
    try:
        exec(compile(source, "candidate", "exec"), namespace)
        namespace["entry"](*namespace["make_inputs"]("cpu"))
    except ZeroDivisionError:
        return True
    except Exception:  # noqa: BLE001 - another outcome: not the bug
        return False
    return False


CUTS = [p for p in PASSES if p.name == "cut-call-graph"]


def _defs(source: str) -> set[str]:
    return {n.name for n in ast.walk(ast.parse(source)) if isinstance(n, ast.FunctionDef)}


def test_the_named_frames_cut_the_program_below_them_in_one_check():
    source = _deep_chain(40, needed=23)
    checked: list[bool] = []

    def predicate(candidate: str) -> bool:
        checked.append(_raises_zero_division(candidate))
        return checked[-1]

    result = reduce_source(source, predicate, passes=CUTS, names=frozenset({"f23", "entry"}), check_original=False)
    # the first candidate checked is the cut right below f23, and it is kept (without names, the bisection over
    # the depths loses the bug at 20 first)
    assert checked[0] is True
    assert _defs(result.source) == {"f23", "entry", "make_inputs"} and result.stopped == "fixpoint"
    assert result.passes[0].name == "focus" and result.passes[0].successes == 1


def test_names_that_lose_the_bug_cost_a_check_each_and_the_reduction_goes_on():
    source = _deep_chain(12, needed=9)
    result = reduce_source(source, _raises_zero_division, passes=CUTS, names=frozenset({"f3"}),
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
        if _raises_zero_division(source):
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
    source = _deep_chain(40, needed=23)
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

        return IRResult(_deep_chain(30, needed=23), "smaller", 40, 3, (), 1.0)

    monkeypatch.setattr(front, "reduce_source", spy)
    monkeypatch.setattr(front, "reduce_ir", ir_stage)
    import oracle._runner  # noqa: F401 - bound to the real judge before the patch
    import oracle._verdict

    monkeypatch.setattr(oracle._verdict, "judge", lambda target, eager, result: result["verdict"])
    source = _deep_chain(40, needed=23)
    reduce_program(source, "torch", runner=_CrashRunner(), rechecks=0, budget_s=30.0)
    reduce_program(source, "torch", runner=_CrashRunner(), rechecks=0, budget_s=30.0, ir="original")
    assert given == [frozenset({"f23"}), frozenset()]
