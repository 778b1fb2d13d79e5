"""Differential oracle: runs programs under eager and under targets, compares all that is observable and gives
verdicts with stable signatures (see docs/program-format.md and docs/oracle.md).

Names are loaded on first use (PEP 562), so importing ``oracle`` — as pytest does for the plugin entry point in
every run — costs nothing until the oracle is actually used.
"""

import importlib

_EXPORTS = {
    "OracleError": "_errors", "TargetError": "_errors", "WorkerError": "_errors",
    "PLAIN_SIGNATURES": "_checks", "compare_kinds": "_checks",
    "standalone_footer": "_footer",
    "FOOTER_MARKER": "_programfile", "HEADER_FIRST_LINE": "_programfile", "ProgramWriteError": "_programfile",
    "header_fields": "_programfile", "program_for": "_programfile", "read_program_text": "_programfile", "set_header": "_programfile",
    "slug": "_programfile", "split_source": "_programfile", "top_level_names": "_programfile",
    "with_footer": "_programfile",
    "Runner": "_runner", "check_source": "_runner",
    "Target": "_targets", "TargetKind": "_targets", "check_available": "_targets", "parse_target": "_targets",
    "register_target_kind": "_targets", "resolve_targets": "_targets", "target_kinds": "_targets",
    "versions_of": "_targets",
    "FINDING_KINDS": "_verdict", "KINDS": "_verdict", "ProgramReport": "_verdict", "Verdict": "_verdict",
}

__all__ = sorted(_EXPORTS)


def __getattr__(name: str):
    if name not in _EXPORTS:
        raise AttributeError(f"module 'oracle' has no attribute {name!r}")
    # Not cached here: pytester's in-process runs re-import submodules, and a cached class would then differ
    # from the one the fresh submodule raises.
    return getattr(importlib.import_module(f"{__name__}.{_EXPORTS[name]}"), name)


def __dir__():
    return __all__
