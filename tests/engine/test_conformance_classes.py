"""Conformance scenarios on user classes that break: context managers whose __init__/__enter__/__exit__
break, zero-argument super() after a break in the same frame (it raised "super(): no arguments" before the
engine kept local 0 and the __class__ cell across breaks), and autocast used as a decorator.

The graph counts pin today's fallbacks: `super().__setattr__` / `dict.__setitem__` through super() are
calls the VM does not model (each a break), and a function decorated with `@torch.autocast` runs eagerly as
a whole (0 graphs); results, effects and torch state still equal eager's."""

from __future__ import annotations

import pytest
import torch

from .conformance import Scenario, check_scenario, x1
from .helpers import t
from .test_conformance_ctx import Tag

gb = torch._dynamo.graph_break


class BreakingInit(Tag):
    def __init__(self, log, name):
        gb()
        super().__init__(log, name)


class BreakingEnter(Tag):
    def __enter__(self):
        self.log.append("pre-enter")
        gb()
        return super().__enter__()


class BreakingExit(Tag):
    def __exit__(self, *exc):
        gb()
        return super().__exit__(*exc)


def user_cm_breaking_init(log, x):
    with BreakingInit(log, "b"):
        y = x + 1
    return y


def user_cm_breaking_enter(log, x):
    with BreakingEnter(log, "c") as v:
        y = x * 2
    return y, v


def user_cm_breaking_exit(log, x):
    with BreakingExit(log, "d"):
        y = x - 1
    return y


class Record:
    def __init__(self, log):
        object.__setattr__(self, "log", log)

    def __setattr__(self, name, value):
        self.log.append(("set", name))
        gb()
        super().__setattr__(name, value)


class Table(dict):
    def __setitem__(self, key, value):
        gb()
        super().__setitem__(key, value * 2)


def super_setattr_after_break(log, x):
    r = Record(log)
    r.value = x + 1
    return r.value * 2


def super_setitem_after_break(log, x):
    d = Table()
    d["a"] = x + 1
    return d["a"] - 1, len(d)


@torch.autocast("cpu", dtype=torch.bfloat16)
def _autocast_decorated(log, x):
    y = torch.mm(x, x)
    log.append(torch.is_autocast_enabled("cpu"))
    gb()
    return torch.mm(y, y)


def autocast_decorator_form(log, x):
    z = _autocast_decorated(log, x)
    return z, z.dtype, torch.is_autocast_enabled("cpu")


SCENARIOS = [
    Scenario(user_cm_breaking_init, x1, 1),
    Scenario(user_cm_breaking_enter, x1, 1),
    Scenario(user_cm_breaking_exit, x1, 1),
    Scenario(super_setattr_after_break, x1, 2),
    Scenario(super_setitem_after_break, x1, 3),
    Scenario(autocast_decorator_form, lambda: (t(3, 3),), 2),
]


@pytest.mark.parametrize("sc", SCENARIOS, ids=lambda sc: sc.name)
def test_classes(sc):
    check_scenario(sc)
