"""The reducer's passes, in the one order the driver runs them.

Coarse before fine: the IR stage (generated programs only) drops whole functions before statements, blocks
and inputs; the source stage removes unused definitions in one check, deletes statements top-down in halving
chunks, unwraps blocks and inlines calls before touching expressions, and renames last. Helper modules are folded into the main module before statements go, so that
the statement passes see one module.
"""

from fuzz.reduce.passes._classes import inline_classes
from fuzz.reduce.passes._definitions import bypass_definitions
from fuzz.reduce.passes._edits import Edit, ReductionPass, reduction_pass
from fuzz.reduce.passes._expressions import inline_variables, rename, shrink_tensors, simplify_expressions
from fuzz.reduce.passes._ir import IR_PASSES
from fuzz.reduce.passes._modules import inline_helper_modules
from fuzz.reduce.passes._statements import (
    delete_statements,
    drop_arguments,
    inline_calls,
    remove_unused,
    unwrap_blocks,
)

__all__ = ["IR_PASSES", "PASSES", "Edit", "ReductionPass", "pass_names", "reduction_pass"]

PASSES: list[ReductionPass] = [
    remove_unused,
    inline_helper_modules,
    bypass_definitions,
    delete_statements,
    unwrap_blocks,
    inline_calls,
    inline_classes,
    drop_arguments,
    simplify_expressions,
    inline_variables,
    shrink_tensors,
    rename,
]


def pass_names() -> list[str]:
    return [p.name for p in PASSES]
