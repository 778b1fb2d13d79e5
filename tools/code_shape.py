"""Shape of the engine's code: how many functions, how long, and how many carry type hints.

A function is every `def` (methods and nested functions included). Its length is its source lines from the
`def` line to its last line (decorators and docstring included, as a reader sees it). "Annotated" means at
least one parameter (other than self/cls) or the return carries an annotation; functions with no such
parameters count as annotated only if they annotate their return.
Run: python tools/code_shape.py [DIR]   (default: engine/)
"""

from __future__ import annotations

import ast
import statistics
import sys
from pathlib import Path


def functions(root: Path) -> list[tuple[str, int, bool]]:
    """(qualified location, length in lines, annotated?) for every function under `root`."""
    out = []
    for path in sorted(root.rglob("*.py")):
        tree = ast.parse(path.read_text(), str(path))
        for node in ast.walk(tree):
            if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
                length = node.end_lineno - node.lineno + 1
                out.append((f"{path}:{node.lineno} {node.name}", length, _annotated(node)))
    return out


def _annotated(node: ast.FunctionDef | ast.AsyncFunctionDef) -> bool:
    a = node.args
    params = [*a.posonlyargs, *a.args, *a.kwonlyargs, *([a.vararg] if a.vararg else []),
              *([a.kwarg] if a.kwarg else [])]
    params = [p for p in params if p.arg not in ("self", "cls")]
    return node.returns is not None or any(p.annotation is not None for p in params)


def main(argv: list[str]) -> None:
    root = Path(argv[0] if argv else "engine")
    fns = functions(root)
    lengths = [n for _, n, _ in fns]
    long = sorted((n, where) for where, n, _ in fns if n > 50)
    typed = sum(1 for *_, t in fns if t)
    print(f"{root}: {len(fns)} functions, median length {statistics.median(lengths):.0f} lines, "
          f"max {max(lengths)}, > 50 lines: {len(long)}")
    print(f"type hints: {typed}/{len(fns)} functions annotated ({100 * typed / len(fns):.0f}%)")
    for n, where in long:
        print(f"  {n:>4}  {where}")


if __name__ == "__main__":
    main(sys.argv[1:])
