"""Conformance: the frame's namespace read through `locals`, `vars` and `dir` under other names (the frame is
traced, not run for real: see engine/_vm/_frame_readers.py). Up to Python 3.12 every call returns the
frame's one dict, refreshed (bound locals set, unbound ones deleted, keys the program added kept); from 3.13
(PEP 667) each call returns a new snapshot. The engine must give the running version's answer, also when the
dict is kept across a break. Each scenario breaks at depth >= 1."""

from __future__ import annotations

import sys

import pytest
import torch

from .conformance import Scenario, check_scenario, x1

gb = torch._dynamo.graph_break
_L = locals
_V = vars
_D = dir
# 3.13's fresh dicts are values the trace cannot tell apart by `is`: a break of its own
_SNAPSHOTS = sys.version_info >= (3, 13)


def _brk(log, tag):
    log.append(tag)
    gb()


def alias_called_twice(log, x):
    a = _L()
    b = _L()
    _brk(log, sorted(b))
    return x + 1, a is b, sorted(a), sorted(b)


def added_key_survives(log, x):
    a = _L()
    a["extra"] = 5
    b = _L()
    _brk(log, b.get("extra"))
    return x * 2, b.get("extra"), sorted(b)


def local_deleted_between_calls(log, x):
    y = x * 2
    a = _L()
    had = "y" in a
    del y
    b = _L()
    _brk(log, (had, "y" in b))
    return x + 1, had, "y" in a, "y" in b, a is b


def _kept_across_break(log, x):
    a = _L()
    _brk(log, "mid")
    y = x * 3
    b = _L()
    return a is b, sorted(a), sorted(b), y


def dict_kept_across_break(log, x):
    same, before, after, y = _kept_across_break(log, x)
    return y + 1, same, before, after


def dict_returned_across_break(log, x):
    a = _L()
    _brk(log, sorted(a))
    z = x - 1
    return z, sorted(a), sorted(_L()), "z" in a


def vars_and_locals_share(log, x):
    a = _V()
    a["tag"] = "t"
    b = _L()
    _brk(log, a is b)
    return x + 2, a is b, b.get("tag")


def dir_sees_added_key(log, x):
    a = _L()
    a["zz"] = 1
    names = _D()
    _brk(log, names)
    return x + len(names), names


SCENARIOS = [
    Scenario(alias_called_twice, x1, 1),
    Scenario(added_key_survives, x1, 1),
    Scenario(local_deleted_between_calls, x1, 2),
    Scenario(dict_kept_across_break, x1, 2 if _SNAPSHOTS else 1),
    Scenario(dict_returned_across_break, x1, 1),
    Scenario(vars_and_locals_share, x1, 1),
    Scenario(dir_sees_added_key, x1, 1),
]


@pytest.mark.parametrize("sc", SCENARIOS, ids=lambda sc: sc.name)
def test_namespace(sc):
    check_scenario(sc)
