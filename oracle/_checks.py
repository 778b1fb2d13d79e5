"""Short standalone checks, one small generator per signature class, that read like a hand-written bug report.

``python FILE`` with only torch installed: set nested graph breaks as the target has them, run the program
afresh for each side (``program()``: a new module and torch's defaults, as the oracle runs each side, so what
eager's call left is not there for the compiled one), make the inputs, call ``entry`` eagerly and through
``torch.compile(entry, backend=...)``, compare what the finding's signature is about (the outcome of a crash,
the returned value, the effect log, grad mode after the call), print both sides and ``MISMATCH``/``match``,
and exit 1 while the bug is there, 0 once fixed. A compiler crash where eager returns is the shortest: the two
calls, and the crash re-raised with its own traceback (exit 1). A comment says what the finding was. When the
values compared are plain data (``# compare: plain`` in the header: eager's value or effect log holds only
None, bools, ints, strings and bytes in lists and tuples), they are compared as printed, with no ``equal``
helper; otherwise ``# compare: tensors,containers,objects`` (some of them) says which branches the helper
needs. A second call that differs is checked by calling ``entry`` twice on each side. Signatures without a
short check (globals, gradients, inputs, a dying process, ``ok``) keep the generic footer
(``oracle._footer``), which observes everything; ``ngb-fuzz repro FILE`` shows the oracle's full observation
for any file. A finding of ngb-fuzz's own compiler (``engine``, ``engine-classic``, a fault switch) gets the
same check through ``engine.compile(entry, ...)``, which needs ngb-fuzz installed.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from oracle._configs import assignments
from oracle._programfile import FOOTER_BANNER, FOOTER_MARKER
from oracle._slow import LOAD_ALLOWANCE, SLOW_FLOOR_S, SLOW_RATIO
from oracle._targets import parse_target

if TYPE_CHECKING:
    from oracle._observe import Observed

__all__ = ["HANG_CHECK_S", "PLAIN_SIGNATURES", "check_for", "compare_kinds"]

# (signature, compile, target, eager, compare)
_Generator = Callable[[str, str, str, str, str | None], list[str]]
_PLAIN_LEAVES = ("NoneType", "bool", "int", "str", "bytes")  # floats are not: -0.0 and 0.0 print apart


def _plain(observed: Observed) -> bool:
    """An observed value (``oracle._observe``) holding only plain leaves in lists and tuples: ``repr`` tells
    two such values apart exactly when the oracle does (types included, so ``True`` is not ``1``)."""
    if not isinstance(observed, tuple) or not observed:
        return False
    if observed[0] in _PLAIN_LEAVES:
        return True
    return observed[0] in ("list", "tuple") and len(observed) == 2 and all(_plain(v) for v in observed[1])


# the signature classes whose check compares values
PLAIN_SIGNATURES = ("mismatch:value:", "mismatch:effects:")
# what an ``equal`` helper may need branches for, in this order
_KINDS = ("tensors", "containers", "sets", "deques", "objects")


def _kinds(observed: Observed, found: set[str]) -> None:
    """The kinds of values in an observed value (``oracle._observe``) that ``equal`` needs branches for."""
    if not isinstance(observed, tuple) or not observed or observed[0] in _PLAIN_LEAVES + ("float", "complex"):
        return
    tag = observed[0]
    if tag == "tensor":
        found.add("tensors")
    elif tag in ("object", "nn.Module"):  # compared by their fields: a dict, which holds tensors for a module
        found.update(("objects", "containers", *(("tensors",) if tag == "nn.Module" else ())))
        _kinds(observed[-1], found)
    elif tag == "deque":  # its items, and its maxlen
        found.update(("containers", "deques"))
        for item in observed[1]:
            _kinds(item, found)
    elif len(observed) == 2 and isinstance(observed[1], list):  # lists, tuples, dicts, sets, namedtuples
        found.update(("containers", *(("sets",) if tag in ("set", "frozenset") else ())))
        for child in observed[1]:
            for item in (child if tag == "dict" else (child,)):
                _kinds(item, found)
    elif tag == "size":
        found.add("containers")
    elif tag != "torch":  # a function, class, module, opaque object ...: compared as the full helper would
        found.update(("objects", "containers"))


def compare_kinds(signature: str, eager_call: dict[str, Any]) -> str | None:
    """How the short check for ``signature`` compares, given eager's first call record (the worker's): the
    returned value for a value mismatch, the effect log for an effects mismatch. ``plain`` (only plain leaves
    in lists and tuples: compared as printed), else the kinds its ``equal`` helper needs branches for
    (``tensors``, ``containers``, ``objects``, comma-separated; ``scalars`` for a float); None for a signature
    whose check compares no values, or a value mismatch where eager raised."""
    if signature.startswith("mismatch:value:"):
        if eager_call.get("exception") is not None:
            return None
        observed = eager_call.get("value")
    elif signature.startswith("mismatch:effects:"):
        observed = eager_call.get("effects")
    else:
        return None
    if _plain(observed):
        return "plain"
    found: set[str] = set()
    _kinds(observed, found)
    return ",".join(k for k in _KINDS if k in found) or "scalars"


def _same(target: str, kinds: str | None = None) -> list[str]:
    """``equal(a, b)``: what the oracle calls equal (exact for backend=eager, else float tolerances), with the
    branches for ``kinds`` (``compare_kinds``; None: all). Types are compared by name first, as the oracle
    observes them: each side runs the program afresh (``_program``), so a class, function or enum of the
    program is another object on each side. A value of a kind eager did not have fails that test, so it never
    reaches a missing branch as equal. Dicts compare their items in order, as the oracle's do."""
    need = set(_KINDS) if kinds is None else set(kinds.split(","))
    if not need & set(_KINDS):  # floats and complex numbers only: no program classes to tell apart by name
        return ["    def equal(a, b):  # same types, NaN equal to NaN",
                "        return type(a) is type(b) and (a == b or a != a and b != b)", ""]
    tensors = ("bool(((a == b) | (a != a) & (b != b)).all())" if _backend(target) == "eager"
               else "torch.allclose(a.double(), b.double(), rtol=1e-4, atol=1e-5, equal_nan=True)")
    said = ["same types (by name: each side has its own classes)"
            + (" and shapes, tensors equal elementwise" if "tensors" in need else ""),
            *(["objects by fields"] if "objects" in need else []), "NaN equal to NaN"]
    return [
        f"    def equal(a, b):  # {', '.join(said)}",
        *(  # as the oracle observes a tensor: compiled code may give a Parameter's value as either class
            ["        tensor = {torch.Tensor, torch.nn.Parameter}  # a Parameter counts as a plain Tensor",
             "        if type(a).__qualname__ != type(b).__qualname__ and not {type(a), type(b)} <= tensor:"]
            if "tensors" in need
            else ["        if type(a).__qualname__ != type(b).__qualname__:"]
        ),
        "            return False",
        *(
            [
                "        if isinstance(a, torch.Tensor):  # each side's own subclass: as plain tensors",
                "            a, b = a.as_subclass(torch.Tensor), b.as_subclass(torch.Tensor)",
                "            return (a.dtype, a.shape, a.requires_grad) =="
                f" (b.dtype, b.shape, b.requires_grad) and {tensors}",
            ]
            if "tensors" in need
            else []
        ),
        *(
            [
                "        if isinstance(a, (set, frozenset)):  # members in no order of theirs: by their repr",
                "            a, b = sorted(a, key=repr), sorted(b, key=repr)",
            ]
            if "sets" in need
            else []
        ),
        *(
            [
                "        if isinstance(a, collections.deque):  # its maxlen, then its items",
                "            a, b = (a.maxlen, *a), (b.maxlen, *b)",
            ]
            if "deques" in need
            else []
        ),
        *(
            [
                "        if isinstance(a, (list, tuple, dict)):  # a dict's items in order",
                "            return len(a) == len(b) and all(map(equal, *((a.items(), b.items())"
                " if isinstance(a, dict) else (a, b))))",
            ]
            if "containers" in need
            else []
        ),
        *(
            [
                "        if isinstance(a, (type, type(equal), type(sys))):"
                "  # a class, function or module: by name",
                '            return getattr(a, "__qualname__", a.__name__) =='
                ' getattr(b, "__qualname__", b.__name__)',
                '        if hasattr(a, "__dict__"):  # an object (an enum member too)',
                "            return equal(vars(a), vars(b))",
            ]
            if "objects" in need
            else []
        ),
        "        return a == b or a != a and b != b",
        "",
    ]


def _program(helpers: bool) -> list[str]:
    """``program()``: the program above the marker run again in a new module, with torch's global defaults
    put back first, as the oracle runs each side (``oracle._worker``: a fresh module per run, torch state
    restored after each). So neither side sees what the other's run, or the file's own run as ``__main__``,
    left behind: a global created or changed by a call, an appended list, a helper module's state. The module
    goes into ``sys.modules`` (with the ``ngb_*`` helper modules it made, if any), as a user's module is."""
    register = (
        ["        sys.modules.update({m.__name__: m for m in [mod, *vars(mod).values()]",
         '                            if isinstance(m, type(sys)) and m.__name__.startswith("ngb_")})']
        if helpers
        else ["        sys.modules[mod.__name__] = mod  # importable, as a user's module is"]
    )
    return [
        "    def program():  # the program above run afresh: each side starts from new globals"
        " (as in ngb-fuzz)",
        "        torch.set_grad_enabled(True)  # and from torch's defaults",
        "        torch.set_default_dtype(torch.float32)",
        '        mod = type(sys)("ngb_program")',
        f'        source = open(__file__, encoding="utf-8-sig").read().split("{FOOTER_MARKER}")[0]',
        '        exec(compile(source, __file__, "exec"), vars(mod))',
        *register,
        "        return mod",
        "",
    ]


# the first side's fresh run of the program (the second side's: ``mod = program()`` again)
_AFRESH = ["    mod = program()  # eager and torch.compile each run the program afresh"]


def _call(expr: str, eager: str) -> list[str]:
    """A call whose exception, if any, is not what the check is about (eager raised one too)."""
    if eager == "returned":
        return [f"    {expr}"]
    return [
        "    with contextlib.suppress(Exception):"
        "  # eager raises here too; what it leaves behind is compared",
        f"        {expr}",
    ]


def _outcome(signature: str, compiled: str, target: str, eager: str, compare: str | None) -> list[str]:
    """A crash (or another exception): what each side raises, by type."""
    second = ":second_call" in signature
    raised = signature.split("@")[0].split(":")[-1] if signature.startswith("crash") else "another exception"
    where = signature.partition("@")[2].replace(":", ".") or "the compiler"
    call = ["        for _ in range(2):  # the second call runs the cached code",
            "            fn(<ARGS>)"] if second else ["        fn(<ARGS>)"]
    return [
        "    def outcome(compiled):"
        "  # 'returned', or the type (a group's member types, the cause's) and message raised",
        "        mod = program()",
        f"        fn = {compiled} if compiled else mod.entry",
        "        try:",
        *["    " + ln for ln in call],
        "        except Exception as e:",
        '            members = [type(m).__name__ for m in getattr(e, "exceptions", ())]',
        '            cause = "" if e.__cause__ is None else f" from {type(e.__cause__).__name__}"',
        "            return f\"{type(e).__name__}{members if members else ''}{cause}: {str(e)[:200]}\"",
        '        return "returned"',
        "",
        "    expected, actual = outcome(False), outcome(True)",
        f"    # eager {eager}; torch.compile raised {raised} (in {where})"
        + (" on the second call" if second else ""),
        '    print(f"eager:         {expected}\\ntorch.compile: {actual}")',
        '    same = actual.split(":")[0] == expected.split(":")[0]',
    ]


def _crash(signature: str, compiled: str, target: str, eager: str, compare: str | None) -> list[str]:
    """The compiler crashes on the first call where eager returns: the bug report's two calls, and the crash's
    own traceback (re-raised, which exits 1) under a MISMATCH line."""
    raised = signature.split("@")[0].split(":")[-1]
    where = signature.partition("@")[2].replace(":", ".") or "the compiler"
    return [
        *_AFRESH,
        "    mod.entry(<ARGS>)  # eager returns",
        "    mod = program()",
        f"    try:  # torch.compile raised {raised} (in {where})",
        f"        {compiled}(<ARGS>)",
        "    except Exception:",
        f"        print(f\"MISMATCH: eager returns, torch.compile(backend='{_backend(target)}') raises, "
        "torch {torch.__version__}\")",
        "        raise",
    ]


def _value(signature: str, compiled: str, target: str, eager: str, compare: str | None) -> list[str]:
    """A returned value that differs (values, dtype, shape, requires_grad, ...)."""
    plain = compare == "plain"
    return [*([] if plain else _same(target, compare)),
            *_AFRESH,
            "    expected = mod.entry(<ARGS>)",
            "    mod = program()",
            f"    actual = {compiled}(<ARGS>)",
            f"    # eager and torch.compile return different values ({signature})",
            "    print(f\"eager:         {expected!r}\\ntorch.compile: {actual!r}\")",
            "    same = repr(actual) == repr(expected)" if plain else "    same = equal(actual, expected)"]


def _effects(signature: str, compiled: str, target: str, eager: str, compare: str | None) -> list[str]:
    """The effect log (EFFECTS, appended to by the program as it runs) differs."""
    plain = compare == "plain"
    return [
        *([] if plain else _same(target, compare)),
        *_AFRESH,
        "    first = len(mod.EFFECTS)  # what the call logs, not what loading the program did",
        *_call("mod.entry(<ARGS>)", eager),
        "    expected = mod.EFFECTS[first:]",
        "    mod = program()",
        "    first = len(mod.EFFECTS)",
        *_call(f"{compiled}(<ARGS>)", eager),
        "    actual = mod.EFFECTS[first:]",
        f"    # the program's side effects (EFFECTS) differ between eager and torch.compile ({signature})",
        '    print(f"eager:         {expected}\\ntorch.compile: {actual}")',
        "    same = repr(actual) == repr(expected)" if plain else "    same = equal(actual, expected)",
    ]


def _grad_mode(signature: str, compiled: str, target: str, eager: str, compare: str | None) -> list[str]:
    """Grad mode after the call differs: a context manager's state leaked out of (or into) the compiled
    code."""
    return [*_AFRESH,
            *_call("mod.entry(<ARGS>)", eager),
            "    expected = torch.is_grad_enabled()",
            "    mod = program()  # grad mode back at the default too",
            *_call(f"{compiled}(<ARGS>)", eager),
            "    actual = torch.is_grad_enabled()",
            "    # grad mode after the call: torch.compile leaves it other than eager does",
            "    print(f\"grad enabled after the call: eager {expected}, torch.compile {actual}\")",
            "    same = actual == expected"]


HANG_CHECK_S = 60  # how long the short check of a hang waits for the compiled call (eager returns at once)


# what a check's alarm raises: a BaseException, which the compiler's own ``except Exception`` lets through
_LATE = [
    "    class Late(BaseException):  # not an Exception: the compiler's handlers do not catch it",
    "        pass",
    "",
    "    def late(*_):",
    "        raise Late",
    "",
]


def _hang(signature: str, compiled: str, target: str, eager: str, compare: str | None) -> list[str]:
    """The compiled call does not return where eager does: eager's call, then the compiled one under an alarm
    of ``HANG_CHECK_S`` seconds (SIGALRM: where there is none it waits, as the bug does). The alarm raises a
    ``BaseException``, which the compiler's own ``except Exception`` handlers let through."""
    return [
        "    import signal",
        "",
        *_LATE,
        *_AFRESH,
        *_call("mod.entry(<ARGS>)", eager),
        "    mod = program()",
        '    if hasattr(signal, "SIGALRM"):',
        "        signal.signal(signal.SIGALRM, late)",
        f"        signal.alarm({HANG_CHECK_S})",
        "    try:",
        *["    " + ln for ln in _call(f"{compiled}(<ARGS>)", eager)],
        "        same = True",
        "    except Late:",
        "        same = False",
        '    if hasattr(signal, "SIGALRM"):',
        "        signal.alarm(0)",
        "    # torch.compile never returns (a hang); eager does at once",
        f'    print("eager:         returned\\ntorch.compile: " + ("returned" if same else '
        f'"no result after {HANG_CHECK_S} s"))',
    ]


def _slow(signature: str, compiled: str, target: str, eager: str, compare: str | None) -> list[str]:
    """Compiling with nested graph breaks on takes ``SLOW_RATIO`` times as long as with them off, and
    ``SLOW_FLOOR_S`` at least (``oracle._slow``), in CPU seconds, which other programs on the machine do not
    add to: the program compiled and called afresh with them off, timed, then with them on under an alarm at
    that limit of CPU seconds (SIGPROF), and one at ``LOAD_ALLOWANCE`` times it on the clock."""
    return [
        "    import os",
        "    import signal",
        "",
        *_LATE,
        f"    torch.compile(lambda x: x + 1, backend={_backend(target)!r})(torch.ones(1))"
        "  # the compiler's one-time imports, not timed",
        "",
        "    def cpu():  # CPU seconds of this process and the compilers it ran",
        "        times = os.times()",
        "        return times.user + times.system + times.children_user + times.children_system",
        "",
        "    def timed(nested):  # CPU seconds to compile and call the program afresh, nested breaks on/off",
        "        torch._dynamo.reset()",
        "        torch._dynamo.config.nested_graph_breaks = nested",
        "        mod = program()",
        "        started = cpu()",
        *["    " + ln for ln in _call(f"{compiled}(<ARGS>)", eager)],
        "        return cpu() - started",
        "",
        "    off = timed(False)",
        f"    limit = max({SLOW_FLOOR_S}, {SLOW_RATIO} * off)",
        "    alarms = [(signal.SIGPROF, signal.ITIMER_PROF, limit),  # CPU seconds, and more on the clock",
        f"              (signal.SIGALRM, signal.ITIMER_REAL, {LOAD_ALLOWANCE} * limit)]"
        ' if hasattr(signal, "SIGPROF") else []',
        "    for sig, timer, seconds in alarms:",
        "        signal.signal(sig, late)",
        "        signal.setitimer(timer, seconds)",
        "    try:",
        "        on = timed(True)",
        "    except Late:",
        "        on = None",
        "    for sig, timer, seconds in alarms:",
        "        signal.setitimer(timer, 0)",
        f"    # torch.compile is {SLOW_RATIO:.0f} times as slow with nested graph breaks on as off, or more",
        '    print(f"nested graph breaks off: {off:.1f} CPU seconds\\nnested graph breaks on:  "',
        '          + (f"{on:.1f}" if on is not None else f"no result within {limit:.0f}") + " CPU seconds")',
        "    same = on is not None and on < limit",
    ]


# targets compiled by ngb-fuzz's engine (engine-classic: top frame only)
_ENGINES = ("engine", "engine-classic")


def _engine_call(kind: str, backend: str, fault: str | None) -> tuple[str, str]:
    """The engine's compile call for a target, and how the check's messages name it."""
    options = [
        *([] if kind == "engine" else ["nested=False"]),
        *([] if backend == "eager" else [f"backend={backend!r}"]),
        *([f"fault={fault!r}"] if fault and fault != "none" else []),
    ]
    name = f"engine.compile({', '.join(options)})"
    return f"engine.compile(mod.entry{''.join(', ' + o for o in options)})", name.replace("'", "")


_SECOND_CALL_ASPECTS = ("value", "exception", "effects", "torch_state")  # those a second-call check compares


def _second_call(signature: str, compiled: str, target: str, eager: str, compare: str | None) -> list[str]:
    """The second call differs: each side runs the program afresh (``program()``) and calls ``entry`` twice;
    what the second call did is compared."""
    aspect = signature.split(":")[2]
    state = aspect == "torch_state"  # a pair of bools, compared as they are
    return [
        *([] if state else _same(target)),
        "    def second_call(compiled):"
        "  # the program run afresh, entry called twice: what the second call did",
        "        mod = program()",
        '        log = vars(mod).get("EFFECTS", [])',
        f"        fn = {compiled} if compiled else mod.entry",
        "        for _ in range(2):",
        '            first, inputs = len(log), mod.make_inputs("cpu") if hasattr(mod, "make_inputs") else ()',
        "            try:",
        "                value, exception = fn(*inputs), None",
        "            except Exception as e:",
        '                value, exception = None, f"{type(e).__name__}: {str(e)[:200]}"',
        '        return {"value": value, "exception": exception, "effects": log[first:],',
        '                "torch_state": (torch.is_grad_enabled(), torch.is_inference_mode_enabled())}',
        "",
        f'    expected, actual = second_call(False)["{aspect}"], second_call(True)["{aspect}"]',
        f"    # eager and torch.compile differ in what the second call did ({signature})",
        '    print(f"eager:         {expected!r}\\ntorch.compile: {actual!r}")',
        "    same = actual == expected" if state else "    same = equal(actual, expected)",
    ]


def target_options(target: str) -> dict[str, str]:
    """A header's ``# target:`` options, defaults filled in (``parse_target``, its ``python=`` as written)."""
    return dict(parse_target(target, check_python=False).options)


def target_device(target: str) -> str:
    """A header's ``# target:`` device (``cpu`` unless it says ``device=cuda``)."""
    return parse_target(target, check_python=False).device


def on_device(check: str, device: str) -> str:
    """A standalone check whose inputs are made on ``device``: a CUDA finding's repro runs the program on the
    GPU, as the oracle did when it found it (made on the CPU, a bug of the CUDA path reads "match")."""
    return check if device == "cpu" else check.replace('mod.make_inputs("cpu"', f'mod.make_inputs("{device}"')


def _backend(target: str) -> str:
    return target_options(target).get("backend", "eager")


def _generator(signature: str, eager: str | None) -> _Generator | None:
    if ":third_call" in signature:
        return None  # inputs of other sizes on a third call: the generic footer makes all three calls
    if signature == "hang":
        return _hang
    if signature.startswith("slow:"):
        return _slow
    if signature.startswith(("crash:died", "crash:load", "crash:second_call:died")):
        return None  # the process dies or the program does not load: the generic footer reports it
    if (
        signature.startswith("crash:")
        and not signature.startswith("crash:second_call:")
        and eager == "returned"
    ):
        return _crash
    if signature.startswith(("crash:", "mismatch:exception:")):
        return _outcome
    if signature.startswith("mismatch:value:"):
        return _value
    if signature.startswith("mismatch:effects:"):
        return _effects
    if signature == "mismatch:torch_state:grad_enabled":
        return _grad_mode
    if signature.startswith("mismatch:second_call:") and signature.split(":")[2] in _SECOND_CALL_ASPECTS:
        return _second_call
    return None


def check_for(signature: str | None, target: str | None, eager: str | None = None,
              helpers: bool = False, imports_torch: bool = False, inputs: bool = True,
              compare: str | None = None) -> str | None:
    """The short check for a finding with ``signature`` on ``target`` (eager's outcome ``eager``, e.g.
    ``returned``/``raised:TypeError``, when known); None when its signature class has none. ``helpers``: the
    program makes ``ngb_*`` helper modules, which the check registers in ``sys.modules`` as a user's modules
    are (a module missing there is a known torch crash of its own, not the finding). ``imports_torch``: the
    program imports torch at the top, so the check does not again. ``inputs``: the program defines
    ``make_inputs`` (else ``entry`` is called with no arguments). ``compare``: how the values are compared
    (``compare_kinds``; a value it never gives: the full ``equal`` helper)."""
    if compare != "plain" and not set((compare or "?").split(",")) <= {*_KINDS, "scalars"}:
        compare = None
    generator = _generator(signature or "", eager)
    kind, _, _ = (target or "torch").partition(":")
    if generator is None or kind not in ("torch", *_ENGINES):
        return None
    parsed = parse_target(target or "torch", check_python=False)
    options = dict(parsed.options)
    backend = options.get("backend", "eager")
    ngb = options.get("ngb", "on") == "on"
    said = {"returned": "returned", None: "", "": ""}.get(
        eager, f"raised {eager.partition(':')[2]}" if eager else ""
    )
    dynamic = {"true": ", dynamic=True", "false": ", dynamic=False"}.get(options.get("dynamic", "auto"), "")
    compiled = f"torch.compile(mod.entry, backend=\"{backend}\"{dynamic})"
    body = generator(signature or "", compiled, target or "torch", said or "(see output)", compare)
    # the target's config= sets (oracle/_configs.py)
    flags = assignments(options.get("config", "none"), "    ")
    config = [f"    torch._dynamo.config.nested_graph_breaks = {ngb}", *flags]
    if kind in _ENGINES:  # ngb-fuzz's own compiler: the same check, through engine.compile
        engine_call, name = _engine_call(kind, backend, options.get("fault"))
        body = [ln.replace(compiled, engine_call).replace(f"torch.compile(backend='{backend}')", name)
                .replace("torch.compile", "engine.compile") for ln in body]
        config = []
    preamble = [
        *(
            ["    import engine  # ngb-fuzz's own compiler (pip install ngb-fuzz)"]
            if kind in _ENGINES
            else []
        ),
        *([f"    import {m}" for m in ("collections", "contextlib") if any(f"{m}." in ln for ln in body)]),
        *(["    import torch._inductor.config"] if any("torch._inductor." in ln for ln in config) else []),
        "    import sys",
        *([] if imports_torch else ["    import torch  # the program may not import it at the top"]),
    ]
    lines = [
        FOOTER_BANNER,
        "if __name__ == \"__main__\":",
        *preamble,
        "",
        *_program(helpers),
        *config,
        *body,
        *([f"    print(f\"match: eager vs torch.compile(backend='{backend}'), torch {{torch.__version__}}\")"]
          if generator is _crash else  # the crash re-raised exits 1; getting here is the fix
          [f"    print(f\"{{'match' if same else 'MISMATCH'}}: eager vs torch.compile(backend='{backend}'), "
           "torch {torch.__version__}\")",
           "    raise SystemExit(0 if same else 1)"]),
    ]
    if kind in _ENGINES:
        lines[-3:] = [ln.replace(f"torch.compile(backend='{backend}')", name) for ln in lines[-3:]]
    args = "*mod.make_inputs(\"cpu\")" if inputs else ""
    text = "\n".join(line.replace("<ARGS>", args) for line in lines) + "\n"
    return on_device(text, parsed.device)
