"""Conformance: iterators over a list, tuple, range, str, bytes or dict (and `reversed()`, `enumerate()`,
`zip()` over them) alive across a break are eager's own objects there: the same type, position, length hint,
`__reduce__` (so pickling) and exhaustion -- in a deeper frame, in a loop whose body breaks, after `next()`,
once exhausted, and over a list that shrinks or grows under them or a dict that changes size. (A dict
iterator only its for-loop holds stays the engine's, whose steps stay traced.)"""

from __future__ import annotations

import pickle

import pytest
import torch

from .conformance import Scenario, check_scenario, x1
from .helpers import t

gb = torch._dynamo.graph_break


@torch._dynamo.disable
def look(it):
    """What a program can see of an iterator (made real for this eager call if it is not yet): its type,
    length hint, `__reduce__` with inner iterators looked at too, and what a pickled copy yields."""
    state = it.__reduce__()
    args = tuple(look(a) if hasattr(a, "__next__") else a for a in state[1])
    hint = it.__length_hint__() if hasattr(it, "__length_hint__") else None
    return (type(it).__name__, isinstance(it, type(iter([]))), hint, state[0], args, state[2:],
            list(pickle.loads(pickle.dumps(it))))


def _made_in_callee(seq, log):
    it = iter(seq)
    log.append(next(it))
    gb()
    log.append(type(it).__name__)
    return it


def iter_made_in_callee_before_break(log, x):
    it = _made_in_callee([1, 2, 3], log)
    a = next(it)
    return x + a, look(it), a


def iter_stepped_after_break_in_callee(log, x):
    its = [iter((1, 2, 3)), iter(range(2, 9, 3)), iter("ab\xe9"), iter(b"xyz"), iter("abc")]
    for it in its:
        log.append(next(it))
    _step_after_break(its, log)
    return x + 1, [look(it) for it in its]


def _step_after_break(its, log):
    gb()
    for it in its:
        log.append(next(it))


def for_loop_body_breaks(log, x):
    it = iter([1, 2, 3])
    for a in it:
        x = x + a
        gb()
        log.append((a, type(it).__name__, it.__length_hint__()))
    return x, look(it)


def for_loop_over_range_breaks(log, x):
    r = iter(range(4))
    for a in r:
        gb()
        log.append(look(r))
        if a == 2:
            break
    return x * a, look(r)


def next_after_break(log, x):
    it = iter((x, x + 1, x + 2))
    y = next(it)
    gb()
    z = next(it)
    return y + z, type(it).__name__, it.__length_hint__(), len(it.__reduce__()[1][0])


def exhausted_list_iter_ignores_growth(log, x):
    lst = [1]
    it = iter(lst)
    for a in it:
        x = x + a
    lst.append(2)  # eager's iterator dropped the list when it ran out: it yields nothing more
    for a in it:
        x = x * a
    return x, look(it)


def exhausted_across_break(log, x):
    lst, tup = [1, 2], (3,)
    a, b = iter(lst), iter(tup)
    for v in a:
        x = x + v
    log.append(next(b))
    log.append(next(b, "end"))
    gb()
    lst.append(5)
    return x, look(a), look(b), next(a, "none")


def list_shrinks_under_iter(log, x):
    lst = [1, 2, 3]
    it = iter(lst)
    next(it)
    next(it)
    lst.clear()  # eager's iterator stays at position 2, past the end
    gb()
    lst.extend([4, 5, 6])
    return x + next(it), look(it)


def reversed_across_break(log, x):
    its = [reversed((1, 2, 3)), reversed(range(5)), reversed("abc")]
    for it in its:
        log.append(next(it))
    gb()
    for it in its:
        log.append(next(it))
    return x + 1, [look(it) for it in its]


def reversed_to_its_end(log, x):
    a, b = reversed((1, 2)), reversed((3,))
    for v in a:  # runs out: a drops its tuple
        x = x + v
    log.append(next(b))  # yielded its last item, did not run out yet
    gb()
    return x, look(a), look(b)


def enumerate_and_zip_across_break(log, x):
    e = enumerate([1, 2, 3], 5)
    z = zip((1, 2, 3), "ab")
    log.append(next(e))
    log.append(next(z))
    gb()
    return x + 1, look(e), look(z), next(e), next(z)


def zip_runs_out_across_break(log, x):
    z = zip([1, 2, 3], (4,), "abc")  # the first part gives a second item before the second runs out
    for a, b, _c in z:
        x = x + a + b
    e = enumerate("ab")
    for k, c in e:
        log.append((k, c))
    gb()
    return x, look(z), look(e)


def set_iter_run_out_across_break(log, x):
    s = {1, 2}
    it = iter(s)
    for v in it:
        x = x + v
    gb()
    s.add(3)  # a real iterator that ran out ignores this; a fresh one at the end would raise
    return x, list(it), it.__length_hint__()


def iterator_passed_in(log, x, it, lst):
    for a in it:  # a real list_iterator made by the caller: traced over its list, put back where it stops
        x = x + a
        if a == 2:
            lst.append(4)
            gb()
        log.append(it.__length_hint__())
    return x, look(it), next(it, None)


def xit():
    lst = [1, 2, 3]
    it = iter(lst)
    next(it)
    return t(3), it, lst


def dict_iters_held_across_break(log, x):
    d = {"a": 1, "b": 2, "c": 3}
    its = [iter(d), iter(d.values()), iter(d.items())]  # dict_keyiterator, dict_valueiterator...
    for it in its:
        log.append(next(it))
    gb()
    d["b"] = 20  # a value changed (not the size): read as it is now
    return x + 1, [look(it) for it in its], [next(it) for it in its]


def dict_iter_made_in_callee(log, x, d):
    def first_two(m):
        it = iter(m.items())
        log.append(next(it))
        gb()
        log.append(next(it))
        return it

    it = first_two(d)
    return x * 2, look(it), list(it)


def xdict():
    return t(3), {"p": 1, "q": 2, "r": 3}


def dict_changed_size_before_break(log, x):
    d = {"a": 1, "b": 2}
    it = iter(d)
    e = enumerate(d.values(), 1)
    log.append(next(it))
    log.append(next(e))
    d["c"] = 3  # the iterators were made over two keys: their next step raises, as eagerly
    gb()
    out = [it.__length_hint__()]
    for i in (it, it, e):
        try:
            out.append(next(i))
        except RuntimeError as err:
            out.append(str(err))
    return x + 1, out


def dict_changed_size_after_break(log, x):
    d = {"a": 1, "b": 2}
    it = iter(d.items())
    log.append(next(it))
    gb()
    del d["b"]
    try:
        next(it)
    except RuntimeError as err:
        log.append(str(err))
    return x - 1, it.__length_hint__()


def dict_iters_run_out_across_break(log, x):
    d = {"a": 1}
    it = iter(d)
    z = zip(d.items(), (5, 6))
    for k in it:
        log.append(k)
    log.append(list(z))
    gb()
    d["b"] = 2  # an iterator that ran out dropped its dict: it yields nothing more, and raises nothing
    return x, look(it), look(z), next(it, "none"), next(z, "none")


def dict_loop_iterator_across_breaks(log, x):
    d = {"a": 1.0, "b": 2.0, "c": 3.0}
    for k, v in d.items():  # the loop's own iterator: no program sees it, so its steps stay traced
        gb()
        x = x + v
        log.append(k)
    return x


def dict_iter_looped_by_name(log, x):
    d = {"a": 1.0, "b": 2.0, "c": 3.0}
    it = iter(d.values())
    for v in it:  # the local sees it: eager's own after the break (each later step is an eager op)
        gb()
        x = x * v
        log.append(type(it).__name__)
    return x, look(it)


def dict_key_swapped_while_iterated(log, x):
    d = {"a": 1, "b": 2, "c": 3}
    it = iter(d)
    log.append(next(it))
    d.pop("a")  # same size again after the next line: eager's iterator goes on over its slots, then raises
    d["e"] = 5
    gb()
    try:
        for k in it:
            log.append(k)
    except RuntimeError as err:
        log.append(str(err))
    return x + 1


def dict_keys_swapped_in_loop(log, x):
    d = {"a": 1.0, "b": 2.0, "c": 3.0}
    try:
        for k in d:
            gb()
            x = x + d[k]
            log.append(k)
            if k == "a":
                d.pop("a")
                d["e"] = 5.0
    except RuntimeError as err:
        log.append(str(err))
    return x


def dict_iter_returned(log, x):
    d = {"a": 1, "b": 2}
    it = iter(d.items())
    log.append(next(it))
    return x + 1, it


SCENARIOS = [
    Scenario(iter_made_in_callee_before_break, x1, 1),
    Scenario(iter_stepped_after_break_in_callee, x1, 1),
    Scenario(for_loop_body_breaks, x1, 3),
    Scenario(for_loop_over_range_breaks, x1, 1),
    Scenario(next_after_break, x1, 2),
    Scenario(exhausted_list_iter_ignores_growth, x1, 1),
    Scenario(exhausted_across_break, x1, 1),
    Scenario(list_shrinks_under_iter, x1, 1),
    Scenario(reversed_across_break, x1, 1),
    Scenario(reversed_to_its_end, x1, 1),
    Scenario(enumerate_and_zip_across_break, x1, 1),
    Scenario(zip_runs_out_across_break, x1, 1),
    Scenario(set_iter_run_out_across_break, x1, 1),
    Scenario(iterator_passed_in, xit, 3),
    Scenario(dict_iters_held_across_break, x1, 1),
    Scenario(dict_iter_made_in_callee, xdict, 1),
    Scenario(dict_changed_size_before_break, x1, 1),
    Scenario(dict_changed_size_after_break, x1, 1),
    Scenario(dict_iters_run_out_across_break, x1, 0),
    Scenario(dict_loop_iterator_across_breaks, x1, 3),
    Scenario(dict_iter_looped_by_name, x1, 3),
    Scenario(dict_key_swapped_while_iterated, x1, 1),
    Scenario(dict_keys_swapped_in_loop, x1, 3),
    Scenario(dict_iter_returned, x1, 1),
]


@pytest.mark.parametrize("sc", SCENARIOS, ids=lambda sc: sc.name)
def test_iterators_across_breaks(sc):
    check_scenario(sc)
