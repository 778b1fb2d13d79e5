"""`match` statements are traced (engine/_vm/_ops_match.py): a function holding one is no longer run
eagerly as a whole, and patterns on subjects the trace holds compile into one graph with no break; others
run the instruction's eager form (CPython's own semantics, errors included)."""

from __future__ import annotations

import collections
import dataclasses

import pytest

from .helpers import check, t


@dataclasses.dataclass
class Box:
    w: float
    h: float


Pt = collections.namedtuple("Pt", "x y")


class NoArgs:
    __match_args__ = ("a",)

    def __init__(self):
        self.a = 1


class BadArgs:
    __match_args__ = ["a"]  # not a tuple: CPython's TypeError


def classify(x, cmd):
    match cmd:
        case {"scale": k, "bias": b}:
            return x * k + b
        case [first, *rest] if rest:
            return x + first + len(rest)
        case [only]:
            return x - only
        case Box(w, h=h):
            return x * w * h
        case Pt(x=px):
            return x + px
        case int(n) | float(n):
            return x * n
        case str() as s:
            return x + len(s)
        case (1, 2) | None:
            return x * 1
        case _:
            return -x


CMDS = [{"scale": 2, "bias": 1}, {"scale": 2}, [3, 4, 5], [7], Box(2.0, 3.0), Pt(4, 5), 3, 2.5, "abc", None, (1, 2),
        {1, 2}]


@pytest.mark.parametrize("cmd", CMDS, ids=repr)
def test_patterns_traced_in_one_graph(cmd):
    c = check(classify, lambda: (t(3), cmd), graphs=1, breaks=0)
    assert not any(r.gb_id == "match" for r in c.record.break_records)


def test_a_tensor_shape_subject():
    def f(x):
        match x.shape:
            case (n,):
                return x * n
            case (n, m):
                return x.sum() + n * m
        return x

    check(f, lambda: (t(4),), graphs=1, breaks=0)
    check(f, lambda: (t(2, 3),), graphs=1, breaks=0)


def test_user_mapping_runs_the_eager_form():
    class Cfg(collections.UserDict):
        pass

    def f(x, d):
        match d:
            case {"k": v}:
                return x * v
        return x

    check(f, lambda: (t(3), Cfg(k=3)), graphs=1)


@pytest.mark.parametrize("cls", [NoArgs, BadArgs])
def test_class_pattern_errors_are_eager(cls):
    def f(x, o):
        match o:
            case cls(a, b):
                return x + a + b
        return x

    check(f, lambda: (t(3), cls() if cls is NoArgs else BadArgs()), graphs=0)
