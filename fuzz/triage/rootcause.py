"""Root causes: the second bucketing, which says which buckets of a campaign are one bug.

A bucket is (target, signature): a *symptom*. One bug shows several (a grad-mode leak is seen as a wrong effect
value, an output without ``requires_grad``, grad mode left disabled, a changed second call), so buckets are
grouped again into root causes:

- a crash *raised inside compiler code* is named by its exception type and innermost compiler frame, on any
  target and either call: that pins the bug on its own, before any reduction (``pins_bug``). Every other finding
  whose signature names a crash does not: one named by a frame that only runs the program's code and passes on
  what it raised (``PASS_THROUGH_FRAMES``: the wrapper around a compiled function, the engine's segment runner;
  a resume function or a polyfill, compiler code the compiler runs as the program's: a polyfill of ``sum``
  calls the program's ``map`` callback), one with no compiler frame at all (``@program``), one raised by a
  compiler's *self-check* (``SELF_CHECKS``: an assertion that re-checks what the compiler built, which many
  unrelated bugs trip), one whose type and frame are both generic (``GENERIC_CRASHES``), a dead worker, a load
  failure, and every hang. Such a signature says what the *program* raised (a ``TypeError`` because the compiler
  computed a wrong value) or only that something went wrong, which
  many bugs share; these get the mismatch treatment below, named by their reduced repro's shape
  (``crash|SHAPE``, ``hang|SHAPE``);
- a mismatch is named by the *behaviour shape* of its reduced repro, whatever differed: the program with the
  observation-only statements removed (effect-log writes, which only make a symptom visible) and identifiers and
  constants abstracted, helper-module sources included, ``make_inputs`` left out and definitions in one order.
  Two reduced repros that do the same thing to the compiler are one bug even where the oracle saw different
  symptoms. Before reduction a mismatch has no root cause.
- a gate that runs part of the program on every other call (``global N; N = N + 1; if N % 2 == 1: pass
  else: ...``, or ``if not N % 2: ...`` once reduced; the generator's way to make the second call differ) is read
  as what it gates: a bug seen on the second call is the bug seen on the first, and a reduction cannot drop the
  gate (the signature says which call).
- one exception to the shape: a reduced repro that makes one of torch's global-state context managers
  (``no_grad``/``enable_grad``/``set_grad_enabled``, ``inference_mode``, ``autocast``) and does *not* enter it where
  it makes it (not a ``with`` item, not a decorator), with a graph break reachable from ``entry`` (a break call,
  or one its reduction's re-checks saw the target take: ``# graph-breaks:``) or the object
  escaping the call (into the effect log or another container, an attribute, a global, ``entry``'s return value: the
  compiler must rebuild it afterwards), is named by that state alone (``state-object:grad``). A reduction keeps such
  an object only because the bug needs it alive across the break, and the compiler code at fault is the one that
  carries an un-entered mode object over a break; the rest of the program (entered later or never, passed to a
  callee, under which outer mode) is what the generator happened to wrap it in, and reductions of one such bug end
  in different shapes. Only for a reduction that reached its fixpoint: a repro cut short may keep a mode object the
  bug does not need. The rule reads the program whole, its helper modules' code included (``with_helper_modules``):
  where the object is made and the break is reached is the generator's choice too.

``benchmarks/rootcause.py`` measures the rule on hand-labeled findings (buckets per root cause, wrong merges).
"""

from __future__ import annotations

import ast
import copy
import hashlib

from fuzz.program import families
from oracle._programfile import EFFECT_LOG, OBSERVERS, writes_effect_log

__all__ = ["GENERIC_CRASHES", "PASS_THROUGH_FRAMES", "SELF_CHECKS", "STATE_CONTEXTS", "breaks_unseen", "pins_bug", "root_cause", "behaviour_shape", "made_from_literals", "unentered_state_objects",
           "with_helper_modules"]

_KEEP_NAMES = frozenset({"torch", "entry", "make_inputs", "types", "contextlib", "functools", "self"})


# Compiler frames (as ``oracle._worker.compiler_frame`` names them) that run the program's own code and only pass
# on what it raised: an exception whose innermost compiler frame is one of them was raised by the program (or
# re-raised there with its traceback dropped), so the frame says nothing about which compiler code was wrong.
PASS_THROUGH_FRAMES = frozenset({
    "torch._dynamo.eval_frame:compile_wrapper",  # calls the compiled function: user code and resume functions
    "torch._dynamo.eval_frame:_fn",  # the same wrapper in older releases, and a disabled function's wrapper
    "engine._segments:__call__",  # our engine's runner of compiled segments
    # the wrappers of torch._dynamo.disable_nested_graph_breaks and of inlined hooks/context managers: they only call
    # the function they wrap (``return fn(*args)``, ``with cm: return fn(*args)``)
    "torch._dynamo.external_utils:inner",
})

# Compiler code the compiler runs *as the program's*: the resume function of a compiler module's function (the
# frame of a wrapper above, of a polyfill, that a break in a callee resumed: it calls the program's code again, so
# a break under ``disable_nested_graph_breaks`` is named by ``external_utils:torch_dynamo_resume``), and
# Dynamo's polyfills, Python stand-ins for builtins (``sum``, ``map``, ``functools.reduce``) that call the
# program's callbacks; torch 2.10 named a program's own ``raise`` in a ``map`` callback under ``sum`` by
# ``polyfills.functools:torch_dynamo_resume``. A frame of them passes on what the program raised, or raised what a
# builtin would on the values it was given: the code at fault computed those.
_RESUMED = "torch_dynamo_resume"  # oracle._worker's name for every resume function
_RUN_AS_PROGRAM = ("torch._dynamo.polyfills",)


def _passes_through(frame: str) -> bool:
    """Whether a signature's compiler frame (``module:function``) only ran the program's code (see above)."""
    module, _, function = frame.partition(":")
    return (frame in PASS_THROUGH_FRAMES or function == _RESUMED
            or any(module == m or module.startswith(m + ".") for m in _RUN_AS_PROGRAM))


# Crashes (``Type@frame``) raised by a compiler's check of its own work rather than by the code at fault: Dynamo
# asserts that the guards it just built pass on the frame they were built from ("Guard failed on the same frame
# it was created"), and any bug that makes a guard read something other than what tracing read trips it (a user
# ``__getattr__`` run twice, an object changed while guards are built, ...). Named by their reduced repro's shape.
# Where the failed guard reads a state that pins its bug, the worker names the frame with it
# (``guards:__init__[function_mode_stack]``, ``oracle._subjects``): such a signature is not here.
SELF_CHECKS = frozenset({
    "AssertionError@torch._dynamo.guards:__init__",
})
# Crashes whose exception type and frame are both generic: an error met while running traced ops on fake tensors,
# wrapped as TorchRuntimeError, and raised through Dynamo's helper that many callers use to give up
# (``exc:unimplemented``). On torch 2.11 two unrelated bugs crash so (a user TorchFunctionMode's numpy result
# traced as a tensor; a callee's break whose result is appended to a list), and a 2.11 campaign named a form of
# the second (the break under a contextmanager in the callee) as the first. Named by their reduced repro's shape,
# as self-checks are.
GENERIC_CRASHES = frozenset({
    "TorchRuntimeError@torch._dynamo.exc:unimplemented",
})
_NAMED_BY_SHAPE = SELF_CHECKS | GENERIC_CRASHES


def pins_bug(signature: str) -> bool:
    """Whether a finding's signature alone names its bug: a crash raised inside compiler code, whose innermost
    compiler frame (not a pass-through one) and exception type say where the compiler failed. A crash named by a
    pass-through frame or by none (``@program``), a compiler self-check (``SELF_CHECKS``) or a generic crash
    (``GENERIC_CRASHES``), a dead worker (``crash:died:``), a load failure and a hang do not: they are named by
    their reduced repro's shape, as mismatches are (see the module docstring)."""
    kind, _, rest = signature.partition(":")
    rest = rest.removeprefix("second_call:").removeprefix("third_call:")
    if kind != "crash" or rest.startswith(("died:", "load:")) or "@" not in rest or rest in _NAMED_BY_SHAPE:
        return False
    frame = rest.rpartition("@")[2]
    return frame not in ("", "program") and not _passes_through(frame)


def root_cause(signature: str, shape: str | None = None) -> str | None:
    """The root cause of a bucket with ``signature`` (``shape``: its reduced repro's ``behaviour_shape``): the
    signature itself where it pins the bug (``pins_bug``), else the kind of finding and the shape (None without
    one: not decided before a reduction)."""
    kind, _, rest = signature.partition(":")
    rest = rest.removeprefix("second_call:").removeprefix("third_call:")
    if pins_bug(signature):
        return f"{kind}:{rest}"
    return f"{kind}|{shape}" if shape else None


def _is_observation(node: ast.stmt) -> bool:
    """A write to the effect log (``writes_effect_log``), or the definitions of the effect log and its
    helpers."""
    if writes_effect_log(node):
        return True
    if isinstance(node, ast.FunctionDef) and node.name in OBSERVERS:
        return True
    return isinstance(node, ast.Assign) and all(isinstance(t, ast.Name) and t.id in (EFFECT_LOG, "WANTS_GRAD")
                                                for t in node.targets)


class _Normalize(ast.NodeTransformer):
    def generic_visit(self, node):
        for field in ("body", "orelse", "finalbody"):
            stmts = getattr(node, field, None)
            if isinstance(stmts, list) and stmts and isinstance(stmts[0], ast.stmt):
                kept = [s for s in stmts if not _is_observation(s)]
                setattr(node, field, kept or ([ast.Pass()] if field == "body" else []))
        return super().generic_visit(node)

    def visit_Call(self, node: ast.Call):
        if made_from_literals(node):  # a tensor made from literals is data, as an input is
            return ast.Name("N", ast.Load())
        # Helper modules are sources run by exec/compile: their code is part of the shape, not a string constant.
        if isinstance(node.func, ast.Name) and node.func.id in ("exec", "compile") and node.args:
            first = node.args[0]
            if isinstance(first, ast.Constant) and isinstance(first.value, str):
                try:
                    node.args[0] = ast.Constant(_dump(ast.parse(first.value)))
                    node.args[1:] = []
                    return node
                except SyntaxError:
                    pass
        return self.generic_visit(node)

    def visit_Name(self, node: ast.Name):
        keep = node.id in _KEEP_NAMES or node.id in families.keep_names()
        return ast.Name(node.id if keep else "N", node.ctx)

    def visit_arg(self, node: ast.arg):
        node.arg, node.annotation = "A", None
        return node

    def visit_FunctionDef(self, node: ast.FunctionDef):
        if node.name not in ("entry", "make_inputs"):
            node.name = "F"
        return self.generic_visit(node)

    def visit_ClassDef(self, node: ast.ClassDef):
        node.name = "C"
        return self.generic_visit(node)

    def visit_Constant(self, node: ast.Constant):
        if isinstance(node.value, bool) or node.value is None or node.value is Ellipsis:
            return node
        if isinstance(node.value, str) and node.value.startswith("Module("):
            return node  # an already normalized helper-module source (see visit_Call)
        return ast.Constant(type(node.value).__name__)


_TENSOR_FACTORIES = frozenset({"randn", "rand", "ones", "zeros", "empty", "full", "randint", "tensor", "arange"})


def made_from_literals(node: ast.AST) -> bool:
    """``torch.ones(3, 4)``, ``torch.tensor([1.0, 2.0])``, ``torch.full((), 0.5, dtype=torch.float64)``: a
    tensor factory whose arguments are literals (or torch names such as a dtype)."""
    if not (isinstance(node, ast.Call) and _dotted(node.func)[:1] == ["torch"]
            and _dotted(node.func)[-1] in _TENSOR_FACTORIES and len(_dotted(node.func)) == 2):
        return False
    for arg in [*node.args, *(k.value for k in node.keywords)]:
        for part in ast.walk(arg):
            if not isinstance(part, ast.Constant | ast.Tuple | ast.List | ast.UnaryOp | ast.unaryop
                              | ast.expr_context | ast.Attribute | ast.Name):
                return False
            if isinstance(part, ast.Name) and part.id != "torch":
                return False
    return True


def _dump(tree: ast.AST) -> str:
    return ast.dump(_Normalize().visit(tree))


def _code(module: ast.Module) -> ast.Module:
    """The module without what is data rather than behaviour: ``make_inputs`` (the inputs a reduction kept, a
    seeded ``randn`` or none, are not the bug), ``entry``'s parameters and its last ``return``; and with its
    functions and classes in one order (by their normalized text), since which helper a generator wrote first is
    not the bug either."""
    body = [s for s in module.body if not (isinstance(s, ast.FunctionDef) and s.name == "make_inputs")]
    for entry in (s for s in body if isinstance(s, ast.FunctionDef) and s.name == "entry"):
        # what entry takes and returns is observed, like the effect log: inputs and the value returned make a
        # symptom visible (a leaked grad mode as the output's requires_grad), they are not the behaviour
        entry.args = ast.arguments(posonlyargs=[], args=[], kwonlyargs=[], kw_defaults=[], defaults=[])
        # inputs made where entry starts (``x = torch.ones(3)``, as a reduction may leave them) are inputs still
        while len(entry.body) > 1 and isinstance(entry.body[0], ast.Assign) and made_from_literals(entry.body[0].value):
            entry.body.pop(0)
        if len(entry.body) > 1 and isinstance(entry.body[-1], ast.Return):
            entry.body.pop()
    definitions = sorted((s for s in body if isinstance(s, ast.FunctionDef | ast.ClassDef)), key=_dump_copy)
    others = iter(definitions)
    module.body = [next(others) if isinstance(s, ast.FunctionDef | ast.ClassDef) else s for s in body]
    return module


def _dump_copy(node: ast.AST) -> str:
    return _dump(copy.deepcopy(node))


def behaviour_shape(source: str, minimal: bool = True) -> str:
    """What a program does, without what it only observes (see the module docstring): ``state-object:FAMILY``
    for an un-entered global-state context manager alive across a break, else a short hash of its shape.

    ``minimal=False`` for a reduction cut short: such a repro may still hold a mode object the bug does not need,
    so it is named by its shape only (a new bug is never hidden under a known family by leftovers)."""
    from oracle import ProgramFile

    pf = ProgramFile.parse(source)
    code = pf.header + pf.code
    try:
        tree = ast.parse(code)
    except SyntaxError:
        return hashlib.sha1(code.encode()).hexdigest()[:16]
    whole = with_helper_modules(tree)
    families = unentered_state_objects(whole)
    if minimal and families and (_observed_break(pf) or _breaks_from_entry(whole) or _state_object_escapes(whole)):
        return "state-object:" + "+".join(sorted(families))
    return hashlib.sha1(_dump(_code(_ungated(tree))).encode()).hexdigest()[:16]


# torch's global-state context managers, by the state they set (the registry's ctx pieces with a state part):
# the state-object rule here, the reducer's context-manager decorators
STATE_CONTEXTS = {ast.parse(p.template, mode="eval").body.func.attr: state
                  for p, state in families.parts("ctx", "state")}
# calls that break the graph: the generator's break calls (break pieces' call part), and breakpoint
_BREAK_CALLS = frozenset({"breakpoint"} | {call for _, call in families.parts("break", "call")})
_DISABLERS = frozenset({"disable", "_disable_dynamo"})


def _dotted(node: ast.expr) -> list[str]:
    parts = []
    while isinstance(node, ast.Attribute):
        parts.append(node.attr)
        node = node.value
    if isinstance(node, ast.Name):
        parts.append(node.id)
    return parts[::-1]


def _called(node: ast.expr) -> ast.expr:
    """A decorator or with item as written: ``torch.no_grad()`` and ``torch.no_grad`` both name the class."""
    return node.func if isinstance(node, ast.Call) else node


def unentered_state_objects(tree: ast.AST) -> set[str]:
    """The state families (``STATE_CONTEXTS``) of torch context managers the program makes and keeps without
    entering them there: not a ``with`` item, not a decorator, not called at once (``torch.no_grad()(f)``), not a
    statement of its own (``torch.set_grad_enabled(False)`` used as a function), and not entered by hand later
    (``cm.__enter__()``)."""
    entered_at_once: set[int] = set()  # also dropped at once: a statement that is only the call
    entered_names: set[str] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Expr):
            entered_at_once.add(id(node.value))
        elif isinstance(node, ast.With | ast.AsyncWith):
            entered_at_once.update(id(item.context_expr) for item in node.items)
        elif isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef | ast.ClassDef):
            entered_at_once.update(id(d) for d in node.decorator_list)
        elif isinstance(node, ast.Call):
            entered_at_once.add(id(node.func))
            path = _dotted(node.func)
            if len(path) == 2 and path[1] == "__enter__":
                entered_names.add(path[0])
    assigned: dict[int, str] = {}  # a call's result stored into a plain name: that name
    for node in ast.walk(tree):
        if isinstance(node, ast.Assign) and isinstance(node.value, ast.Call):
            assigned.update((id(node.value), t.id) for t in node.targets if isinstance(t, ast.Name))
    families = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Call) and id(node) not in entered_at_once:
            path = _dotted(node.func)
            if path and path[0] == "torch" and path[-1] in STATE_CONTEXTS and assigned.get(id(node)) not in entered_names:
                families.add(STATE_CONTEXTS[path[-1]])
    return families


def _state_object_escapes(tree: ast.Module) -> bool:
    """Whether an un-entered state object (a ``torch.<state context>(...)`` call, or a name bound to one) is put
    where it outlives the call: an argument of an ``append``/``add``/``extend`` or of ``_effect``, a value stored
    into an attribute, an item or a global, or ``entry``'s return value."""
    made = {id(n) for n in ast.walk(tree) if isinstance(n, ast.Call) and _dotted(n.func)[:1] == ["torch"]
            and _dotted(n.func)[-1] in STATE_CONTEXTS}
    bound = {t.id for n in ast.walk(tree) if isinstance(n, ast.Assign) and id(n.value) in made
             for t in n.targets if isinstance(t, ast.Name)}
    declared = {name for n in ast.walk(tree) if isinstance(n, ast.Global) for name in n.names}
    sites: list[ast.AST] = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Call) and (_dotted(node.func) or [""])[-1] in ("append", "add", "extend", *OBSERVERS):
            sites.extend(node.args)
        elif isinstance(node, ast.Assign) and any(
                isinstance(t, ast.Attribute | ast.Subscript) or (isinstance(t, ast.Name) and t.id in declared)
                for t in node.targets):
            sites.append(node.value)
        elif isinstance(node, ast.FunctionDef) and node.name == "entry":
            sites.extend(r.value for r in ast.walk(node) if isinstance(r, ast.Return) and r.value is not None)
    return any(id(n) in made or (isinstance(n, ast.Name) and n.id in bound) for site in sites for n in ast.walk(site))


def _parity_test(test: ast.expr) -> str | None:
    """The counter of ``N % 2``, ``N % 2 == k`` or ``N % 2 != k`` (k an int), or of ``not`` one of those; None
    for any other test."""
    if isinstance(test, ast.UnaryOp) and isinstance(test.op, ast.Not):
        test = test.operand
    if isinstance(test, ast.Compare) and len(test.ops) == 1 and isinstance(test.ops[0], ast.Eq | ast.NotEq) and (
            isinstance(test.comparators[0], ast.Constant) and type(test.comparators[0].value) is int):
        test = test.left
    if (isinstance(test, ast.BinOp) and isinstance(test.op, ast.Mod) and isinstance(test.left, ast.Name)
            and isinstance(test.right, ast.Constant) and test.right.value == 2):
        return test.left.id
    return None


def _only_pass(body: list[ast.stmt]) -> bool:
    return all(isinstance(s, ast.Pass) for s in body)


def _ungated(module: ast.Module) -> ast.Module:
    """``module`` with every-other-call gates on a global counter replaced by what they gate (see the module
    docstring): only a counter whose every mention is its module-level ``N = <int>``, ``global N``, ``N = N + 1``
    (or ``N += 1``) and gate tests, and only gates with one branch that does nothing."""
    counters = {t.id for s in module.body if isinstance(s, ast.Assign) and isinstance(s.value, ast.Constant)
                and type(s.value.value) is int for t in s.targets if isinstance(t, ast.Name)}
    gates = [n for n in ast.walk(module) if isinstance(n, ast.If) and _parity_test(n.test) in counters
             and (_only_pass(n.body) or _only_pass(n.orelse)) and not (_only_pass(n.body) and _only_pass(n.orelse))]
    names = {_parity_test(g.test) for g in gates}
    if not names:
        return module

    def counting(stmt: ast.AST, name: str) -> bool:
        """``N = <int>``, ``N = N + <int>`` or ``N += <int>``."""
        if isinstance(stmt, ast.AugAssign):
            target, value = stmt.target, stmt.value
        elif isinstance(stmt, ast.Assign) and len(stmt.targets) == 1:
            target, value = stmt.targets[0], stmt.value
            if isinstance(value, ast.BinOp) and isinstance(value.op, ast.Add) and isinstance(value.left, ast.Name) \
                    and value.left.id == name:
                value = value.right
        else:
            return False
        return (isinstance(target, ast.Name) and target.id == name and isinstance(value, ast.Constant)
                and type(value.value) is int)

    for name in list(names):  # every mention of the counter must be one of the gate's own
        allowed: set[int] = set()
        for node in ast.walk(module):
            if counting(node, name) or (isinstance(node, ast.If) and node in gates and _parity_test(node.test) == name):
                allowed.update(id(n) for n in ast.walk(node.test if isinstance(node, ast.If) else node))
            elif isinstance(node, ast.Global) and name in node.names:
                allowed.add(id(node))
        if any(isinstance(n, ast.Name) and n.id == name and id(n) not in allowed for n in ast.walk(module)):
            names.discard(name)
    if not names:
        return module
    module = copy.deepcopy(module)
    for node in ast.walk(module):
        for field in ("body", "orelse", "finalbody"):
            stmts = getattr(node, field, None)
            if not (isinstance(stmts, list) and stmts and isinstance(stmts[0], ast.stmt)):
                continue
            kept: list[ast.stmt] = []
            for stmt in stmts:
                if isinstance(stmt, ast.If) and _parity_test(stmt.test) in names and (
                        _only_pass(stmt.body) != _only_pass(stmt.orelse)):
                    kept.extend(stmt.orelse if _only_pass(stmt.body) else stmt.body)
                elif any(counting(stmt, n) for n in names):
                    continue
                elif isinstance(stmt, ast.Global) and set(stmt.names) <= names:
                    continue
                else:
                    kept.append(stmt)
            setattr(node, field, kept or ([ast.Pass()] if field == "body" else []))
    return module


def _observed_break(pf) -> bool:
    """The repro's ``# graph-breaks:`` header: its reduction's re-checks saw the target break the graph (written
    where the code names no break call, ``breaks_unseen``)."""
    text = pf.get("graph-breaks") or "0"
    return text.isdigit() and int(text) > 0


def breaks_unseen(source: str) -> bool:
    """Whether the state-object rule needs to be told that the target broke the graph running ``source``: it
    makes an un-entered state object that does not escape, and names no break call reachable from ``entry``
    (the break is a call the compiler cannot trace, ``register_forward_hook`` on 2.13, which no list holds).
    The reducer's re-checks then record what they saw (``# graph-breaks: N``)."""
    from oracle import ProgramFile

    pf = ProgramFile.parse(source)
    try:
        tree = with_helper_modules(ast.parse(pf.header + pf.code))
    except SyntaxError:
        return False
    return bool(unentered_state_objects(tree)) and not _breaks_from_entry(tree) and not _state_object_escapes(tree)


def with_helper_modules(tree: ast.Module) -> ast.Module:
    """``tree`` and the code of its helper modules as one module: the bodies of the sources it runs as code
    (as the reducer reads them, ``fuzz.reduce._tree.attach_helper_modules``) after its own, recursively. The
    state-object rule reads a program whole: the object may be made, and the break reached, in a helper module's
    function (linked by ``X.__dict__.update``, called as ``X.f``, followed by name). ``tree`` gets the parsed
    sources hung on its string nodes."""
    from fuzz.reduce._tree import attach_helper_modules, iter_nodes  # here: the reducer imports this module

    attach_helper_modules(tree)
    body = list(tree.body)
    for node in iter_nodes(tree):
        nested = getattr(node, "ngb_module", None)
        if nested is not None:
            body.extend(nested.body)
    return ast.Module(body=body, type_ignores=[])


def _breaks_from_entry(tree: ast.Module) -> bool:
    """Whether a graph break (``_BREAK_CALLS``, or a call to a function disabled for the compiler) is reachable
    from ``entry`` through the functions and classes it names (a class named: all of its methods)."""
    functions: dict[str, list[ast.AST]] = {}  # a name defined more than once (in two modules): every definition
    for node in ast.walk(tree):
        if isinstance(node, ast.FunctionDef | ast.ClassDef):  # a class named: its methods
            functions.setdefault(node.name, []).append(node)
    disabled = {name for name, fns in functions.items() for fn in fns if isinstance(fn, ast.FunctionDef)
                and any((_dotted(_called(d)) or [""])[-1] in _DISABLERS for d in fn.decorator_list)}
    seen, todo = set(), ["entry"]
    while todo:
        name = todo.pop()
        if name in seen or name not in functions:
            continue
        seen.add(name)
        for node in (n for fn in functions[name] for n in ast.walk(fn)):
            if isinstance(node, ast.Call):
                last = (_dotted(node.func) or [""])[-1]
                if last in _BREAK_CALLS or last in disabled:
                    return True
                todo.append(last)  # a method called by name: followed like a function
            elif isinstance(node, ast.Name):
                todo.append(node.id)
    return False
