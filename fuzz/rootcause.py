"""Root causes: the second bucketing, which says which buckets of a campaign are one bug.

A bucket is (target, signature): a *symptom*. One bug shows several (a grad-mode leak is seen as a wrong effect
value, an output without ``requires_grad``, grad mode left disabled, a changed second call), so buckets are
grouped again into root causes:

- a crash (or hang) is named by its exception type and innermost compiler frame, on any target and either call:
  that pins the bug on its own, before any reduction;
- a mismatch is named by the *behaviour shape* of its reduced repro, whatever differed: the program with the
  observation-only statements removed (effect-log writes, which only make a symptom visible) and identifiers and
  constants abstracted, helper-module sources included, ``make_inputs`` left out and definitions in one order.
  Two reduced repros that do the same thing to the compiler are one bug even where the oracle saw different
  symptoms. Before reduction a mismatch has no root cause.

``benchmarks/rootcause.py`` measures the rule on hand-labeled findings (buckets per root cause, wrong merges).
"""

from __future__ import annotations

import ast
import copy
import hashlib

__all__ = ["root_cause", "behaviour_shape"]

_KEEP_NAMES = frozenset({"torch", "entry", "make_inputs", "types", "contextlib", "functools", "self"})
_OBSERVERS = frozenset({"_effect"})  # program-format helpers that only record what happened


def root_cause(signature: str, shape: str | None = None) -> str | None:
    """The root cause of a bucket with ``signature`` (``shape``: its reduced repro's ``behaviour_shape``)."""
    kind, _, rest = signature.partition(":")
    rest = rest.removeprefix("second_call:")
    if kind in ("crash", "hang"):
        return f"{kind}:{rest}"
    return f"{kind}|{shape}" if shape else None


def _is_observation(node: ast.stmt) -> bool:
    """``_effect(...)`` / ``EFFECTS.append(...)`` as a statement, or the definitions of the effect log."""
    if isinstance(node, ast.Expr) and isinstance(node.value, ast.Call):
        func = node.value.func
        if isinstance(func, ast.Name) and func.id in _OBSERVERS:
            return True
        if isinstance(func, ast.Attribute) and isinstance(func.value, ast.Name) and func.value.id == "EFFECTS":
            return True
    if isinstance(node, ast.FunctionDef) and node.name in _OBSERVERS:
        return True
    if isinstance(node, ast.Assign) and all(isinstance(t, ast.Name) and t.id in ("EFFECTS", "WANTS_GRAD")
                                            for t in node.targets):
        return True
    return False


class _Normalize(ast.NodeTransformer):
    def generic_visit(self, node):
        for field in ("body", "orelse", "finalbody"):
            stmts = getattr(node, field, None)
            if isinstance(stmts, list) and stmts and isinstance(stmts[0], ast.stmt):
                kept = [s for s in stmts if not _is_observation(s)]
                setattr(node, field, kept or ([ast.Pass()] if field == "body" else []))
        return super().generic_visit(node)

    def visit_Call(self, node: ast.Call):
        # Helper modules are sources run by exec/compile: their code is part of the shape, not a string constant.
        if isinstance(node.func, ast.Name) and node.func.id in ("exec", "compile") and node.args:
            first = node.args[0]
            if isinstance(first, ast.Constant) and isinstance(first.value, str):
                try:
                    node.args[0] = ast.Constant(_dump(ast.parse(first.value)))
                    node.args[1:] = []
                    return node
                except SyntaxError:
                    pass
        return self.generic_visit(node)

    def visit_Name(self, node: ast.Name):
        return ast.Name("N" if node.id not in _KEEP_NAMES else node.id, node.ctx)

    def visit_arg(self, node: ast.arg):
        node.arg, node.annotation = "A", None
        return node

    def visit_FunctionDef(self, node: ast.FunctionDef):
        if node.name not in ("entry", "make_inputs"):
            node.name = "F"
        return self.generic_visit(node)

    def visit_ClassDef(self, node: ast.ClassDef):
        node.name = "C"
        return self.generic_visit(node)

    def visit_Constant(self, node: ast.Constant):
        if isinstance(node.value, bool) or node.value is None or node.value is Ellipsis:
            return node
        if isinstance(node.value, str) and node.value.startswith("Module("):
            return node  # an already normalized helper-module source (see visit_Call)
        return ast.Constant(type(node.value).__name__)


def _dump(tree: ast.AST) -> str:
    return ast.dump(_Normalize().visit(tree))


def _code(module: ast.Module) -> ast.Module:
    """The module without what is data rather than behaviour: ``make_inputs`` (the inputs a reduction kept, a
    seeded ``randn`` or none, are not the bug), ``entry``'s parameters and its last ``return``; and with its
    functions and classes in one order (by their normalized text), since which helper a generator wrote first is
    not the bug either."""
    body = [s for s in module.body if not (isinstance(s, ast.FunctionDef) and s.name == "make_inputs")]
    for entry in (s for s in body if isinstance(s, ast.FunctionDef) and s.name == "entry"):
        # what entry takes and returns is observed, like the effect log: inputs and the value returned make a
        # symptom visible (a leaked grad mode as the output's requires_grad), they are not the behaviour
        entry.args = ast.arguments(posonlyargs=[], args=[], kwonlyargs=[], kw_defaults=[], defaults=[])
        if len(entry.body) > 1 and isinstance(entry.body[-1], ast.Return):
            entry.body.pop()
    definitions = sorted((s for s in body if isinstance(s, ast.FunctionDef | ast.ClassDef)), key=_dump_copy)
    others = iter(definitions)
    module.body = [next(others) if isinstance(s, ast.FunctionDef | ast.ClassDef) else s for s in body]
    return module


def _dump_copy(node: ast.AST) -> str:
    return _dump(copy.deepcopy(node))


def behaviour_shape(source: str) -> str:
    """A short hash of what a program does, without what it only observes (see the module docstring)."""
    from oracle import FOOTER_MARKER

    code = source.split(FOOTER_MARKER)[0]
    try:
        text = _dump(_code(ast.parse(code)))
    except SyntaxError:
        text = code
    return hashlib.sha1(text.encode()).hexdigest()[:16]
