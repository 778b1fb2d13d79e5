"""Import cycles among a package's modules, found with `ast` (nothing is imported).

Two graphs are printed: module-level imports only (what Python executes at import time; a cycle there is
one an import order can break), and every import including the deferred ones inside functions (how the
modules really depend on each other; a deferred import is usually a cycle worked around). For each, the
strongly connected components of more than one module, and every elementary cycle up to `--max-len`
modules long (shortest first); then the number of import statements inside functions, per module.
A third graph adds the `if TYPE_CHECKING:` imports: they never run, but the modules depend on each other
through them all the same.
Run: python tools/import_cycles.py [DIR] [--max-len N]   (default: engine/, 4)
"""

from __future__ import annotations

import ast
import sys
from pathlib import Path


def module_name(root: Path, path: Path) -> str:
    rel = path.relative_to(root.parent).with_suffix("")
    parts = list(rel.parts)
    if parts[-1] == "__init__":
        parts.pop()
    return ".".join(parts)


def _is_type_checking(node: ast.If) -> bool:
    t = node.test
    return (isinstance(t, ast.Name) and t.id == "TYPE_CHECKING") or (
        isinstance(t, ast.Attribute) and t.attr == "TYPE_CHECKING")


def _imports(tree: ast.Module, deferred: bool, type_only: bool = False) -> list[ast.Import | ast.ImportFrom]:
    """Import statements of a module: top level only, or everywhere (functions included), with or without the
    ``if TYPE_CHECKING:`` ones."""
    out: list[ast.Import | ast.ImportFrom] = []

    def visit(body: list[ast.stmt], top: bool) -> None:
        for node in body:
            if isinstance(node, (ast.Import, ast.ImportFrom)):
                if top or deferred:
                    out.append(node)
            elif isinstance(node, ast.If) and _is_type_checking(node):
                if type_only:
                    visit(node.body, False)
            elif isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
                if deferred:
                    visit(node.body, False)
            else:
                for field in ("body", "orelse", "handlers", "finalbody"):
                    visit(getattr(node, field, None) or [], top and not isinstance(node, ast.ClassDef))
                if isinstance(node, ast.ClassDef):
                    visit(node.body, top)

    visit(tree.body, True)
    return out


def _resolve(mod: str, is_pkg: bool, node: ast.Import | ast.ImportFrom, known: set[str]) -> set[str]:
    """The known modules an import statement loads (`from . import x` loads the submodule x)."""
    if isinstance(node, ast.Import):
        return {a.name for a in node.names if a.name in known}
    base_parts = mod.split(".") if is_pkg else mod.split(".")[:-1]
    if node.level:
        base_parts = base_parts[:len(base_parts) - (node.level - 1)]
        base = ".".join(base_parts + ([node.module] if node.module else []))
    else:
        base = node.module or ""
    out = set()
    for a in node.names:
        sub = f"{base}.{a.name}"
        if sub in known:
            out.add(sub)
        elif base in known:
            out.add(base)
    return out


def graph(root: Path, deferred: bool, type_only: bool = False) -> dict[str, set[str]]:
    paths = {module_name(root, p): p for p in sorted(root.rglob("*.py"))}
    known = set(paths)
    g: dict[str, set[str]] = {}
    for mod, path in paths.items():
        tree = ast.parse(path.read_text(), str(path))
        deps: set[str] = set()
        for node in _imports(tree, deferred, type_only):
            deps |= _resolve(mod, path.name == "__init__.py", node, known)
        # a package's __init__ runs when a submodule is imported: not a dependency worth a cycle
        g[mod] = {d for d in deps if d != mod and not mod.startswith(d + ".")}
    return g


def sccs(g: dict[str, set[str]]) -> list[list[str]]:
    """Tarjan's strongly connected components with more than one module."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on: set[str] = set()
    out: list[list[str]] = []
    counter = [0]

    def strong(v: str) -> None:
        index[v] = low[v] = counter[0]
        counter[0] += 1
        stack.append(v)
        on.add(v)
        for w in sorted(g[v]):
            if w not in index:
                strong(w)
                low[v] = min(low[v], low[w])
            elif w in on:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            comp = []
            while True:
                w = stack.pop()
                on.discard(w)
                comp.append(w)
                if w == v:
                    break
            if len(comp) > 1:
                out.append(sorted(comp))

    sys.setrecursionlimit(10000)
    for v in sorted(g):
        if v not in index:
            strong(v)
    return sorted(out, key=lambda c: (-len(c), c))


def cycles(g: dict[str, set[str]], max_len: int) -> list[list[str]]:
    """Elementary cycles of at most `max_len` modules, each listed once (from its smallest module)."""
    found: list[list[str]] = []

    def walk(start: str, path: list[str]) -> None:
        for w in sorted(g[path[-1]]):
            if w == start:
                found.append(list(path))
            elif w > start and w not in path and len(path) < max_len:
                walk(start, [*path, w])

    for start in sorted(g):
        walk(start, [start])
    return sorted(found, key=lambda c: (len(c), c))


def function_level_imports(root: Path) -> dict[str, int]:
    """Import statements inside functions (of any module, to anything), per module that has some."""
    def count(node: ast.AST, in_function: bool) -> int:
        n = 0
        for child in ast.iter_child_nodes(node):
            if isinstance(child, ast.If) and _is_type_checking(child):
                n += sum(count(c, in_function) for c in child.orelse)
            elif isinstance(child, (ast.Import, ast.ImportFrom)):
                n += in_function
            else:
                n += count(child, in_function or isinstance(child, (ast.FunctionDef, ast.AsyncFunctionDef)))
        return n

    out: dict[str, int] = {}
    for path in sorted(root.rglob("*.py")):
        n = count(ast.parse(path.read_text(), str(path)), False)
        if n:
            out[module_name(root, path)] = n
    return out


def _short(m: str, root: str) -> str:
    return m[len(root) + 1:] if m.startswith(root + ".") else m


def report(root: Path, max_len: int) -> str:
    lines = []
    for deferred, type_only, title in ((False, False, "module-level imports"),
                                       (True, False, "all imports (deferred ones included)"),
                                       (True, True, "all imports and type-only ones (if TYPE_CHECKING)")):
        g = graph(root, deferred, type_only)
        comps = sccs(g)
        cyc = cycles(g, max_len)
        lines.append(f"{title}: {len(comps)} cyclic group(s), {len(cyc)} cycle(s) of <= {max_len} modules")
        for c in comps:
            lines.append(f"  group of {len(c)}: {', '.join(_short(m, root.name) for m in c)}")
        for c in cyc:
            lines.append("    " + " -> ".join(_short(m, root.name) for m in c + [c[0]]))
    inner = function_level_imports(root)
    lines.append(f"function-level imports: {sum(inner.values())}")
    for m, n in sorted(inner.items(), key=lambda kv: (-kv[1], kv[0])):
        lines.append(f"  {n:4d}  {_short(m, root.name)}")
    return "\n".join(lines)


def main(argv: list[str]) -> None:
    max_len = 4
    if "--max-len" in argv:
        k = argv.index("--max-len")
        max_len = int(argv[k + 1])
        del argv[k:k + 2]
    print(report(Path(argv[0] if argv else "engine"), max_len))


if __name__ == "__main__":
    main(sys.argv[1:])
