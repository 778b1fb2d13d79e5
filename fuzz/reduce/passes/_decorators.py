"""Decorators that only enter a context manager around each call of the function they decorate.

``@torch.no_grad()`` on ``def f1(x): body`` makes ``f1(a)`` run ``with torch.no_grad(): body`` with ``x`` bound to
``a``; so does ``@cm()`` for a ``@contextlib.contextmanager`` function ``cm`` of the program (contextlib makes a fresh
manager for each call). Such a decorator passes the arguments through untouched and adds nothing but the block
around the body, so the passes that rewrite a function's parameters or inline its one call (plain-parameters,
inline-calls) may treat the function as undecorated, the block aside. Any other decorator keeps them away: it
may read, change or drop the arguments, or call the function more than once.

Not ``torch.set_grad_enabled(False)``: making it already sets the grad mode, at the ``def``.
"""

from __future__ import annotations

import ast

from fuzz.triage.rootcause import STATE_CONTEXTS
from fuzz.triage.trigger import yields

__all__ = ["entered_decorators"]

# torch's global-state context managers that are safe to make at the ``def`` (they do nothing until entered) and
# that, as decorators, enter a fresh copy around each call
_TORCH_MANAGERS = frozenset(STATE_CONTEXTS) - {"set_grad_enabled"}
_CONTEXTMANAGER = {"contextmanager", "contextlib.contextmanager"}


def _dotted(node: ast.expr) -> str | None:
    parts = []
    while isinstance(node, ast.Attribute):
        parts.append(node.attr)
        node = node.value
    if not isinstance(node, ast.Name):
        return None
    return ".".join([node.id, *reversed(parts)])


def _generator_managers(tree: ast.Module) -> set[str]:
    """Module-level functions of the program made context managers by ``@contextlib.contextmanager``."""
    return {s.name for s in tree.body if isinstance(s, ast.FunctionDef)
            and any(_dotted(d) in _CONTEXTMANAGER for d in s.decorator_list)}


def _entered(decorator: ast.expr, managers: set[str]) -> bool:
    if not isinstance(decorator, ast.Call) or not all(
            isinstance(a, ast.Constant) for a in [*decorator.args, *(k.value for k in decorator.keywords)]):
        return False  # arguments evaluated once at the ``def`` must mean the same at every call
    name = _dotted(decorator.func)
    if name is None:
        return False
    if name in managers:
        return True
    head, _, last = name.rpartition(".")
    return last in _TORCH_MANAGERS and head.split(".")[0] == "torch"


def entered_decorators(tree: ast.Module, fn: ast.FunctionDef) -> list[ast.expr] | None:
    """``fn``'s decorators, outermost first, when each only enters a context manager around the call (see the
    module docstring) and ``fn`` is no generator (a decorator wraps a generator's every step instead); None
    otherwise. An undecorated function has none: ``[]``."""
    if not fn.decorator_list:
        return []
    if yields(fn):
        return None
    managers = _generator_managers(tree)
    return list(fn.decorator_list) if all(_entered(d, managers) for d in fn.decorator_list) else None
