"""Which crash signatures name their bug on their own (fuzz.triage.rootcause.pins_bug), and which are named by
their reduced repro's shape, as mismatches are: a crash the program raised itself (a wrong value made user code
raise) passes through ``compile_wrapper``, which many unrelated bugs share."""

import shutil
from pathlib import Path

import pytest

from fuzz.campaign.loop import Campaign, CampaignConfig
from fuzz.corpus.manifest import Corpus
from fuzz.triage.known import KnownBugs
from fuzz.triage.rootcause import behaviour_shape, pins_bug, root_cause
from oracle._verdict import ProgramReport, Verdict
from tests.conftest import raised_in_torch_frame

ROOT = Path(__file__).resolve().parents[2]
USER_TYPEERROR = "crash:TypeError@torch._dynamo.eval_frame:compile_wrapper"
GENERATOR = "torch-ngb-generator-return-value-lost.py"  # KNOWN: a generator's return value lost, then None + x
SORTED_KEY = "torch-ngb-sorted-key-break-returns-key-value.py"  # NEW: sorted() returns the key's value

# Two unrelated wrong values, each making the program raise TypeError where eager returns.
NONE_PLUS = """import torch


def f(x):
    torch._dynamo.graph_break()
    return x


def entry():
    x = torch.ones(2)
    return f(x) + 1
"""
LEN_OF_INT = """import torch


def entry():
    n = [1, 2]
    torch._dynamo.graph_break()
    return len(n)
"""


def corpus_of(tmp_path, names) -> Path:
    root = tmp_path / "corpus"
    store, copy = Corpus(ROOT / "corpus"), Corpus(root)
    root.mkdir()
    for name in names:
        shutil.copy(ROOT / "corpus" / name, root)
        copy.entries[name] = store.entries[name]
    copy.save()
    return root


def test_only_a_crash_raised_in_compiler_code_pins_its_bug():
    assert pins_bug("crash:InternalTorchDynamoError@torch._dynamo.symbolic_convert:_import_module")
    assert pins_bug("crash:second_call:AssertionError@torch._dynamo.variables.ctx_manager:cleanup_assert")
    assert pins_bug("crash:TypeError@torch._dynamo.variables.builtin:call_function")  # raised by Dynamo itself
    for passed_on in (USER_TYPEERROR, "crash:third_call:AttributeError@torch._dynamo.eval_frame:compile_wrapper",
                      "crash:AttributeError@torch._dynamo.eval_frame:_fn", "crash:NameError@engine._segments:__call__",
                      "crash:TypeError@program", "crash:died:SIGSEGV", "crash:load:ImportError", "hang",
                      "mismatch:value:value", "crash:AssertionError@torch._dynamo.guards:__init__",
                      "crash:second_call:AssertionError@torch._dynamo.guards:__init__"):
        assert not pins_bug(passed_on), passed_on
        assert root_cause(passed_on) is None  # undecided before a reduction: NEW?, never KNOWN


def test_an_exception_the_program_raises_under_a_dynamo_wrapper_is_named_by_shape():
    import torch

    from oracle._worker import compiler_frame

    @torch._dynamo.disable_nested_graph_breaks
    def f(x):
        if x.sum() > 0:  # a break; the raise then runs in the resumed user frame, under the wrapper's frame
            raise TypeError("raised by the program")
        return x

    def entry():
        return f(torch.ones(1)) * 2

    torch._dynamo.reset()
    try:
        torch.compile(entry, backend="eager")()
    except TypeError as exc:
        signature = f"crash:TypeError@{compiler_frame(exc)}"
    assert not pins_bug(signature) and root_cause(signature) is None, signature


def test_an_exception_the_program_raises_in_a_resumed_dynamo_wrapper_is_named_by_shape():
    # a torch 2.13 campaign called the generator return-value bug NEW at once in this form: a None the compiler
    # gave made the program raise TypeError, under a resume function of the disable_nested_graph_breaks wrapper
    import torch

    from oracle._worker import compiler_frame

    def g(x):
        torch._dynamo.graph_break()
        return x + 1

    @torch._dynamo.disable_nested_graph_breaks
    def f(x):
        g(x)  # a break in a callee of the wrapped function: the wrapper's own frame is resumed
        raise TypeError("raised by the program")

    def entry():
        return [f(torch.ones(1) + c) for c in (0.0, 1.0)]

    torch._dynamo.reset()
    with torch._dynamo.config.patch(nested_graph_breaks=True):
        try:
            torch.compile(entry, backend="eager")()
        except TypeError as exc:
            signature = f"crash:TypeError@{compiler_frame(exc)}"
    assert "torch_dynamo_resume" in signature  # the frame this test is about
    assert not pins_bug(signature) and root_cause(signature) is None, signature


def test_two_unrelated_user_exceptions_are_two_root_causes():
    a, b = behaviour_shape(NONE_PLUS), behaviour_shape(LEN_OF_INT)
    assert root_cause(USER_TYPEERROR, a) != root_cause(USER_TYPEERROR, b)
    # the same behaviour, whatever the names and constants, is one root cause
    renamed = NONE_PLUS.replace("f(", "g(").replace("+ 1", "+ 2")
    assert root_cause(USER_TYPEERROR, behaviour_shape(renamed)) == root_cause(USER_TYPEERROR, a)


def test_corpus_entries_with_one_user_exception_signature_stay_two_bugs(tmp_path):
    known = KnownBugs.from_corpus(corpus_of(tmp_path, (GENERATOR, SORTED_KEY)))
    assert len({bug.root_cause for bug in known.bugs}) == 2
    assert known.match(USER_TYPEERROR) is None  # not KNOWN before a reduction says which bug it is
    for name in (GENERATOR, SORTED_KEY):
        shape = behaviour_shape((ROOT / "corpus" / name).read_text())
        assert known.match(USER_TYPEERROR, shape).file == name
    assert known.match(USER_TYPEERROR, behaviour_shape(NONE_PLUS)) is None
    assert known.match(USER_TYPEERROR, behaviour_shape(LEN_OF_INT)) is None


def test_a_self_check_crash_is_known_only_by_its_reduced_shape(tmp_path):
    variant = "torch-getattr-default-runs-user-getattr-twice--guards-self-check.py"
    parent = "torch-getattr-default-runs-user-getattr-twice.py"
    known = KnownBugs.from_corpus(corpus_of(tmp_path, (parent, variant)))
    signature = "crash:AssertionError@torch._dynamo.guards:__init__"
    assert known.match(signature) is None  # many bugs trip Dynamo's check of its own guards
    assert known.match(signature, behaviour_shape((ROOT / "corpus" / variant).read_text())).file == parent
    assert known.match(signature, behaviour_shape(NONE_PLUS)) is None


class UserCrashRunner:
    def check(self, source, targets):
        return ProgramReport({t: Verdict("crash", "", USER_TYPEERROR) for t in targets}, False, {})


def test_a_campaign_reduces_a_user_exception_crash_before_calling_it_known(tmp_path):
    known = KnownBugs.from_corpus(corpus_of(tmp_path, (GENERATOR,)))
    config = CampaignConfig(("torch",), tmp_path / "run", programs=1, seed=1, reduce_seconds=5)

    class Program:
        source, features = NONE_PLUS, frozenset({"break.graph_break"})

    campaign = Campaign(config, UserCrashRunner(), generate=lambda *a, **k: Program(), known=known)
    reduced = []
    campaign.reductions.reduce_bucket = lambda bucket, *a, **k: reduced.append(bucket.signature)
    summary = campaign.run()
    bucket = summary["buckets"][0]
    assert bucket["status"] == "NEW?" and bucket["known"] is None
    assert reduced == [USER_TYPEERROR]  # reduced, so that its shape can decide it


def test_a_crash_named_by_a_polyfill_or_a_resume_function_is_named_by_shape():
    # torch 2.10 named a program's own raise, in a map callback under sum after a break, by the resumed frame of
    # Dynamo's functools.reduce polyfill; a 2.10 campaign then called the contextmanager-over-disable bug NEW at once
    from oracle._worker import compiler_frame

    def callback(x):
        raise TypeError("raised by the program")

    polyfill = "def torch_dynamo_resume_in_reduce_at_44(f, it):\n    for element in it:\n        f(element)\n"
    namespace: dict = {}
    exec(compile(polyfill, "/site-packages/torch/_dynamo/polyfills/functools.py", "exec"), namespace)
    with pytest.raises(TypeError) as info:
        namespace["torch_dynamo_resume_in_reduce_at_44"](callback, [1])
    signature = f"crash:TypeError@{compiler_frame(info.value)}"
    assert signature == "crash:TypeError@torch._dynamo.polyfills.functools:torch_dynamo_resume"
    for passed_on in (signature, "crash:second_call:AttributeError@torch._dynamo.polyfills:getattr_and_trace",
                      "crash:TypeError@torch._dynamo.polyfills.builtins:sum",
                      "crash:ValueError@torch._functorch.apis:torch_dynamo_resume"):
        assert not pins_bug(passed_on) and root_cause(passed_on) is None, passed_on
    # a module whose name only begins like the polyfills' is compiler code still
    assert pins_bug("crash:TypeError@torch._dynamo.polyfills_helper:run")


def test_a_generic_crash_is_named_by_shape_and_two_such_bugs_stay_two(tmp_path):
    # torch 2.11 raises TorchRuntimeError from exc:unimplemented for a TorchFunctionMode's numpy result traced as a
    # tensor and for a callee break's result appended to a list; a 2.11 campaign named the second as the first
    generic = "crash:TorchRuntimeError@torch._dynamo.exc:unimplemented"
    assert not pins_bug(generic) and not pins_bug("crash:second_call:" + generic.partition(":")[2])
    assert root_cause(generic) is None
    assert pins_bug("crash:TorchRuntimeError@torch._dynamo.utils:run_node")  # a frame that says where
    assert pins_bug("crash:UncapturedHigherOrderOpError@torch._dynamo.exc:unimplemented")  # a type that says what
    numpy = "torch-function-mode-numpy-result-traced-as-tensor.py"
    appended = "torch-2.10-ngb-step-break-result-appended-run-node-crash--contextmanager-break-in-callee.py"
    known = KnownBugs.from_corpus(corpus_of(tmp_path, [numpy]))
    repro = (ROOT / "corpus" / appended).read_text()
    assert known.match(generic, None) is None  # not KNOWN at sight
    assert known.match(generic, behaviour_shape(repro, minimal=True)) is None  # nor once reduced: another shape
    assert known.match(generic, behaviour_shape((ROOT / "corpus" / numpy).read_text(), minimal=True)).file == numpy


def _raised_by_guard_self_check(reason: str) -> BaseException:
    """The AssertionError Dynamo's guard self-check raises, from a frame of torch/_dynamo/guards.py."""
    check = ("def __init__(reason):\n    raise AssertionError('Guard failed on the same frame it was created. This is a bug"
             " - please create an issue.' f'Guard fail reason: {reason}')\n")
    return raised_in_torch_frame("_dynamo/guards.py", check, reason, expected=AssertionError)


MODE_STATE = "torch-2.10-function-mode-with-state-guard-self-check.py"
MODE_STATE_FORMS = ("torch-2.10-function-mode-with-state-guard-self-check--mode-records-each-call.py",
                    "torch-2.10-function-mode-with-state-guard-self-check--second-call-generator.py")


def test_a_guard_self_check_on_the_function_mode_stack_pins_its_bug():
    # seven forms of one torch 2.10 bug (a TorchFunctionMode changing its own state) trip the self-check with a
    # guard read off the mode stack, and their shapes are too unlike for a reduction to name them: a 2.10
    # campaign called the eighth NEW
    from oracle._worker import compiler_frame

    on_mode = _raised_by_guard_self_check(
        "1/0: len(___get_torch_function_mode_stack_at(0).names) == 9        # self.names.append(x)  # p.py:9")
    signature = f"crash:AssertionError@{compiler_frame(on_mode)}"
    assert signature == "crash:AssertionError@torch._dynamo.guards:__init__[function_mode_stack]"
    assert pins_bug(signature) and pins_bug(signature.replace("crash:", "crash:second_call:"))
    assert root_cause(signature) == root_cause(signature.replace("crash:", "crash:second_call:")) is not None
    # a guard on a local's attribute is what two bugs trip (the mode's state read off a local, a __getattr__ run
    # twice): the frame alone again, named by shape
    on_local = _raised_by_guard_self_check("1/0: len(x.misses) == 2        # self.misses.append(x)  # p.py:9")
    assert compiler_frame(on_local) == "torch._dynamo.guards:__init__"
    assert not pins_bug(f"crash:AssertionError@{compiler_frame(on_local)}")
    # the subject is read off the guard that failed, never off the rest of the message
    in_comment = _raised_by_guard_self_check("1/0: len(x.n) == 2  # ___get_torch_function_mode_stack_at(0)")
    assert compiler_frame(in_comment) == "torch._dynamo.guards:__init__"  # the program's line, not the guard
    other_frame = AssertionError("Guard fail reason: len(___get_torch_function_mode_stack_at(0).a) == 1")
    try:
        raise other_frame
    except AssertionError as exc:
        assert compiler_frame(exc) is None  # raised here, in no compiler frame: nothing to refine


def test_a_new_form_of_the_function_mode_state_bug_is_known_at_sight_on_the_torch_it_shows_on(tmp_path):
    known = KnownBugs.from_corpus(corpus_of(tmp_path, (MODE_STATE, *MODE_STATE_FORMS)))
    signature = "crash:AssertionError@torch._dynamo.guards:__init__[function_mode_stack]"
    assert Corpus(ROOT / "corpus").entries[MODE_STATE].signature == signature
    on_210 = known.match(signature, None, "torch:python=t210", versions=lambda spec: ("2.10.0", "3.11"))
    assert on_210 is not None and on_210.file == MODE_STATE
    # fixed by 2.13: the same crash there is not this bug
    assert known.match(signature, None, "torch", versions=lambda spec: ("2.13.0", "3.11")) is None
    assert known.match("crash:AssertionError@torch._dynamo.guards:__init__") is None  # the bare self-check
