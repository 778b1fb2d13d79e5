"""Conformance: side effects happen exactly once and in program order relative to the eager op (a break)."""

from __future__ import annotations

import types

import pytest
import torch

from .conformance import Scenario, check_scenario, x1
from .helpers import t

gb = torch._dynamo.graph_break


STATE = types.SimpleNamespace()
COUNTER = 0
BUF = None


def _setup():
    global COUNTER, BUF
    COUNTER = 0
    BUF = torch.zeros(3)
    STATE.__dict__.clear()
    STATE.items = []


def _module_state():
    return COUNTER, BUF.clone(), dict(STATE.__dict__)


def list_mutations_around_break(log, x):
    log.append(1)
    log.extend([2, 3])
    gb()
    log.insert(0, 0)
    log.pop()
    log[1] = "one"
    del log[-1]
    return x + len(log)


def dict_mutations_around_break(log, x):
    d = {"a": 1}
    log.append(d)
    d["b"] = 2
    gb()
    d.pop("a")
    d.update(c=3)
    d.setdefault("e", x.sum().item() > -100)
    return x * len(d)


def set_mutations_around_break(log, x):
    s = {1, 2}
    s.add(3)
    gb()
    s.discard(1)
    log.append(sorted(s))
    return x + len(s)


class Box:
    def __init__(self, v):
        self.v = v


def attribute_stores(log, x, box):
    box.v = box.v + 1
    box.seen = True
    gb()
    box.v = box.v * 2
    log.append(box.v)
    return x * box.v


def global_stores(log, x):
    global COUNTER
    COUNTER += 1
    log.append(COUNTER)
    gb()
    COUNTER += 10
    log.append(COUNTER)
    return x + COUNTER


def global_object_attribute(log, x):
    STATE.items.append("a")
    STATE.last = 1
    gb()
    STATE.items.append("b")
    STATE.last = 2
    return x * len(STATE.items)


def inplace_input_tensor(log, x):
    x.add_(1)
    log.append("added")
    gb()
    x.mul_(3)
    return x.sum()


def inplace_global_tensor(log, x):
    BUF.add_(x)
    gb()
    BUF.mul_(2)
    return BUF + 1


def inplace_view_of_input(log, x):
    v = x[1:]
    v.zero_()
    gb()
    x[0] = 5.0
    return x


def effect_order_with_print(log, x):
    log.append("before")
    y = x + 1
    print("conformance: print is the break")
    log.append("after")
    return y * 2


def effects_in_callee_before_break(log, x):
    def callee(v):
        log.append(("callee", 1))
        gb()
        log.append(("callee", 2))
        return v + 1

    log.append("caller-before")
    y = callee(x)
    log.append("caller-after")
    return y


def effect_then_exception(log, x):
    log.append("start")
    gb()
    log.append("middle")
    raise ValueError("after effects")


def mutate_list_argument(log, x, lst):
    lst.append(x)
    gb()
    lst[0] = lst[0] + 1
    lst.reverse()
    return len(lst)


def mutate_dict_argument(log, x, d):
    d["x"] = x + 1
    gb()
    del d["k"]
    d["n"] = d.get("n", 0) + 1
    return d["x"] * 2


def list_alias_mutated(log, x):
    a = [1]
    b = a
    gb()
    b.append(2)
    log.append(a)
    return x + len(a)


def _grow_eagerly(d):
    d["eager"] = 1


_grow_eagerly = torch._dynamo.disable(_grow_eagerly)


def dict_grows_while_iterated(log, x):
    d = {"a": 1, "b": 2}
    try:
        for k in d:
            log.append(k)
            d[k + "!"] = 0  # eager: RuntimeError at the next step
    except RuntimeError as e:
        log.append(str(e))
    return x + 1, d


def dict_grows_across_break(log, x, d):
    try:
        for k, v in d.items():
            gb()
            log.append((k, v))
            d.pop("b", None)
    except RuntimeError as e:
        log.append(str(e))
    return x * 2


def dict_values_stored_ahead(log, x):
    d = {"a": 1, "b": 2, "c": 3}
    out = []
    for v in d.values():
        d["c"] = v * 10  # a value ahead of the iterator: eager yields the new one
        out.append(v)
    return x - 1, out


def dict_grows_in_eager_callee(log, x):
    d = {"a": 1, "b": 2}
    try:
        for k in d:
            log.append(k)
            _grow_eagerly(d)
    except RuntimeError as e:
        log.append(str(e))
    return x + 3, d


def dict_grows_under_enumerate(log, x):
    d = {"a": 1, "b": 2}
    try:
        for i, k in enumerate(d):
            gb()
            d[k + "!"] = i
    except RuntimeError as e:
        log.append(str(e))
    return x + 1, d


def dict_values_under_zip(log, x):
    d = {"a": 1, "b": 2, "c": 3}
    out = []
    for i, v in zip(range(3), d.values()):
        d["c"] = 99  # ahead of the iteration: eager yields it
        out.append((i, v))
    return x * 2, out


SCENARIOS = [
    Scenario(list_mutations_around_break, x1, 1),
    Scenario(dict_mutations_around_break, x1, 2),
    Scenario(set_mutations_around_break, x1, 1),
    Scenario(attribute_stores, lambda: (t(3), Box(1)), 1),
    Scenario(global_stores, x1, 2, setup=_setup, observe=_module_state),
    Scenario(global_object_attribute, x1, 2, setup=_setup, observe=_module_state),
    Scenario(inplace_input_tensor, x1, 2),
    Scenario(inplace_global_tensor, x1, 2, setup=_setup, observe=_module_state),
    Scenario(inplace_view_of_input, x1, 2),
    Scenario(effect_order_with_print, x1, 2),
    Scenario(effects_in_callee_before_break, x1, 1),
    Scenario(effect_then_exception, x1, 0, raises=True),
    Scenario(mutate_list_argument, lambda: (t(3), [1, 2]), 0),
    Scenario(mutate_dict_argument, lambda: (t(3), {"k": 1}), 2),
    Scenario(list_alias_mutated, x1, 1),
    Scenario(dict_grows_while_iterated, x1, 1),
    Scenario(dict_grows_across_break, lambda: (t(3), {"a": 1, "b": 2}), 1),
    Scenario(dict_values_stored_ahead, x1, 1),
    Scenario(dict_grows_in_eager_callee, x1, 1),
    Scenario(dict_grows_under_enumerate, x1, 1),
    Scenario(dict_values_under_zip, x1, 1),
]


@pytest.mark.parametrize("sc", SCENARIOS, ids=lambda sc: sc.name)
def test_side_effects(sc):
    check_scenario(sc)
