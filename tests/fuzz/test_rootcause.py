"""Root causes of mismatches: the behaviour shape of a reduced repro, blind to what only observes or feeds it."""

from __future__ import annotations

from fuzz.rootcause import behaviour_shape, root_cause

LEAK = '''import torch

EFFECTS = []


def f1(x):
    torch._dynamo.graph_break()
    return x


def entry():
    cm = torch.no_grad()
    f1(1)
    with cm:
        pass


def make_inputs(device):
    return ()
'''

# The same leak as another reduction left it: helpers in another order, an input it kept, the leaked grad mode
# made visible through the value returned (requires_grad) and through the effect log.
LEAK_SEEN_OTHERWISE = '''import torch

EFFECTS = []


def g(y):
    return y + 1


def helper(v):
    torch._dynamo.graph_break()
    return v


def entry(t):
    state = torch.no_grad()
    helper(2)
    with state:
        pass
    EFFECTS.append(("grad", torch.is_grad_enabled()))
    return g(t) * 2


def make_inputs(device):
    return (torch.ones(3, requires_grad=True),)
'''


def test_one_leak_seen_through_inputs_returns_effects_and_helper_order_is_one_root_cause():
    other = LEAK.replace("def f1(x):", "def g(y):\n    return y + 1\n\n\ndef f1(x):")  # same helpers as the variant
    assert behaviour_shape(other) == behaviour_shape(LEAK_SEEN_OTHERWISE)
    assert root_cause("mismatch:torch_state:grad_enabled", behaviour_shape(other)) == root_cause(
        "mismatch:value:requires_grad", behaviour_shape(LEAK_SEEN_OTHERWISE))


def test_what_the_program_does_still_tells_bugs_apart():
    shapes = {behaviour_shape(LEAK), behaviour_shape(LEAK.replace("torch.no_grad()", "torch.enable_grad()")),
              behaviour_shape(LEAK.replace("    with cm:\n        pass\n", "    cm.__enter__()\n")),
              behaviour_shape(LEAK.replace("    f1(1)\n", ""))}
    assert len(shapes) == 4
    # a function whose whole body is a return keeps it: it is what entry does
    only_return = LEAK.replace("    cm = torch.no_grad()\n    f1(1)\n    with cm:\n        pass\n", "    return f1(1)\n")
    assert behaviour_shape(only_return) != behaviour_shape(only_return.replace("return f1(1)", "return f1(1) + 1"))
