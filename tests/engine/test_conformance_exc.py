"""Conformance: exceptions made or caught while tracing and looked at after a break (or made real by one).

An exception carries more than its type and args: `__traceback__` (the frames it passed through, with their
lines), `__context__` (what was being handled when it was raised), `__cause__` / `__suppress_context__`
(`raise ... from ...`) and `__notes__`. Each scenario returns `describe(e)`, all of that as plain data, so
the runner compares it with eager's like any other result.
"""

from __future__ import annotations

import sys
import traceback

import pytest
import torch

from .conformance import Scenario, check_scenario, x1

gb = torch._dynamo.graph_break


def frames(tb) -> list[tuple[str, int]]:
    """The traceback as (function name, line) pairs, innermost last (what a printed traceback shows)."""
    out = []
    while tb is not None:
        out.append((tb.tb_frame.f_code.co_name, tb.tb_lineno))
        tb = tb.tb_next
    return out


def describe(e, depth: int = 3):
    """Everything observable about an exception, as data; `depth` bounds the chain walked."""
    if e is None or depth == 0:
        return None
    return (type(e).__name__, e.args, frames(e.__traceback__), describe(e.__context__, depth - 1),
            describe(e.__cause__, depth - 1), e.__suppress_context__, getattr(e, "__notes__", None))


def traceback_after_break(log, x):
    try:
        raise ValueError("a")
    except ValueError as e:
        err = e
    gb()
    return x + 1, err.__traceback__ is None, describe(err)


def break_inside_handler(log, x):
    try:
        raise ValueError("a")
    except ValueError as e:
        gb()
        log.append(e.__traceback__ is None)
        err = e
    return x + 1, describe(err)


def context_of_raise_in_handler(log, x):
    try:
        try:
            raise ValueError("inner")
        except ValueError:
            raise KeyError("outer")  # noqa: B904 (implicit chaining is the point)
    except KeyError as e:
        err = e
    gb()
    return x * 2, describe(err)


def cause_of_raise_from(log, x):
    try:
        try:
            raise ValueError("why")
        except ValueError as v:
            raise KeyError("what") from v
    except KeyError as e:
        err = e
    gb()
    return x - 1, describe(err)


def raise_from_none(log, x):
    try:
        try:
            raise ValueError("hidden")
        except ValueError:
            raise KeyError("shown") from None
    except KeyError as e:
        err = e
    gb()
    return x, describe(err)


def exceptions_kept_in_a_list(log, x):
    errs = []
    for i in range(2):
        try:
            raise ValueError(i)
        except ValueError as e:
            errs.append(e)
    gb()
    return x, [describe(e) for e in errs]


class _Box:
    pass


def exception_on_an_attribute(log, x):
    box = _Box()
    try:
        raise RuntimeError("boxed")
    except RuntimeError as e:
        box.err = e
    gb()
    log.append(describe(box.err))
    return x + 2


def _raise_deep(n):
    if n == 0:
        raise ValueError("deep")
    return _raise_deep(n - 1) + 1


def traceback_through_frames(log, x):
    try:
        _raise_deep(2)
    except ValueError as e:
        err = e
    gb()
    return x, describe(err)


def _break_then_raise(x):
    gb()
    raise IndexError("after break")


def traceback_of_raise_after_break_in_callee(log, x):
    try:
        try:
            raise ValueError("handled")
        except ValueError:
            _break_then_raise(x)
    except IndexError as e:
        err = e
    return x, describe(err)


def _unsupported(v):
    return int("not a number")  # a ValueError raised by an eager op


def context_of_eager_op_error(log, x):
    try:
        try:
            raise KeyError("handled")
        except KeyError:
            _unsupported(x)
    except ValueError as e:
        err = e
    gb()
    return x, describe(err)


def _exc_type_now():
    return sys.exc_info()[0]  # a frame reader: runs for real, while the caller handles an exception


def exc_info_in_eager_callee(log, x):
    try:
        raise KeyError("k")
    except KeyError:
        seen = _exc_type_now()
    return x, seen


def reraise_outer_in_inner_handler(log, x):
    try:
        try:
            raise ValueError("outer")
        except ValueError as outer:
            try:
                raise KeyError("inner")
            except KeyError:
                raise outer  # noqa: B904 (implicit chaining is the point)
    except ValueError as e:
        err = e
    gb()
    return x, describe(err, 4)


def bare_reraise_keeps_traceback(log, x):
    try:
        try:
            _raise_deep(1)
        except ValueError:
            log.append("again")
            raise
    except ValueError as e:
        err = e
    gb()
    return x, describe(err)


def raise_caught_exception_again(log, x):
    try:
        raise ValueError("once")
    except ValueError as e:
        first = e
    try:
        raise first
    except ValueError as e:
        second = e
    gb()
    return x, second is first, describe(second)


def notes_and_traceback(log, x):
    try:
        raise ValueError("noted")
    except ValueError as e:
        e.add_note("a note")
        err = e
    gb()
    return x, describe(err)


class _RecordExit:
    def __init__(self, log):
        self.log = log

    def __enter__(self):
        return self

    def __exit__(self, tp, value, tb):
        self.log.append((tp.__name__ if tp else None, tb is None, frames(tb)))
        return True  # swallow


def exit_sees_traceback(log, x):
    with _RecordExit(log):
        raise ValueError("in with")
    gb()
    return x + 1


def exception_returned(log, x):
    try:
        raise ValueError("returned")
    except ValueError as e:
        err = e
    return x, err  # made real at the return (helpers.same compares exceptions as describe does)


def exception_made_not_raised(log, x):
    e = ValueError("never raised")
    gb()
    return x, describe(e)


def with_traceback_none(log, x):
    try:
        raise ValueError("a")
    except ValueError as e:
        err = e.with_traceback(None)
    gb()
    return x, describe(err)


def _parse(v):
    return _unsupported(v) + 1


def traceback_of_eager_op_error_at_depth(log, x):
    try:
        _parse(x)
    except ValueError as e:
        err = e
    gb()
    return x, describe(err)


def formatted_traceback(log, x):
    try:
        _raise_deep(1)
    except ValueError as e:
        err = e
    gb()
    return x * 2, "".join(traceback.format_exception(err))


SCENARIOS = [
    Scenario(traceback_after_break, x1, 1),
    Scenario(break_inside_handler, x1, 1),
    Scenario(context_of_raise_in_handler, x1, 1),
    Scenario(cause_of_raise_from, x1, 1),
    Scenario(raise_from_none, x1, 0),
    Scenario(exceptions_kept_in_a_list, x1, 0),
    Scenario(exception_on_an_attribute, x1, 1),
    Scenario(traceback_through_frames, x1, 0),
    Scenario(traceback_of_raise_after_break_in_callee, x1, 0),
    Scenario(context_of_eager_op_error, x1, 0),
    Scenario(exc_info_in_eager_callee, x1, 0),
    Scenario(reraise_outer_in_inner_handler, x1, 0),
    Scenario(bare_reraise_keeps_traceback, x1, 0),
    Scenario(raise_caught_exception_again, x1, 0),
    Scenario(notes_and_traceback, x1, 0),
    Scenario(exit_sees_traceback, x1, 1),
    Scenario(exception_returned, x1, 0),
    Scenario(exception_made_not_raised, x1, 0),
    Scenario(with_traceback_none, x1, 0),
    Scenario(traceback_of_eager_op_error_at_depth, x1, 0),
    Scenario(formatted_traceback, x1, 1),
]


@pytest.mark.parametrize("sc", SCENARIOS, ids=lambda sc: sc.name)
def test_exceptions(sc):
    check_scenario(sc)
