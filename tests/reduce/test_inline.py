"""inline-calls: a function called once folded into its caller, wherever its call is evaluated once. In-process
predicates (no oracle, no torch)."""

from __future__ import annotations

from fuzz.reduce import PASSES, reduce_source
from fuzz.reduce._tree import Program

HEAD = "EFFECTS = []\n\n\n"
TAIL = "\n\ndef make_inputs(device):\n    return (2,)\n"


def _candidates(source: str, name: str = "inline-calls") -> list[str]:
    (chosen,) = [p for p in PASSES if p.name == name]
    return [c.source for c in (edit() for edit in chosen.edits(Program.parse(source))) if c is not None]


def _value(source: str):
    namespace: dict = {}
    exec(compile(source, "candidate", "exec"), namespace)
    return namespace["entry"](*namespace["make_inputs"]("cpu"))


OPERANDS = HEAD + '''def f1(y):
    z = y * 3
    return z + 1


def f2(y):
    EFFECTS.append(y)
    return y


def entry(x):
    items = [x * 0.5, f1(x), x]
    return f2(x) * 2 + items[1]
''' + TAIL


def test_calls_inside_displays_and_operators_are_inlined():
    result = reduce_source(OPERANDS, lambda s: _value(s) == 11,
                           passes=[p for p in PASSES if p.name == "inline-calls"])
    assert "def f1" not in result.source and "def f2" not in result.source
    entry = result.source.split("def entry(x):\n")[1].split("\n\n")[0]
    assert entry == ("    y = x\n    z = y * 3\n    items = [x * 0.5, z + 1, x]\n    y = x\n    EFFECTS.append(y)\n"
                     "    return y * 2 + items[1]")


def test_a_call_evaluated_maybe_or_many_times_is_not_inlined():
    for call_site in ("[f1(k) for k in range(1)][0]", "x and f1(x)", "f1(x) if x else x", "(lambda: f1(x))()"):
        source = HEAD + f'''def f1(y):
    return y + 1


def entry(x):
    return {call_site}
''' + TAIL
        assert _candidates(source) == [], call_site


def test_a_call_in_a_loop_condition_is_not_inlined_but_one_in_a_loop_body_is():
    source = HEAD + '''def f1(y):
    return y - 1


def entry(x):
    while f1(x) > 5:
        x = x - 1
    return x
''' + TAIL
    assert _candidates(source) == []
    body = source.replace("while f1(x) > 5:\n        x = x - 1", "for k in range(2):\n        x = f1(x) * 2")
    (inlined,) = _candidates(body)
    assert "for k in range(2):\n        y = x\n        x = (y - 1) * 2" in inlined
    assert _value(inlined) == _value(body)


CONTEXTS = '''import contextlib

import torch

EFFECTS = []


@contextlib.contextmanager
def cm():
    EFFECTS.append('enter')
    yield
    EFFECTS.append('exit')


@torch.no_grad()
@cm()
def f1(y):
    EFFECTS.append(torch.is_grad_enabled())
    return y * 2


@torch.no_grad()
def f2(y):
    return y * 3


def entry(x):
    f1(x)
    return f2(x) + 1
''' + TAIL


def _run(source: str):
    namespace: dict = {}
    exec(compile(source, "candidate", "exec"), namespace)
    return namespace["entry"](*namespace["make_inputs"]("cpu")), namespace["EFFECTS"]


def test_a_callee_decorated_only_with_context_managers_is_inlined_in_their_block():
    assert _candidates(CONTEXTS) == []  # inline-calls takes undecorated callees; its late twin these
    candidates = _candidates(CONTEXTS, "inline-decorated-calls")
    (inlined,) = candidates  # f1 (a statement of its own); not f2, whose result is computed under no_grad
    assert "def f1" not in inlined
    assert ("def entry(x):\n    y = x\n    with torch.no_grad(), cm():\n"
            "        EFFECTS.append(torch.is_grad_enabled())\n        y * 2\n    return f2(x) + 1\n") in inlined
    assert _run(inlined) == _run(CONTEXTS) == (7, ['enter', False, 'exit'])
    # a result that is a name is read after the block: the same value
    named = CONTEXTS.replace("    return y * 3\n", "    z = y * 3\n    return z\n")
    (_, by_name) = _candidates(named, "inline-decorated-calls")
    assert "    with torch.no_grad():\n        z = y * 3\n    return z + 1\n" in by_name
    assert _run(by_name) == _run(named)


def test_a_decorator_that_is_not_only_a_context_manager_keeps_the_callee():
    for decorator in ("torch.set_grad_enabled(False)",  # makes the grad mode at the def
                      "torch.no_grad",  # not called: a different object
                      "torch.autocast(DEVICE)",  # an argument read at the def
                      "functools.lru_cache()", "torch._dynamo.disable()", "cm"):
        source = CONTEXTS.replace("@torch.no_grad()\n@cm()\n", f"@{decorator}\n")
        assert not [c for c in _candidates(source, "inline-decorated-calls") if "def f1" not in c], decorator
    generator = CONTEXTS.replace("    return y * 2\n", "    yield y * 2\n")  # the decorator wraps each step
    assert not [c for c in _candidates(generator, "inline-decorated-calls") if "def f1" not in c]


def test_inline_variables_skips_a_class_body_assignment():
    # a local class's class-level store is in no function scope the pass walks: no candidate, and no crash
    source = (
        "import torch\n\n\ndef entry(x):\n    class Local:\n        scale = 0.5\n\n"
        "        def apply(self, v):\n            return v * self.scale\n    return Local().apply(x)\n"
    )
    candidates = _candidates(source, "inline-variables")
    assert all("scale = 0.5" in c for c in candidates)
