"""The shapes a hand-written report does not have, and the edits that take them: an instance called where it is
made, constructor arguments nothing needs, ``entry`` that only calls one function, and the rendering of nested
definitions. In-process predicates (no oracle, no torch): the candidate a pass builds on a small program, and the
programs where it must build none."""

from __future__ import annotations

import types

from fuzz.reduce._tree import Program
from tests.reduce.helpers import HEAD, TAIL, pass_candidates

# ---- rendering --------------------------------------------------------------------------------------------------


def test_a_nested_definition_that_opens_a_block_follows_its_header_directly():
    source = '''import torch


class C1:
    """doc:

    def not_code"""

    def f(self):
        def g():
            pass
        return g


def entry(x):
    if x:
        @torch.no_grad()
        def k():
            pass
    x = 1

    def m():
        pass
    return x
'''
    out = Program.parse(source).source
    assert "    def f(self):\n        def g():\n" in out
    assert "    if x:\n        @torch.no_grad()\n        def k():\n" in out
    assert '"""doc:\n\n    def not_code"""' in out  # a string's own blank line stays
    assert "    x = 1\n\n    def m():\n" in out  # a definition after a statement keeps its blank line
    assert "        return g\n\n\ndef entry(x):\n" in out  # and module-level ones their two


def _run(source: str):
    module = types.ModuleType("candidate")
    try:
        exec(compile(source, "candidate", "exec"), module.__dict__)
        return module.entry(*module.make_inputs("cpu")), module.EFFECTS
    except Exception as exc:  # noqa: BLE001 - the outcome is what the predicate looks at
        return type(exc), module.EFFECTS


def _same_outcome(source: str, candidates: list[str]) -> None:
    for candidate in candidates:
        assert _run(candidate) == _run(source), candidate


# ---- inline-classes: an instance called where it is made ------------------------------------------------------

CALLED = HEAD + '''class C1:
    def __init__(self, x):
        pass

    def __call__(self, y):
        z = y * 2
        EFFECTS.append(z)
        return z


def entry(x):
    return C1(1.0)(x) + 1
''' + TAIL


def test_an_instance_called_where_it_is_made_becomes_a_function_call():
    (function,) = pass_candidates("inline-classes", CALLED)
    assert "def C1_call(y):\n    z = y * 2\n    EFFECTS.append(z)\n    return z" in function
    assert "return C1_call(x) + 1" in function and "class" not in function
    _same_outcome(CALLED, [function])


MODULE = HEAD + '''import torch


class M(torch.nn.Module):
    def __init__(self, k):
        super().__init__()
        self.k = k
        self.w = torch.nn.Parameter(torch.full((), 2.0))

    def forward(self, y):
        EFFECTS.append(self.k)
        return y * self.w


def entry(x):
    return M(3)(x)
''' + TAIL.replace("(2,)", "(torch.tensor(3.0),)")


def test_a_module_called_where_it_is_made_becomes_its_forward_with_its_parameter_an_argument():
    (function,) = pass_candidates("inline-classes", MODULE)
    assert "def M_forward(w, y):\n    EFFECTS.append(3)\n    return y * w" in function
    assert "return M_forward(torch.nn.Parameter(torch.full((), 2.0)), x)" in function
    assert "class" not in function
    _same_outcome(MODULE, [function])


def test_a_called_instance_is_kept_where_the_function_would_run_something_else():
    needs_self = CALLED.replace("        z = y * 2\n", "        z = y * 2\n        self.last = z\n")
    helper = CALLED.replace("        z = y * 2\n", "        z = self.twice(y)\n").replace(
        "    def __call__", "    def twice(self, y):\n        return y * 2\n\n    def __call__")
    its_class = CALLED.replace("        z = y * 2\n", "        z = y * len(__class__.__name__)\n")
    works = CALLED.replace("        pass\n", "        EFFECTS.append('built')\n        self.k = 2\n", 1)
    for source in (needs_self, helper, its_class, works):
        assert not any("C1_call" in c for c in pass_candidates("inline-classes", source)), source


def test_a_passed_attribute_keeps_where_and_in_which_order_eager_evaluated_it():
    source = HEAD + '''def g(v):
    EFFECTS.append(v)
    return v


class C1:
    def __init__(self, a, b):
        self.b = b
        self.a = a

    def __call__(self, y):
        z = y + self.a
        return z + self.b


def entry(x):
    return C1(g(1), g(2))(x)
''' + TAIL
    # b's argument would run before a's: not a candidate
    assert not any("C1_call" in c for c in pass_candidates("inline-classes", source))
    in_order = source.replace("        self.b = b\n        self.a = a\n", "        self.a = a\n        self.b = b\n")
    (function,) = pass_candidates("inline-classes", in_order)
    assert "return C1_call(g(1), g(2), x)" in function
    _same_outcome(in_order, [function])
    # a global the attribute's expression reads is a local where the instance is called: not a candidate
    shadowed = in_order.replace("self.b = b", "self.b = b + K").replace(
        "    return C1(", "    K = 5\n    return C1(").replace("def g(v):", "K = 1\n\n\ndef g(v):")
    assert not any("C1_call" in c for c in pass_candidates("inline-classes", shadowed))
