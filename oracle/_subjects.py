"""Subjects: what a crash's frame alone does not say, read off the exception where it pins a bug.

A crash is named by its exception type and innermost compiler frame (``oracle._worker.compiler_frame``). Some
frames are shared by many bugs: Dynamo's guard self-check, which any mis-modelled state trips, and the wrapper
that runs the compiled code and passes on what the program raised (``compile_wrapper``: a wrong value made
user code raise). Where the exception itself carries evidence of *which* state the compiler got wrong, the
frame is named with it (``guards:__init__[function_mode_stack]``), and the signature pins its bug as any
compiler frame does (``fuzz.triage.rootcause.pins_bug``). Only subjects with evidence are here; each says what
it reads.

Imported by ``oracle._worker`` (with the standard library and torch only, as that file is).
"""

from __future__ import annotations

import re
import sys
import types
from collections.abc import Iterator

__all__ = ["GUARD_SUBJECTS", "OTHER_MODULE_GLOBALS", "RESUME_PREFIXES", "SELF_CHECK_FRAME",
           "resumed_function", "subject"]

# Dynamo's guard self-check (``guards:__init__`` raises "Guard failed on the same frame it was created ...
# Guard fail reason: <the guard>") is tripped by many unrelated bugs, so its frame alone names none
# (``fuzz.triage.rootcause.SELF_CHECKS``). The state the failed guard reads can: a guard on a user
# TorchFunctionMode's own state, read off the mode stack, failed in the seven forms of one torch 2.10/2.11 bug
# (corpus torch-2.10-function-mode-with-state-guard-self-check.py and its variants), whose shapes differ too
# much for a reduction to name them (a 2.10 campaign called its eighth NEW); a guard on a local's attribute
# fails in that bug's forms and in another's (corpus torch-getattr-default-runs-user-getattr-twice.py) alike.
SELF_CHECK_FRAME = "torch._dynamo.guards:__init__"
GUARD_SUBJECTS = {"___get_torch_function_mode_stack_at(": "function_mode_stack"}

# A global name not found by a function Dynamo generated to resume another after a break, where the module
# that function was written in defines that name: the resumed frame runs with some other module's globals.
# Eager never runs such a function, and a name the program never defined is missing from its own module as
# well; so the evidence says what the compiler got wrong (the globals it resumed the frame with), whatever the
# program around it (corpus seed-176906-closure-module-globals.py and its eight torch 2.10 forms that raise
# NameError, in shapes as unlike as an exec-built helper module, heapq and a tensor subclass's
# ``__torch_function__``).
OTHER_MODULE_GLOBALS = "other_module_globals"
# Dynamo names the function it generates to resume another after a break after that function and the line
# of the break (``torch_dynamo_resume_in_inner_at_214``; before 2.4 ``__resume_at_30_1``, which names none).
RESUME_PREFIXES = ("torch_dynamo_resume_in_", "__resume_at_")
_RESUMED = re.compile(r"torch_dynamo_resume_in_(?P<name>.+)_at_\d+")


def resumed_function(code_name: str) -> str | None:
    """The name of the function that a resume function named ``code_name`` resumes; None for other names."""
    resumed = _RESUMED.fullmatch(code_name)
    return resumed["name"] if resumed else None


def subject(where: str, exc: BaseException) -> str:
    """``[SUBJECT]`` to name the compiler frame ``where`` with, for ``exc`` raised there; '' for none."""
    try:
        if where == SELF_CHECK_FRAME:
            return _guard_subject(exc)
        if _resumed_with_other_module_globals(exc):
            return f"[{OTHER_MODULE_GLOBALS}]"
    except Exception:  # noqa: BLE001 - evidence read off the program's objects: one that fails to be read is none
        pass
    return ""


def _guard_subject(exc: BaseException) -> str:
    _, found, reason = str(exc).partition("Guard fail reason:")
    # each failed guard is a line "1/0: <guard>  # <the program's line that made it>": the guard only
    guards = " ".join(line.partition("#")[0] for line in reason.splitlines()) if found else ""
    subjects = [name for text, name in GUARD_SUBJECTS.items() if text in guards]
    return f"[{subjects[0]}]" if subjects else ""


def _resumed_with_other_module_globals(exc: BaseException) -> bool:
    """Whether ``exc`` is a global name not found (not an unbound local) by a resume function whose globals
    lack it, where another module holds that name and the code of the function resumed (same name, same
    file)."""
    name = getattr(exc, "name", None)
    if type(exc) is not NameError or not isinstance(name, str) or exc.__traceback__ is None:
        return False
    tb = exc.__traceback__
    while tb.tb_next is not None:
        tb = tb.tb_next
    frame = tb.tb_frame
    resumed = resumed_function(frame.f_code.co_name)
    builtins = frame.f_globals.get("__builtins__", {})
    builtins = vars(builtins) if isinstance(builtins, types.ModuleType) else builtins
    if resumed is None or name in frame.f_globals or name in builtins:
        return False
    for module in list(sys.modules.values()):
        space = getattr(module, "__dict__", None)
        if not isinstance(space, dict) or space is frame.f_globals or name not in space:
            continue
        if any(code.co_name == resumed and code.co_filename == frame.f_code.co_filename
               for code in _codes(space)):
            return True
    return False


def _codes(space: dict[str, object]) -> Iterator[types.CodeType]:
    """The code objects of a module's functions and its classes' methods, nested functions' code included."""
    stack: list[types.CodeType] = []
    for value in list(space.values()):
        members = list(vars(value).values()) if isinstance(value, type) else [value]
        for member in members:  # functions only: no __getattr__ of the program runs
            if isinstance(member, (staticmethod, classmethod)):
                member = member.__func__
            if isinstance(member, types.FunctionType):
                stack.append(member.__code__)
    while stack:
        code = stack.pop()
        yield code
        stack.extend(c for c in code.co_consts if isinstance(c, types.CodeType))
