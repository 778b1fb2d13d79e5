"""The source reducer against in-process predicates (no oracle, no torch): fast and exact."""

from __future__ import annotations

import dataclasses
import re
import threading
import time
import types

import pytest

from fuzz.reduce import PASSES, ReduceError, code_lines, pass_names, reduce_source
from fuzz.reduce._tree import Program
from oracle import FOOTER_MARKER
from tests.reduce.helpers import raises_zero_division

FOOTER = FOOTER_MARKER + " (generated; do not edit below) ----\nif __name__ == '__main__':\n    print('footer')\n"

PROGRAM = '''# ngb-fuzz program
# found-by: hand
import types

EFFECTS = []


def _effect(tag, value):
    EFFECTS.append((tag, value))


COUNTER = 0
_helper = types.ModuleType("ngb_helper")
exec(compile(\'\'\'
SCALE = 3
def scaled(x):
    return x * SCALE
def divide(x, y):
    return x / y
def unused(z):
    return z
\'\'\', "ngb_helper", "exec"), _helper.__dict__)


class Box:
    def __init__(self, v):
        self.v = v


def noise(a, b):
    return [a, b, a + b]


def f2(x, y):
    global COUNTER
    COUNTER += 1
    with open(__file__) as fh:
        _effect("f2", len(noise(x, y)))
    try:
        q = _helper.divide(x, y - 4)
    except ValueError:
        q = 0
    return q


def entry(x, y, z):
    total = 0
    for i in range(3):
        total = total + i * x
    b = Box(total)
    if b.v > 100:
        return -1
    r = f2(b.v, y)
    return _helper.scaled(r) + z


def make_inputs(device):
    return (2, 4, 7.5)


''' + FOOTER


def test_reduces_to_the_failure_core_and_keeps_the_footer():
    assert raises_zero_division(PROGRAM)
    result = reduce_source(PROGRAM, raises_zero_division)
    assert raises_zero_division(result.source)
    assert result.stopped == "fixpoint"
    assert result.lines <= 11 < result.original_lines
    assert result.source.endswith(FOOTER)
    assert result.source.startswith("# ngb-fuzz program\n# found-by: hand\n")
    assert "__init__" not in result.source and "noise" not in result.source
    # Stats: one record per pass in pass order; kept <= tried; every kept candidate cost a check.
    assert [p.name for p in result.passes] == pass_names()
    assert all(p.successes <= p.attempts for p in result.passes)
    assert sum(p.attempts for p in result.passes) + 1 == result.invocations
    assert "delete-statements" in result.summary()


def test_helper_module_code_is_reduced_in_place():
    without_folding = [p for p in PASSES if p.name != "inline-helper-modules"]
    result = reduce_source(PROGRAM, raises_zero_division, passes=without_folding)
    assert re.search(r"return \w+ / \w+", result.source) and "SCALE" not in result.source
    assert result.source.count("def ") == 3  # entry, make_inputs and the helper's divide
    assert "exec(compile('''" in result.source or "exec('''" in result.source  # still a readable block


def test_helper_module_is_folded_into_the_main_module_when_the_bug_survives():
    result = reduce_source(PROGRAM, raises_zero_division)
    assert "ngb_helper" not in result.source and "exec(" not in result.source and "ModuleType" not in result.source
    assert raises_zero_division(result.source) and code_lines(result.source) <= 6


def test_helper_module_stays_when_folding_loses_the_bug():
    # Only a program that still runs code through exec() is interesting: folding is tried and rejected.
    result = reduce_source(PROGRAM, lambda s: raises_zero_division(s) and "exec(" in s)
    assert "exec(" in result.source and re.search(r"\w+ / \w+", result.source) and "ModuleType" in result.source


def test_no_candidate_is_checked_twice_and_invalid_ones_are_never_checked():
    seen: list[str] = []

    def predicate(source: str) -> bool:
        seen.append(source)
        assert "def entry" in source and "def make_inputs" in source
        compile(source, "x", "exec")
        return raises_zero_division(source)

    # Without folding the helper module, many edits lead to the same program (the cache is exercised).
    result = reduce_source(PROGRAM, predicate, passes=[p for p in PASSES if p.name != "inline-helper-modules"])
    assert len(seen) == len(set(seen)) == result.invocations
    assert result.cache_hits > 0


def test_budget_returns_the_best_so_far(monkeypatch):
    # A clock that moves one second per check: the budget is a number of checks, whatever the machine's load.
    from fuzz.reduce import _driver

    clock = [0.0]
    monkeypatch.setattr(_driver, "time", types.SimpleNamespace(monotonic=lambda: clock[0]))

    def slow(source: str) -> bool:
        clock[0] += 1.0
        return raises_zero_division(source)

    result = reduce_source(PROGRAM, slow, budget_s=5)
    assert result.stopped == "budget"
    assert raises_zero_division(result.source)
    assert result.invocations <= 6


def test_ctrl_c_returns_the_best_so_far():
    calls = [0]

    def interrupted(source: str) -> bool:
        calls[0] += 1
        if calls[0] == 12:
            raise KeyboardInterrupt
        return raises_zero_division(source)

    result = reduce_source(PROGRAM, interrupted)
    assert result.stopped == "interrupted"
    assert raises_zero_division(result.source)
    assert result.lines < result.original_lines


def test_parallel_workers_check_batches_from_threads():
    threads = set()

    def predicate(source: str) -> bool:
        threads.add(threading.get_ident())
        time.sleep(0.001)
        return raises_zero_division(source)

    result = reduce_source(PROGRAM, predicate, workers=3)
    assert raises_zero_division(result.source)
    assert result.lines <= 11
    assert len(threads) > 1


def test_parallel_checks_overlap_in_a_window_and_give_the_one_worker_result():
    intervals: list[tuple[str, float, float]] = []

    def predicate(source: str) -> bool:
        start = time.monotonic()
        interesting = raises_zero_division(source)
        if interesting:
            time.sleep(0.05)  # what compiles is slow; an eager rejection is not
        intervals.append(("slow" if interesting else "fast", start, time.monotonic()))
        return interesting

    one = reduce_source(PROGRAM, raises_zero_division, workers=1)
    two = reduce_source(PROGRAM, predicate, workers=2)
    assert two.source == one.source
    # a rejection frees its worker for the next candidate while a slow check runs: several fit into one
    assert max(sum(1 for kind, s, e in intervals if kind == "fast" and s >= s0 and e <= e0)
               for kind0, s0, e0 in intervals if kind0 == "slow") >= 2


def test_a_pass_is_not_run_again_on_the_program_it_found_nothing_on():
    from fuzz.reduce import ReductionPass

    built: dict[str, int] = {"nothing": 0, "once": 0, "after": 0}

    def edits(name: str, keep: bool):
        def make(prog):
            built[name] += 1
            if keep and "divide" in prog.source:
                yield lambda: Program.parse(prog.source.replace("    return x / 0\n", "    return 1 / 0\n"))
        return make

    source = "EFFECTS = []\n\ndef entry(x):\n    return x / 0\n\ndef make_inputs(device):\n    return (1,)\n"
    passes = [ReductionPass("nothing", edits("nothing", False), ""), ReductionPass("once", edits("once", True), ""),
              ReductionPass("after", edits("after", False), "")]
    source = source.replace("return x / 0", "divide = 1\n    return x / 0")
    result = reduce_source(source, raises_zero_division, passes=passes)
    assert "1 / 0" in result.source
    # round 1: nothing, once (kept), after: all on the smaller program; round 2: nothing and once found nothing
    # there, after is not run again
    assert built == {"nothing": 2, "once": 3, "after": 1}


def test_a_crashing_predicate_means_not_interesting():
    def flaky(source: str) -> bool:
        if "__init__" not in source:
            raise RuntimeError("worker died")
        return raises_zero_division(source)

    result = reduce_source(PROGRAM, flaky)
    assert "__init__" in result.source and raises_zero_division(result.source)


def test_refuses_an_uninteresting_or_broken_original():
    with pytest.raises(ReduceError, match="not interesting"):
        reduce_source(PROGRAM, lambda s: False)
    with pytest.raises(ReduceError, match="not a Python program"):
        reduce_source("def (:\n", lambda s: True)


def _one_pass(name: str, source: str, predicate) -> str:
    chosen = [p for p in PASSES if p.name == name]
    return reduce_source(source, predicate, passes=chosen).source


def test_drop_arguments_drops_entry_parameters_with_their_inputs():
    source = "EFFECTS = []\n\ndef entry(a, b):\n    return b\n\ndef make_inputs(device):\n    return (1, 2)\n"
    out = _one_pass("drop-arguments", source, lambda s: _entry_result(s) == 2)
    assert "def entry(b):" in out and "return (2,)" in out


def _entry_result(source: str):
    ns: dict = {}
    try:
        exec(source, ns)
        return ns["entry"](*ns["make_inputs"]("cpu"))
    except Exception as exc:
        return exc


def test_inline_calls_and_variables():
    source = ("EFFECTS = []\n\ndef helper(u):\n    v = u * 3\n    return v + 1\n\n"
              "def entry(x):\n    y = helper(x)\n    return y\n\ndef make_inputs(device):\n    return (1,)\n")

    def same_value(s: str) -> bool:
        ns: dict = {}
        exec(s, ns)
        return ns["entry"](*ns["make_inputs"]("cpu")) == 4

    out = reduce_source(source, same_value).source
    assert "def helper" not in out and same_value(out)
    assert code_lines(out) <= 5


def test_shrink_tensors_and_rename_keep_leading_underscores():
    source = ("import torch\nEFFECTS = []\n\ndef _private_helper(value):\n    return value\n\n"
              "def entry(tensor_input):\n    return _private_helper(tensor_input)\n\n"
              "def make_inputs(device):\n    return (torch.zeros(7, 5, dtype=torch.float64),)\n")

    def predicate(s: str) -> bool:
        import torch

        out = _entry_result(s)
        return isinstance(out, torch.Tensor) and out.numel() > 0 and "def _" in s

    out = reduce_source(source, predicate).source
    assert "torch.zeros(1" in out and "float64" not in out and "7" not in out
    assert "tensor_input" not in out and "_private_helper" not in out
    assert "def _f1(" in out and "def entry(x)" in out and "make_inputs(device)" in out  # canonical names


def test_program_parse_keeps_comments_and_renders_helpers_as_blocks():
    program = Program.parse(PROGRAM)
    assert program.comments == "# ngb-fuzz program\n# found-by: hand\n"
    assert program.required == ("entry", "make_inputs")  # EFFECTS may go where nothing writes it
    assert "exec(compile('''\nSCALE = 3" in program.source
    assert program.is_valid()
    assert Program.parse(program.source).key == program.key  # rendering is a fixpoint


def test_keeps_import_torch_for_the_footer():
    source = "import torch\nEFFECTS = []\n\ndef entry():\n    return 1\n\ndef make_inputs(device):\n    return ()\n"
    out = reduce_source(source + "\n" + FOOTER, lambda s: True).source
    assert out.startswith("import torch\n")


def test_inputs_stay_tensors_made_in_make_inputs():
    import torch

    # Any program returning a tensor is "interesting": only make_inputs' protection keeps its input a tensor
    # (else `entry` could return a number or the device string made into its input).
    source = ("import torch\nEFFECTS = []\n\ndef entry(x):\n    return x + 1\n\n"
              "def make_inputs(device):\n    return (torch.randn(5, 3, dtype=torch.float64).to(device),)\n")
    out = reduce_source(source, lambda s: isinstance(_entry_result(s), torch.Tensor)).source
    assert "return (torch.randn(1).to(device),)" in out


def test_the_cheap_cuts_go_first_then_unread_definitions_and_ddmin_bypasses_after():
    # the cuts' candidates are small (cheap checks); remove-unused and remove-dead-stores are one check each, of
    # the whole program when first (18 to 35 s of a 900-line finding's budget for 1 to 20 lines), of what the cuts
    # left after them; the ddmin chunks after, each a check of a program about as large
    names = pass_names()
    assert names[:3] == ["cut-call-graph", "remove-unused", "remove-dead-stores"]
    assert names.index("remove-unused") < names.index("bypass-definitions") < names.index("delete-statements")


def test_a_check_predicted_to_end_past_the_budget_is_not_started(monkeypatch):
    import fuzz.reduce._driver as driver

    clock = [0.0]
    monkeypatch.setattr(driver, "time", types.SimpleNamespace(monotonic=lambda: clock[0]))
    checked = []

    def slow(source: str) -> bool:  # every check "compiles" for 10 seconds of the fake clock, never interesting
        clock[0] += 10.0
        checked.append(source)
        return False

    source = "EFFECTS = []\n\ndef entry(x):\n" + "".join(f"    x = x + {k}\n" for k in range(8)) + \
             "    return x\n\ndef make_inputs(device):\n    return (1,)\n"
    result = reduce_source(source, slow, budget_s=25.0, check_original=False)
    # two checks fit in 25 s; a third would end at 30 s, so it never starts
    assert len(checked) == 2 and result.stopped == "budget"


def test_a_candidate_whose_while_loop_can_never_end_is_invalid():
    from fuzz.reduce._tree import Program

    def program(loop: str) -> Program:
        body = "\n".join("    " + line for line in loop.strip("\n").splitlines())
        return Program.parse(f"EFFECTS = []\n\ndef entry(x):\n{body}\n    return x\n\n"
                             "def make_inputs(device):\n    return (1,)\n")

    generated = "i = 0\nwhile True:\n    i += 1\n    x = x + 1\n    if i >= 2:\n        break\n"
    assert program(generated).is_valid()
    assert not program(generated.replace("    i += 1\n", "")).is_valid()  # what delete-statements made
    assert not program("while True:\n    x = x + 1\n").is_valid()
    assert not program("i = 0\nwhile i < 3:\n    x = x + 1\n").is_valid()
    for ends in ("i = 0\nwhile i < 3:\n    i += 1\n", "while True:\n    break\n",
                 "while True:\n    if x.item() > 0:\n        return x\n    x = x - 1\n",
                 "while True:\n    for k in range(2):\n        break\n    raise ValueError\n"):
        assert program(ends).is_valid(), ends
    nested_break = "while True:\n    for k in range(2):\n        break\n"  # that break leaves the for only
    assert not program(nested_break).is_valid()


def test_validity_check_does_not_turn_other_threads_warnings_into_errors():
    import warnings

    invalid = Program.parse("EFFECTS = []\n\ndef entry(x):\n    return 1(x)\n\ndef make_inputs(device):\n    return (1,)\n")
    raised, stop = [], threading.Event()

    def warn_often() -> None:  # what a check running beside the candidate builder may do
        while not stop.is_set():
            try:
                warnings.warn("a check's own warning", UserWarning, stacklevel=1)
            except UserWarning as exc:
                raised.append(exc)

    with warnings.catch_warnings():
        warnings.simplefilter("ignore", UserWarning)
        thread = threading.Thread(target=warn_often)
        thread.start()
        try:
            results = [invalid.is_valid() for _ in range(300)]
        finally:
            stop.set()
            thread.join()
    assert results == [False] * 300  # a SyntaxWarning ("'int' object is not callable") is still invalid
    assert raised == []


def test_an_effect_log_nothing_writes_goes_and_one_that_is_written_stays():
    crash = ("import torch\n\nEFFECTS = []\n\n\ndef entry(x):\n    return x / 0\n\n\n"
             "def make_inputs(device):\n    return (1,)\n")
    assert "EFFECTS" not in reduce_source(crash, raises_zero_division).source
    written = crash.replace("    return x / 0\n", "    EFFECTS.append(x)\n    return x / 0\n")

    def logs_then_raises(source: str) -> bool:  # the finding is about the log: it must stay written
        namespace: dict = {}
        try:
            exec(compile(source, "candidate", "exec"), namespace)
            namespace["entry"](*namespace["make_inputs"]("cpu"))
        except ZeroDivisionError:
            return namespace.get("EFFECTS") == [1]
        except Exception:
            return False
        return False

    assert "EFFECTS = []" in reduce_source(written, logs_then_raises).source


def test_the_budget_follows_the_cost_of_a_check_up_to_its_ceiling(monkeypatch):
    # A clock that moves one second per check: 5 s is 5 checks, but a budget of 20 checks stretches it to about
    # 20 s, and the ceiling bounds that.
    from fuzz.reduce import _driver

    now = [0.0]
    monkeypatch.setattr(_driver, "time", types.SimpleNamespace(monotonic=lambda: now[0]))

    def slow(source: str) -> bool:
        now[0] += 1.0
        return raises_zero_division(source)

    stretched = reduce_source(PROGRAM, slow, clock=_driver.Clock(5, checks=20, ceiling_s=100))
    assert stretched.stopped == "budget" and 18 <= stretched.invocations <= 22
    now[0] = 0.0
    capped = reduce_source(PROGRAM, slow, clock=_driver.Clock(5, checks=1000, ceiling_s=12))
    assert capped.stopped == "budget" and capped.invocations <= 13
    now[0] = 0.0  # a base budget shorter than one check still measures the pace before it stops
    warm = reduce_source(PROGRAM, slow, clock=_driver.Clock(1, checks=20, ceiling_s=100))
    assert 18 <= warm.invocations <= 22


def test_a_pass_that_stops_paying_gives_way_and_the_fixpoint_is_still_one():
    from fuzz.reduce import ReductionPass

    source = ("EFFECTS = []\n\ndef entry(x):\n" + "".join(f"    pad{k} = {k}\n" for k in range(4))
              + "    return x / 0\n\ndef make_inputs(device):\n    return (1,)\n")
    checked: list[str] = []

    def fruitless(prog):  # 40 candidates of the same size, none interesting (a NameError, not a ZeroDivisionError)
        for name in "abcdefghijklmnopqrstuvwyzABCDEFGHIJKLMNO":
            yield lambda name=name: Program.parse(prog.source.replace("x / 0", f"x / {name}"))

    def pads(prog):  # one candidate taking every pad off at once
        yield lambda: Program.parse(re.sub(r"    pad\d = \d\n", "", prog.source))

    def predicate(candidate: str) -> bool:
        checked.append(candidate)
        return raises_zero_division(candidate)

    passes = [ReductionPass("fruitless", fruitless, ""), ReductionPass("pads", pads, "")]
    result = reduce_source(source, predicate, passes=passes, check_original=False)
    padless = next(i for i, c in enumerate(checked) if "pad" not in c)
    assert padless < 20  # the fruitless pass gave way after 16 checks, not all 40
    assert "pad" not in result.source and result.stopped == "fixpoint"
    # the last round ran the fruitless pass to its end on the final program: a fixpoint is one
    assert sum(1 for c in checked if "pad" not in c and "x / 0" not in c) == 40


def test_a_pass_that_raises_while_making_its_edits_is_skipped_and_named():
    from fuzz.reduce.passes._edits import reduction_pass

    @reduction_pass("broken")
    def broken(prog):
        """Raises after its first edit, as a pass with a bug would."""
        yield lambda: None
        raise AttributeError("'float' object has no attribute 'mix'")

    def at_once(prog):  # not a generator: raises before any edit is asked for
        raise ValueError("no edits")

    at_once_pass = dataclasses.replace(broken, name="at-once", edits=at_once)
    result = reduce_source(PROGRAM + FOOTER, raises_zero_division, passes=[broken, at_once_pass, *PASSES])
    assert result.lines < result.original_lines and raises_zero_division(result.source)  # the others went on
    errors = {p.name: p.error for p in result.passes if p.error}
    assert errors == {"broken": "AttributeError: 'float' object has no attribute 'mix'", "at-once": "ValueError: no edits"}
    assert "raised AttributeError" in result.summary() and "raised ValueError" in result.summary()
