"""The reducer's passes, in the one order the driver runs them.

Coarse before fine, because a check compiles the candidate and a large program takes seconds to compile: the IR
stage (generated programs only) drops whole functions before statements, blocks and inputs; the source stage
tries the aggressive bypasses whose candidates are small and cheap (the call graph cut at one depth,
``entry`` calling a deep function directly), removes what nothing reads, removes every effect-log write in one check, folds helper modules into the main module, bypasses definitions in ddmin chunks, deletes statements
top-down in halving chunks down to two, unwraps blocks and shrinks loops, rewrites spots into their canonical
forms (so that inlining can take them and reductions of one bug end at one program), folds constants, inlines
wrappers and calls, makes ``entry``'s only callee ``entry``, inlines classes and context-manager classes, and only then deletes single statements (a check per line), drops parameters
and moves the inputs the bug does not need into ``entry``, before touching expressions (then a temporary the bug
does not need reads another variable); it renames last.

The cheap cuts come first, then remove-unused: an unread definition is never compiled, so removing those makes
no later check cheaper, and on a large program its one check compiles the whole of it (the bypasses' clean-up
takes only what their edit left unread; remove-unused the rest, on the smaller program). Before all of
them, when the failure names where it is (a crash's frames), ``reduce_source`` runs the
``focus`` pass made from those names (``passes._focus``): the program cut below them in one check. See
docs/reducer.md.
"""

from fuzz.reduce.passes._arguments import drop_arguments
from fuzz.reduce.passes._canonical import canonical_forms
from fuzz.reduce.passes._classes import inline_classes
from fuzz.reduce.passes._context_classes import inline_context_classes
from fuzz.reduce.passes._dead import remove_dead_stores
from fuzz.reduce.passes._definitions import bypass_definitions, cut_call_graph
from fuzz.reduce.passes._edits import Edit, ReductionPass, reduction_pass
from fuzz.reduce.passes._entry import merge_entry
from fuzz.reduce.passes._expressions import inline_variables, rename, shrink_tensors, simplify_expressions
from fuzz.reduce.passes._fold import fold_constants
from fuzz.reduce.passes._inline import inline_calls, inline_decorated_calls
from fuzz.reduce.passes._inputs import drop_inputs
from fuzz.reduce.passes._ir import IR_PASSES
from fuzz.reduce.passes._local_inputs import local_inputs
from fuzz.reduce.passes._loops import shrink_loops
from fuzz.reduce.passes._modules import inline_helper_modules
from fuzz.reduce.passes._observations import strip_observations
from fuzz.reduce.passes._params import plain_parameters
from fuzz.reduce.passes._statements import (
    delete_single_statements,
    delete_statements,
    remove_unused,
    unwrap_blocks,
)
from fuzz.reduce.passes._variables import merge_variables
from fuzz.reduce.passes._wrappers import inline_wrappers

__all__ = ["IR_PASSES", "PASSES", "Edit", "ReductionPass", "pass_names", "reduction_pass"]

PASSES: list[ReductionPass] = [
    # first: its candidates are small, so cheap to check (bisected: a few checks take a 900-line chain to 70)
    cut_call_graph,
    # then one check removes everything nothing reads; before the cuts it compiled the whole program for nothing
    # (an unread definition is never compiled): 18 to 35 s of a 900-line finding's budget for 1 to 20 lines
    remove_unused,
    # one check: the stores nothing reads, which delete-statements would take a chunk at a time
    remove_dead_stores,
    strip_observations,
    inline_helper_modules,
    bypass_definitions,
    delete_statements,
    unwrap_blocks,
    # after unwrap-blocks: a loop whose body alone lost the bug may still run once (its variable bound) or twice
    shrink_loops,
    canonical_forms,
    # one check folds every pure constant, and the import it needed goes: before the inlining passes copy them
    fold_constants,
    # before inline-calls: a wrapper called from a loop or from several places goes whole, which leaves what it
    # wrapped called once; keyword calls made positional, which inline-calls needs
    inline_wrappers,
    plain_parameters,
    inline_calls,
    # after inline-calls, which takes an undecorated callee called once into entry: this one keeps a decorated
    # callee's decorators (or one called from elsewhere too) by making it entry
    merge_entry,
    inline_classes,
    inline_context_classes,
    # a check per line: after the passes that take a definition or a block per check, so that a reduction cut
    # short by its budget spent its checks where more lines go
    delete_single_statements,
    drop_arguments,
    # after drop-arguments (an unread input goes with its parameter): an input the bug does not need from outside
    # becomes a tensor made in entry, and make_inputs goes with the last one
    local_inputs,
    # after drop-arguments, which takes entry's last parameter with its input
    drop_inputs,
    simplify_expressions,
    # after simplify-expressions (an operand that went may have been a variable's only read): a temporary the
    # bug does not need reads as another variable, and its store goes
    merge_variables,
    inline_variables,
    # late: a decorated callee that entry's other statements went from is entry's whole body by now, and
    # merge-entry (above) makes it entry with its decorators, which keeps the frame the decorator gives
    inline_decorated_calls,
    shrink_tensors,
    rename,
]


def pass_names() -> list[str]:
    return [p.name for p in PASSES]
