"""Scenarios for the registered models (engine/_vm/_iface.py MODELS) that no other scenario needed, as
found by benchmarks/model_necessity.py: without the model the call runs eagerly, which breaks the graph, so
each scenario's exact graph count (and the break count the script compares) changes. Each breaks in a
called helper (depth >= 1)."""

from __future__ import annotations

import itertools
import math
import operator
from collections import deque

import pytest
import torch

from .conformance import Scenario, check_scenario, x1

gb = torch._dynamo.graph_break


def _brk(log, tag):
    log.append(tag)
    gb()


def pure_builtins_on_constants(log, x):
    # each folded on constants; unmodeled, each would be an eager op between two graphs
    y = x * 2
    text = (ascii("é"), bin(5), bytes(3), chr(65), complex(1, 2), format(3.5, ".2f"), hex(255), oct(8))
    nums = (ord("a"), pow(2, 5), round(2.567, 2), float("1.5"), int("7"), hash(12), bool(0))
    roots = (math.sqrt(16.0), math.floor(2.7), math.ceil(2.1))
    y = y + nums[1] + roots[0]
    _brk(log, text)
    return y * nums[0], text, nums, roots


def operator_functions(log, x):
    ints = (operator.add(7, 3), operator.sub(7, 3), operator.mul(7, 3), operator.truediv(7, 2),
            operator.floordiv(7, 2), operator.mod(7, 3), operator.pow(2, 3), operator.lshift(1, 3),
            operator.rshift(16, 2), operator.and_(6, 3), operator.or_(6, 3), operator.xor(6, 3))
    inplace = (operator.iadd(7, 3), operator.isub(7, 3), operator.imul(7, 3), operator.itruediv(7, 2),
               operator.ifloordiv(7, 2), operator.imod(7, 3), operator.ipow(2, 3), operator.ilshift(1, 3),
               operator.irshift(16, 2), operator.iand(6, 3), operator.ior(6, 3), operator.ixor(6, 3))
    cmps = (operator.lt(1, 2), operator.le(2, 2), operator.eq(1, 2), operator.ne(1, 2), operator.gt(1, 2),
            operator.ge(2, 1))
    y = operator.matmul(x, x) + operator.add(x, 1)
    _brk(log, ints)
    return y * operator.getitem(ints, 0), ints, inplace, cmps


def deque_count_clear(log, x):
    d = deque([1, 2, 1, 3])
    n = d.count(1)
    d.clear()
    d.append(n)
    _brk(log, list(d))
    return x * n, list(d)


def filterfalse_callback(log, x):
    odd = list(itertools.filterfalse(lambda v: v % 2 == 0, [1, 2, 3, 4, 5]))
    _brk(log, odd)
    return x * len(odd), odd


class _Box:
    pass


def set_and_setattr(log, x):
    s = set([3, 1, 3, 2])
    box = _Box()
    field = "n"
    setattr(box, field, len(s))
    _brk(log, box.n)
    return x * box.n, sorted(s), box.n


def repr_of_exception(log, x):
    err = ValueError("bad", 2)
    text = repr(err)
    _brk(log, text)
    return x + len(text), text


SCENARIOS = [
    Scenario(pure_builtins_on_constants, x1, 2),
    Scenario(operator_functions, x1, 2),
    Scenario(deque_count_clear, x1, 1),
    Scenario(filterfalse_callback, x1, 1),
    Scenario(set_and_setattr, x1, 1),
    Scenario(repr_of_exception, x1, 1),
]


@pytest.mark.parametrize("sc", SCENARIOS, ids=lambda sc: sc.name)
def test_models_cover(sc):
    check_scenario(sc)
