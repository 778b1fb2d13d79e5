"""hypothesmith filler: arbitrary statement blocks, screened so that eager runs them, drawn from a fixed pool.

hypothesmith's strategies need Hypothesis's full engine to produce interesting code (outside it they mostly yield
comments) and take ~0.1 s per example, so the pool is built once, offline, by running this module::

    python -m fuzz.program.strategies._filler [--examples 600]

which rewrites ``_filler_pool.py`` (data, deterministic: ``derandomize=True``). A block is kept only if it is
small, touches none of the program's names, imports nothing, cannot allocate or loop without bound, and runs
cleanly (twice, identically) inside a fresh function under a line budget. The renderer wraps each block in a
nested function, so its locals cannot disturb the generated code around it.
"""

from __future__ import annotations

import ast
import builtins
import contextlib
import io
import sys

__all__ = ["pool", "screen"]

_FORBIDDEN_NODES = (
    ast.Import, ast.ImportFrom, ast.Global, ast.Nonlocal, ast.Return, ast.Yield, ast.YieldFrom, ast.Await,
    ast.While, ast.AsyncFunctionDef, ast.AsyncFor, ast.AsyncWith, ast.Delete, ast.Starred,
)
_FORBIDDEN_NAMES = frozenset({
    "open", "exec", "eval", "compile", "__import__", "input", "exit", "quit", "breakpoint", "globals", "locals",
    "vars", "setattr", "delattr", "getattr", "id", "hash", "help", "memoryview", "object", "type", "super",
    "x", "n", "cm", "args", "kw", "torch", "np", "zlib", "contextlib", "types", "entry", "make_inputs",
    "EFFECTS", "LOG", "TABLE", "COUNTER", "STATE", "G_SCALE", "G_BIAS", "WANTS_GRAD",
})
_MAX_SOURCE = 400
_LINE_BUDGET = 2_000


def _names_ok(tree: ast.AST) -> bool:
    for node in ast.walk(tree):
        if isinstance(node, _FORBIDDEN_NODES):
            return False
        if isinstance(node, ast.Name | ast.arg | ast.FunctionDef | ast.ClassDef | ast.alias):
            name = getattr(node, "id", None) or getattr(node, "arg", None) or getattr(node, "name", None) or ""
            if name in _FORBIDDEN_NAMES or name.startswith("_") or name[:1] in "fC" and name[1:].isdigit():
                return False
            if name.startswith(("ngb_", "T_")):
                return False
        if isinstance(node, ast.Attribute) and node.attr.startswith("_"):
            return False
        if isinstance(node, ast.BinOp) and isinstance(node.op, ast.Pow | ast.LShift | ast.Mult | ast.MatMult):
            return False
        if isinstance(node, ast.Constant):
            v = node.value
            if isinstance(v, int | float | complex) and not isinstance(v, bool) and abs(v) > 1000:
                return False
            if isinstance(v, str | bytes) and len(v) > 40:
                return False
    return True


class _OverBudget(Exception):
    pass


def _run_once(block: str) -> str:
    wrapped = "def _filler():\n" + "".join("    " + line + "\n" for line in block.splitlines()) + "_filler()\n"
    code = compile(wrapped, "<filler>", "exec")
    lines = 0

    def tracer(frame, event, arg):
        nonlocal lines
        lines += 1
        if lines > _LINE_BUDGET:
            raise _OverBudget
        return tracer

    out = io.StringIO()
    old = sys.gettrace()
    sys.settrace(tracer)
    try:
        with contextlib.redirect_stdout(out):
            exec(code, {"__builtins__": builtins})
    finally:
        sys.settrace(old)
    return out.getvalue()


def screen(block: str) -> str | None:
    """``block`` normalized (dedented, trailing newline) if it is safe filler, else None."""
    block = block.strip("\n")
    if not block.strip() or len(block) > _MAX_SOURCE or "\\" in block or "'''" in block or "\t" in block:
        return None
    try:
        tree = ast.parse(block)
    except (SyntaxError, ValueError):
        return None
    if not tree.body or all(isinstance(s, ast.Expr) and isinstance(s.value, ast.Constant) for s in tree.body):
        return None
    if not _names_ok(tree):
        return None
    block = ast.unparse(tree)  # canonical spelling: no odd whitespace, comments or line continuations
    try:
        first, second = _run_once(block), _run_once(block)
    except BaseException:  # noqa: BLE001 - anything at all disqualifies the block
        return None
    return block if first == second else None


def pool() -> tuple[str, ...]:
    from fuzz.program.strategies._filler_pool import POOL

    return POOL


def _build(examples: int) -> list[str]:
    import hypothesmith
    from hypothesis import HealthCheck, given, settings

    seen: dict[str, None] = {}

    @settings(
        max_examples=examples, derandomize=True, database=None, deadline=None,
        suppress_health_check=list(HealthCheck),
    )
    @given(hypothesmith.from_node(auto_target=False))
    def collect(source):
        for candidate in (source, *_statements(source)):
            kept = screen(candidate)
            if kept is not None:
                seen.setdefault(kept, None)

    collect()
    return sorted(seen, key=lambda s: (len(s), s))


def _statements(source: str) -> list[str]:
    try:
        tree = ast.parse(source)
    except (SyntaxError, ValueError):
        return []
    return [ast.unparse(stmt) for stmt in tree.body]


if __name__ == "__main__":
    import argparse
    from pathlib import Path

    parser = argparse.ArgumentParser(description="rebuild the hypothesmith filler pool")
    parser.add_argument("--examples", type=int, default=600)
    blocks = _build(parser.parse_args().examples)
    target = Path(__file__).with_name("_filler_pool.py")
    body = "".join(f"    {block!r},\n" for block in blocks)
    target.write_text(
        '"""Generated by `python -m fuzz.program.strategies._filler`: hypothesmith blocks that eager runs. Do not edit."""\n\n'
        f"POOL = (\n{body})\n"
    )
    print(f"{len(blocks)} blocks -> {target}")
