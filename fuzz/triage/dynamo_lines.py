"""Which lines of Dynamo (``torch/_dynamo``, ``torch/_functorch``) a piece of code executes.

A line tracer limited to those packages: ``sys.settrace`` is asked about every new frame, answers "not traced" at
once for a frame outside them (one dictionary look-up per code object), and records ``(file, line)`` for the
lines of the frames inside. Python 3.11 has no ``sys.monitoring``, and coverage.py is not a dependency of
ngb-fuzz; this costs a compile about 2-4x its time, so callers sample (measure one program in N). Lines are
named ``"_dynamo/symbolic_convert.py:1234"`` (relative to the torch package), so sets from different processes
and runs of one torch version compare. Only the calling thread is traced: Dynamo compiles in the thread that
calls the compiled function.
"""

from __future__ import annotations

import os
import sys
from collections.abc import Iterable

__all__ = ["PACKAGES", "DynamoLines", "executable_lines"]

PACKAGES = ("_dynamo", "_functorch")


def _torch_dir() -> str:
    import torch

    return os.path.dirname(os.path.abspath(torch.__file__))


class DynamoLines:
    """``with DynamoLines() as lines: ...`` records, in ``lines.hits``, the lines of ``packages`` executed."""

    def __init__(self, packages: Iterable[str] = PACKAGES):
        root = _torch_dir()
        self.root = root + os.sep
        self.prefixes = tuple(os.path.join(root, p) + os.sep for p in packages)
        self.hits: set[tuple[str, int]] = set()
        self._files: dict[str, bool] = {}
        self._previous = None
        self._traced = self._line  # one bound method for every traced frame

    def _call(self, frame, event, arg):
        name = frame.f_code.co_filename
        inside = self._files.get(name)
        if inside is None:
            inside = self._files[name] = name.startswith(self.prefixes)
        return self._traced if inside else None

    def _line(self, frame, event, arg):
        if event == "line":
            self.hits.add((frame.f_code.co_filename, frame.f_lineno))
        return self._traced

    def __enter__(self) -> DynamoLines:
        self._previous = sys.gettrace()
        sys.settrace(self._call)
        return self

    def __exit__(self, *exc) -> None:
        sys.settrace(self._previous)

    def names(self) -> set[str]:
        """The lines hit, as ``"_dynamo/file.py:LINE"``."""
        cut = len(self.root)
        return {f"{file[cut:]}:{line}" for file, line in self.hits}


def executable_lines(packages: Iterable[str] = PACKAGES) -> int:
    """How many lines of ``packages`` hold code (lines that start a statement in some code object): the
    denominator of a coverage share."""
    import ast

    root = _torch_dir()
    total = 0
    for package in packages:
        for folder, _, files in os.walk(os.path.join(root, package)):
            for file in files:
                if not file.endswith(".py"):
                    continue
                try:
                    with open(os.path.join(folder, file), encoding="utf-8") as handle:
                        tree = ast.parse(handle.read())
                except (OSError, SyntaxError, UnicodeDecodeError):
                    continue
                total += len({n.lineno for n in ast.walk(tree) if isinstance(n, ast.stmt)})
    return total
