"""Every reason the engine has for a graph break: a stable id, what it means, and a hint.

`Unsupported(gb_id, explanation)` names one of these; the explanation says what was met at that point (the
callable, the types), the table says what the id means in general and what the user can do about it. Ids are
stable: tests, explain() output and the fuzzer's break statistics group by them. Every id used in `engine/`
is in this table (tests/engine/test_reasons.py checks the sources), and every hint is non-empty.

`python -m engine._reasons` prints the table.
"""

from __future__ import annotations

import sys
from dataclasses import dataclass


@dataclass(frozen=True, slots=True)
class Reason:
    """One break id: what it means in general and what the user can do."""

    gb_id: str
    meaning: str  # what kind of construct breaks, in general
    hint: str  # what the user can do (or why nothing needs doing)


_EAGER = "nothing to do: it runs for real at its point in the program, the rest is still compiled"
_CONST = "nothing to do; to keep it in the graph, make the value a Python constant or a tensor op"

_TABLE = (
    # -- the VM itself --------------------------------------------------------------------------------------
    Reason("opcode", "an instruction the VM has no handler for", _EAGER),
    Reason("internal", "a handler failed with an engine error; the instruction ran by its eager form",
           "an engine bug: please report it with the program (`engine.explain(fn)(*args)` shows where)"),
    Reason("forced-call", "a call made to run on its own after a re-trace (generator, frame reader, classic)",
           _EAGER),
    Reason("recursion", "a generator restored across a break resumed past the recursion limit; the call runs "
           "eagerly, where Python raises RecursionError as it would", _EAGER),
    Reason("eager-ops", "every op of a segment whose graph failed at run time runs eagerly",
           "the graph raised where fake tensors did not (an index out of range...): check the inputs"),
    # -- graph ops ------------------------------------------------------------------------------------------
    Reason("op-on-fake", "a torch op failed on fake tensors (data-dependent shape, dynamic output, error)",
           "avoid data-dependent shapes (nonzero, masked_select, .item()) inside compiled code"),
    Reason("non-tensor-result", "a torch op returned something other than tensors or metadata", _EAGER),
    Reason("graph-arg", "a value that cannot be an argument of a graph op",
           "pass tensors, Python constants or tuples of them"),
    Reason("function-mode", "a torch function mode is active: ops run eagerly under it",
           "enter the mode outside the compiled function, or compile the code the mode wraps"),
    Reason("tensor-op", "an operator between a tensor and a value that is not a constant or tensor", _CONST),
    Reason("tensor-compare", "a comparison of a tensor with a value that is not a constant or tensor", _CONST),
    Reason("tensor-method", "a Tensor method the VM does not trace (item, tolist, backward, in-place storage...)",
           "keep .item()/.tolist()/.numpy() out of compiled code, or accept the break there"),
    Reason("tensor-attr", "a Tensor attribute the VM does not trace (grad, data, grad_fn...)", _EAGER),
    Reason("data-dependent-branch", "branching on a tensor's value",
           "use torch.where / torch.cond, or move the branch out of the compiled code"),
    Reason("iter-0d", "iterating a 0-d tensor", "0-d tensors are not iterable: the eager op raises TypeError"),
    # -- calls ----------------------------------------------------------------------------------------------
    Reason("call", "calling a value the VM does not model", _EAGER),
    Reason("call-object", "calling an object (builtin, C function, class) the VM does not model", _EAGER),
    Reason("call-ex", "f(*args, **kwargs) where kwargs is not a dict with string keys", _EAGER),
    Reason("bind", "arguments that do not bind to the callee's parameters",
           "the eager call raises CPython's TypeError: check the call's arguments"),
    Reason("frame-unsupported", "a function whose code the VM does not run (async, class body...)",
           "the call runs eagerly; move the construct out of the hot path to compile around it"),
    Reason("frame-introspection", "a call that reads its calling frame (locals(), sys._getframe()...)",
           "the frame that calls it runs eagerly; pass the values explicitly instead"),
    Reason("frame-reader", "a function that may read its own frame (a frame reader reached under another name: "
                           "an alias, a module or class attribute, a closure, an argument)",
           "the call runs eagerly, in a frame of its own; call the reader by its own name to let the engine "
           "answer locals()/vars() from its frame"),
    Reason("library-call", "library code the policy table runs eagerly",
           "the policy table (engine/_policy.py, `python -m engine._policy`) decides what library code is "
           "traced"),
    Reason("library-model", "a modeled library callable with arguments its model does not cover", _EAGER),
    Reason("library-eager", "a library callable that must run for real (warnings, side effects)", _EAGER),
    Reason("print", "print() writes to stdout at its point in the program",
           "remove the print from compiled code, or accept the break there"),
    Reason("graph_break", "torch._dynamo.graph_break() was called", "remove the graph break"),
    Reason("disabled", "a function marked torch._dynamo.disable", "remove the decorator to trace it"),
    Reason("state-query", "a torch state query that raised", _EAGER),
    Reason("grad-ctx-call", "a grad-mode object called with arguments other than a function", _EAGER),
    Reason("grad-wrapped", "a grad-mode decorated callable that is not traced", _EAGER),
    Reason("contextmanager", "a @contextmanager over a function the VM does not trace", _EAGER),
    Reason("contextmanager-exit", "leaving a @contextmanager block in a way the VM does not model (its exit "
           "called with other arguments, its generator not suspended, or yielding again with try/with blocks)",
           "the block's generator is made real by a re-trace; nothing to do"),
    Reason("builtin-raises", "a builtin that raised on constant arguments",
           "the eager call raises the same error at its point"),
    Reason("new-object", "creating an instance of a class whose construction the VM does not model", _EAGER),
    Reason("dunder", "a special method that is not a user function", _EAGER),
    Reason("super", "zero-argument super() where CPython fails or the VM cannot tell the class",
           "the eager op raises CPython's error (or the frame runs for real)"),
    Reason("super-attr", "an attribute of super() the VM does not resolve", _EAGER),
    # -- attributes and subscripts --------------------------------------------------------------------------
    Reason("attr", "an attribute of a value the VM does not model", _EAGER),
    Reason("attr-missing", "an attribute that does not exist", "the eager op raises AttributeError"),
    Reason("match", "a `match` pattern test on a subject the trace does not hold (type, length, keys, class)",
           _EAGER),
    Reason("const-attr", "an attribute of a constant that is not itself a constant", _EAGER),
    Reason("custom-getattr", "an object with custom attribute access (__getattribute__/__getattr__)", _EAGER),
    Reason("descriptor", "a property or other descriptor the VM does not run", _EAGER),
    Reason("store-attr", "setting an attribute the VM cannot record (descriptor, custom __setattr__, C type)",
           _EAGER),
    Reason("delete-attr", "del of an attribute", _EAGER),
    Reason("subscript", "a subscript of a value, or with an index, that is not known", _CONST),
    Reason("subscript-raises", "a subscript of a constant that raised", "the eager op raises the same error"),
    Reason("index-error", "an index out of range", "the eager op raises IndexError"),
    Reason("key-error", "a missing dict key", "the eager op raises KeyError"),
    Reason("setitem", "item assignment on a value the VM does not model", _EAGER),
    Reason("delete-subscr", "del of an item", _EAGER),
    # -- containers -----------------------------------------------------------------------------------------
    Reason("set", "a set the VM does not model: elements that are not constants (tensors, objects: their "
           "order could differ from eager's), iterating a set whose order is not known (one that existed "
           "before the segment), or a set method or argument not modeled",
           "use a dict (or a list) in compiled code to keep it in one graph"),
    Reason("list-method", "a list method (or arguments) the VM does not model", _EAGER),
    Reason("list-pop", "list.pop with an index that is not a constant in range", _EAGER),
    Reason("list-setitem", "list assignment with an index that is not a constant int in range", _CONST),
    Reason("list-append", "a comprehension's append to a list the VM does not know", _EAGER),
    Reason("list-extend", "a display's extend of a list the VM does not know", _EAGER),
    Reason("list-to-tuple", "tuple(...) of a display the VM does not know", _EAGER),
    Reason("dict-key", "a dict key that is not a constant", "use constant (str/int/tuple) keys"),
    Reason("dict-keys", "a real dict with keys other than str/int/bool", "use constant (str/int/bool) keys"),
    Reason("dict-method", "a dict method the VM does not model", _EAGER),
    Reason("dict-pop", "dict.pop of a missing key without a default", "the eager op raises KeyError"),
    Reason("dict-update", "dict.update / a ** display over values the VM does not know", _EAGER),
    Reason("dict-merge", "f(**a, **b) with non-string or duplicate keyword names",
           "the eager op raises CPython's TypeError"),
    Reason("map-add", "a dict comprehension's store into a dict the VM does not know", _EAGER),
    Reason("method", "a method of a value the VM does not model", _EAGER),
    Reason("const-method", "a method of a constant that raised or returned a non-constant", _EAGER),
    Reason("const-arg", "a non-constant argument to a constant's method", _CONST),
    Reason("build-string", "an f-string with parts that are not constant strings", _EAGER),
    Reason("format", "formatting a value that is not a constant", _EAGER),
    Reason("unpack", "unpacking a sequence whose length does not match",
           "the eager op raises CPython's ValueError (or unpacks a value the VM does not know)"),
    # -- operators ------------------------------------------------------------------------------------------
    Reason("binary-op", "a binary operator on values the VM does not model", _EAGER),
    Reason("unary-op", "a unary operator on a value the VM does not model", _EAGER),
    Reason("compare", "a comparison of values the VM does not model", _EAGER),
    Reason("contains", "`in` on a container the VM does not know", _EAGER),
    Reason("op-raises", "an operator on constants that raised", "the eager op raises the same error"),
    Reason("op-result", "an operator on constants whose result is not a constant", _EAGER),
    Reason("is", "`is` between values the trace cannot tell apart", _EAGER),
    Reason("is-none", "`is None` on a value the trace cannot tell", _EAGER),
    Reason("truth", "the truth value of a value the VM does not model", _EAGER),
    # -- iteration and generators ---------------------------------------------------------------------------
    Reason("iter", "iterating a value the VM does not model", _EAGER),
    Reason("for-iter", "a for-loop over an iterator the VM does not model", _EAGER),
    Reason("zip-iterator", "enumerate()/zip() over an iterator (its exact consumption matters)",
           "pass sequences (lists, tuples, ranges) to keep the loop compiled"),
    Reason("module-members", "Module.parameters()/named_modules()... over a module tree that overrides one of "
           "them, or that changed size during the loop", "the real generator runs: eager's result, its error"),
    Reason("zip-strict", "zip(strict=True) over sequences of different lengths",
           "the eager op raises CPython's ValueError"),
    Reason("zip-exhausted", "next() on an exhausted enumerate()/zip() iterator (zip steps the parts ahead of "
           "the one that ran out once more each time)", "the step runs eagerly on the real zip"),
    Reason("stop-iteration", "next() on an exhausted iterator", "the eager op raises StopIteration"),
    Reason("deque", "a deque operation the trace does not model on a deque it made (popping an empty one, "
           "rotating by a non-constant, counting values that are not constants)",
           "the operation runs eagerly on the real deque"),
    Reason("slot-unset", "reading a `__slots__` entry that holds no value", "the eager op raises AttributeError"),
    Reason("dict-iter", "a dict changed size or keys while an iterator over it is alive (eager iterates the "
           "live dict)", "the step runs eagerly and raises eager's RuntimeError"),
    Reason("generator-running", "a generator stepped while it runs", "the eager op raises ValueError"),
    Reason("generator", "a generator persisted in a break's snapshot that must become a real object (the "
           "snapshot persists only generators the VM's own frames alone reach: this is an engine error)",
           "report it; from the next call on the function runs eagerly"),
    Reason("yield-from", "`yield from` a real object, or with a value sent in: the delegating generator is made "
           "eagerly (a restart)", "iterate the delegate in a for-loop instead"),
    # -- names, cells, imports ------------------------------------------------------------------------------
    Reason("unbound-local", "reading or deleting an unbound local", "the eager op raises UnboundLocalError"),
    Reason("unbound-cell", "reading an empty cell", "the eager op raises NameError / UnboundLocalError"),
    Reason("name-error", "a global that is not defined", "the eager op raises NameError"),
    Reason("delete-global", "del of a global", _EAGER),
    Reason("delete-deref", "del of a cell shared with code outside the segment", _EAGER),
    Reason("import", "an import statement", "imports run eagerly; import at module level to avoid the break"),
    # -- with-blocks and exceptions -------------------------------------------------------------------------
    Reason("mode-ctx", "entering an autocast / inference-mode object that is entered already, or leaving "
           "a mode block other than the innermost one", "the enter or exit runs eagerly"),
    Reason("autocast-cache", "an autocast block made to be entered by an eager op after a re-trace: a "
           "break inside it, after a cast autocast caches, would drop the cache if a graph closed the block",
           "to keep the block in the graph, move the break out of it"),
    Reason("with", "a with-block over a context manager the VM does not trace",
           "the context manager is entered eagerly"),
    Reason("exc", "an exception value whose type or traceback the VM does not know", _EAGER),
    Reason("exc-match", "an except clause over classes the VM does not know", _EAGER),
    Reason("exc-context", "a raise while handling a value the VM does not know as an exception (its "
           "__context__ would be unknown)", _EAGER),
    Reason("raise", "a raise of a value the VM does not know as an exception (or a bare raise with none "
           "handled)", _EAGER),
    Reason("reraise", "re-raising a value the VM does not know", _EAGER),
)

REASONS: dict[str, Reason] = {r.gb_id: r for r in _TABLE}
assert len(REASONS) == len(_TABLE), "duplicate break ids"
assert all(r.hint and r.meaning for r in _TABLE), "every break id needs a meaning and a hint"


def reason(gb_id: str) -> Reason:
    """The table entry of a break id (KeyError for an id that is not in the table: an engine bug)."""
    return REASONS[gb_id]


def describe() -> str:
    return "\n".join(f"{r.gb_id:22} {r.meaning}\n{'':22} hint: {r.hint}" for r in _TABLE)


if __name__ == "__main__":
    print(describe())
    sys.exit(0)
