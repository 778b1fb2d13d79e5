"""Frames of the VM: plain slotted records, no behaviour."""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from ._code import CodeInfo
    from ._values import GenMode, GenState, GenVar, Var


@dataclass(slots=True, eq=False)
class Frame:
    """One frame of the VM's explicit stack: code facts, namespaces, localsplus and operand stack (VM values),
    and where it is. `call_index` is set while a frame above it runs (the CALL that made it), so exception
    unwinding and snapshots see the caller at its call."""

    info: CodeInfo
    fglobals: dict
    builtins: dict
    locals: list  # localsplus: Var | None (unbound)
    stack: list
    ip: int = 0
    kw_names: tuple | None = None
    exit_grad: bool | None = None  # decorator-form grad mode: restore this on leaving the frame
    call_index: int = -1  # index of the instruction that called the frame above this one
    call_no: int = 0  # sequence number of the inlined call that created this frame (0: the root frame)
    name: str = ""
    ret_override: Var | None = None  # a constructor's frame returns the new object, not __init__'s None
    gen: GenVar | None = None  # the GenVar whose frame this is
    namespace: Var | None = None  # its one locals() dict, once made (V.LOCALS_DICT_PER_FRAME: up to 3.12)


@dataclass(slots=True, eq=False)
class FrameShape:
    """A frame as persisted in a break's snapshot; values live in the env list at the given indices."""

    info: CodeInfo
    fglobals: dict
    builtins: dict
    ip: int
    locals: tuple  # (local index, env index | GenRef) pairs
    stack: tuple  # env indices (or GenRefs)
    kw_names: tuple | None
    exit_grad: bool | None
    call_index: int
    call_no: int
    name: str
    ret_override: int = -1  # env index of the object a constructor frame returns
    gen: GenShape | None = None  # a running generator's frame: its generator
    namespace: int = -1  # env index of its locals() dict (Frame.namespace)


@dataclass(slots=True, eq=False)
class GenShape:
    """A generator made by traced code, persisted in a break's snapshot (see _generators.py): its suspended
    frame (`frame`), or, while it runs, the index of its frame in the snapshot's frame list (`index`)."""

    frame: FrameShape | None
    index: int
    state: GenState
    mode: GenMode | None
    target: int | None
    cm: bool
    for_at: int = -1  # a for-loop's iterator: the FOR_ITER's index and stack depth in the loop's frame
    for_depth: int = -1
    thrown: int = -1  # mode "throw": env indices of the exception thrown in and the traceback __exit__ got
    thrown_tb: int = -1
    exc_state: int = -1  # env index of the exception it handles while suspended (-1: none)
    caller_exc: int = -1  # while it runs: env index of the caller's handled exception
    acc: int = -1  # mode "collect": env index of the list being filled
    acc_tuple: bool = False
    default: int = -1  # mode "next": env index of next()'s default (-1: none)


@dataclass(slots=True, eq=False)
class GenRef:
    """A snapshot slot (in place of an env index) holding a persisted generator, or with `exit` the exit
    of a @contextmanager block over one, or with `send` its `send` method loaded for a call."""

    gen: GenShape
    exit: bool
    send: bool = False
