"""Per-code-object facts computed once: instructions, jump targets as indices, exception edges, liveness."""

from __future__ import annotations

import dis
import types
import weakref

from . import _version as V
from ._opcodes import DISPATCH


class Instr:
    """One instruction as the VM reads it: opname, arg/argval, byte offset, line, and a jump target as an
    instruction index (None if it does not jump)."""

    __slots__ = ("opname", "arg", "argval", "offset", "line", "target")

    def __init__(self, i, target, opname: str) -> None:
        self.opname = opname  # the name the VM runs it under (_version.opname)
        self.arg = i.arg
        self.argval = i.argval
        self.offset = i.offset
        self.line = i.positions.lineno if i.positions else None
        self.target = target  # instruction index of a jump target, else None


class CodeInfo:
    """What the VM needs about one code object; cached per code object."""

    __slots__ = ("code", "instrs", "handlers", "live", "names", "nlocalsplus", "cells", "unsupported", "generator",
                 "gen_start", "gen_handlers",
                 "filename", "__weakref__")

    def __init__(self, code) -> None:
        self.code = code
        self.filename = code.co_filename
        raw = V.instructions(code)
        index: dict[int, int] = {}
        for k, ins in enumerate(raw):
            index.setdefault(ins.offset, k)  # (3.13: a split superinstruction's halves share its offset)
        lines, last = [], code.co_firstlineno
        for ins in raw:
            if ins.positions and ins.positions.lineno is not None:
                last = ins.positions.lineno
            lines.append(last)
        self.instrs = []
        names = [V.opname(ins) for ins in raw]
        for k, ins in enumerate(raw):
            tgt = index.get(ins.argval) if ins.opcode in _JUMP_OPCODES else None
            for end in V.BYTECODE.skipped_ends.get(ins.opname, ()) if tgt is not None else ():
                if tgt >= len(raw) or raw[tgt].opname != end:
                    break
                tgt += 1  # 3.12+: FOR_ITER/SEND jump past the END_FOR/END_SEND their argval names (see _version)
            it = Instr(ins, tgt, names[k] or ins.opname)
            it.line = lines[k]
            self.instrs.append(it)
        # Exception table in instruction indices: handlers[i] = (target, depth, lasti, offset) or None.
        self.handlers = [None] * len(raw)
        for start, end, target, depth, lasti in V.exception_table(code):
            for k, ins in enumerate(raw):
                if start <= ins.offset < end:
                    self.handlers[k] = (index[target], depth, lasti)
        self.names = V.localsplus_names(code)
        self.nlocalsplus = len(self.names)
        nvars = len(code.co_varnames)
        self.cells = {k for k, n in enumerate(self.names)
                      if k >= nvars or n in code.co_cellvars}
        bad = {ins.opname for ins in raw} & V.FRAME_UNSUPPORTED
        bad |= {f"{ins.opname} {ins.arg}" for k, ins in enumerate(raw) if names[k] is None}
        bad |= {n for n in names if n is not None and n not in DISPATCH}  # (none on 3.11: all are handled)
        self.unsupported = None
        self.generator = V.is_plain_generator(code)
        self.gen_start = 0
        # try/with blocks in a generator run when an abandoned generator is closed, which the VM does not
        # do: one left suspended when the trace ends restarts it (_generators.check_abandoned).
        # Only a handler over a yield can run when a suspended generator is closed; 3.12's handlers that turn a
        # body's StopIteration into RuntimeError, or take what is thrown in at a `yield from`'s yield, are no
        # try/with block (closing runs no code of its own there), and an inlined comprehension's covers no yield.
        self.gen_handlers = any(h is not None and self.instrs[k].opname == "YIELD_VALUE"
                                and self.instrs[h[0]].opname not in ("STOPITERATION_ERROR", "CLEANUP_THROW")
                                for k, h in enumerate(self.handlers))
        if self.generator:
            # A generator is traced as a suspendable frame, started after its RETURN_GENERATOR.
            bad -= V.GENERATOR_OPS
            self.gen_start = next(k for k, ins in enumerate(raw) if ins.opname == "RETURN_GENERATOR") + 1
        for k, ins in enumerate(raw):
            if ins.opname == "LOAD_GLOBAL" and ins.argval in V.NAMESPACE_DEFAULT_ARGS and (
                    (V.direct_call_argc(raw, k) or 0) >= V.NAMESPACE_DEFAULT_ARGS[ins.argval]):
                continue  # `vars(obj)`, `dir(obj)`: a plain call (the name resolved at run time: _frame_readers)
            if (ins.opname == "LOAD_GLOBAL" and ins.argval in V.FRAME_INTROSPECTING_GLOBALS) or (
                    ins.opname in ("LOAD_ATTR", "LOAD_METHOD", "LOAD_SUPER_ATTR") and ins.argval in V.FRAME_INTROSPECTING_ATTRS):
                bad.add(f"{ins.argval}() (frame introspection)")
        if code.co_flags & V.CO_UNSUPPORTED_FLAGS and not self.generator:
            self.unsupported = "coroutine or async generator function"
        elif bad:
            self.unsupported = "uses " + ", ".join(sorted(bad))
        self.live = _liveness(self)

    def handler_for(self, index: int) -> tuple[int, int, bool] | None:
        return self.handlers[index]


_JUMP_OPCODES = {dis.opmap[_name] for _name in (
    list(V.CONDITIONAL_POP_JUMPS) + list(V.UNCONDITIONAL_JUMPS) + list(V.OR_POP_JUMPS) + ["FOR_ITER", "SEND"])}


def successors(info: CodeInfo, k: int) -> list[int]:
    ins = info.instrs[k]
    out = []
    if ins.opname not in V.TERMINATORS:
        out.append(k + 1)
    if ins.target is not None:
        out.append(ins.target)
    h = info.handlers[k]
    if h is not None:
        out.append(h[0])
    return [s for s in out if s < len(info.instrs)]


def _liveness(info: CodeInfo) -> list[int]:
    """live[k]: locals (indices) that may be read before being written, starting at instruction k.

    A backward may-analysis over the instruction graph, exception edges included. Cells are always live
    (closures share them), so they are simply not tracked here. Zero-argument super() reads the first
    argument's slot without a LOAD_FAST: in a method that may call it, every call reads local 0.
    DELETE_FAST is a use too (it fails on an unbound local).
    """
    n = len(info.instrs)
    use = [0] * n
    kill = [0] * n
    code = info.code
    super_reads = 1 if V.may_call_zero_arg_super(code) else 0
    for k, ins in enumerate(info.instrs):
        if ins.opname in ("LOAD_FAST", "LOAD_CLOSURE", "LOAD_DEREF", "MAKE_CELL"):
            use[k] = 1 << ins.arg
        elif ins.opname == "LOAD_FAST_AND_CLEAR":  # 3.12's inlined comprehension saves the local, then
            use[k] = kill[k] = 1 << ins.arg  # unbinds it (a STORE_FAST puts it back)
        elif ins.opname in V.CALL_OPS:
            use[k] = super_reads
        elif ins.opname == "STORE_FAST":
            kill[k] = 1 << ins.arg
        elif ins.opname == "DELETE_FAST":  # reads whether it is bound (UnboundLocalError), then unbinds;
            use[k] = kill[k] = 1 << ins.arg  # live up to it, as eager keeps the value until the `del`
    succ = [successors(info, k) for k in range(n)]
    live = [0] * n
    changed = True
    while changed:
        changed = False
        for k in range(n - 1, -1, -1):
            out = 0
            for s in succ[k]:
                out |= live[s]
            new = use[k] | (out & ~kill[k])
            if new != live[k]:
                live[k] = new
                changed = True
    cellmask = 0
    for c in info.cells:
        cellmask |= 1 << c
    return [v | cellmask for v in live]


_CACHE: weakref.WeakKeyDictionary = weakref.WeakKeyDictionary()


def code_info(code: types.CodeType) -> CodeInfo:
    info = _CACHE.get(code)
    if info is None:
        info = _CACHE[code] = CodeInfo(code)
    return info


def is_live(info: CodeInfo, index: int, local: int) -> bool:
    return bool(info.live[index] >> local & 1)
