"""The trigger rule (fuzz/triage/trigger.py): which calls a finding needs the compiler to trace, and which corpus
bugs need the same (KNOWN?). Unit tests on scripted checks; one test runs torch on a form of the corpus's
``format`` bug written here."""

from __future__ import annotations

from pathlib import Path

import pytest

from fuzz.triage.trigger import (
    EAGER,
    GENERATOR,
    Form,
    Triggers,
    call_sites,
    finding_kind,
    isolate,
    trigger_of,
)

PROGRAM = '''# ngb-fuzz program
# signature: mismatch:value:value
import collections
import functools as ft
from itertools import chain

import torch

EFFECTS = []
TABLE = sorted([3, 1])


def helper(v):
    return v


def entry(x):
    d = collections.deque([x], maxlen=2)
    d.extend([x])
    torch._dynamo.graph_break()
    EFFECTS.append(len(d))
    p = ft.partial(helper, 1)
    return format(3, "b"), list(chain([p()], d)), helper(x)


def make_inputs(device):
    return (torch.ones(2).to(device),)
'''


def test_call_sites_name_calls_by_what_they_call_not_by_the_programs_names():
    callees = [callee for _, callee in call_sites(PROGRAM)]
    assert callees == ["collections.deque", ".extend", "len", "functools.partial", "format", "list",
                       "itertools.chain"]
    # left out: the program's own function (helper, p), the break, the observation, module-level calls (sorted)
    # and make_inputs (run eagerly on both sides); ``len`` inside the observation stays (it is traced)


def test_isolate_runs_one_call_outside_the_compiler_and_keeps_what_eager_computes():
    sites = dict((callee, index) for index, callee in call_sites(PROGRAM))
    text = isolate(PROGRAM, sites["format"])
    assert f"{EAGER}(format, 3, 'b')" in text and text.startswith("# ngb-fuzz program\n# signature:")
    assert text.count(f"{EAGER}(") - text.count(f"def {EAGER}(") == 1  # one call site, the others as they were
    namespace: dict = {}
    exec(compile(text, "<isolated>", "exec"), namespace)  # its own function, disabled for the compiler
    assert getattr(namespace[EAGER], "_torchdynamo_disable", False)
    assert namespace["entry"](namespace["torch"].ones(2))[0] == "11"


SUBSCRIPTS = '''import collections

import torch


def entry(x):
    counts = collections.defaultdict(list)
    row = counts['a']
    row.append(1)
    table = dict(a=1)
    if x:
        table = collections.OrderedDict(a=2)
    pairs = list(range(6))

    def inner(counts=None):
        return pairs[1:5:2], pairs[0], counts and counts['x']

    plain = [1, 2]
    return len(counts['b']), row, inner(), plain[0], table['a']
'''


def test_reads_by_subscript_of_a_local_a_call_made_are_sites_named_by_that_call():
    # a defaultdict's __missing__ (a factory that breaks) runs on a read: the compiler traces it there
    callees = [callee for _, callee in call_sites(SUBSCRIPTS)]
    assert callees == ["collections.defaultdict", "collections.defaultdict[]", ".append", "dict",
                       "collections.OrderedDict", "list", "range", "list[]", "list[]", "len",
                       "collections.defaultdict[]"], callees
    # not: a local two kinds of call made (table), a display's (plain), a parameter named as an outer local
    namespace: dict = {}
    exec(compile(SUBSCRIPTS, "<plain>", "exec"), namespace)
    expected = namespace["entry"](1)
    for index, callee in call_sites(SUBSCRIPTS):
        if callee.endswith("[]"):
            text = isolate(SUBSCRIPTS, index)
            assert f"{EAGER}(__import__('operator').getitem, " in text, text
            isolated: dict = {}
            exec(compile(text, "<isolated>", "exec"), isolated)
            assert isolated["entry"](1) == expected  # slices too: a:b:c becomes slice(a, b, c)


STORES = """import contextlib
import dataclasses

import torch

LOG = []


class Prop:
    def __init__(self):
        self._v = 0
        self.plain = 1

    @property
    def v(self):
        return self._v

    @v.setter
    def v(self, value):
        LOG.append(value)
        self._v = value


class Slotted:
    __slots__ = ("a",)


class FromSlotted(Slotted):
    __slots__ = ()


@dataclasses.dataclass(frozen=True)
class Frozen:
    a: int = 0


class Hooked:
    def __setattr__(self, name, value):
        LOG.append(name)
        object.__setattr__(self, name, value)


@contextlib.contextmanager
def cm():
    LOG.append("in")
    yield


@cm()
def under_cm(x):
    return x + 1


@torch.no_grad()
def no_grad_fn(x):
    return x * 2


def entry(x):
    p = Prop()
    p.v = 3
    p.plain = 4
    s = FromSlotted()
    s.a = 5
    try:
        s.b = 6
    except AttributeError:
        LOG.append("slots")
    f = Frozen()
    try:
        f.a = 7
    except dataclasses.FrozenInstanceError:
        LOG.append("frozen")
    h = Hooked()
    h.k = 8
    with cm():
        y = under_cm(x)
    return no_grad_fn(y), p.v, s.a, h.k, list(LOG)
"""


def test_stores_a_class_handles_itself_and_decorated_functions_are_sites():
    callees = [callee for _, callee in call_sites(STORES)]
    assert "setattr[property]" in callees and "setattr[__slots__]" in callees  # a base class's __slots__ too
    assert callees.count("setattr[__slots__]") == 2 and "setattr[frozen]" in callees
    assert "setattr[__setattr__]" in callees
    assert len([c for c in callees if c.startswith("setattr")]) == 5  # p.plain and self's stores in __init__:
    # a plain attribute (Prop's __init__ stores self.plain, self._v: plain too)
    # a call of the program's own function is named by its outermost decorator; a decorator the program made
    # (@cm()) by its maker's; decorators run when the program loads and are no sites
    assert callees.count("@contextlib.contextmanager") == 2 and "@torch.no_grad" in callees
    assert "contextlib.contextmanager" not in callees and "torch.no_grad" not in callees
    namespace: dict = {}
    exec(compile(STORES, "<plain>", "exec"), namespace)
    expected = namespace["entry"](namespace["torch"].ones(1))
    for index, callee in call_sites(STORES):
        if callee.startswith(("setattr", "@")):
            text = isolate(STORES, index)
            assert text.count(f"{EAGER}(") - text.count(f"def {EAGER}(") == 1
            if callee.startswith("setattr"):
                assert f"{EAGER}(setattr, " in text
            isolated: dict = {}
            exec(compile(text, "<isolated>", "exec"), isolated)
            assert repr(isolated["entry"](isolated["torch"].ones(1))) == repr(expected), callee


def test_the_trigger_is_the_calls_whose_isolation_makes_the_finding_go():
    seen = []

    def check(source, target):
        seen.append(target)
        return "ok" if f"{EAGER}(format" in source or f"{EAGER}(d.extend" in source else "mismatch:value:value"

    assert trigger_of(PROGRAM, "torch", check) == {"format", ".extend"}
    assert len(seen) == len(call_sites(PROGRAM)) and set(seen) == {"torch"}


def test_a_skip_or_another_finding_is_no_evidence():
    def check(source, target):
        return "skip:invalid-program" if f"{EAGER}(format" in source else "crash:TypeError@program"

    assert trigger_of(PROGRAM, "torch", check) == frozenset()


def test_finding_kinds():
    assert finding_kind("mismatch:value:value") == finding_kind("mismatch:effects:length") == "mismatch"
    assert finding_kind("crash:second_call:TypeError@torch._dynamo.eval_frame:compile_wrapper") == "crash:TypeError"
    assert finding_kind("crash:TypeError@program") != finding_kind("crash:AttributeError@program")


def _program(body: str) -> str:
    return f"import torch\n\n\ndef entry(x):\n{body}\n"


FORMAT_BUG = Form("fmt.py", "fmt.py", "mismatch:value:value", _program("    return format(12, '08b')"))
FORMAT_FORM = _program("    y = x + 1\n    return zip([format(3, 'b')], [y])")
OTHER_BUG = Form("other.py", "other.py", "mismatch:value:value", _program("    return sorted([x], key=abs)"))


def _scripted(needs: dict[str, str], shows_off: set[str] = frozenset()):
    """Checks that say ``ok`` when a program's needed call runs outside the compiler; ``needs``: a marker of the
    program (a string in it) -> the call it needs. With NGB off only programs with a marker in ``shows_off``
    still show."""
    def check(source, target):
        marker = next(m for m in needs if m in source)
        if target.endswith("ngb=off") and marker not in shows_off:
            return "ok"
        return "ok" if f"{EAGER}({needs[marker]}" in source else "mismatch:value:value"
    return check


def test_a_finding_that_needs_a_corpus_bugs_trigger_is_like_it():
    check = _scripted({"'08b'": "format", "'b'": "format", "key=abs": "sorted"})
    rule = Triggers([FORMAT_BUG, OTHER_BUG], check)
    assert rule.like(FORMAT_FORM, "mismatch:effects:value", "torch") == (["fmt.py"], ["format"])
    # a crash is another kind of finding: not like a mismatch bug, whatever it needs
    assert rule.like(FORMAT_FORM, "crash:TypeError@program", "torch") == ([], [])
    # with the bug left out (a measurement), like nothing
    assert rule.like(FORMAT_FORM, "mismatch:value:value", "torch", leave_out=lambda f: f.bug == "fmt.py") == ([], [])


def test_a_finding_that_needs_more_than_the_bug_is_like_it_and_less_is_not():
    both = _program("    return format(3, 'b'), sorted([x], key=abs)")

    def check(source, target):  # the finding needs both calls; the bugs one each
        if "'08b'" in source:
            return "ok" if f"{EAGER}(format" in source else "mismatch:value:value"
        if "key=abs" in source and "'b'" not in source:
            return "ok" if f"{EAGER}(sorted" in source else "mismatch:value:value"
        return "ok" if EAGER in source else "mismatch:value:value"

    rule = Triggers([FORMAT_BUG, OTHER_BUG], check)
    like, trigger = rule.like(both, "mismatch:value:value", "torch")
    assert sorted(like) == ["fmt.py", "other.py"] and trigger == ["format", "sorted"]
    # a bug that needs format and zip is not what a finding needing format alone has
    zipped = Form("zip.py", "zip.py", "mismatch:value:value", FORMAT_FORM)
    only = _program("    return format(3, 'b')")

    def check2(source, target):
        return "ok" if f"{EAGER}(format" in source or f"{EAGER}(zip" in source else "mismatch:value:value"

    assert Triggers([zipped], check2).like(only, "mismatch:value:value", "torch") == ([], [])


def test_calls_most_corpus_bugs_make_are_no_trigger():
    forms = [Form(f"b{i}.py", f"b{i}.py", "mismatch:value:value", _program(f"    return torch.ones({i})"))
             for i in range(4)]
    rule = Triggers(forms, lambda source, target: "ok" if EAGER in source else "mismatch:value:value")
    assert "torch.ones" in rule.common
    assert rule.like(_program("    return torch.ones(9)"), "mismatch:value:value", "torch") == ([], [])


def test_a_corpus_repro_that_does_not_show_on_the_target_gives_no_trigger():
    check = _scripted({"'08b'": "format", "'b'": "format"})
    rule = Triggers([FORMAT_BUG], lambda source, target: "ok" if "'08b'" in source else check(source, target))
    assert rule.like(FORMAT_FORM, "mismatch:value:value", "torch") == ([], [])


def test_a_program_that_does_not_parse_has_no_call_sites():
    assert call_sites("def entry(:\n") == []
    with pytest.raises(ValueError):
        isolate("def entry(:\n", 0)


# A form of the corpus's format bug written here: a spec dropped by ``format`` in a callee, on a shape.
NEW_FORM = ("import torch\n\n\ndef describe(t):\n    return [format(t.shape[0], '03d'), t.sum()]\n\n\n"
            "def entry(x):\n    return describe(x * 3)\n\n\n"
            "def make_inputs(device):\n    return (torch.ones(5).to(device),)\n")


@pytest.mark.slow
def test_triage_names_the_trigger_and_the_bug_that_needs_it(tmp_path, capsys):
    from fuzz.cli import main

    path = tmp_path / "form.py"
    path.write_text(NEW_FORM)
    corpus = Path(__file__).parent.parent.parent / "corpus"
    assert main(["triage", str(path), "--backend", "eager", "--corpus", str(corpus)]) == 1
    out = capsys.readouterr().out
    assert "trigger (torch): it needs the compiler to trace format; so does " in out
    assert "torch-format-builtin-drops-spec.py: probably a new form of it (KNOWN?" in out


@pytest.mark.slow
def test_a_new_form_of_the_format_bug_is_like_it_on_torch():
    """A form written here (a spec kept by ``format`` in a callee, on a shape) against two corpus bugs."""
    from fuzz.corpus.manifest import Corpus
    from fuzz.triage.known import KnownBugs
    from oracle import Runner

    corpus = Path(__file__).parent.parent.parent / "corpus"
    wanted = {"torch-format-builtin-drops-spec.py", "torch-ngb-filter-callback-break-returns-bool.py"}
    forms = [f for f in KnownBugs.from_corpus(corpus).forms if f.file in wanted]
    assert {f.file for f in forms} == wanted and Corpus(corpus).entries  # the corpus holds both
    form = NEW_FORM
    with Runner(workers=1, timeout=60) as runner:
        def check(source, target):
            return next(iter(runner.check(source, [target]).verdicts.values())).signature

        assert check(form, "torch").startswith("mismatch:")  # torch 2.13 drops the spec
        rule = Triggers(forms, check)
        like, trigger = rule.like(form, "mismatch:value:value", "torch")
        assert like == ["torch-format-builtin-drops-spec.py"] and "format" in trigger
        assert rule.like(form, "mismatch:value:value", "torch",
                         leave_out=lambda f: "format" in f.file) == ([], [])


GENERATORS = '''import contextlib

import torch

LOG = []


def counted(x):
    yield x
    return 2


@contextlib.contextmanager
def scoped():
    yield


def plain(x):
    def inner():
        yield x  # a generator nested in a plain function: the plain one is no generator
    return list(inner())


def twice():
    yield 1


def twice():  # defined twice: which one a call calls is not known from the text
    return [1]


class Walker:
    def steps(self, x):
        yield from counted(x)


def entry(x):
    g = counted(x)
    first = next(g)
    try:
        next(g)
    except StopIteration as stop:
        LOG.append(stop.value)
    with scoped():
        got = plain(x)
    return first, got, list(Walker().steps(x)), twice(), list(LOG)
'''


def test_calls_of_the_programs_generator_functions_are_sites():
    callees = [callee for _, callee in call_sites(GENERATORS)]
    # counted(x), inner() in plain and Walker().steps(x); not plain(x), twice(), nor the decorated scoped()
    assert callees.count(GENERATOR) == 4  # counted twice (in entry and in steps), inner, steps
    assert "@contextlib.contextmanager" in callees and ".steps" not in callees
    namespace: dict = {}
    exec(compile(GENERATORS, "<plain>", "exec"), namespace)
    expected = repr(namespace["entry"](namespace["torch"].ones(1)))
    for index, callee in call_sites(GENERATORS):
        if callee == GENERATOR:  # the generator is made outside the compiler; eager computes the same
            text = isolate(GENERATORS, index)
            isolated: dict = {}
            exec(compile(text, "<isolated>", "exec"), isolated)
            assert repr(isolated["entry"](isolated["torch"].ones(1))) == expected


def test_a_slow_compile_is_the_kind_of_a_hang():
    assert finding_kind("slow:compile") == finding_kind("hang") != finding_kind("mismatch:value:value")


# A form of the corpus's lost generator return value written here: a method's generator, its value read after
# the second ``next`` in a callee.
GENERATOR_FORM = '''import torch


class Walker:
    def __init__(self, scale):
        self.scale = scale

    def steps(self, v):
        total = v * self.scale
        yield total
        return total.sum()


def drive(w, x):
    it = w.steps(x)
    first = next(it)
    try:
        next(it)
    except StopIteration as done:
        return first + done.value


def entry(x):
    return drive(Walker(2.0), x * 1.0)


def make_inputs(device):
    return (torch.ones(3).to(device),)
'''


@pytest.mark.slow
def test_a_new_form_of_the_lost_generator_return_value_is_like_it_on_torch():
    from fuzz.triage.known import KnownBugs
    from oracle import Runner

    corpus = Path(__file__).parent.parent.parent / "corpus"
    bug = "torch-ngb-generator-return-value-lost.py"
    forms = KnownBugs.from_corpus(corpus).forms  # the whole corpus: what is common is left out (torch.ones)
    assert bug in {f.bug for f in forms}
    with Runner(workers=1, timeout=60) as runner:
        def check(source, target):
            return next(iter(runner.check(source, [target]).verdicts.values())).signature

        signature = check(GENERATOR_FORM, "torch")
        assert signature.startswith("crash:TypeError@")  # torch 2.13 loses the value: first + None
        rule = Triggers(forms, check)
        like, trigger = rule.like(GENERATOR_FORM, signature, "torch")
        assert like == [bug] and GENERATOR in trigger
        assert rule.like(GENERATOR_FORM, signature, "torch", leave_out=lambda f: f.bug == bug) == ([], [])


BY_HAND = '''import torch


def f1(x):
    torch._dynamo.graph_break()
    return x * 2


def entry(x):
    return torch.no_grad()(f1)(x) + torch.enable_grad()(f1)(x)
'''

DECORATED = '''import torch


@torch.no_grad()
def f1(x):
    torch._dynamo.graph_break()
    return x * 2


def entry(x):
    return f1(x)
'''


def test_a_decorator_applied_by_hand_is_named_as_written_with_at():
    # a torch 2.10 campaign's form of the no_grad decorator bug applied it with @ and was like nothing: the corpus
    # forms applied it by hand, torch.no_grad()(f1)(1), and named the call torch.no_grad
    callees = [callee for _, callee in call_sites(BY_HAND)]
    # the call of the decorated function, the application, the maker: each is the decoration
    assert callees == ["@torch.no_grad"] * 3 + ["@torch.enable_grad"] * 3
    assert [callee for _, callee in call_sites(DECORATED)] == ["@torch.no_grad"]
    namespace: dict = {}
    exec(compile(BY_HAND, "<plain>", "exec"), namespace)
    expected = namespace["entry"](namespace["torch"].ones(1))
    for index, _ in call_sites(BY_HAND):  # each part of the decoration isolated alone computes what eager does
        isolated: dict = {}
        exec(compile(isolate(BY_HAND, index), "<isolated>", "exec"), isolated)
        assert repr(isolated["entry"](isolated["torch"].ones(1))) == repr(expected)
    # what the rule makes of it: isolating either part of the by-hand decoration makes the bug go
    def check(source, target):  # the maker, the decorated function or the function decorated by hand run eagerly
        return "ok" if f"{EAGER}(torch.no_grad" in source or f"{EAGER}(f1" in source else "mismatch:value:value"

    corpus = Form("hand.py", "hand.py", "mismatch:value:value", BY_HAND.replace(" + torch.enable_grad()(f1)(x)", ""))
    assert Triggers([corpus], check).like(DECORATED, "mismatch:value:value", "torch") == (
        ["hand.py"], ["@torch.no_grad"])
    # a made object called with anything but one of the program's functions is no decoration, nor is a function
    # given to a plain call (a defaultdict's factory)
    for call in ("torch.no_grad()(f1, 2)", "torch.no_grad()(x)"):
        assert [c for _, c in call_sites(BY_HAND.replace("torch.no_grad()(f1)(x)", call))][0] == "torch.no_grad"
    factory = "import collections\n" + BY_HAND.replace("torch.no_grad()(f1)(x)", "collections.defaultdict(f1)")
    assert [c for _, c in call_sites(factory)][0] == "collections.defaultdict"
