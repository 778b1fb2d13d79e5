"""oracle/__init__.py names its lazy exports twice: in `_EXPORTS` (what runs) and under `TYPE_CHECKING` (what
type checkers see). The two must name the same objects from the same modules."""

from __future__ import annotations

import ast
from pathlib import Path

import oracle

INIT = Path(oracle.__file__)


def _type_checking_imports() -> dict[str, str]:
    found: dict[str, str] = {}
    for node in ast.parse(INIT.read_text()).body:
        if isinstance(node, ast.If) and isinstance(node.test, ast.Name) and node.test.id == "TYPE_CHECKING":
            for imp in node.body:
                assert isinstance(imp, ast.ImportFrom) and imp.level == 1
                for alias in imp.names:
                    assert alias.asname == alias.name, f"{alias.name}: re-export it as itself"
                    found[alias.name] = imp.module or ""
    return found


def test_type_checking_imports_name_every_lazy_export_from_its_module():
    assert _type_checking_imports() == oracle._EXPORTS


def test_every_lazy_export_resolves():
    for name in oracle.__all__:
        assert getattr(oracle, name) is not None
