"""Importing this module registers every opcode handler family in the dispatch table."""

from . import _ops_build, _ops_calls, _ops_exc, _ops_jumps, _ops_locals, _ops_match, _ops_ops, _ops_stack  # noqa: F401
