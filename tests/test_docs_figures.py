"""The figures the docs quote about the code's structure are the code's: import cycles per package."""

import re
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "tools"))
import import_cycles  # noqa: E402


def _groups(package: str, deferred: bool, type_only: bool) -> list[int]:
    return sorted(len(c) for c in import_cycles.sccs(import_cycles.graph(ROOT / package, deferred, type_only)))


@pytest.mark.parametrize("package", ["oracle", "fuzz"])
def test_no_import_cycle_counting_deferred_and_type_only_imports(package):
    assert _groups(package, True, True) == []


def test_the_engine_readme_quotes_the_engine_import_figures():
    text = (ROOT / "engine" / "README.md").read_text()
    quoted = re.search(r"import_cycles\.py`: (\d+) cyclic groups,\s+(\d+) function-level imports", text)
    assert quoted, "engine/README.md no longer quotes the import figures"
    groups, inner = int(quoted.group(1)), int(quoted.group(2))
    assert len(_groups("engine", True, False)) == groups
    assert sum(import_cycles.function_level_imports(ROOT / "engine").values()) == inner
    type_only = re.search(r"the VM's modules form one group\s+of (\d+)", text)
    assert type_only, "engine/README.md no longer quotes the type-only group"
    assert _groups("engine", True, True) == [int(type_only.group(1))]
