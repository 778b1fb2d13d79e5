"""The shapes a hand-written report does not have, and the edits that take them: an instance called where it is
made, constructor arguments nothing needs, ``entry`` that only calls one function, and the rendering of nested
definitions. In-process predicates (no oracle, no torch): the candidate a pass builds on a small program, and the
programs where it must build none."""

from __future__ import annotations

import ast
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


# ---- drop-arguments: constructors -------------------------------------------------------------------------------

BUILT = HEAD + '''class C1:
    def __init__(self, a, b=2):
        self.b = b
        EFFECTS.append(a)

    def get(self, y):
        return y + self.b


def entry(x):
    return C1(1, b=3).get(x) + C1(x, 4).get(0)
''' + TAIL


def _constructor(source: str, cls: str) -> tuple[str, list[str]]:
    """A class's ``__init__`` (as source, or "") and its constructions."""
    tree = ast.parse(source)
    init = [ast.unparse(n) for n in ast.walk(tree) if isinstance(n, ast.ClassDef) and n.name == cls
            for m in n.body if isinstance(m, ast.FunctionDef) and m.name == "__init__"]
    calls = [ast.unparse(n) for n in ast.walk(tree)
             if isinstance(n, ast.Call) and isinstance(n.func, ast.Name) and n.func.id == cls]
    return (init or [""])[0], calls


def _init_edits(source: str, cls: str = "C1") -> list[str]:
    """drop-arguments' candidates that changed a class's ``__init__`` (a keyword dropped at one call is not one)."""
    return [c for c in pass_candidates("drop-arguments", source)
            if _constructor(c, cls)[0] != _constructor(source, cls)[0]]


def test_an_init_parameter_goes_with_its_argument_at_every_construction():
    dropped_a, dropped_b = _init_edits(BUILT)
    assert "def __init__(self, b=2):" in dropped_a and "return C1(b=3).get(x) + C1(4).get(0)" in dropped_a
    assert "def __init__(self, a):" in dropped_b and "return C1(1).get(x) + C1(x).get(0)" in dropped_b


def test_an_init_that_does_nothing_goes_with_every_constructions_arguments():
    trivial = BUILT.replace("        self.b = b\n        EFFECTS.append(a)\n", "        pass\n").replace(
        "y + self.b", "y + 2")
    (dropped,) = [c for c in _init_edits(trivial) if "__init__" not in c]
    assert "class C1:\n    def get(self, y):" in dropped and "return C1().get(x) + C1().get(0)" in dropped
    _same_outcome(trivial, [dropped])
    module = "import torch\n" + HEAD + '''class M(torch.nn.Module):
    def __init__(self, k):
        super().__init__()

    def forward(self, y):
        return y * 2


def entry(x):
    return M(3)(x)
''' + TAIL
    (dropped,) = [c for c in _init_edits(module, "M") if "__init__" not in c]
    assert "class M(torch.nn.Module):\n    def forward" in dropped and "return M()(x)" in dropped
    _same_outcome(module, [dropped])


def test_constructor_arguments_stay_where_the_constructions_are_not_all_known_or_init_works():
    trivial = BUILT.replace("        self.b = b\n        EFFECTS.append(a)\n", "        pass\n").replace(
        "y + self.b", "y + 2")
    subclassed = trivial.replace("def entry(x):", "class D(C1):\n    pass\n\n\ndef entry(x):")
    aliased = trivial.replace("def entry(x):", "make = C1\n\n\ndef entry(x):")
    for source in (subclassed, aliased):
        assert _init_edits(source) == [], source
    # an __init__ that does work stays (its parameters may go); so does one whose base's own __init__ would run
    assert all("def __init__" in c for c in _init_edits(BUILT))
    based = trivial.replace("class C1:", "class Base:\n    def __init__(self):\n        EFFECTS.append(0)\n\n\n"
                                         "class C1(Base):")
    assert all("def __init__(self, " in c for c in _init_edits(based))
    # another method's parameters are not a constructor's
    assert not any("def get(self):" in c for c in pass_candidates("drop-arguments", BUILT))


def test_a_class_linked_into_a_helper_module_under_its_name_is_still_constructed_only_by_name():
    # seen on a torch 2.10 campaign: a 31-line fixpoint kept ``def __init__(self, z): pass`` and ``C7(1.0)``
    # because the class's link into the helper module was taken for an unknown use
    linked = "import types\n" + HEAD + """class C7:
    def __init__(self, z):
        pass

    def get(self, y):
        return y * 2


_h = types.ModuleType("ngb_h")
_h.__dict__.update({"C7": C7})
exec(compile('''
def make(x):
    return C7(1.0).get(x)
''', "ngb_h", "exec"), _h.__dict__)


def entry(x):
    return _h.make(x)
""" + TAIL
    dropped = [c for c in _init_edits(linked, "C7") if "__init__" not in c]
    assert len(dropped) == 1 and "C7().get(x)" in dropped[0] and "C7(1.0)" not in dropped[0]
    _same_outcome(linked, dropped)
    for other in ('{"D7": C7}', '{"C7": C7, "D7": C7}'):  # under another name too: the helper may call it so
        assert _init_edits(linked.replace('{"C7": C7}', other), "C7") == []


# ---- merge-entry ------------------------------------------------------------------------------------------------

CALLEE = "import functools\n" + HEAD + '''def twice(fn):
    @functools.wraps(fn)
    def wrapped(*args):
        return fn(*args) * 2
    return wrapped


@twice
def f3(x, y):
    EFFECTS.append(x)
    return x + y


def other(x):
    return f3(x, 1)


def entry(x, y):
    return f3(x, y)
''' + TAIL.replace("(2,)", "(2, 3)")


def test_entry_that_only_calls_a_function_with_its_parameters_becomes_that_function():
    (merged,) = pass_candidates("merge-entry", CALLEE)
    assert "@twice\ndef entry(x, y):\n    EFFECTS.append(x)\n    return x + y" in merged
    assert "return entry(x, 1)" in merged and "f3" not in merged  # every use renamed
    _same_outcome(CALLEE, [merged])
    for statement in ("    f3(x, y)\n", "    x = f3(x, y)\n"):  # the value thrown away: the predicate's call
        (merged,) = pass_candidates("merge-entry", CALLEE.replace("    return f3(x, y)\n", statement))
        assert "def entry(x, y):\n    EFFECTS.append(x)" in merged
    starred = CALLEE.replace("def entry(x, y):\n    return f3(x, y)", "def entry(*inputs):\n    return f3(*inputs)")
    (merged,) = pass_candidates("merge-entry", starred)
    _same_outcome(starred, [merged])


def test_entry_stays_when_it_does_more_than_pass_its_parameters_on():
    changed = [
        CALLEE.replace("return f3(x, y)", "return f3(y, x)"),  # another order
        CALLEE.replace("return f3(x, y)", "return f3(x, 1)"),  # another argument
        CALLEE.replace("return f3(x, y)", "return f3(x, y=y)"),  # a keyword
        CALLEE.replace("def f3(x, y):", "def f3(x, y=0):"),  # a default
        CALLEE.replace("def f3(x, y):", "def f3(x, y, *z):"),
        CALLEE.replace("    return f3(x, y)\n", "    z = x\n    return f3(x, y)\n"),  # a second statement
        CALLEE.replace("    return f3(x, 1)", "    return entry(x, 1)"),  # entry named elsewhere
        CALLEE.replace("def other(x):", "def other(x, f3=1):"),  # the name a parameter
        CALLEE.replace("def other(x):", "f3 = twice(other)\n\n\ndef other(x):"),  # bound twice
        CALLEE.replace("def entry(x, y):", "@twice\ndef entry(x, y):"),
    ]
    for source in changed:
        assert pass_candidates("merge-entry", source) == [], source


# ---- shrink-loops: a comprehension over one item ----------------------------------------------------------------


def test_a_comprehension_over_one_literal_item_becomes_the_display_of_its_element():
    source = HEAD + '''def f1(x):
    EFFECTS.append(x)
    return x


def entry(x):
    a = [f1(x + c) for c in (0.5,)]
    b = {k: f1(k) for k in [x]}
    return a[0] + b[x] + sum({f1(x) for _ in range(1)})
''' + TAIL
    candidates = pass_candidates("shrink-loops", source)
    assert [c.split("def entry(x):\n")[1].split("\n")[:3] for c in candidates] == [
        ["    a = [f1(x + 0.5)]", "    b = {k: f1(k) for k in [x]}", "    return a[0] + b[x] + sum({f1(x) for _ in range(1)})"],
        ["    a = [f1(x + c) for c in (0.5,)]", "    b = {x: f1(x)}", "    return a[0] + b[x] + sum({f1(x) for _ in range(1)})"],
        ["    a = [f1(x + c) for c in (0.5,)]", "    b = {k: f1(k) for k in [x]}", "    return a[0] + b[x] + sum({f1(x)})"],
    ]
    _same_outcome(source, candidates)
    kept = [
        source.replace("(0.5,)", "(0.5, 1.0)"),  # two items
        source.replace("(0.5,)", "(f1(x),)"),  # an item that does something
        source.replace("for c in (0.5,)", "for c in (0.5,) if c"),
        source.replace("f1(x + c) for", "(y := f1(x + c)) for"),  # an element that binds a name
    ]
    for changed in kept:
        assert len(pass_candidates("shrink-loops", changed)) == 2, changed
    # in a class body, the element would see the class's names, which the comprehension does not
    in_class = source.replace("def entry(x):\n", "def entry(x):\n    class K:\n        c = 1\n        v = [c for c in (2,)]\n")
    assert all("v = [c for c in (2,)]" in c for c in pass_candidates("shrink-loops", in_class))


def test_an_unread_star_parameter_is_dropped_and_a_read_one_is_kept():
    source = HEAD + "import torch\n\n\ndef f1(*a, **y):\n    return torch.ones(1)\n\n\ndef f2(**kw):\n" \
                    "    return kw\n\n\ndef entry(x):\n    return f1(), f2()\n" + TAIL
    candidates = pass_candidates("drop-arguments", source)
    assert any("def f1(**y):" in c for c in candidates) and any("def f1(*a):" in c for c in candidates)
    assert not any("def f2():" in c for c in candidates)  # kw is read
