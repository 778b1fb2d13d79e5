"""The IR stage over generated programs, with in-process predicates (no oracle)."""

from __future__ import annotations

import dataclasses

from fuzz.program.generate import generate_program
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


def test_generator_ir_regenerates_a_campaign_repro_drawn_with_weights_of_its_own():
    # a campaign draws with known-bug avoidance (or --weight, --bias) and writes those weights in the repro's
    # header: the IR stage must have the program back from them, or a large finding is reduced by source alone
    from fuzz.campaign.bias import weights_header
    from fuzz.program.features import GenerationConfig
    from oracle import FoundBy, set_header

    config = GenerationConfig({"ctx": 3.0, "break.graph_break": 0.5})
    program = generate_program(7, 3, config)
    assert program.source != generate_program(7, 3).source
    repro = set_header(program.source, signature="mismatch:value:values", target="torch",
                       found_by=str(FoundBy.generated(7, 3)), weights=weights_header(program.config))
    assert generator_ir(repro) == program.ir
    assert generator_ir(set_header(repro, found_by=str(FoundBy.generated(7, 3, bias=True)))) == program.ir
    # no header: a --bias program's weights are lost; others are drawn with found-by's --weight options
    assert generator_ir(set_header(repro, found_by=str(FoundBy.generated(7, 3, bias=True)), drop=("weights",))) is None
    assert generator_ir(set_header(repro, drop=("weights",))) is None  # the catalog's weights draw another program


def _deep_leaf_program():
    """A generated program whose call graph has a leaf three or more calls below the entry, and at least four
    functions off the way to it."""
    from fuzz.reduce.passes._ir import _call_graph

    for index in range(200):
        program = generate_program(3, index).ir
        calls = _call_graph(program)
        depth = {0: 0}
        for k in range(len(calls)):  # callees have larger indices: one pass in index order
            for c in calls[k]:
                depth[c] = max(depth.get(c, 0), depth.get(k, 0) + 1)
        leaves = [k for k in depth if not calls[k] and depth[k] >= 3]
        if leaves and len(program.functions) >= depth[leaves[0]] + 5:
            return program, program.functions[leaves[0]].body
    raise AssertionError("no generated program with a deep leaf and side branches")


def _reduce_keeping_leaf(passes):
    """Reduce with an IR-level predicate: a bug that needs one deep leaf function, reached from the entry."""
    from fuzz.reduce._driver import _run, _Stage
    from fuzz.reduce.passes._ir import _call_graph, _reachable

    program, leaf_body = _deep_leaf_program()
    programs = {}

    def source(p):
        programs.setdefault(repr(p), p)
        return repr(p)

    def interesting(text: str) -> bool:
        p = programs[text]
        reached = _reachable(_call_graph(p), 0, None)
        return any(p.functions[k].body == leaf_body for k in reached)

    stage = _Stage(source=source, key=source, cost=lambda p: (len(p.functions), len(repr(p))))
    run, stopped, _ = _run(stage, program, interesting, passes, budget_s=600, workers=1, progress=None,
                           check_original=True)
    assert stopped == "fixpoint"
    return program, run


def test_drop_subtrees_keeps_one_call_chain_and_needs_fewer_checks():
    from fuzz.reduce.passes._ir import _call_graph

    only_functions = [p for p in IR_PASSES if p.name == "ir-drop-functions"]
    with_subtrees = [p for p in IR_PASSES if p.name in ("ir-drop-subtrees", "ir-drop-functions")]
    program, alone = _reduce_keeping_leaf(only_functions)
    _, both = _reduce_keeping_leaf(with_subtrees)
    assert len(both.best.functions) == len(alone.best.functions) < len(program.functions)
    calls = _call_graph(both.best)
    assert all(len(c) <= 1 for c in calls)  # a chain: every kept function calls at most one other
    assert all(c > k for k, cs in enumerate(calls) for c in cs)  # callees renumbered, still below their callers
    assert both.invocations < alone.invocations, (both.invocations, alone.invocations)


def test_drop_subtrees_first_drops_what_the_entry_cannot_reach():
    from fuzz.reduce.passes._ir import _call_graph, _drop_subtrees, _reachable

    program, _ = _deep_leaf_program()
    extra = dataclasses.replace(program.functions[-1], index=len(program.functions))  # called by nobody
    orphaned = dataclasses.replace(program, functions=program.functions + (extra,))
    first = next(iter(_drop_subtrees(orphaned)))()
    assert first == program
    assert _reachable(_call_graph(program), 0, None) == set(range(len(program.functions)))


def _chain_needing(depth: int):
    """A generated program whose call graph is one chain of 40 functions or more, and an IR-level predicate: the
    bug needs the chain down to the function ``depth`` calls below the entry (its body kept, and reached)."""
    from fuzz.reduce.passes._ir import _call_graph, _reachable

    for seed, index in ((213, 13), (11, 59), (215, 24)):
        program = generate_program(seed, index).ir
        calls = _call_graph(program)
        if len(calls) > 40 and all(len(c) <= 1 for c in calls[1:]):
            break
    else:
        raise AssertionError("no generated program that is one long chain")
    chain, k = [0], 0
    while calls[k]:
        (k,) = calls[k] if len(calls[k]) == 1 else (min(calls[k]),)
        chain.append(k)
    needed = program.functions[chain[depth]].body

    def interesting(p) -> bool:
        return any(p.functions[j].body == needed for j in _reachable(_call_graph(p), 0, None))

    return program, interesting


def test_drop_subtrees_bisects_a_long_chain_of_calls():
    from fuzz.reduce._driver import _run, _Stage

    program, interesting = _chain_needing(25)
    programs = {}

    def source(p):
        programs.setdefault(repr(p), p)
        return repr(p)

    checked = []

    def predicate(text: str) -> bool:
        checked.append(interesting(programs[text]))
        return checked[-1]

    stage = _Stage(source=source, key=source, cost=lambda p: (len(p.functions), len(repr(p))))
    passes = [p for p in IR_PASSES if p.name == "ir-drop-subtrees"]
    run, stopped, _ = _run(stage, program, predicate, passes, budget_s=600, workers=1, progress=None,
                           check_original=False)
    assert stopped == "fixpoint" and interesting(run.best)
    # everything below the needed function's callee went (one function alone is ir-drop-functions' edit);
    # nearest-first took one check per function above it (25) before the first kept one
    assert len(run.best.functions) == 27
    assert checked.index(True) < 3 and len(checked) <= 16, checked
