"""Differential oracle: runs programs under eager and under targets, compares all that is observable and gives
verdicts with stable signatures (see docs/program-format.md and docs/oracle.md)."""

from ._errors import OracleError, TargetError, WorkerError
from ._footer import FOOTER_MARKER, standalone_footer, strip_footer
from ._runner import Runner, check_source
from ._targets import Target, TargetKind, check_available, parse_target, register_target_kind, target_kinds
from ._verdict import FINDING_KINDS, KINDS, ProgramReport, Verdict

__all__ = [
    "FINDING_KINDS", "FOOTER_MARKER", "KINDS", "OracleError", "ProgramReport", "Runner", "Target", "TargetError",
    "TargetKind", "Verdict", "WorkerError", "check_available", "check_source", "parse_target",
    "register_target_kind", "standalone_footer", "strip_footer", "target_kinds",
]
