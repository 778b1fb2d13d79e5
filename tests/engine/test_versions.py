"""The engine on each Python version it models: every instruction of this interpreter is handled or makes its
code run eagerly, and the constructs whose bytecode changed in 3.12 (inlined comprehensions, LOAD_SUPER_ATTR,
slices, RETURN_CONST, the new jump and FOR_ITER/SEND forms) are traced across breaks on every version."""

from __future__ import annotations

import dis

import torch

from engine._vm import _handlers  # noqa: F401  (fills the dispatch table)
from engine._vm import _version as V
from engine._vm._code import code_info
from engine._vm._opcodes import DISPATCH

from .helpers import check, t

gb = torch._dynamo.graph_break


def x1():
    return (t(3, 4),)


def test_every_instruction_is_handled_or_runs_its_code_eagerly():
    renamed = {"LOAD_FAST_CHECK", "CALL_INTRINSIC_1"}  # run under other names (_version.opname)
    renamed |= set(V.BYTECODE.renamed) | (V.REWRITTEN_313 if V.BYTECODE.rewrite else set())  # (3.13)
    real = {n for n, op in dis.opmap.items() if op < 256 and not n.startswith("INSTRUMENTED_")}
    real -= {"RESERVED", "INTERPRETER_EXIT"}
    assert real - set(DISPATCH) - V.FRAME_UNSUPPORTED - renamed == set()
    assert set(V.BYTECODE.intrinsics_1.values()) | set(V.BYTECODE.renamed.values()) <= set(DISPATCH)
    assert V.SUPPORTED and V.BYTECODE is V.VERSIONS[V.PY]


def shadowing_comprehension(x):
    i = 7
    ys = [x * i for i in range(3) if (gb() or True)]  # a break inside the comprehension (3.12: inlined)
    return ys[2] + i


def unbound_name_comprehension(x):
    ys = [x + j for j in range(2)]
    gb()
    try:
        return j  # noqa: F821  (unbound again after the comprehension: NameError on every version)
    except NameError:
        return ys[1]


def closure_comprehension(x):
    fs = [lambda: i for i in range(3)]  # noqa: B023  (each closure reads the comprehension's cell)
    gb()
    return x + sum(f() for f in fs)


def test_comprehensions_across_breaks():
    check(shadowing_comprehension, x1)
    check(unbound_name_comprehension, x1)
    check(closure_comprehension, x1)


class Base:
    def m(self, x):
        return x + 1


class Derived(Base):
    def m(self, x):
        gb()
        return super().m(x) * 2 + super(Derived, self).m(x)  # noqa: UP008  (the two-argument form)


def super_forms(x):
    return Derived().m(x)


def slices(x):
    lst = list(range(10))
    lst[1:4] = [0]
    y = x[1:]
    gb()
    return y, lst[2:5], x[:2] * lst[1:3][0]


def const_returns(x):
    if x.sum() > 1000:
        return None
    gb()
    return x + 1


def gen(n):
    for i in range(n):  # noqa: UP028  (a traced loop, not a delegate)
        yield i
    return 10


def yield_from_with_break(x):
    def outer():
        r = yield from gen(2)
        gb()
        yield r
    return [x + v for v in outer()]


def test_super_slices_returns_and_yield_from_across_breaks():
    check(super_forms, x1)
    check(slices, x1)
    check(const_returns, x1)
    check(yield_from_with_break, x1)


def test_a_comprehension_saves_and_clears_its_name_on_3_12():
    ops = {ins.opname for ins in code_info(shadowing_comprehension.__code__).instrs}
    # 3.11 calls a <listcomp> function; 3.12 runs it in the frame, with the local saved and put back
    assert ("LOAD_FAST_AND_CLEAR" in ops) == (V.PY >= (3, 12))
    assert code_info(shadowing_comprehension.__code__).unsupported is None


# -- constructs whose bytecode changed in 3.13 (superinstructions, CALL_KW, SET_FUNCTION_ATTRIBUTE, the FORMAT_*
# split, TO_BOOL and COMPARE_OP's to-bool bit, PUSH_NULL above the callable), traced across breaks everywhere --

class Box:
    def scale(self, x, *, by=2):
        return x * by


def kw_calls(x):
    b = Box()
    y = b.scale(x, by=3)  # a method call with keywords (3.13: CALL_KW over meth, self)
    gb()
    z = torch.add(x, y, alpha=2)  # LOAD_GLOBAL's NULL, an attribute, keywords
    return b.scale(*(z,), **{"by": 4}) + Box.scale(b, y)  # CALL_FUNCTION_EX, PUSH_NULL after the callable


def made_functions(x):
    k = 5

    def inner(a, b=2, *, c=3) -> torch.Tensor:  # defaults, kwdefaults, annotations, closure
        return a * b + c + k

    gb()
    f = lambda v, w=1: v - w  # noqa: E731
    return inner(x), inner(x, 3, c=4), f(x), inner.__defaults__, inner.__kwdefaults__, f.__name__


def swaps_and_formats(x):
    a, b = 1, 2
    a, b = b, a  # STORE_FAST_STORE_FAST
    n = x.shape[0]
    s = f"{n!r:>{a + 3}} {n!s} {a!a} {b:03d} {'q'}"  # CONVERT_VALUE, FORMAT_WITH_SPEC with a nested spec
    gb()
    return x + a * 10 + b, s, f"{n}-{b}"


def truth_tests(x):
    n = 0
    if x.shape and not [] and (1 < n + 2 < 3 or n):  # TO_BOOL, UNARY_NOT, chained COMPARE_OP's bool bit
        n += 1
    y = x if n else -x
    if x.sum() > -1000:  # a break at the truth test (3.13: TO_BOOL after COMPARE_OP)
        y = y + 1
    try:
        if x > 0:  # bool() of a 3-element tensor raises: the handler covers the compare, not the jump
            n += 10
    except RuntimeError:
        n += 100
    try:
        if x:  # the same through TO_BOOL
            n += 10
    except RuntimeError:
        n += 1000
    return y, n, not n, x is not None and n


def comprehension_filter_raises(x):
    v = 7
    try:
        ys = [v for v in (x, x) if v > 0]  # bool() of a 3x4 tensor raises inside the inlined comprehension
    except RuntimeError:
        return x + v  # its handler put the saved `v` back first (3.13: no handler covers the jump itself)
    return ys


def test_3_13_forms_across_breaks():
    check(comprehension_filter_raises, x1)
    check(kw_calls, x1)
    check(made_functions, x1)
    check(swaps_and_formats, x1)
    check(truth_tests, x1)


def test_3_13_forms_are_rewritten_to_instructions_the_vm_runs():
    codes = [fn.__code__ for fn in (kw_calls, made_functions, swaps_and_formats, truth_tests)]
    codes += [c for c in made_functions.__code__.co_consts if hasattr(c, "co_code")]  # inner, the lambda
    for code in codes:
        info = code_info(code)
        assert info.unsupported is None, (code.co_name, info.unsupported)
        assert not {i.opname for i in info.instrs} & V.REWRITTEN_313, code.co_name
    if V.PY >= (3, 13):  # the forms are there to rewrite
        ops = {i.opname for c in codes for i in dis.get_instructions(c)}
        assert ops >= {"CALL_KW", "SET_FUNCTION_ATTRIBUTE", "STORE_FAST_STORE_FAST", "CONVERT_VALUE", "TO_BOOL"}
