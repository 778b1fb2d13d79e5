"""Root causes of mismatches: the behaviour shape of a reduced repro, blind to what only observes or feeds it."""

from __future__ import annotations

from fuzz.triage.rootcause import behaviour_shape, root_cause

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
    shapes = {behaviour_shape(LEAK), behaviour_shape(LEAK.replace("torch.no_grad()", "torch.inference_mode()")),
              behaviour_shape(LEAK.replace("    with cm:\n        pass\n", "    cm.__enter__()\n")),
              behaviour_shape(LEAK.replace("    f1(1)\n", ""))}
    assert len(shapes) == 4
    # a function whose whole body is a return keeps it: it is what entry does
    only_return = LEAK.replace("    cm = torch.no_grad()\n    f1(1)\n    with cm:\n        pass\n", "    return f1(1)\n")
    assert behaviour_shape(only_return) != behaviour_shape(only_return.replace("return f1(1)", "return f1(1) + 1"))


# Reductions of one bug (a grad-mode object made and kept un-entered across a break) that end in other shapes: the
# object entered after a break in entry itself, passed to a callee that breaks in a loop and never entered, an
# enable_grad() one made in a callee under an outer set_grad_enabled(False).
STATE_OBJECT_SHAPES = [
    LEAK,
    "import torch\n\ndef entry():\n    cm = torch.enable_grad()\n    torch._dynamo.graph_break()\n"
    "    with cm:\n        pass\n",
    "import torch\n\ndef f1(x, y):\n    for z in x:\n        torch._dynamo.graph_break()\n\n"
    "def entry(x):\n    f1(x, torch.no_grad())\n",
    "import torch\n\ndef f1():\n    c = torch.enable_grad()\n    print(1)\n    with c:\n        pass\n\n"
    "def entry():\n    with torch.set_grad_enabled(False):\n        try:\n            f1()\n        finally:\n"
    "            pass\n",
    # the break is the generator's unsupported-builtin call (zlib.crc32), as a torch 2.15 campaign reduced it
    "import zlib\nimport torch\n\ndef entry():\n    x = torch.no_grad()\n    zlib.crc32(b'f2.1')\n"
    "    with x:\n        pass\n",
]


def test_an_unentered_state_object_across_a_break_is_one_root_cause_whatever_wraps_it():
    assert {behaviour_shape(s) for s in STATE_OBJECT_SHAPES} == {"state-object:grad"}
    assert behaviour_shape(LEAK.replace("torch.no_grad()", "torch.autocast('cpu')")) == "state-object:autocast"


def test_the_state_object_rule_needs_an_object_kept_unentered_and_a_reachable_break():
    entered = [LEAK.replace("    cm = torch.no_grad()\n", "").replace("with cm:", "with torch.no_grad():"),
               LEAK.replace("    with cm:\n        pass\n", "    cm.__enter__()\n"),
               LEAK.replace("cm = torch.no_grad()", "torch.set_grad_enabled(False)"),  # the function form
               LEAK.replace("def f1(x):", "@torch.no_grad()\ndef f1(x):").replace("    cm = torch.no_grad()\n", "")
               .replace("    with cm:\n        pass\n", "")]
    no_break = [LEAK.replace("    f1(1)\n", ""),  # f1 still breaks, but nothing calls it
                LEAK.replace("torch._dynamo.graph_break()", "x = x + 1")]
    for source in entered + no_break:
        assert not behaviour_shape(source).startswith("state-object"), source
    disabled = LEAK.replace("def f1(x):\n    torch._dynamo.graph_break()\n",
                            "@torch._dynamo.disable\ndef f1(x):\n    x = x\n")
    assert behaviour_shape(disabled) == "state-object:grad"



def test_a_reduction_cut_short_is_named_by_its_shape_never_by_the_family():
    # a repro not reduced to its fixpoint may keep a mode object its bug does not need: it must not be hidden
    # under a known family, so it keeps the shape rule (two such repros meet only where their shapes do)
    cut = [behaviour_shape(s, minimal=False) for s in STATE_OBJECT_SHAPES]
    assert "state-object:grad" not in cut and len(set(cut)) == len(cut)


def test_a_break_reached_through_a_class_counts():
    # the break is in the __init__ of a class entry makes: reachable, as the generator's super()/class shapes are
    through_class = LEAK.replace("def f1(x):\n    torch._dynamo.graph_break()\n    return x\n",
                                 "class C1:\n    def __init__(self, x):\n        torch._dynamo.graph_break()\n")
    through_class = through_class.replace("    f1(1)\n", "    C1(1)\n")
    assert "class C1" in through_class and behaviour_shape(through_class) == "state-object:grad"
    assert not behaviour_shape(through_class.replace("    C1(1)\n", "")).startswith("state-object")


ESCAPES = [  # no break anywhere: the un-entered object outlives the call, so the compiler rebuilds it afterwards
    "import torch\n\nEFFECTS = []\n\n\ndef entry():\n    EFFECTS.append((torch.no_grad(),))\n",
    "import torch\n\nEFFECTS = []\n\n\ndef entry():\n    y = torch.no_grad()\n    EFFECTS.append((y,))\n"
    "    with y:\n        pass\n",
    "import torch\n\nHOLD = {}\n\n\ndef entry():\n    HOLD['cm'] = torch.enable_grad()\n",
    "import torch\n\n\ndef entry():\n    return torch.set_grad_enabled(False)\n",
]


def test_an_unentered_state_object_escaping_the_call_is_the_state_object_root_cause():
    assert {behaviour_shape(s) for s in ESCAPES} == {"state-object:grad"}
    kept_inside = ["import torch\n\n\ndef entry():\n    y = torch.no_grad()\n    with y:\n        pass\n",
                   "import torch\n\nEFFECTS = []\n\n\ndef entry():\n    y = torch.no_grad()\n"
                   "    EFFECTS.append((torch.is_grad_enabled(),))\n    with y:\n        pass\n"]
    for source in kept_inside:
        assert not behaviour_shape(source).startswith("state-object"), source


GATED = '''import torch

EFFECTS = []
COUNTER = 0


def entry():
    global COUNTER
    COUNTER = COUNTER + 1
    if COUNTER % 2 == 1:
        pass
    else:
        with torch.no_grad():
            EFFECTS.append((torch.is_grad_enabled(),))
'''


def test_a_bug_behind_an_every_other_call_gate_is_the_bug_without_it():
    ungated = "import torch\n\nEFFECTS = []\n\n\ndef entry():\n    with torch.no_grad():\n        pass\n"
    assert behaviour_shape(GATED) == behaviour_shape(ungated)
    renamed = GATED.replace("COUNTER", "y").replace("if y % 2 == 1:", "if y % 2:")  # as rename leaves it
    assert behaviour_shape(renamed) == behaviour_shape(ungated)
    negated = renamed.replace("    if y % 2:\n        pass\n    else:\n", "    if not y % 2:\n")  # as canonical-forms leaves it
    assert negated != renamed and behaviour_shape(negated) == behaviour_shape(ungated)
    # both branches do something: a real branch, kept
    both = GATED.replace("        pass\n    else:\n", "        with torch.no_grad():\n            pass\n    else:\n")
    assert behaviour_shape(both) != behaviour_shape(ungated)


def test_a_counter_read_elsewhere_is_not_a_gate():
    read = GATED.replace("            EFFECTS.append((torch.is_grad_enabled(),))\n",
                         "            EFFECTS.append((COUNTER,))\n")
    assert behaviour_shape(read) != behaviour_shape(read.replace("(COUNTER,)", "(1,)"))
    ungated = "import torch\n\nEFFECTS = []\n\n\ndef entry():\n    with torch.no_grad():\n        pass\n"
    assert behaviour_shape(GATED.replace("COUNTER = COUNTER + 1", "COUNTER = COUNTER * 3")) != \
        behaviour_shape(ungated)


# a torch 2.13 campaign's repro: the break is the hook's registration, a call no list of break calls holds
HOOKED = '''import torch

EFFECTS = []


class _C1(torch.nn.Module):
    pass


def entry():
    y = torch.no_grad()

    def f1():
        pass
    _C1().register_forward_hook(f1)
    EFFECTS.append((torch.is_grad_enabled(),))
    with y:
        pass
'''


def test_a_break_its_rechecks_saw_counts_where_the_code_names_none():
    from fuzz.triage.rootcause import breaks_unseen

    assert breaks_unseen(HOOKED) and not behaviour_shape(HOOKED).startswith("state-object")
    seen = "# ngb-fuzz program\n# graph-breaks: 1\n" + HOOKED
    assert behaviour_shape(seen) == "state-object:grad"
    assert not behaviour_shape(seen, minimal=False).startswith("state-object")  # cut short: its shape only
    for header in ("# graph-breaks: 0\n", "# graph-breaks: x\n", ""):
        assert not behaviour_shape("# ngb-fuzz program\n" + header + HOOKED).startswith("state-object")
    assert not breaks_unseen(LEAK)  # its break call says it already
    assert not breaks_unseen(HOOKED.replace("    y = torch.no_grad()\n", "").replace("with y:", "with torch.no_grad():"))


def test_the_rechecks_record_the_breaks_the_target_took():
    from fuzz.reduce._oracle import recheck

    observed: list[int] = []
    assert recheck(HOOKED, "torch", "mismatch:effects:value", 1, breaks=observed) == 1
    assert observed and observed[0] >= 1
    unbroken: list[int] = []
    plain = HOOKED.replace("    _C1().register_forward_hook(f1)\n", "")
    assert recheck(plain, "torch", "mismatch:effects:value", 1, breaks=unbroken) == 0 and unbroken == []


# The program format's helper modules: code in a string run by ``exec`` into a module the program made. Here the
# grad-mode object is made in one helper module and carried into a callee in another, whose code breaks.
IN_HELPERS = '''import types
import torch

EFFECTS = []


def entry():
    h.C1()(torch.ones(1, requires_grad=True))


h = types.ModuleType('ngb_h1')
exec(\'\'\'
import torch


class C1:
    def __call__(self, e):
        f2(e, torch.no_grad())
\'\'\', h.__dict__)
k = types.ModuleType('ngb_h2')
exec(compile(\'\'\'
def f2(x, b):
    f3(x)
    with b:
        pass


def f3(x):
    torch._dynamo.graph_break()
\'\'\', 'ngb_h2', 'exec'), k.__dict__)
h.__dict__.update({'f2': k.f2})
k.__dict__.update({'torch': torch})
'''


def test_the_state_object_rule_reads_the_code_of_helper_modules():
    from fuzz.triage.rootcause import breaks_unseen

    assert behaviour_shape(IN_HELPERS) == "state-object:grad"
    entered = IN_HELPERS.replace("f2(e, torch.no_grad())", "f2(e, None)").replace("with b:", "with torch.no_grad():")
    assert not behaviour_shape(entered).startswith("state-object")
    # no break call in any module's code: only what the re-checks saw decides, so the reducer is told to record it
    unbroken = IN_HELPERS.replace("    torch._dynamo.graph_break()\n", "    x.sin()\n")
    assert breaks_unseen(unbroken) and not behaviour_shape(unbroken).startswith("state-object")
    assert behaviour_shape("# ngb-fuzz program\n# graph-breaks: 1\n" + unbroken) == "state-object:grad"
    assert not breaks_unseen(IN_HELPERS)  # its break call says it already
