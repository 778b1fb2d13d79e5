"""Every fact about the CPython versions the VM interprets (3.11, 3.12, 3.13) lives here, nowhere else: what
is the same on all, and `VERSIONS`, one `Bytecode` entry per version (the running one is `BYTECODE`)."""

from __future__ import annotations

import dis
import inspect
import operator
import sys
import traceback
import types
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any, Literal

PY = sys.version_info[:2]

# BINARY_OP's oparg -> (symbol, operator function); in-place forms fall back to the binary one for
# immutable operands, which is what the `i*` functions of `operator` do as well. (3.11 and 3.12 alike.)
BINARY_OPS = {
    0: ("+", operator.add), 1: ("&", operator.and_), 2: ("//", operator.floordiv), 3: ("<<", operator.lshift),
    4: ("@", operator.matmul), 5: ("*", operator.mul), 6: ("%", operator.mod), 7: ("|", operator.or_),
    8: ("**", operator.pow), 9: (">>", operator.rshift), 10: ("-", operator.sub), 11: ("/", operator.truediv),
    12: ("^", operator.xor),
    13: ("+=", operator.iadd), 14: ("&=", operator.iand), 15: ("//=", operator.ifloordiv),
    16: ("<<=", operator.ilshift), 17: ("@=", operator.imatmul), 18: ("*=", operator.imul),
    19: ("%=", operator.imod), 20: ("|=", operator.ior), 21: ("**=", operator.ipow),
    22: (">>=", operator.irshift), 23: ("-=", operator.isub), 24: ("/=", operator.itruediv),
    25: ("^=", operator.ixor),
}

# COMPARE_OP's argval is the operator's symbol on every version (dis decodes 3.12's `index << 4 | mask`).
COMPARE_OPS = {"<": operator.lt, "<=": operator.le, "==": operator.eq, "!=": operator.ne,
               ">": operator.gt, ">=": operator.ge}

JumpTest = Literal["true", "false", "none", "notnone"]  # what a conditional jump tests its operand for

_COMMON_FRAME_UNSUPPORTED = {
    "RETURN_GENERATOR", "YIELD_VALUE", "SEND", "GET_YIELD_FROM_ITER", "GET_AWAITABLE", "GET_AITER",
    "GET_ANEXT", "END_ASYNC_FOR", "BEFORE_ASYNC_WITH",
    "LOAD_NAME", "STORE_NAME", "DELETE_NAME", "SETUP_ANNOTATIONS",
    "LOAD_BUILD_CLASS", "CHECK_EG_MATCH",
}


@dataclass(frozen=True)
class Bytecode:
    """What differs between the CPython versions the VM interprets (one entry of `VERSIONS`)."""

    # conditional jumps that pop their operand; their argval is an absolute byte offset (dis resolves the
    # relative forms)
    pop_jumps: dict[str, JumpTest]
    unconditional_jumps: frozenset[str]
    or_pop_jumps: dict[str, JumpTest]  # JUMP_IF_*_OR_POP (3.11; 3.12 compiles COPY + POP_JUMP_IF_*)
    unary_ops: dict[str, Callable[[Any], Any]]
    # instructions whose presence makes a code object one the VM does not run (the call runs eagerly)
    frame_unsupported: frozenset[str]
    call_prefix: tuple[str, ...]  # what precedes CALL (3.11: PRECALL)
    # a jump whose target the VM moves past the instruction its argval names (3.12): an exhausted FOR_ITER pops
    # the iterator and skips END_FOR, as CPython does; a SEND whose delegate returned gives [value] as on 3.11
    # (the END_SEND it skips would pop the delegate below the value)
    skipped_ends: dict[str, tuple[str, ...]]
    # CALL_INTRINSIC_1's oparg -> the opname the VM runs it as (3.12); the others make the frame unsupported
    intrinsics_1: dict[int, str] = field(default_factory=dict)
    # opname -> the name the VM runs it under, whatever its oparg (3.13: END_FOR is POP_TOP, and PUSH_NULL
    # goes below the callable it follows: see `_ops_py313`)
    renamed: dict[str, str] = field(default_factory=dict)
    # the instruction list in the forms the VM runs (3.13's superinstructions split, ...: `_rewrite_313`)
    rewrite: Callable[[types.CodeType, list[dis.Instruction]], list[dis.Instruction]] | None = None


_UNARY = {"UNARY_NEGATIVE": operator.neg, "UNARY_INVERT": operator.invert, "UNARY_NOT": operator.not_}
_JUMPS_311: dict[str, JumpTest] = {
    "POP_JUMP_FORWARD_IF_FALSE": "false", "POP_JUMP_BACKWARD_IF_FALSE": "false",
    "POP_JUMP_FORWARD_IF_TRUE": "true", "POP_JUMP_BACKWARD_IF_TRUE": "true",
    "POP_JUMP_FORWARD_IF_NONE": "none", "POP_JUMP_BACKWARD_IF_NONE": "none",
    "POP_JUMP_FORWARD_IF_NOT_NONE": "notnone", "POP_JUMP_BACKWARD_IF_NOT_NONE": "notnone",
}
_JUMPS_312: dict[str, JumpTest] = {"POP_JUMP_IF_FALSE": "false", "POP_JUMP_IF_TRUE": "true",
                                   "POP_JUMP_IF_NONE": "none", "POP_JUMP_IF_NOT_NONE": "notnone"}
_UNCOND = frozenset({"JUMP_FORWARD", "JUMP_BACKWARD", "JUMP_BACKWARD_NO_INTERRUPT"})

VERSIONS: dict[tuple[int, int], Bytecode] = {
    (3, 11): Bytecode(
        pop_jumps=_JUMPS_311, unconditional_jumps=_UNCOND,
        or_pop_jumps={"JUMP_IF_FALSE_OR_POP": "false", "JUMP_IF_TRUE_OR_POP": "true"},
        unary_ops={**_UNARY, "UNARY_POSITIVE": operator.pos},
        frame_unsupported=frozenset(_COMMON_FRAME_UNSUPPORTED | {
            "ASYNC_GEN_WRAP", "PREP_RERAISE_STAR", "LOAD_CLASSDEREF", "PRINT_EXPR", "IMPORT_STAR"}),
        call_prefix=("PRECALL",), skipped_ends={}),
    (3, 12): Bytecode(
        pop_jumps=_JUMPS_312, unconditional_jumps=_UNCOND, or_pop_jumps={},
        # UNARY_POSITIVE is CALL_INTRINSIC_1 5 on 3.12: the VM runs it under its 3.11 name
        unary_ops={**_UNARY, "UNARY_POSITIVE": operator.pos},
        # except* and PEP 695 (CALL_INTRINSIC_2),
        # class bodies and annotation scopes (LOAD_LOCALS, LOAD_FROM_DICT_OR_*)
        frame_unsupported=frozenset(_COMMON_FRAME_UNSUPPORTED | {
            "CALL_INTRINSIC_2", "LOAD_LOCALS", "LOAD_FROM_DICT_OR_DEREF", "LOAD_FROM_DICT_OR_GLOBALS"}),
        call_prefix=(), skipped_ends={"FOR_ITER": ("END_FOR",), "SEND": ("END_SEND",)},
        # 3: a generator's StopIteration -> RuntimeError handler (the VM converts it where the exception
        # leaves the generator's frame, as on 3.11); 5: unary +; 6: list -> tuple
        intrinsics_1={3: "STOPITERATION_ERROR", 5: "UNARY_POSITIVE", 6: "LIST_TO_TUPLE"}),
    (3, 13): Bytecode(
        pop_jumps=_JUMPS_312, unconditional_jumps=_UNCOND, or_pop_jumps={},
        unary_ops={**_UNARY, "UNARY_POSITIVE": operator.pos},
        # as 3.12, and the tier-2 executor (never in a code object's co_code) and the instruction of a
        # specialized `__init__` call (never compiled)
        frame_unsupported=frozenset(_COMMON_FRAME_UNSUPPORTED | {
            "CALL_INTRINSIC_2", "LOAD_LOCALS", "LOAD_FROM_DICT_OR_DEREF", "LOAD_FROM_DICT_OR_GLOBALS",
            "ENTER_EXECUTOR", "EXIT_INIT_CHECK"}),
        # an exhausted FOR_ITER skips both the END_FOR (a POP_TOP on 3.13) and the POP_TOP after it
        call_prefix=(), skipped_ends={"FOR_ITER": ("END_FOR", "POP_TOP"), "SEND": ("END_SEND",)},
        intrinsics_1={3: "STOPITERATION_ERROR", 5: "UNARY_POSITIVE", 6: "LIST_TO_TUPLE"},
        renamed={"END_FOR": "POP_TOP", "PUSH_NULL": "PUSH_NULL_BELOW"},
        rewrite=lambda code, instrs: _rewrite_313(code, instrs)),
}
SUPPORTED = PY in VERSIONS
BYTECODE = VERSIONS.get(PY, VERSIONS[(3, 11)])  # off the supported versions nothing runs the VM

UNARY_OPS = BYTECODE.unary_ops
CONDITIONAL_POP_JUMPS = BYTECODE.pop_jumps
UNCONDITIONAL_JUMPS = set(BYTECODE.unconditional_jumps)
OR_POP_JUMPS = BYTECODE.or_pop_jumps
TERMINATORS = {"RETURN_VALUE", "RETURN_CONST", "RAISE_VARARGS", "RERAISE"} | UNCONDITIONAL_JUMPS
FRAME_UNSUPPORTED = set(BYTECODE.frame_unsupported)
CALL_PREFIX = BYTECODE.call_prefix


def opname(ins: dis.Instruction) -> str | None:
    """The name the VM runs `ins` under: 3.12's LOAD_ATTR with the method bit is 3.11's LOAD_METHOD,
    LOAD_FAST_CHECK is LOAD_FAST (whose handler checks), and CALL_INTRINSIC_1 is named by its intrinsic
    (None: one the VM does not run)."""
    name = ins.opname
    if PY < (3, 12):
        return name
    name = BYTECODE.renamed.get(name, name)
    if name == "LOAD_ATTR" and ins.arg & 1:
        return "LOAD_METHOD"
    if name == "LOAD_FAST_CHECK":
        return "LOAD_FAST"
    if name == "CALL_INTRINSIC_1":
        return BYTECODE.intrinsics_1.get(ins.arg)
    return name


CO_VARARGS = inspect.CO_VARARGS
CO_VARKEYWORDS = inspect.CO_VARKEYWORDS
CO_UNSUPPORTED_FLAGS = inspect.CO_GENERATOR | inspect.CO_COROUTINE | inspect.CO_ASYNC_GENERATOR | \
    inspect.CO_ITERABLE_COROUTINE

MAKE_FUNCTION_FLAGS = (("defaults", 0x01), ("kwdefaults", 0x02), ("annotations", 0x04), ("closure", 0x08))


def seq_iter_state(it: object) -> tuple:
    """A real sequence iterator's `__reduce__` as (callable, (sequence,), position), or a 2-tuple once it dropped
    its sequence. 3.12's range iterator reduces to the range it has left with position None (and its
    `__setstate__` moves it on from where it is): that is the remaining range at position 0."""
    state = it.__reduce__()
    if len(state) > 2 and state[2] is None and type(state[1][0]) is range:
        return state[0], state[1], 0
    return state


def instructions(code: types.CodeType) -> list[dis.Instruction]:
    """The instruction list without CACHE entries (dis hides them); EXTENDED_ARG is folded into args. On 3.13
    in the forms of 3.12 the VM runs (`_rewrite_313`): one instruction may become two with the same offset."""
    raw = list(dis.get_instructions(code))
    return raw if BYTECODE.rewrite is None else BYTECODE.rewrite(code, raw)


def _as(ins: dis.Instruction, opname: str, arg: object, argval: object, opcode: int | None = None
        ) -> dis.Instruction:
    """`ins` run as another instruction (its offset and position kept). The opcode stays the original's unless
    given, so that `dis.stack_effect` of the rewritten list still sums to the real one's."""
    return ins._replace(opname=opname, arg=arg, argval=argval, argrepr=repr(argval),
                        opcode=ins.opcode if opcode is None else opcode)


# the 3.13 instructions `_rewrite_313` turns into others (one left as it is, where its form is not the
# compiler's usual one, has no handler: its code runs eagerly)
REWRITTEN_313 = frozenset({"LOAD_FAST_LOAD_FAST", "STORE_FAST_LOAD_FAST", "STORE_FAST_STORE_FAST", "CALL_KW",
                           "SET_FUNCTION_ATTRIBUTE", "CONVERT_VALUE", "FORMAT_SIMPLE", "FORMAT_WITH_SPEC"})


def _rewrite_313(code: types.CodeType, raw: list[dis.Instruction]) -> list[dis.Instruction]:
    """3.13's instructions in the 3.12 forms the VM runs, stack effect for stack effect:
    LOAD_FAST_LOAD_FAST, STORE_FAST_LOAD_FAST and STORE_FAST_STORE_FAST split in two (same offset);
    `LOAD_CONST names; CALL_KW n` is 3.12's `KW_NAMES names; CALL n`; MAKE_FUNCTION and the
    SET_FUNCTION_ATTRIBUTEs right after it are one 3.12 MAKE_FUNCTION (flags) and NOPs; CONVERT_VALUE,
    FORMAT_SIMPLE and FORMAT_WITH_SPEC are FORMAT_VALUE (conversion, no spec, spec); COMPARE_OP with its
    to-bool bit (16) is COMPARE_OP then TO_BOOL (same offset, so the same exception handler: 3.13's
    POP_JUMP_IF_* cannot raise and the table may leave them out). TO_BOOL has its own handler (`_ops_py313`).
    Anything else is left as it is, which makes its code run eagerly."""
    ld, st, nop = dis.opmap["LOAD_FAST"], dis.opmap["STORE_FAST"], dis.opmap["NOP"]
    names = localsplus_names(code)
    out: list[dis.Instruction] = []
    for k, ins in enumerate(raw):
        op, arg = ins.opname, ins.arg
        if op in ("LOAD_FAST_LOAD_FAST", "STORE_FAST_LOAD_FAST", "STORE_FAST_STORE_FAST"):
            first = ("STORE_FAST", st) if op.startswith("STORE") else ("LOAD_FAST", ld)
            second = ("STORE_FAST", st) if op.endswith("STORE_FAST") else ("LOAD_FAST", ld)
            out.append(_as(ins, first[0], arg >> 4, names[arg >> 4], first[1]))
            out.append(_as(ins, second[0], arg & 15, names[arg & 15], second[1]))
        elif op == "CALL_KW" and out and out[-1].opname == "LOAD_CONST" and type(out[-1].argval) is tuple:
            out[-1] = _as(out[-1], "KW_NAMES", out[-1].arg, out[-1].argval, nop)
            out.append(_as(ins, "CALL", arg, arg, dis.opmap["CALL"]))
        elif op == "MAKE_FUNCTION":
            flags, j = 0, k + 1
            while j < len(raw) and raw[j].opname == "SET_FUNCTION_ATTRIBUTE":
                flags |= raw[j].arg
                j += 1
            out.append(_as(ins, "MAKE_FUNCTION", flags, flags))
        elif op == "SET_FUNCTION_ATTRIBUTE" and out and out[-1].opname in ("MAKE_FUNCTION", "NOP") and \
                raw[k - 1].opname in ("MAKE_FUNCTION", "SET_FUNCTION_ATTRIBUTE"):
            out.append(_as(ins, "NOP", arg, arg))  # (its opcode and arg keep its stack effect: MAKE_FUNCTION pops)
        elif op in ("CONVERT_VALUE", "FORMAT_SIMPLE", "FORMAT_WITH_SPEC"):
            flags = arg if op == "CONVERT_VALUE" else 4 if op == "FORMAT_WITH_SPEC" else 0
            out.append(_as(ins, "FORMAT_VALUE", flags, flags))
        elif op == "COMPARE_OP" and arg & 16:
            out.append(ins)
            out.append(_as(ins, "TO_BOOL", None, None, nop))
        else:
            out.append(ins)
    return out


def exception_table(code: types.CodeType) -> list[tuple[int, int, int, int, bool]]:
    """(start_offset, end_offset_exclusive, target_offset, depth, lasti) per entry."""
    return [(e.start, e.end, e.target, e.depth, e.lasti) for e in dis._parse_exception_table(code)]


def localsplus_names(code: types.CodeType) -> list[str]:
    """3.11-3.13 frame layout: varnames, then cell variables that are not arguments, then free variables."""
    names = list(code.co_varnames)
    names += [c for c in code.co_cellvars if c not in code.co_varnames]
    names += list(code.co_freevars)
    return names


def unbound_local_message(name: str) -> str:
    return f"cannot access local variable '{name}' where it is not associated with a value"


def unbound_free_message(name: str) -> str:
    return f"cannot access free variable '{name}' where it is not associated with a value in enclosing scope"


GENERATOR_OPS = {"RETURN_GENERATOR", "YIELD_VALUE", "GET_YIELD_FROM_ITER", "SEND"}


def is_plain_generator(code: types.CodeType) -> bool:
    """A generator function (not a coroutine or async generator)."""
    flags = code.co_flags
    return bool(flags & inspect.CO_GENERATOR) and not flags & (
        inspect.CO_COROUTINE | inspect.CO_ASYNC_GENERATOR | inspect.CO_ITERABLE_COROUTINE)


CALL_OPS = {"CALL", "CALL_FUNCTION_EX"}


def may_call_zero_arg_super(code: types.CodeType) -> bool:
    """The compiler gives a function a `__class__` cell when it names `super` (or `__class__`); super() with
    no arguments then reads that cell and local 0, which it requires to be an argument."""
    return "__class__" in code.co_freevars and code.co_argcount >= 1


# Builtins and functions that look at the calling frame: they cannot run as an eager op outside it, so a
# function using them runs eagerly as a whole (zero-argument super() is modeled instead). The exception
# being handled is frame state too (sys.exc_info()).
FRAME_INTROSPECTING_GLOBALS = {"_getframe", "currentframe", "exc_info", "locals", "vars", "dir", "eval", "exec", "globals", "breakpoint"}
FRAME_INTROSPECTING_ATTRS = {"_getframe", "currentframe", "getouterframes", "exc_info", "exception", "format_exc",
                             "print_exc"}


# Builtins that read the calling frame's namespace only when called with fewer positional arguments than
# this: `vars(obj)`, `dir(obj)`, `eval(src, g)` are plain calls.
NAMESPACE_DEFAULT_ARGS = {"vars": 1, "dir": 1, "eval": 2, "exec": 2}


def direct_call_argc(instrs: list, k: int) -> int | None:
    """The positional argument count of the call that consumes the callable the instruction at `k` pushes
    (a LOAD_GLOBAL with its NULL), when the instructions between only push and pop its arguments in a
    straight line; None when that cannot be told (a jump, keyword names, `*args`, the value used otherwise)."""
    depth = 0
    for ins in instrs[k + 1:]:
        op = ins.opname
        if op == "PRECALL":
            if depth == ins.arg:
                return ins.arg
            continue
        if op == "CALL" and not BYTECODE.call_prefix and depth == ins.arg:  # 3.12: no PRECALL before it
            return ins.arg
        if op == "CALL":
            depth -= ins.arg + 1  # an inner call: callable, NULL or self, and its arguments -> its result
        elif op in ("KW_NAMES", "CALL_FUNCTION_EX") or ins.opcode in dis.hasjrel or ins.opcode in dis.hasjabs:
            return None
        else:
            try:
                depth += dis.stack_effect(ins.opcode, ins.arg if ins.opcode >= dis.HAVE_ARGUMENT else None,
                                          jump=False)
            except ValueError:
                return None
        if depth < 0:
            return None
    return None


# `locals()` (and `vars()`, `dir()` without arguments) in a function frame: up to 3.12 each call refreshes
# and returns the frame's one `f_locals` dict (bound locals set, unbound ones deleted, other keys kept);
# from 3.13 (PEP 667) each call returns a new snapshot dict.
LOCALS_DICT_PER_FRAME = PY < (3, 13)


def _frame_readers() -> tuple[set[object], dict[object, int]]:
    always = {locals, globals, breakpoint, sys._getframe, sys.exc_info, inspect.currentframe, inspect.stack,
              inspect.trace, traceback.format_exc, traceback.print_exc, traceback.extract_stack,
              traceback.format_stack, traceback.print_stack}
    for name in ("exception", "_getframemodulename"):
        if hasattr(sys, name):
            always.add(getattr(sys, name))
    # without these many positional arguments they default to the calling frame's namespace
    positional = {vars: 1, dir: 1, eval: 2, exec: 2}
    return always, positional


_FRAME_READERS, _FRAME_READERS_POSITIONAL = _frame_readers()


def reads_calling_frame(obj: object, nargs: int) -> bool:
    """Whether calling `obj` with `nargs` positional arguments reads the calling frame: such a call cannot
    run as an eager op outside its frame (the names the bytecode scan sees, reached under other names)."""
    try:
        if obj in _FRAME_READERS:
            return True
        need = _FRAME_READERS_POSITIONAL.get(obj)
    except TypeError:  # unhashable callables read no frame
        return False
    return need is not None and nargs < need
