"""Which calls a finding needs the compiler to trace, and which known bugs need the same: ``KNOWN?``.

A known bug in a form not seen before reduces to a shape of its own, so the exact root-cause match
(``fuzz.triage.known``) calls it NEW. This module gives such a finding a differential test instead of a likeness
of text. Its **trigger** is the set of calls whose tracing the finding needs: one call site at a time is run
outside the compiler (``isolate``: ``format(x, '08b')`` becomes ``__ngb_eager__(format, x, '08b')``, a function
the compiler does not trace), and a call is in the trigger when the finding then goes (the verdict is ``ok``).
Calls are named by what they call (``format``, ``functools.partial``, ``.extend`` for a method), not by the
program's own names; calls that many corpus bugs make (``torch.ones``, ``list``: ``COMMON``) are left out. A read
by subscript of a local a call made is a site too (``z['a']`` of a ``collections.defaultdict``:
``collections.defaultdict[]``): its ``__getitem__``/``__missing__`` are traced there; so is a store to an
attribute that the instance's class handles itself (``y.f = x`` of a property: ``setattr[property]``), run as
``setattr(y, 'f', x)``. A call of one of the program's own functions is named by what its outermost decorator
made of it (``@contextlib.contextmanager``), since the call runs that decorator's wrapper; undecorated, a
generator function's (a method's too) by ``<generator>``, since the generator it makes is traced with it (isolated,
the generator is made outside the compiler, which then runs it eagerly); any other says nothing of any bug and is
no site. A decorator applied by hand (``torch.no_grad()(f)(x)``) is named as that decorator written with ``@``.

A finding is **like** a corpus bug when one of that bug's repros (its entry or a variant), checked on the
finding's own target, has a trigger the finding needs too (a subset of its own: a new form may need more, a
``zip`` around the ``format`` call), the same kind of finding (a mismatch, or a crash with the same exception
type) and the same need of nested graph breaks (both show with them off, or neither), unless the target took a
graph break running neither of the two (``breaks``): the bug then showed where nothing broke, and whether it
shows with them off says only what turning them off adds (a break that sends a generator to eager whole: the lost
generator return value's repros take none with them on and pass with them off, and a 2.13 campaign's form with
no break in it at all, failing with them off too, was NEW by the condition). Where one of the two broke, the
condition holds: measured, dropping it there too named more new bugs wrongly than known forms rightly
(docs/reducer.md). That is evidence, not
proof: two bugs in one compiler handler have the same trigger. So a finding like a known bug
is ``KNOWN?`` — "probably a new form of it: confirm, then ``corpus add --same-as``" — never KNOWN, and only a
reduced one (a minimal repro: every call in it is needed by something) whose signature does not pin its bug.

Measured with ``benchmarks/known_forms.py`` on the corpus, each repro left out in turn (docs/reducer.md).
"""

from __future__ import annotations

import ast
import builtins
import collections
import dataclasses
from collections.abc import Callable, Iterable
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from oracle import ProgramFile

__all__ = ["COMMON", "EAGER", "GENERATOR", "RULE", "Form", "Triggers", "call_sites", "isolate", "trigger_of", "yields"]

# The rule's version: 1 named calls only; 2 also reads by subscript of a call-made local; 3 also stores a class
# handles itself and calls of decorated functions of the program; 4 also calls of the program's generator
# functions, a slow compile of the kind of a hang, and FIXED bugs where their repros still show; 5 also names a
# decorator applied by hand as written with ``@``; 6 compares the need of nested graph breaks unless the target took
# a break running neither. A campaign asks again a bucket that an older rule found like nothing (``fuzz.campaign.naming``).
RULE = 6

GENERATOR = "<generator>"  # the name of a call of one of the program's own (undecorated) generator functions

EAGER = "__ngb_eager__"  # the name of the function that runs an isolated call outside the compiler
_SHIM = (f"def {EAGER}(fn, *args, **kwargs):\n    return fn(*args, **kwargs)\n"
         f"{EAGER} = __import__('torch').compiler.disable({EAGER})\n")
# A call made by more than this share of the corpus's bugs (and by three at least) is no sign of any one of them.
COMMON = 0.15
# Calls a trigger never counts: the program's observations and its graph breaks (the break is the setting).
_NOT_CALLS = frozenset({"torch._dynamo.graph_break", "torch._dynamo.step_unsupported", "print"})

Check = Callable[[str, str], str]  # (program source, target spec) -> the verdict's signature
Breaks = Callable[[str, str], "int | None"]  # (program source, target spec) -> graph breaks taken (None: not known)


@dataclasses.dataclass(frozen=True, slots=True)
class Form:
    """One corpus repro of a bug: its file, the bug's entry (its own file, or a variant's parent), signature
    and source."""

    file: str
    bug: str
    signature: str
    source: str


def _program(source: str) -> tuple[ProgramFile, ast.Module] | None:
    from oracle import ProgramFile

    pf = ProgramFile.parse(source)
    try:
        return pf, ast.parse(pf.code)
    except SyntaxError:
        return None


class _Names(ast.NodeVisitor):
    """The program's own names (defined, assigned, parameters), its imports (alias -> dotted module path), its
    functions' outermost decorators and its classes (by name; a name defined twice is left out of both)."""

    def __init__(self, tree: ast.Module):
        self.own: set[str] = set()
        self.imports: dict[str, str] = {}
        self.decorated: dict[str, ast.expr | None] = {}
        self.generators: dict[str, bool] = {}  # the program's functions: is it a generator function (``yield``)?
        self.classes: dict[str, ast.ClassDef | None] = {}
        self.visit(tree)

    def visit_Import(self, node: ast.Import) -> None:
        for alias in node.names:
            if alias.asname:
                self.imports[alias.asname] = alias.name
            else:
                root = alias.name.split(".")[0]
                self.imports[root] = root

    def visit_ImportFrom(self, node: ast.ImportFrom) -> None:
        for alias in node.names:
            self.imports[alias.asname or alias.name] = f"{node.module or ''}.{alias.name}".lstrip(".")

    def visit_FunctionDef(self, node: ast.FunctionDef | ast.AsyncFunctionDef) -> None:
        self.own.add(node.name)
        outer = node.decorator_list[0] if node.decorator_list else None
        self.decorated[node.name] = None if node.name in self.decorated else outer
        self.generators[node.name] = yields(node) and node.name not in self.generators
        self.generic_visit(node)

    visit_AsyncFunctionDef = visit_FunctionDef

    def visit_ClassDef(self, node: ast.ClassDef) -> None:
        self.own.add(node.name)
        self.classes[node.name] = None if node.name in self.classes else node
        self.generic_visit(node)

    def visit_Name(self, node: ast.Name) -> None:
        if not isinstance(node.ctx, ast.Load):
            self.own.add(node.id)

    def visit_arg(self, node: ast.arg) -> None:
        self.own.add(node.arg)


def yields(fn: ast.FunctionDef | ast.AsyncFunctionDef) -> bool:
    """Whether ``fn`` is a generator function: a ``yield`` in its own body (not in a function nested in it)."""
    todo: list[ast.AST] = list(fn.body)
    while todo:
        node = todo.pop()
        if isinstance(node, (ast.Yield, ast.YieldFrom)):
            return True
        if not isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.Lambda, ast.ClassDef)):
            todo.extend(ast.iter_child_nodes(node))
    return False


def _callee(func: ast.expr, names: _Names, depth: int = 0) -> str | None:
    """What a call calls, by a name that means the same in every program: a builtin (``format``), an imported
    module's function (``functools.partial``), or a method (``.extend``); a function of the program's own by what
    its outermost decorator made of it (``@contextlib.contextmanager``: the call runs that decorator's wrapper),
    or, undecorated, as a generator function (``<generator>``, a method of that name too: the call makes a
    generator, and what the caller does with it, ``next``, a loop, its return value, is traced as that
    generator's); None for the program's other functions."""
    if isinstance(func, ast.Name):
        if func.id in names.imports:
            return names.imports[func.id]
        if func.id in names.own:
            decorator = names.decorated.get(func.id)
            if decorator is None and func.id not in names.decorated:
                return None  # not one of the program's functions (a class, a local)
            if decorator is None:
                return GENERATOR if names.generators.get(func.id) else None
            return _decorated(decorator, names, depth)
        if not hasattr(builtins, func.id):
            return None
        return func.id
    if isinstance(func, ast.Attribute):
        parts, base = [func.attr], func.value
        while isinstance(base, ast.Attribute):
            parts.append(base.attr)
            base = base.value
        if isinstance(base, ast.Name) and base.id in names.imports and base.id not in names.own:
            return ".".join([names.imports[base.id], *reversed(parts)])
        if names.generators.get(func.attr) and names.decorated.get(func.attr) is None:
            return GENERATOR  # a method of the program's that is a generator function (``self.steps(x)``)
        return "." + func.attr
    return None


def _decorated(decorator: ast.expr | None, names: _Names, depth: int) -> str | None:
    """``@`` and what made a function's outermost decorator (``@torch.no_grad`` for ``@torch.no_grad()``); a
    decorator the program made (``@_cm()``) is named by its own maker's decorator, a few levels deep."""
    if decorator is None or depth > 3:
        return None
    maker = _callee(decorator.func if isinstance(decorator, ast.Call) else decorator, names, depth + 1)
    if maker is None or maker.startswith("."):
        return None
    return maker if maker.startswith("@") else "@" + maker


def _store_kind(cls: ast.ClassDef, attr: str, names: _Names, depth: int = 0) -> str | None:
    """How instances of a program class take a store to ``attr`` when the class handles it itself: a property
    (``property``), its own ``__setattr__``, a frozen dataclass (``frozen``), ``__slots__``; None for a plain
    instance attribute. Base classes of the program are asked in turn."""
    defs = {n.name: n for n in cls.body if isinstance(n, ast.FunctionDef)}
    if attr in defs and any(last_name(d) in ("property", "setter") for d in defs[attr].decorator_list):
        return "property"
    if "__setattr__" in defs:
        return "__setattr__"
    options = {kw.arg: kw.value for d in cls.decorator_list if isinstance(d, ast.Call)
               and last_name(d.func) == "dataclass" for kw in d.keywords}
    frozen, slotted = options.get("frozen"), options.get("slots")
    if isinstance(frozen, ast.Constant) and frozen.value is True:
        return "frozen"
    slots = isinstance(slotted, ast.Constant) and slotted.value is True
    if slots or any(isinstance(n, ast.Assign) and any(isinstance(t, ast.Name) and t.id == "__slots__"
                                                      for t in n.targets) for n in cls.body):
        return "__slots__"
    for base in cls.bases:
        parent = names.classes.get(base.id) if isinstance(base, ast.Name) else None
        kind = _store_kind(parent, attr, names, depth + 1) if parent is not None and depth < 5 else None
        if kind:
            return kind
    return None


def last_name(node: ast.expr) -> str:
    """The last name of a called or decorating expression: ``torch.no_grad()`` -> ``no_grad``."""
    node = node.func if isinstance(node, ast.Call) else node
    return node.attr if isinstance(node, ast.Attribute) else node.id if isinstance(node, ast.Name) else ""


Site = ast.Call | ast.Subscript | ast.Assign


Scope = tuple[dict[str, str | None], dict[str, ast.ClassDef | None]]


def _scope(fn: ast.AST, names: _Names, method_of: ast.ClassDef | None) -> Scope:
    """What the locals of function ``fn`` hold, in one walk of its body (nested functions are theirs): those a
    call made, by what it called (``z = collections.defaultdict(f)``: ``z`` -> ``collections.defaultdict``; None
    for a name assigned from calls of two kinds), and those that hold an instance of a program class
    (``y = _C1()``; a method's ``self`` for ``method_of``; None for a name assigned otherwise too). A parameter
    shadows an outer local in both."""
    made: dict[str, str | None] = {}
    held: dict[str, ast.ClassDef | None] = {}
    if isinstance(fn, (ast.FunctionDef, ast.AsyncFunctionDef, ast.Lambda)):
        params = [*fn.args.posonlyargs, *fn.args.args]
        for arg in [*params, *fn.args.kwonlyargs, fn.args.vararg, fn.args.kwarg]:
            if arg is not None:
                made[arg.arg] = held[arg.arg] = None
        if method_of is not None and params and not any(
                last_name(d) in ("staticmethod", "classmethod") for d in getattr(fn, "decorator_list", ())):
            held[params[0].arg] = method_of
    todo = list(ast.iter_child_nodes(fn))
    while todo:
        node = todo.pop()
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.Lambda, ast.ClassDef)):
            continue
        if isinstance(node, ast.Assign):
            value, single = node.value, len(node.targets) == 1
            for target in node.targets:
                if not isinstance(target, ast.Name):
                    continue
                if single and isinstance(value, ast.Call):
                    callee = _callee(value.func, names)
                    made[target.id] = callee if made.get(target.id, callee) == callee else None
                cls = names.classes.get(value.func.id) if single and isinstance(value, ast.Call) and isinstance(
                    value.func, ast.Name) else None
                held[target.id] = cls if held.get(target.id, cls) is cls else None
        todo.extend(ast.iter_child_nodes(node))
    return made, held


def _traced_sites(tree: ast.Module, names: _Names) -> list[tuple[Site, str | None]]:
    """The sites ``isolate`` can take, each with what it calls (None: the program's own function), in source
    order: calls in function bodies (run when the program's functions run, so under the compiler), not in
    ``make_inputs`` (run eagerly on both sides) nor at module level (run when the program loads); and reads by
    subscript of a local a call made, named by that call (``z['a']`` of a ``collections.defaultdict``:
    ``collections.defaultdict[]``), whose ``__getitem__``/``__missing__`` the compiler traces too; and stores to an
    attribute of a program class's instance that the class handles itself (``y.f = x`` of a property:
    ``setattr[property]``; ``__slots__``, a frozen dataclass, its own ``__setattr__``), whose handler it traces."""
    sites: list[tuple[Site, str | None]] = []

    def made_by(scopes: list[Scope], name: str) -> str | None:
        return next((scope[0][name] for scope in reversed(scopes) if name in scope[0]), None)

    def held_by(scopes: list[Scope], name: str) -> ast.ClassDef | None:
        return next((scope[1][name] for scope in reversed(scopes) if name in scope[1]), None)

    def walk(node: ast.AST, scopes: list[Scope]) -> None:
        for child in ast.iter_child_nodes(node):
            visit(child, scopes, node)

    def visit(child: ast.AST, inner: list[Scope], parent: ast.AST) -> None:
        if isinstance(child, (ast.FunctionDef, ast.AsyncFunctionDef)) and child.name == "make_inputs":
            return
        if isinstance(child, (ast.FunctionDef, ast.AsyncFunctionDef, ast.Lambda)):
            # decorators and defaults run where the function is defined (at module level: when it loads)
            for expr in [*getattr(child, "decorator_list", ()), *child.args.defaults, *child.args.kw_defaults]:
                if expr is not None:
                    visit(expr, inner, child)
            method_of = parent if isinstance(parent, ast.ClassDef) and names.classes.get(parent.name) is parent \
                else None
            body = [*inner, _scope(child, names, method_of)]
            for part in (child.body if isinstance(child.body, list) else [child.body]):
                visit(part, body, child)
            return
        if inner and isinstance(child, ast.Call):
            sites.append((child, _by_hand(child, parent, names) or _callee(child.func, names)))
        elif (inner and isinstance(child, ast.Subscript) and isinstance(child.ctx, ast.Load)
              and isinstance(child.value, ast.Name)):
            made = made_by(inner, child.value.id)
            if made:
                sites.append((child, f"{made}[]"))
        elif (inner and isinstance(child, ast.Assign) and len(child.targets) == 1
              and isinstance(child.targets[0], ast.Attribute) and isinstance(child.targets[0].value, ast.Name)):
            cls = held_by(inner, child.targets[0].value.id)
            kind = _store_kind(cls, child.targets[0].attr, names) if cls is not None else None
            if kind:
                sites.append((child, f"setattr[{kind}]"))
        walk(child, inner)

    walk(tree, [])
    return sites


def _decoration(node: ast.AST, names: _Names) -> ast.expr | None:
    """The decorator ``node`` makes and applies by hand to one of the program's functions (or a lambda):
    ``torch.no_grad()`` of ``torch.no_grad()(f)``; None when ``node`` is no such application. Only a made one
    (a call's result applied): a function given to a plain call (``collections.defaultdict(f)``,
    ``torch.func.grad(f)``) is an argument like any other there, and the call is named by what it calls."""
    if not (isinstance(node, ast.Call) and isinstance(node.func, ast.Call) and len(node.args) == 1
            and not node.keywords):
        return None
    (fn,) = node.args
    return node.func if isinstance(fn, ast.Lambda) or isinstance(fn, ast.Name) and fn.id in names.decorated else None


def _by_hand(call: ast.Call, parent: ast.AST, names: _Names) -> str | None:
    """A decorator applied by hand is named as written with ``@``: ``torch.no_grad()(f)(x)`` calls what
    ``@torch.no_grad()`` would have made of ``f`` (``@torch.no_grad``, as a call of such a decorated function is
    named), and the application ``torch.no_grad()(f)`` and the ``torch.no_grad()`` it applies are that decoration
    (a decorator written with ``@`` is no site: it runs where the function is defined). None for any other call."""
    decorator = _decoration(call.func, names) or _decoration(call, names)
    if decorator is None and isinstance(parent, ast.Call) and parent.func is call:
        decorator = call if _decoration(parent, names) is call else None  # the maker of an applied decorator
    return _decorated(decorator, names, 0) if decorator is not None else None


def call_sites(source: str) -> list[tuple[int, str]]:
    """The call sites of a program worth isolating: ``(index, callee)`` in source order, ``index`` as
    ``isolate`` takes it. Calls of the program's own undecorated functions, observations and graph breaks are
    left out."""
    parsed = _program(source)
    if parsed is None:
        return []
    tree = parsed[1]
    sites = []
    for index, (site, callee) in enumerate(_traced_sites(tree, _Names(tree))):
        if callee and callee not in _NOT_CALLS and not (isinstance(site, ast.Call) and _observation(site)):
            sites.append((index, callee))
    return sites


def _observation(call: ast.Call) -> bool:
    func = call.func
    return (isinstance(func, ast.Attribute) and isinstance(func.value, ast.Name) and func.value.id == "EFFECTS")


def isolate(source: str, index: int) -> str:
    """``source`` with its ``index``-th traced call (``call_sites``) run outside the compiler: the same call, made
    by a function that ``torch.compiler.disable`` keeps untraced. What eager computes does not change."""
    parsed = _program(source)
    if parsed is None:
        raise ValueError("not a program: it does not parse")
    pf, tree = parsed
    site = _traced_sites(tree, _Names(tree))[index][0]
    if isinstance(site, ast.Call):
        site.args = [site.func, *site.args]
        site.func = ast.Name(EAGER, ast.Load())
    elif isinstance(site, ast.Assign):  # obj.attr = value -> __ngb_eager__(setattr, obj, 'attr', value)
        target = site.targets[0]
        assert isinstance(target, ast.Attribute)
        tree = _Replace(site, ast.Expr(ast.Call(ast.Name(EAGER, ast.Load()), [
            ast.Name("setattr", ast.Load()), target.value, ast.Constant(target.attr), site.value], []))).visit(tree)
    else:
        tree = _Replace(site, ast.Call(ast.Name(EAGER, ast.Load()),
                                       [ast.parse("__import__('operator').getitem", mode="eval").body,
                                        site.value, _as_value(site.slice)], [])).visit(tree)
    shim = ast.parse(_SHIM).body
    at = next((i for i, stmt in enumerate(tree.body)
               if not (isinstance(stmt, ast.ImportFrom) and stmt.module == "__future__")
               and not (i == 0 and isinstance(stmt, ast.Expr) and isinstance(stmt.value, ast.Constant))),
              len(tree.body))
    tree.body[at:at] = shim
    code = ast.unparse(ast.fix_missing_locations(tree)) + "\n"
    return dataclasses.replace(pf, code=code, footer="").text


class _Replace(ast.NodeTransformer):
    """Replaces one node (by identity) with another."""

    def __init__(self, old: ast.AST, new: ast.AST):
        self.old, self.new = old, new

    def generic_visit(self, node: ast.AST) -> ast.AST:
        return self.new if node is self.old else super().generic_visit(node)


def _as_value(index: ast.expr) -> ast.expr:
    """A subscript's index as a value an ordinary call can take: ``a:b`` becomes ``slice(a, b, None)``."""
    if isinstance(index, ast.Slice):
        parts = [part or ast.Constant(None) for part in (index.lower, index.upper, index.step)]
        return ast.Call(ast.Name("slice", ast.Load()), parts, [])
    if isinstance(index, ast.Tuple):
        return ast.Tuple([_as_value(e) for e in index.elts], ast.Load())
    return index


def trigger_of(source: str, target: str, check: Check) -> frozenset[str]:
    """The calls ``source``'s finding on ``target`` needs the compiler to trace: those whose isolation makes
    ``check`` say ``ok`` (a skip, a flaky run or another finding is no evidence either way)."""
    return frozenset(callee for index, callee in call_sites(source)
                     if check(isolate(source, index), target) == "ok")


def finding_kind(signature: str) -> str:
    """What two forms of one bug share of their signatures: a mismatch (its aspect may differ: a value returned
    in one form is logged in another), a crash's exception type, or a compile that does not end in time (a hang,
    or a slow compile: a blow-up that ends, as the same bug's smaller form does; the corpus holds one such bug as
    a hang and its larger form as a slow compile)."""
    kind, _, rest = signature.partition(":")
    if kind == "slow":
        return "hang"
    if kind != "crash":
        return kind
    rest = rest.removeprefix("second_call:").removeprefix("third_call:")
    return f"crash:{rest.split('@')[0]}"


class Triggers:
    """The rule over a corpus's forms: ``like(source, signature, target)`` names the bugs whose trigger a
    reduced finding shares. ``check`` runs one program on one target; the corpus forms' triggers are found on
    the finding's own target, on first need, and kept."""

    def __init__(self, forms: Iterable[Form], check: Check, breaks: Breaks | None = None):
        self.forms = tuple(forms)
        self._check = check
        self._breaks = breaks  # None: every need of nested graph breaks is compared
        self._triggers: dict[tuple[str, str], frozenset[str]] = {}  # (corpus file, target) -> its trigger
        self._found: dict[tuple[str, str], frozenset[str]] = {}  # (source, target) -> its trigger
        self._shows_off: dict[tuple[str, str], bool | None] = {}
        made = {form.file: {callee for _, callee in call_sites(form.source)} for form in self.forms}
        bugs_of: dict[str, set[str]] = collections.defaultdict(set)
        for form in self.forms:
            for callee in made[form.file]:
                bugs_of[callee].add(form.bug)
        total = len({form.bug for form in self.forms})
        # in a small corpus (a user's own, a test's) a call two bugs make is no sign of being common
        self.common = frozenset(c for c, bugs in bugs_of.items() if len(bugs) > max(COMMON * total, 2))
        self._made = made

    def trigger(self, source: str, target: str) -> frozenset[str]:
        """``trigger_of`` with the common calls left out (found once per program and target)."""
        key = (source, target)
        if key not in self._found:
            self._found[key] = trigger_of(source, target, self._check) - self.common
        return self._found[key]

    def _form_trigger(self, form: Form, target: str) -> frozenset[str]:
        key = (form.file, target)
        if key not in self._triggers:
            shows = finding_kind(self._check(form.source, target)) == finding_kind(form.signature)
            self._triggers[key] = self.trigger(form.source, target) if shows else frozenset()
        return self._triggers[key]

    @classmethod
    def on_runner(cls, forms: Iterable[Form], runner: Any) -> Triggers:
        """The rule with its checks run by an ``oracle.Runner`` (or anything with its ``check``), whose reports
        say the graph breaks each run took too."""
        took: dict[tuple[str, str], int | None] = {}

        def check(source: str, spec: str) -> str:
            report = runner.check(source, [spec])
            stats: dict[str, Any] = next(iter(report.stats.values()), {})
            took[(source, spec)] = stats.get("breaks")
            return str(next(iter(report.verdicts.values())).signature)

        def breaks(source: str, spec: str) -> int | None:
            if (source, spec) not in took:
                check(source, spec)
            return took[(source, spec)]

        return cls(forms, check, breaks)

    def _ngb_says(self, source: str, target: str, taken: int | None = None) -> bool:
        """Whether the target took a graph break running ``source`` (or that is not known); ``taken``: the
        breaks when a check already counted them (not run again)."""
        if taken is None and self._breaks is not None:
            taken = self._breaks(source, target)
        return taken is None or taken > 0

    def _needs_ngb(self, source: str, target: str, key: tuple[str, str] | None = None) -> bool | None:
        """Whether the finding goes with nested graph breaks off (None: the target has none to turn off)."""
        from oracle import parse_target
        from oracle._slow import twin

        if key is not None and key in self._shows_off:
            return self._shows_off[key]
        off = twin(parse_target(target))
        needs = None if off is None else self._check(source, off.spec) == "ok"
        if key is not None:
            self._shows_off[key] = needs
        return needs

    def like(self, source: str, signature: str, target: str,
             leave_out: Callable[[Form], bool] | None = None, breaks: int | None = None
             ) -> tuple[list[str], list[str]]:
        """The corpus bugs (entry files) whose trigger the finding needs too, and its trigger (sorted); ``[]``
        for both when there are none, or its trigger is empty (only common calls, or none the finding needs).
        ``leave_out``: forms not to compare with (a measurement's left-out repro); ``breaks``: the graph breaks
        the target took running ``source`` when a check already said (a reduction's re-checks): not run again."""
        kind = finding_kind(signature)
        candidates = [form for form in self.forms if finding_kind(form.signature) == kind
                      and not (leave_out and leave_out(form))]
        if not candidates:
            return [], []
        mine = self.trigger(source, target)
        if not mine:
            return [], []
        candidates = [form for form in candidates if mine & self._made[form.file]]
        bugs: list[str] = []
        needs: list[bool | None] = []  # found on first need
        for form in candidates:
            if form.bug in bugs:
                continue  # named by another of its repros already
            theirs = self._form_trigger(form, target)
            if not theirs or not theirs <= mine:
                continue
            # a hang's or slow compile's run is minutes of timeouts: its need is compared as it stands
            if kind == "hang" or self._ngb_says(source, target, breaks) or self._ngb_says(form.source, target):
                needs = needs or [self._needs_ngb(source, target)]
                if needs[0] != self._needs_ngb(form.source, target, (form.file, target)):
                    continue
            bugs.append(form.bug)
        return bugs, sorted(mine) if bugs else []
