"""Which lines of Dynamo (``torch/_dynamo``, ``torch/_functorch``) a piece of code executes.

Two ways to see lines, chosen by the Python running:

- Python 3.12 and later: ``sys.monitoring`` (PEP 669). A free tool id (``COVERAGE_ID`` if free) gets LINE events
  for the whole process while inside the ``with``; the callback records ``(file, line)`` for code of the packages
  and answers ``DISABLE`` for every location, inside or outside, so each line fires once: a compile runs at
  about its untraced speed. ``DISABLE`` outlives the block, so entering calls ``sys.monitoring.restart_events()``
  (every tool's disabled locations fire again) and each block records all the lines it runs, not only lines new
  to the process. Events come from every thread.
- Python 3.11 (no ``sys.monitoring``): ``sys.settrace`` is asked about every new frame, answers "not traced" at
  once for a frame outside the packages (one dictionary look-up per code object) and records the lines of the
  frames inside. This costs a compile several times its time, so callers sample. Only the calling thread is
  traced: Dynamo compiles in the thread that calls the compiled function.

coverage.py is not a dependency of ngb-fuzz. Lines are named ``"_dynamo/symbolic_convert.py:1234"`` (relative to
the torch package), so sets from different processes and runs of one torch version compare.
"""

from __future__ import annotations

import os
import sys
from collections.abc import Iterable

__all__ = ["PACKAGES", "DynamoLines", "executable_lines"]

PACKAGES = ("_dynamo", "_functorch")
MONITORING = sys.version_info >= (3, 12)  # sys.monitoring exists (else settrace)


def _torch_dir() -> str:
    import torch

    return os.path.dirname(os.path.abspath(torch.__file__))


def _free_tool_id() -> int:
    """COVERAGE_ID if no tool holds it, else another free id (0-5: ids every tool may use)."""
    mon = sys.monitoring
    for tool in (mon.COVERAGE_ID, *range(6)):
        if mon.get_tool(tool) is None:
            return tool
    raise RuntimeError("sys.monitoring: every tool id is taken")


class DynamoLines:
    """``with DynamoLines() as lines: ...`` records, in ``lines.hits``, the lines of ``packages`` executed.

    Hits accumulate over every block entered with one instance."""

    def __init__(self, packages: Iterable[str] = PACKAGES):
        root = _torch_dir()
        self.root = root + os.sep
        self.prefixes = tuple(os.path.join(root, p) + os.sep for p in packages)
        self.hits: set[tuple[str, int]] = set()
        self._files: dict[str, bool] = {}
        self._previous = None
        self._tool: int | None = None
        self._traced = self._line  # one bound method for every traced frame

    def _inside(self, name: str) -> bool:
        inside = self._files.get(name)
        if inside is None:
            inside = self._files[name] = name.startswith(self.prefixes)
        return inside

    # ---- settrace (3.11) ----
    def _call(self, frame, event, arg):
        return self._traced if self._inside(frame.f_code.co_filename) else None

    def _line(self, frame, event, arg):
        if event == "line":
            self.hits.add((frame.f_code.co_filename, frame.f_lineno))
        return self._traced

    # ---- sys.monitoring (3.12+) ----
    def _monitor_line(self, code, line: int):
        name = code.co_filename
        if self._inside(name):
            self.hits.add((name, line))
        return sys.monitoring.DISABLE  # each location once per block: restart_events() on enter re-arms it

    def __enter__(self) -> DynamoLines:
        if MONITORING:
            mon = sys.monitoring
            tool = _free_tool_id()
            mon.use_tool_id(tool, "ngb-fuzz dynamo_lines")
            self._tool = tool
            mon.register_callback(tool, mon.events.LINE, self._monitor_line)
            mon.restart_events()
            mon.set_events(tool, mon.events.LINE)
        else:
            self._previous = sys.gettrace()
            sys.settrace(self._call)
        return self

    def __exit__(self, *exc) -> None:
        if MONITORING:
            mon, tool = sys.monitoring, self._tool
            self._tool = None
            if tool is not None:
                mon.set_events(tool, mon.events.NO_EVENTS)
                mon.register_callback(tool, mon.events.LINE, None)
                mon.free_tool_id(tool)
        else:
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
