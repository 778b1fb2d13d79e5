"""inline-context-classes: ``with C(): body`` as what ``__enter__`` does, the body, what ``__exit__`` does, for a
class that simple; never where that would read differently."""

from __future__ import annotations

import pytest

from fuzz.reduce import reduce_source
from tests.reduce.helpers import pass_candidates

PROGRAM = '''import torch

EFFECTS = []


class Note:
    def __init__(self, tag):
        self.tag = tag

    def __enter__(self):
        EFFECTS.append(("in", torch.is_grad_enabled()))
        return 3

    def __exit__(self, *exc):
        EFFECTS.append(("out", torch.is_grad_enabled()))
        return False


def entry(x):
    with torch.no_grad():
        with Note("a") as k:
            y = x * k
    return y


def make_inputs(device):
    return (torch.ones(2).to(device),)
'''


def _entry(source: str) -> str:
    return source.split("def entry(x):\n")[1].split("\n\n")[0]


def test_enter_body_exit_in_order_with_the_value_bound():
    (candidate,) = pass_candidates("inline-context-classes", PROGRAM)
    assert _entry(candidate) == (
        "    with torch.no_grad():\n"
        "        EFFECTS.append(('in', torch.is_grad_enabled()))\n"
        "        k = 3\n"
        "        y = x * k\n"
        "        EFFECTS.append(('out', torch.is_grad_enabled()))\n"
        "    return y")


@pytest.mark.parametrize("change", [
    ("        return 3\n", "        return self\n"),  # reads self
    ("        EFFECTS.append((\"out\"", "        EFFECTS.append((exc[0]"),  # reads the exception arguments
    ("            y = x * k\n", "            y = x * k\n            return y\n"),  # the body skips __exit__
    ("class Note:", "class Note(dict):"),  # a base
    ("        self.tag = tag\n", "        self.tag = tag.upper()\n"),  # __init__ does something
    ("Note(\"a\")", "Note(str(1))"),  # building the instance does something
    ("        EFFECTS.append((\"in\", torch.is_grad_enabled()))\n",
     "        t = torch.is_grad_enabled()\n        EFFECTS.append((\"in\", t))\n"),  # binds a name
    ("def entry(x):\n", "def entry(x):\n    EFFECTS = []\n"),  # the caller's EFFECTS is not the method's
])
def test_refused_where_it_would_read_differently(change):
    old, new = change
    assert old in PROGRAM
    assert pass_candidates("inline-context-classes", PROGRAM.replace(old, new)) == []


def test_a_loop_of_the_body_keeps_its_own_break():
    source = PROGRAM.replace("            y = x * k\n", "            for i in range(2):\n                break\n"
                                                        "            y = x * k\n")
    assert len(pass_candidates("inline-context-classes", source)) == 1


def test_the_reduction_ends_without_the_class_where_the_effects_allow():
    def effects(source: str):
        namespace: dict = {}
        try:
            exec(compile(source, "<candidate>", "exec"), namespace)
            value = namespace["entry"](*namespace["make_inputs"]("cpu"))
        except Exception as exc:  # noqa: BLE001 - a candidate that raises is not interesting
            return type(exc)
        return namespace["EFFECTS"], value.tolist()

    expected = effects(PROGRAM)
    result = reduce_source(PROGRAM, lambda source: effects(source) == expected, budget_s=120)
    assert result.stopped == "fixpoint"
    assert "class" not in result.source and "__enter__" not in result.source
    assert effects(result.source) == expected


def test_one_item_of_several_keeps_the_items_before_around_and_those_after_inside():
    last = PROGRAM.replace("    with torch.no_grad():\n        with Note(\"a\") as k:\n            y = x * k\n",
                           "    with torch.no_grad(), Note(\"a\") as k:\n        y = x * k\n")
    (candidate,) = pass_candidates("inline-context-classes", last)
    assert _entry(candidate) == _entry(pass_candidates("inline-context-classes", PROGRAM)[0])
    first = PROGRAM.replace("    with torch.no_grad():\n        with Note(\"a\") as k:\n            y = x * k\n",
                            "    with Note(\"a\") as k, torch.no_grad():\n        y = x * k\n")
    (candidate,) = pass_candidates("inline-context-classes", first)
    assert _entry(candidate) == (
        "    EFFECTS.append(('in', torch.is_grad_enabled()))\n"
        "    k = 3\n"
        "    with torch.no_grad():\n"
        "        y = x * k\n"
        "    EFFECTS.append(('out', torch.is_grad_enabled()))\n"
        "    return y")
