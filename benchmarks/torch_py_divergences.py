"""torch.compile divergences from eager found by the everyday-Python conformance family (issue #29), as
minimal programs: each runs eagerly and under torch.compile (nested_graph_breaks=True, backend "eager") and
prints both. On torch 2.13: deque_window (a maxlen deque across a break keeps one item too many: wrong
value), partial_nested (a nested partial's `args` read as ()), sorted_key_breaks (TypeError), max_key_breaks
(the key's side effects lost), map_callback_breaks (returns a tensor instead of a list) differ; on 2.15 the
first two and the last still do. The engine gives eager's answer on all (tests/engine/test_conformance_py_*).

    python benchmarks/torch_py_divergences.py
"""
import functools
from collections import deque

import torch

torch._dynamo.config.nested_graph_breaks = True
gb = torch._dynamo.graph_break


def _brk(log, tag):
    log.append(tag)
    gb()


def deque_window(log, x):
    d = deque(maxlen=3)
    for i in range(5):
        d.append(x * i)
    _brk(log, len(d))
    d.appendleft(x)
    return d.popleft() + d.pop()


def _scaled(a, x, scale=1):
    return x * a * scale


def partial_nested(log, x):
    p = functools.partial(functools.partial(_scaled, 2), scale=5)
    _brk(log, p.args)
    return p(x)


def _key_breaks(log, v):
    _brk(log, v)
    return -v


def sorted_key_breaks(log, x):
    order = sorted([2, 3, 1], key=lambda v: _key_breaks(log, v))
    return x * order[0]


def max_key_breaks(log, x):
    best = max([1, 5, 3], key=lambda v: _key_breaks(log, v))
    return x + best


def map_callback_breaks(log, x):
    return list(map(lambda v: x * _key_breaks(log, v), [1, 2]))


CASES = [(deque_window, lambda: (torch.ones(3),)), (partial_nested, lambda: (torch.ones(3),)),
         (sorted_key_breaks, lambda: (torch.ones(3),)), (max_key_breaks, lambda: (torch.ones(3),)),
         (map_callback_breaks, lambda: (torch.ones(3),))]

for fn, make in CASES:
    torch._dynamo.reset()
    outs = []
    for f in (fn, torch.compile(fn, backend="eager")):
        log, args = [], make()
        try:
            r = f(log, *args)
        except Exception as e:
            r = f"{type(e).__name__}: {e}"
        outs.append((r, log))
    same = repr(outs[0]) == repr(outs[1])
    print(f"{fn.__name__}: {'same' if same else 'DIFFERS'}\n  eager   {outs[0]}\n  compile {outs[1]}")
