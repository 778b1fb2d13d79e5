"""Differential oracle: runs programs under eager and under targets, compares all that is observable and gives
verdicts with stable signatures (see docs/program-format.md and docs/oracle.md).

Names are loaded on first use (PEP 562), so importing ``oracle`` — as pytest does for the plugin entry point
in every run — costs nothing until the oracle is actually used.
"""

import importlib
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:  # the lazy names for type checkers (tests/oracle/test_exports.py keeps this whole)
    from ._checks import PLAIN_SIGNATURES as PLAIN_SIGNATURES
    from ._checks import compare_kinds as compare_kinds
    from ._errors import OracleError as OracleError
    from ._errors import TargetError as TargetError
    from ._errors import WorkerError as WorkerError
    from ._footer import standalone_footer as standalone_footer
    from ._footer import with_footer as with_footer
    from ._programfile import FIELD_ORDER as FIELD_ORDER
    from ._programfile import FOOTER_BANNER as FOOTER_BANNER
    from ._programfile import FOOTER_MARKER as FOOTER_MARKER
    from ._programfile import HEADER_FIRST_LINE as HEADER_FIRST_LINE
    from ._programfile import FoundBy as FoundBy
    from ._programfile import ProgramFile as ProgramFile
    from ._programfile import ProgramWriteError as ProgramWriteError
    from ._programfile import header_fields as header_fields
    from ._programfile import program_for as program_for
    from ._programfile import read_program_text as read_program_text
    from ._programfile import set_header as set_header
    from ._programfile import slug as slug
    from ._programfile import split_source as split_source
    from ._programfile import top_level_names as top_level_names
    from ._runner import Runner as Runner
    from ._runner import check_source as check_source
    from ._targets import Target as Target
    from ._targets import TargetKind as TargetKind
    from ._targets import check_available as check_available
    from ._targets import parse_target as parse_target
    from ._targets import register_target_kind as register_target_kind
    from ._targets import resolve_targets as resolve_targets
    from ._targets import target_kinds as target_kinds
    from ._targets import versions_of as versions_of
    from ._verdict import FINDING_KINDS as FINDING_KINDS
    from ._verdict import KINDS as KINDS
    from ._verdict import ProgramReport as ProgramReport
    from ._verdict import Verdict as Verdict


_EXPORTS = {
    "OracleError": "_errors", "TargetError": "_errors", "WorkerError": "_errors",
    "PLAIN_SIGNATURES": "_checks", "compare_kinds": "_checks",
    "standalone_footer": "_footer", "with_footer": "_footer",
    "FOOTER_BANNER": "_programfile", "FOOTER_MARKER": "_programfile", "FIELD_ORDER": "_programfile",
    "FoundBy": "_programfile", "HEADER_FIRST_LINE": "_programfile", "ProgramFile": "_programfile",
    "ProgramWriteError": "_programfile", "header_fields": "_programfile", "program_for": "_programfile",
    "read_program_text": "_programfile", "set_header": "_programfile", "slug": "_programfile",
    "split_source": "_programfile", "top_level_names": "_programfile",
    "Runner": "_runner", "check_source": "_runner",
    "Target": "_targets", "TargetKind": "_targets", "check_available": "_targets", "parse_target": "_targets",
    "register_target_kind": "_targets", "resolve_targets": "_targets", "target_kinds": "_targets",
    "versions_of": "_targets",
    "FINDING_KINDS": "_verdict", "KINDS": "_verdict", "ProgramReport": "_verdict", "Verdict": "_verdict",
}

__all__ = sorted(_EXPORTS)


def __getattr__(name: str) -> Any:
    if name not in _EXPORTS:
        raise AttributeError(f"module 'oracle' has no attribute {name!r}")
    # Not cached here: pytester's in-process runs re-import submodules, and a cached class would then differ
    # from the one the fresh submodule raises.
    return getattr(importlib.import_module(f"{__name__}.{_EXPORTS[name]}"), name)


def __dir__() -> list[str]:
    return __all__
