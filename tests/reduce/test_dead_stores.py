"""remove-dead-stores: every store nothing reads goes in the first candidate, and never one that is read."""

from __future__ import annotations

from fuzz.reduce._tree import Program
from tests.reduce.helpers import HEAD, TAIL, pass_candidates

PROGRAM = HEAD + '''import torch


def f5(x):
    x = x + 1
    cm30 = 'c'
    torch._dynamo.graph_break()
    y4 = x
    x = x
    z = torch.sin(x)
    return x


def entry(x):
    acc61 = x

    def inner61(x):
        nonlocal acc61
        return f5(x)
    return inner61(x)
''' + TAIL


def test_the_first_candidate_takes_every_dead_store_and_keeps_values_that_can_do_something():
    first = pass_candidates("remove-dead-stores", PROGRAM)[0]
    for gone in ("cm30", "y4", "x = x\n", "z =", "nonlocal", "acc61"):
        assert gone not in first, gone
    assert "    torch.sin(x)\n" in first and "x = x + 1" in first and Program.parse(first).is_valid()


def test_stores_that_are_read_or_run_again_stay():
    source = HEAD + '''import torch
COUNT = 0


def entry(x):
    global COUNT
    COUNT = 1
    y = x * 2
    for i in range(2):
        w = x
        if i:
            x = w
    k = 3

    def g():
        return k
    return y + g()
''' + TAIL
    assert pass_candidates("remove-dead-stores", source) == []


def test_a_nonlocal_that_is_stored_stays():
    source = HEAD + '''import torch


def entry(x):
    n = 0

    def bump():
        nonlocal n
        n += 1
    bump()
    return x + n
''' + TAIL
    assert pass_candidates("remove-dead-stores", source) == []


def test_the_driver_runs_the_tidy_pass_again_after_a_pass_that_kept_an_edit():
    import ast

    from fuzz.reduce import reduce_source
    from fuzz.reduce.passes import reduction_pass
    from fuzz.reduce.passes._dead import remove_dead_stores

    source = HEAD + '''import torch


def entry(x):
    cm = 'c'
    y = x + 1
    if cm:
        y = y * 2
    return y
''' + TAIL

    @reduction_pass("drop-if")
    def drop_if(prog):
        def build():
            new = prog.copy()
            fn = next(s for s in new.tree.body if getattr(s, "name", "") == "entry")
            kept = [s for s in fn.body if not isinstance(s, ast.If)]
            if len(kept) == len(fn.body):
                return None
            fn.body = kept
            return new
        yield build

    @reduction_pass("other")
    def other(prog):
        def build():
            new = prog.copy()
            new.tree.body = [s for s in new.tree.body if not isinstance(s, ast.Assign)]  # EFFECTS = []
            return new
        yield build

    tried: list[str] = []

    def interesting(candidate: str) -> bool:
        tried.append(candidate)
        return "x + 1" in candidate

    # remove-dead-stores comes last in the order: after drop-if kept its edit, the dead `cm = 'c'` goes next,
    # before the pass that follows drop-if in the order
    reduce_source(source, interesting, passes=[drop_if, other, remove_dead_stores], budget_s=30)
    assert "if cm" not in tried[1] and "cm =" in tried[1]
    assert "cm =" not in tried[2] and "EFFECTS = []" in tried[2]
