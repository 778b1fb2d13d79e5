"""The construct registry: what one construct of the generator is, and the checks that it is wired fully.

A *construct* is a piece of program the generator writes as one unit: a side effect (``LOG.append(x)``), a class
used in a certain way, a builtin that calls back into user code (``sorted(..., key=...)``), a standard-library
tool, a ``match`` statement, a torch API around a break. Each one is declared once, in the module of its
family (``fuzz/program/families/<family>.py``), as a :class:`Construct`: the feature tag and weight the strategies draw by,
the template the renderer prints, the module-level definitions and imports it needs, how it changes the bound on
``|x|`` that keeps programs numerically tame, and the names the root-cause grouping must keep. Nothing else in
the generator, renderer, feature extraction, reducer or root-cause grouping names a construct: they ask here.

Two kinds:

- a *hosting* construct has a hole: its template calls ``{hole}``, a function ``x -> x`` the renderer writes
  just before it, holding a drawn body (a call down the call graph, a break, a ``with`` block ...). So a graph
  break of any kind, at any depth, happens *inside* the construct (in a ``key=`` callback, a ``__iter__``, a hook,
  an ``autograd.Function.forward``), one frame down; the wrappers around it put breaks before and after it.
- a *plain* construct has no hole: it is drawn where the generator draws filler statements, between the breaks.

Templates are Python source with three fields, replaced as text (no ``str.format``, so braces need no doubling):
``{k}`` a number unique in the program (for temporaries: ``v{k}``), ``{tag}`` a unique effect-log tag, ``{hole}``
the hole's name. A template reads and rebinds the function's working tensor ``x`` and must keep its shape,
dtype and device; what it does must be seen in the effect log (``_effect("{tag}", value)``) or in ``x``.
Everything must be deterministic under a fresh interpreter: no ``id()``, no iteration over sets of strings or of
objects hashed by identity, no time, no unseeded randomness.
"""

from __future__ import annotations

import ast
import sys
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

__all__ = ["SLOTS", "Construct", "DrawHook", "Family", "Kit", "Piece", "RenderHook", "RenderKit", "Slot", "WiringError", "check_construct", "check_family",
           "library_constructs"]

# (|x| before, |x| after the hole) -> |x| after the construct
Bound = Callable[[float, float], float]


def _keep(before: float, hole: float) -> float:
    return max(before, hole)


@dataclass(frozen=True)
class Slot:
    """A choice point of the generator that IR records of their own fill (a break kind, an operand-stack context,
    a context-manager kind ...): what a :class:`Piece` in it must give. ``fields``: the template fields the
    renderer fills (each as a Python name, so a filled template parses); ``needs``: the fields a template must
    use; ``parts``: the named render parts a piece must give besides its template; ``expression``: the template
    is an expression, not statements; ``template``: whether a piece needs one at all."""

    description: str
    fields: tuple[str, ...] = ()
    needs: tuple[str, ...] = ()
    parts: tuple[str, ...] = ()
    expression: bool = False
    template: bool = True
    hook: bool = False  # its pieces draw their own IR records (Piece.draw)


@dataclass(frozen=True)
class Kit:
    """What the strategies hand a piece's ``draw`` hook: the drawing helpers of ``fuzz.program.strategies`` (a
    hook never imports them, so the registry loads before the strategies), and their limits."""

    chance: Callable[..., bool]
    pick: Callable[..., Any]
    weighted: Callable[..., Any]
    filler: Callable[..., Any]  # (draw, body) -> a filler statement
    squash: Callable[..., Any]  # (draw, body) -> an arithmetic statement that bounds |x|
    limit: float  # |x| stays below this
    mult_limit: int  # a statement runs at most this often per call of entry


@dataclass(frozen=True)
class RenderKit:
    """What the renderer hands a piece's ``render`` hook for one statement: its indentation, effect tag and unique
    number, x's rank, and the renderer's ways to print nested statements."""

    pad: str  # the statement's indentation
    ind: str  # one more level
    tag: str  # a unique effect-log tag
    k: int  # a number unique in the program (for temporaries)
    rank: int  # x's rank
    body: Callable[[tuple], list[str]]  # statements one level deeper, in the same def
    nested: Callable[[tuple], tuple[list[str], bool]]  # ... in a nested def: lines, whether they rebind COUNTER
    uses_global: Callable[[], None]  # the statement rebinds COUNTER: its def declares ``global COUNTER``


# (statement, kit) -> source lines of a record of its own
RenderHook = Callable[[Any, RenderKit], list[str]]
# (draw, kit, body, inside, before) -> statements: a wrapper's records around ``inside()`` (the drawn core, once),
# updating ``body.bound`` from ``before`` (the bound before the wrapper) and ``body.mult`` while inside
DrawHook = Callable[[Any, Kit, Any, Callable[[], tuple], float], tuple]


# The slots of the IR records outside ir.Construct; docs/constructs.md describes each.
SLOTS: dict[str, Slot] = {
    "break": Slot("a graph break statement (ir.Break.kind)", ("k", "tag")),
    "stack": Slot("an operand-stack context of a call (ir.CallSite.context)",
                  ("call", "call_c", "k", "tag", "deco", "fn", "rank"), needs=("x",)),
    "ctx": Slot("a context-manager expression (ir.With.kind, a decorator, a value passed down)", ("tag",),
                expression=True),
    "signature": Slot("how a callee is defined and called (ir.Function.signature): template is the call",
                      ("name", "arg", "cm"), needs=("name", "arg"), parts=("params",), expression=True),
    "wrapper": Slot("a compound statement the strategies wrap around a core (ir.Closure, ir.Loop, ...)",
                    template=False, hook=True),
    "depth": Slot("a bucket of the longest call path below entry: parts lo, hi", parts=("lo", "hi"),
                  template=False),
    "shape": Slot("the call graph's shape (chain or tree)", template=False),
    "extra": Slot("an extra input of entry: template mixes it into x, part make builds it", ("i",),
                  needs=("x",), parts=("make",)),
    "dtype": Slot("a dtype of x other than float32: part dtype", parts=("dtype",), template=False),
    "rank": Slot("a rank of x other than 2: part rank", parts=("rank",), template=False),
    "placed": Slot("a construct the strategies place at one spot of their own, looked up by kind",
                   template=False),
}


@dataclass(frozen=True)
class Piece:
    """One way a construct shows up in the IR outside ``ir.Construct``: as kind ``kind`` of slot ``slot``.

    Drawn with the construct's weight times ``share`` where the strategies draw that slot (in registry order:
    family order, then declaration order; draws shrink toward the first). ``template``: what the renderer prints
    for it (fields as the slot says, filled by ``str.format``); ``parts``: further named render pieces the slot
    asks for; ``traits``: flags the slot's strategies read (docs/constructs.md lists them); ``bound``: how it
    changes the bound on ``|x|``."""

    slot: str
    kind: str
    template: str = ""
    share: float = 1.0
    traits: frozenset[str] = frozenset()
    parts: tuple[tuple[str, str], ...] = ()
    bound: Bound | None = None
    draw: DrawHook | None = None  # for slots with hooks: draws the piece's IR records
    reads: Callable[[Any], bool] | None = None  # is an IR statement this piece? (records without a kind field)
    render: RenderHook | None = None  # ... then how it is printed

    def part(self, name: str, default: str = "") -> str:
        return dict(self.parts).get(name, default)


@dataclass(frozen=True)
class Construct:
    """One construct of the generator; see the module docstring for the template rules."""

    name: str  # the feature tag, "<family>.<kind>"
    weight: float  # the catalog weight (0 switches it off)
    description: str  # one line, for ``ngb-fuzz features``
    template: str = ""  # an ir.Construct's source ("" for a construct made of pieces, or a tag only)
    bound: Bound = _keep
    defs: str = ""  # module-level definitions, printed once in each module of the program that uses it
    imports: tuple[str, ...] = ()  # ``import NAME`` lines the template or defs need ("collections", "enum")
    calls: int = 1  # how often the hole runs per execution (the generator bounds nested repetition)
    keep_names: frozenset[str] = frozenset()  # identifiers root-cause shapes keep (``sorted``, ``deque``)
    uses_global: bool = False  # the template rebinds the module global COUNTER (needs ``global COUNTER``)
    breaks: bool = False  # the construct graph-breaks by itself, without a break in its hole
    grad: bool = False  # runs autograd itself: the generator keeps it out of inference mode
    filler: bool = True  # a plain construct drawn among filler statements (False: placed by the strategies)
    min_python: tuple[int, int] = (3, 10)
    pieces: tuple[Piece, ...] = ()  # the IR records of other slots it is drawn and rendered as
    tag_only: bool = False  # set by the strategies or derived from the program, with no source of its own

    @property
    def family(self) -> str:
        return self.name.split(".", 1)[0]

    @property
    def hosts(self) -> bool:
        """Whether the construct has a hole for a drawn body."""
        return "{hole}" in self.template

    def source(self, k: int, tag: str, hole: str = "") -> str:
        """The template with its fields filled in."""
        return self.template.replace("{hole}", hole).replace("{tag}", tag).replace("{k}", str(k))

    def available(self, python: tuple[int, int] | None = None) -> bool:
        """Whether programs for Python ``python`` (the generator's knob; None: this interpreter's) may use it:
        every interpreter from ``python`` on parses it."""
        return (python or sys.version_info[:2]) >= self.min_python


@dataclass(frozen=True)
class Family:
    """A family of constructs: the part of the feature tag before the dot, one module of ``fuzz/program/families``."""

    name: str
    description: str
    constructs: tuple[Construct, ...] = field(default_factory=tuple)


class WiringError(ValueError):
    """A construct that misses a piece the generator, renderer or grouping needs."""


def _names_defined(source: str) -> set[str]:
    names: set[str] = set()
    for node in ast.parse(source).body:
        if isinstance(node, ast.FunctionDef | ast.ClassDef):
            names.add(node.name)
        elif isinstance(node, ast.Assign):
            names.update(t.id for t in node.targets if isinstance(t, ast.Name))
    return names


def check_construct(c: Construct, family: str) -> None:
    """Raise :class:`WiringError` naming what ``c`` lacks: a feature tag of its family, a description, a weight,
    a template that parses with its fields filled and touches ``x``, definitions that parse, a hole the
    template calls if and only if the construct hosts a body."""
    where = f"construct {c.name!r}"
    if c.family != family or "." not in c.name or not c.name.split(".", 1)[1]:
        raise WiringError(f"{where}: its name must be '{family}.<kind>'")
    if not c.description.strip():
        raise WiringError(f"{where}: no description (ngb-fuzz features lists it)")
    if c.weight < 0:
        raise WiringError(f"{where}: negative weight")
    if c.calls < 1:
        raise WiringError(f"{where}: calls must be >= 1")
    if not c.available():
        return
    if c.pieces or c.tag_only:
        if c.template:
            raise WiringError(f"{where}: a construct of pieces or a tag only has no ir.Construct template")
        if c.tag_only and c.pieces:
            raise WiringError(f"{where}: tag_only but has pieces")
        for piece in c.pieces:
            check_piece(piece, where)
        return
    if not c.template:
        raise WiringError(f"{where}: no template, pieces or tag_only")
    try:
        tree = ast.parse(c.source(1, "t.1", "hole1"))
    except SyntaxError as exc:
        raise WiringError(f"{where}: template does not parse: {exc}") from None
    names = {n.id for n in ast.walk(tree) if isinstance(n, ast.Name)}
    if "x" not in names:
        raise WiringError(f"{where}: the template never reads or writes x")
    if c.hosts and "hole1" not in names:
        raise WiringError(f"{where}: '{{hole}}' is not used as a name")
    if "{k}" in c.defs or "{tag}" in c.defs or "{hole}" in c.defs:
        raise WiringError(f"{where}: defs are module-level and take no template fields")
    if c.defs:
        try:
            _names_defined(c.defs)
        except SyntaxError as exc:
            raise WiringError(f"{where}: defs do not parse: {exc}") from None
    used = {n.id for n in ast.walk(tree) if isinstance(n, ast.Name)}
    used |= {n.value.id for n in ast.walk(tree) if isinstance(n, ast.Attribute) and isinstance(n.value, ast.Name)}
    for module in c.imports:
        if module.split(".")[0] not in used and module not in c.defs:
            raise WiringError(f"{where}: imports {module!r} but neither template nor defs use it")


def check_piece(p: Piece, where: str = "piece") -> None:
    """Raise :class:`WiringError` naming what piece ``p`` lacks for its slot."""
    where = f"{where}: piece {p.slot}/{p.kind}"
    slot = SLOTS.get(p.slot)
    if slot is None:
        raise WiringError(f"{where}: unknown slot (one of {', '.join(SLOTS)})")
    if not p.kind:
        raise WiringError(f"{where}: no kind")
    if p.share <= 0:
        raise WiringError(f"{where}: share must be > 0")
    if slot.hook and p.draw is None:
        raise WiringError(f"{where}: no draw hook (slot {p.slot!r} draws its records through one)")
    if not slot.hook and p.draw is not None:
        raise WiringError(f"{where}: slot {p.slot!r} takes no draw hook")
    if (p.reads is None) != (p.render is None):
        raise WiringError(f"{where}: a piece that reads its own IR records renders them too (reads and render)")
    missing = [name for name in slot.parts if name not in dict(p.parts)]
    if missing:
        raise WiringError(f"{where}: lacks the part(s) {missing} its slot needs")
    if not slot.template:
        if p.template:
            raise WiringError(f"{where}: slot {p.slot!r} takes no template")
        return
    if not p.template:
        raise WiringError(f"{where}: no template")
    try:
        text = p.template.format(**{name: name for name in slot.fields})
        tree = ast.parse(text, mode="eval" if slot.expression else "exec")
    except (SyntaxError, KeyError, IndexError, ValueError) as exc:
        raise WiringError(f"{where}: template does not parse with the fields {slot.fields}: {exc!r}") from None
    names = {n.id for n in ast.walk(tree) if isinstance(n, ast.Name)}
    for name in slot.needs:
        if name not in names:
            raise WiringError(f"{where}: the template never uses {name}")


def check_family(f: Family) -> None:
    if not f.description.strip():
        raise WiringError(f"family {f.name!r}: no description")
    if not f.constructs:
        raise WiringError(f"family {f.name!r}: no constructs")
    seen: set[str] = set()
    for c in f.constructs:
        if c.name in seen:
            raise WiringError(f"family {f.name!r}: {c.name!r} declared twice")
        seen.add(c.name)
        check_construct(c, f.name)


def defined_names(c: Construct) -> set[str]:
    """The module-level names ``c``'s definitions bind (what helper modules must see too)."""
    return _names_defined(c.defs) if c.defs else set()


def library_constructs(family: str) -> Callable[..., Construct]:
    """A constructor of ``family``'s constructs that use library modules: the modules a construct imports are
    names its root-cause shapes keep too (``collections``, ``dataclasses``), definitions lose leading blank lines."""

    def make(kind: str, weight: float, description: str, template: str, imports: tuple[str, ...] = (),
             calls: int = 1, bound: Bound | None = None, keep: tuple[str, ...] = (), defs: str = "",
             min_python: tuple[int, int] = (3, 10)) -> Construct:
        return Construct(f"{family}.{kind}", weight, description, template, bound=bound or _keep,
                         defs=defs.lstrip("\n"), imports=imports, calls=calls,
                         keep_names=frozenset(keep) | frozenset(imports), min_python=min_python)

    return make
