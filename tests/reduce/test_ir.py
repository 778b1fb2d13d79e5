"""The IR stage over generated programs, with in-process predicates (no oracle)."""

from __future__ import annotations

from fuzz.generate import generate_program
from fuzz.reduce import IR_PASSES, code_lines, reduce_ir
from fuzz.reduce._oracle import generator_ir


def _program_with_a_break():
    for index in range(40):
        program = generate_program(0, index)
        if len(program.ir.functions) > 2 and "graph_break()" in program.source:
            return program
    raise AssertionError("no generated program with a graph break and three functions")


def test_ir_stage_shrinks_while_the_rendering_stays_interesting():
    program = _program_with_a_break()

    def interesting(source: str) -> bool:
        return "torch._dynamo.graph_break()" in source

    result = reduce_ir(program.ir, interesting, budget_s=600)  # ends at its fixpoint
    assert result is not None and interesting(result.source)
    assert len(result.ir.functions) < len(program.ir.functions)
    assert result.ir.functions[0].index == 0 and all(f.index == i for i, f in enumerate(result.ir.functions))
    assert code_lines(result.source) < result.original_lines
    assert [p.name for p in result.passes] == [p.name for p in IR_PASSES]
    assert result.invocations == 1 + sum(p.attempts for p in result.passes)


def test_ir_stage_is_skipped_when_the_original_rendering_is_not_interesting():
    program = _program_with_a_break()
    assert reduce_ir(program.ir, lambda source: False) is None


def test_generator_ir_recognizes_unedited_generated_files():
    program = _program_with_a_break()
    assert generator_ir(program.source) == program.ir
    assert generator_ir(program.source.replace("graph_break()", "graph_break()  # edited", 1) + "x = 1\n") is None
    assert generator_ir("import torch\n") is None
