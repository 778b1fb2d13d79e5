"""Known-bug avoidance: draw programs shaped like a bug already in the corpus less often.

Once a bug is in ``corpus/`` (open: not FIXED, which would make a finding a regression and news), a campaign that
keeps drawing its shape spends its time re-finding it — where it can show: an entry whose ``requires`` none of the
campaign's targets meets (a torch 2.10 bug, a 2.13 campaign) is not avoided. From every other open bug entry this
module takes the *feature set* of its repro: the ``features:`` header line where the file has one (a campaign's
repro), else the tags :func:`estimate_features` reads off the source (corpus repros are reduced and carry no
header). Tags that every program draws (call shape, depth, the plain operand stack, the default ``graph_break``)
say nothing about a bug and are left out: what is left *characterises* it.

Generation then lowers the weight of each characterising tag by ``FACTOR`` once per known shape it characterises (a
bug's entry, and each variant of it: ``same_as``), never below ``FLOOR`` times its catalog weight, so no feature is
switched off: a known shape is still drawn, only less often, and a new bug next to it can still be found. The weights depend on the corpus alone, so program
``index`` of seed ``s`` is the same for the same corpus; a repro carries them on its ``weights:`` header line
(``fuzz.campaign.bias.weights_header``), from which ``generate_program`` rebuilds it. ``ngb-fuzz run`` does this by default
when it has a corpus; ``--no-avoid-known`` turns it off.
"""

from __future__ import annotations

import ast
import dataclasses
from collections.abc import Callable, Iterable, Mapping
from pathlib import Path

from fuzz.program import families
from fuzz.program.features import CATALOG, GenerationConfig
from fuzz.triage.rootcause import STATE_CONTEXTS, unentered_state_objects
from fuzz.triage.trigger import last_name as _name
from oracle import ProgramFile

__all__ = ["FACTOR", "FLOOR", "Avoidance", "KnownShape", "covers", "estimate_features", "known_shares",
           "repro_features"]

FACTOR = 0.5  # weight multiplier per known bug a tag characterises
FLOOR = 0.25  # ... and never below this share of the tag's catalog weight
_DRAWN = frozenset(f.name for f in CATALOG)
# drawn by nearly every program, or the default way to break: they characterise no bug
_GENERIC = frozenset({"call.chain", "call.tree", "stack.plain", "break.graph_break"} |
                     {f.name for f in CATALOG if f.family == "depth"})


_DUNDERS = {"__init__": "class.init", "__setattr__": "class.setattr", "__setitem__": "class.setitem",
            "__new__": "class.new", "__str__": "class.str", "__call__": "call.callable",
            "__enter__": "ctx.user_class"}


def _called_name(template: str) -> str:
    """The name a piece's template calls or names (``torch.no_grad()`` -> ``no_grad``), '' if none."""
    try:
        node = ast.parse(template, mode="eval").body
    except SyntaxError:
        return ""
    return _name(node)


# Names read off a repro's source -> the tags of the registry's constructs they stand for: torch's state-setting
# managers (ctx pieces with a state part) and decorator-like ctx pieces (nonstrict_trace,
# disable_nested_graph_breaks); the calls of the break pieces.
_CTX = {_called_name(p.template): c.name for c, p in families.pieces("ctx") if p.part("state")}
_CALL_BREAKS = {
    **{_called_name(p.template): c.name for c, p in families.pieces("ctx")
       if not p.part("state") and "." in p.template and "(" not in p.template},
    **{call: families.tag("break", p.kind) for p, call in families.parts("break", "call")},
    # constructs placed by the strategies, with no template to read a name off: the names their code calls
    "disable": "break.disable", "ModuleType": "module.helper", "backward": "grad.backward",
    "deepcopy": "break.builtin",  # the builtin break of repros written before it was zlib.crc32
}


class _Estimate(ast.NodeVisitor):
    def __init__(self):
        self.tags: set[str] = set()
        self.function_depth = 0

    def visit_FunctionDef(self, node: ast.FunctionDef) -> None:
        ctx_decorators = 0
        names = [_name(d) for d in node.decorator_list]
        for deco in node.decorator_list:
            name = _name(deco)
            if name in _CTX:
                self.tags |= {"ctx.decorator", _CTX[name]}
                ctx_decorators += 1
            elif name == "contextmanager":
                self.tags.add("ctx.contextmanager")
            elif name == "property":
                self.tags.add("class.property")
            elif name in ("_disable_dynamo", "disable"):
                if "contextmanager" not in names:  # under one: ctx.contextmanager_disabled, no break
                    self.tags.add("break.disable")
            elif name in _CALL_BREAKS:
                self.tags.add(_CALL_BREAKS[name])
        if ctx_decorators >= 2:
            self.tags.add("ctx.nested_decorators")
        if "contextmanager" in names and ("_disable_dynamo" in names or "disable" in names):
            self.tags.add("ctx.contextmanager_disabled")
        if node.args.vararg:
            self.tags.add("call.varargs")
        if node.args.kwarg:
            self.tags.add("call.kwargs")
        if node.name in _DUNDERS:
            self.tags.add(_DUNDERS[node.name])
        if "contextmanager" not in names and any(isinstance(n, ast.Yield | ast.YieldFrom) for n in ast.walk(node)):
            self.tags.add("flow.generator")
        if any(isinstance(n, ast.Call) and isinstance(n.func, ast.Name) and n.func.id == node.name
               for n in ast.walk(node)):
            self.tags.add("call.recursion")
        self.function_depth += 1
        for stmt in node.body:  # decorators are read above
            self.visit(stmt)
        self.function_depth -= 1

    def visit_ClassDef(self, node: ast.ClassDef) -> None:
        if self.function_depth:
            self.tags.add("class.local")
        if any(_name(b) == "Module" for b in node.bases):
            self.tags.add("nn.module")
        self.generic_visit(node)

    def visit_Call(self, node: ast.Call) -> None:
        name = _name(node)
        if name in _CALL_BREAKS:
            self.tags.add(_CALL_BREAKS[name])
        elif name == "super":
            self.tags.add("class.super")
        for kw in node.keywords:
            if kw.arg == "requires_grad" and isinstance(kw.value, ast.Constant) and kw.value.value is True:
                self.tags.add("input.requires_grad")
        self.generic_visit(node)

    def visit_With(self, node: ast.With) -> None:
        for item in node.items:
            name = _name(item.context_expr)
            if name in _CTX and isinstance(item.context_expr, ast.Call):
                self.tags.add(_CTX[name])
        self.generic_visit(node)

    def visit_Try(self, node: ast.Try) -> None:
        if node.handlers:
            self.tags.add("flow.try_except")
        if node.finalbody:
            self.tags.add("flow.try_finally")
        self.generic_visit(node)

    def generic_visit(self, node: ast.AST) -> None:
        kind = {ast.Nonlocal: "closure.nonlocal", ast.Global: "side.global", ast.For: "flow.loop",
                ast.While: "flow.loop", ast.Lambda: "call.lambda", ast.Raise: "raise.deliberate"}.get(type(node))
        if kind:
            self.tags.add(kind)
        super().generic_visit(node)


def estimate_features(source: str) -> frozenset[str]:
    """The catalog tags a program's source shows, read off its syntax (for files without a ``features:`` line).

    An estimate: it sees what is written (``with torch.no_grad()``, a nonlocal, a generator, a graph break), not
    the generator's choices, so it may miss a tag the IR would give or add one a hand-written repro implies.
    ``make_inputs`` and the standalone check after the footer mark are not the program and are left out.
    """
    source = source.split("\n# ---- ngb-fuzz standalone check", 1)[0]
    try:
        tree = ast.parse(source)
    except SyntaxError:
        return frozenset()
    tree.body = [n for n in tree.body if not (isinstance(n, ast.FunctionDef) and n.name == "make_inputs")]
    visitor = _Estimate()
    visitor.visit(tree)
    tags = visitor.tags
    tags |= _registry_tags(tree)
    states = unentered_state_objects(tree)  # made by one frame, entered (or not) after a break: ctx.as_value
    if states:
        tags.add("ctx.as_value")
        tags |= {_CTX[_name(n)] for n in ast.walk(tree) if isinstance(n, ast.Call) and _name(n) in _CTX
                 and STATE_CONTEXTS.get(_name(n)) in states}
    return frozenset(tags & _DRAWN)


def _registry_tags(tree: ast.AST) -> set[str]:
    """Tags of the construct registry's constructs (``fuzz.program.families``, where this ngb-fuzz has it) whose most
    specific library name (of a construct's ``keep_names``: ``sorted``, ``reversed``, ``deque``; the one fewest
    constructs share, so ``list`` alone names none of them) the source uses."""
    try:
        from fuzz.program import families
    except ImportError:
        return set()
    constructs = [(c.name, set(getattr(c, "keep_names", ()))) for c in getattr(families, "CONSTRUCTS", {}).values()]
    sharing: dict[str, int] = {}
    for _, names in constructs:
        for name in names:
            sharing[name] = sharing.get(name, 0) + 1
    used = {n.id for n in ast.walk(tree) if isinstance(n, ast.Name)} | \
        {n.attr for n in ast.walk(tree) if isinstance(n, ast.Attribute)}
    tags = set()
    for tag, names in constructs:
        fewest = min((sharing[n] for n in names), default=0)
        if {n for n in names if sharing[n] == fewest} & used:
            tags.add(tag)
    return tags


def repro_features(source: str) -> frozenset[str]:
    """The drawn tags of a repro: its ``# features:`` header line where it has one, else the estimate."""
    features = ProgramFile.parse(source).get("features")
    if features is not None:
        return frozenset(features.split()) & _DRAWN
    return estimate_features(source)


@dataclasses.dataclass(frozen=True)
class KnownShape:
    file: str  # corpus file of the bug (a variant's shape names its entry's)
    features: frozenset[str]  # the tags that characterise it (generic ones left out)


def covers(features: Iterable[str], shape: KnownShape) -> bool:
    """Does a program with these tags have every tag that characterises the known bug (and at least one)?"""
    return bool(shape.features) and shape.features <= set(features)


class Avoidance:
    """The characterising tag sets of a corpus's open bugs, and the generation weights that draw them less."""

    def __init__(self, shapes: Iterable[KnownShape] = (), factor: float = FACTOR, floor: float = FLOOR):
        if not 0 < floor <= factor <= 1:
            raise ValueError("Avoidance needs 0 < floor <= factor <= 1")
        self.shapes = tuple(s for s in shapes if s.features)
        self.factor, self.floor = factor, floor

    def __len__(self) -> int:
        """The known bugs avoided: a variant's shape (``same_as``) is one more form of its entry's bug."""
        return len({shape.file for shape in self.shapes})

    @classmethod
    def from_corpus(cls, root: str | Path, targets: Iterable[str] | None = None,
                    versions: Callable[[str], tuple[str, str]] | None = None, **kwargs) -> Avoidance:
        """The open bug entries of the corpus at ``root`` (regression cases, fault-injection and FIXED entries
        are not bugs a campaign re-finds), and of those that say which torch/Python they show on (``requires``),
        only the ones some of ``targets`` meets (``versions(spec)``: default, asked of the target's
        interpreter): a bug that cannot show there is not re-found, and its shape is breadth, not waste."""
        from fuzz.corpus.manifest import Corpus
        from fuzz.corpus.requires import target_versions, unmet

        corpus = Corpus(root)
        entries = corpus.select()
        have = [(versions or target_versions)(spec) for spec in targets or ()] if any(
            entry.requires for entry in entries) else []
        shapes = []
        for entry in entries:
            path = corpus.root / entry.file
            if entry.signature == "ok" or entry.status == "FIXED" or entry.target.startswith("fault") \
                    or not path.is_file():
                continue
            if entry.requires and have and all(unmet(entry.requires, *v) for v in have):
                continue
            shapes.append(KnownShape(entry.same_as or entry.file, repro_features(path.read_text()) - _GENERIC))
        return cls(shapes, **kwargs)

    def multipliers(self) -> dict[str, float]:
        """Per characterising tag, what its weight is multiplied by (largest cut first)."""
        counts: dict[str, int] = {}
        for shape in self.shapes:
            for tag in shape.features:
                counts[tag] = counts.get(tag, 0) + 1
        cut = {tag: max(self.floor, self.factor ** n) for tag, n in counts.items()}
        return dict(sorted(cut.items(), key=lambda kv: (kv[1], kv[0])))

    def config(self, base: GenerationConfig | None = None) -> GenerationConfig:
        """``base`` (the catalog's weights by default) with every characterising tag's weight lowered."""
        base = base or GenerationConfig()
        cut = self.multipliers()
        if not cut:
            return base
        weights = dict(base.weights)
        for tag, m in cut.items():
            weights[tag] = round(base.weight(tag) * m, 4)
        return GenerationConfig(weights, base.max_depth, base.max_functions, base.python)

    def matching(self, features: Iterable[str]) -> list[str]:
        """The corpus files whose known shape a program with these tags covers."""
        features = set(features)
        return [s.file for s in self.shapes if covers(features, s)]


def known_shares(buckets: Iterable[Mapping]) -> dict:
    """What share of a campaign's findings and buckets were KNOWN (an open corpus bug re-found).

    ``buckets``: summary bucket records (``count``, ``status``). A finding is one program's verdict on one
    target that was not ok; a bucket's ``count`` is its findings. REGRESSION buckets are news, not KNOWN.
    """
    buckets = list(buckets)
    findings = sum(int(b.get("count", 0)) for b in buckets)
    known = [b for b in buckets if b.get("status") == "KNOWN"]
    known_findings = sum(int(b.get("count", 0)) for b in known)
    return {
        "findings": findings, "known_findings": known_findings,
        "findings_share": round(known_findings / findings, 4) if findings else 0.0,
        "buckets": len(buckets), "known_buckets": len(known),
        "buckets_share": round(len(known) / len(buckets), 4) if buckets else 0.0,
    }
