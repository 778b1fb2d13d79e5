"""Exceptions, generators and tensor subclasses as the worker observes them: exception groups by their members,
chained causes and contexts (but not a compiler's own context), generator objects by their state, a subclass's
data as a plain tensor."""

import sys

import pytest
import torch

from oracle import _observe as obs
from oracle._compare import compare_calls
from oracle._verdict import _crash

needs_groups = pytest.mark.skipif(sys.version_info < (3, 11), reason="ExceptionGroup is Python 3.11+")


def _raised(fn):
    try:
        fn()
    except BaseException as exc:  # noqa: BLE001 - the test observes what was raised
        return exc
    raise AssertionError("did not raise")


@needs_groups
def test_an_exception_group_is_observed_by_its_members_recursively():
    def group(inner):
        return ExceptionGroup("outer", [ValueError("v"), ExceptionGroup("inner", [KeyError(inner)])])  # noqa: F821

    seen = obs.observe_exception(group("k"))
    assert seen[:2] == ("ExceptionGroup", "outer (2 sub-exceptions)")
    assert seen[2] == [("group", [("ValueError", "v"),
                                  ("ExceptionGroup", "inner (1 sub-exception)", [("group", [("KeyError", "'k'")])])])]
    assert obs.observe_exception(group("k")) == seen  # deterministic
    assert obs.observe_exception(group("other")) != seen  # a member two levels down differs: seen


def test_a_plain_exception_stays_a_pair():
    assert obs.observe_exception(ValueError("v")) == ("ValueError", "v")


def test_a_cause_and_a_context_are_observed_across_frames():
    def deep():
        raise ValueError("deep")

    def with_cause():
        try:
            deep()
        except ValueError as e:
            raise RuntimeError("mid") from e

    def with_context():
        try:
            deep()
        except ValueError:
            raise TypeError("mid")  # noqa: B904 - the implicit context is what is observed

    def suppressed():
        try:
            deep()
        except ValueError:
            raise TypeError("mid") from None

    assert obs.observe_exception(_raised(with_cause)) == ("RuntimeError", "mid", [("cause", ("ValueError", "deep"))])
    assert obs.observe_exception(_raised(with_context)) == \
        ("TypeError", "mid", [("context", ("ValueError", "deep"))])
    assert obs.observe_exception(_raised(suppressed)) == ("TypeError", "mid")


def test_a_context_raised_by_the_compiler_itself_is_left_out():
    # a frame of a module named like torch's: the KeyError it raises and handles is the compiler's own business
    compiler = {"__name__": "torch._dynamo.fake"}
    exec("def lookup(table, key, user):\n"
         "    try:\n"
         "        return table[key]\n"
         "    except KeyError:\n"
         "        return user()\n", compiler)

    def user():
        raise ValueError("user")

    assert obs.observe_exception(_raised(lambda: compiler["lookup"]({}, "k", user))) == ("ValueError", "user")


def test_a_chain_cycle_ends():
    a, b = ValueError("a"), ValueError("b")
    a.__cause__, b.__cause__ = b, a
    assert "cause" in repr(obs.observe_exception(a))


@needs_groups
def test_a_difference_in_a_group_member_is_an_exception_mismatch_of_class_chain():
    def record(member):
        group = ExceptionGroup("g", [ValueError(member)])  # noqa: F821
        return [{"exception": obs.observe_exception(group), "torch_state": {}}]

    assert compare_calls(record("a"), record("a"), None) == []
    (difference,) = compare_calls(record("a"), record("b"), None)
    assert (difference.aspect, difference.cls) == ("exception", "chain")


def test_a_crash_verdict_reads_a_chained_exception():
    record = {"exception": obs.observe_exception(_raised(lambda: _chain())), "root_cause": None}
    verdict = _crash(0, record, None)
    assert verdict.signature == "crash:RuntimeError@program" and "RuntimeError: mid" in verdict.detail


def _chain():
    try:
        raise ValueError("deep")
    except ValueError as e:
        raise RuntimeError("mid") from e


def test_generators_are_observed_with_their_state():
    def gen():
        yield 1
        yield 2

    g = gen()
    assert obs.observe(g) == ("generator", gen.__qualname__, "GEN_CREATED")
    next(g)
    assert obs.observe(g)[2] == "GEN_SUSPENDED"
    g.close()
    assert obs.observe(g)[2] == "GEN_CLOSED"


# Loaded three times: as the script, then by the footer for eager and for the compiled run, which raises a group
# whose member has another type.
_TWO_LOADS = '''import sys

import torch

_RUNS = sys.__dict__.setdefault("_ngb_test_loads", [])
_RUNS.append(1)
_MEMBER = KeyError if len(_RUNS) >= 3 else ValueError


def entry(x):
    raise ExceptionGroup("g", [_MEMBER("m")])


def make_inputs(device):
    return (torch.ones(2, device=device),)
'''


@needs_groups
def test_the_standalone_footer_compares_an_exception_groups_members(tmp_path):
    import subprocess

    from oracle import standalone_footer

    path = tmp_path / "group.py"
    path.write_text(_TWO_LOADS + "\n\n" + standalone_footer())
    result = subprocess.run([sys.executable, str(path), "torch"], capture_output=True, text=True, timeout=300)
    assert result.returncode == 1 and "MISMATCH" in result.stdout, result.stdout + result.stderr
    assert "KeyError" in result.stdout


class _Sub(torch.Tensor):
    pass


def test_a_tensor_subclass_is_observed_as_a_plain_tensor_that_pickles():
    import pickle

    seen = obs.observe(torch.ones(2).as_subclass(_Sub) * 2)
    assert type(seen[5]) is torch.Tensor and seen[5].tolist() == [2.0, 2.0]
    pickle.loads(pickle.dumps(seen))
