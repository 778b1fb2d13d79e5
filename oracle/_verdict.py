"""Verdicts and their signatures.

A signature is stable across runs and machines: verdict kind, what differed and the class of difference, and
for crashes the exception type and the innermost compiler frame — never addresses, paths, line numbers, values
or where in the program the difference showed. Together with the target spec it is the bucket key of a
finding.
"""

from __future__ import annotations

import dataclasses
import signal
from typing import Any

from ._compare import TOLERANCES, Difference, Tolerance, compare_calls
from ._targets import Target

__all__ = [
    "Verdict",
    "ProgramReport",
    "judge",
    "tolerance_for",
    "calls_for",
    "KINDS",
    "FINDING_KINDS",
    "LATER_CALLS",
]

KINDS = ("ok", "mismatch", "crash", "hang", "slow", "skip", "flaky")
FINDING_KINDS = ("mismatch", "crash", "hang", "slow")


@dataclasses.dataclass(frozen=True, slots=True)
class Verdict:
    kind: str  # one of KINDS
    what: str  # the aspect that differed ("value", "effects", ..., "second_call", "third_call") or ""
    signature: str
    detail: str = ""  # readable explanation / diff

    @property
    def is_finding(self) -> bool:
        return self.kind in FINDING_KINDS


@dataclasses.dataclass(frozen=True, slots=True)
class ProgramReport:
    verdicts: dict[str, Verdict]  # canonical target spec -> Verdict
    flaky: bool
    # canonical target spec -> {"graphs", "breaks", "recompiles", "frames_traced"}
    stats: dict[str, dict[str, Any]]
    seconds: float = 0.0
    # eager's first call: "returned" or "raised:<ExceptionType>" ("" when eager failed)
    eager_outcome: str = ""

    def findings(self) -> dict[str, Verdict]:
        return {spec: v for spec, v in self.verdicts.items() if v.is_finding}


def _signal_name(code: int) -> str:
    try:
        return signal.Signals(-code).name
    except ValueError:
        return f"exit{code}"


def judge(target: Target, eager: dict[str, Any], result: dict[str, Any]) -> Verdict:
    """The verdict for one target run against the (non-flaky) eager run.

    ``result`` is what the worker returned, or a runner marker: {"hang": seconds} or {"died": returncode,
    ...}.
    """
    if "hang" in result:
        return Verdict("hang", "", "hang", f"no result after {result['hang']:.0f}s; worker killed")
    if "died" in result:
        name = _signal_name(result["died"])
        return Verdict("crash", "", f"crash:died:{name}", f"worker died ({name})\n{result.get('stderr', '')}")
    # a config flag this torch lacks: a clean skip (check_available says so earlier)
    if "unsupported" in result:
        return Verdict("skip", "", "skip:unsupported", result["unsupported"])
    if "load_error" in result:
        etype = result["load_error"][0]
        return Verdict(
            "crash", "", f"crash:load:{etype}", f"program failed to load under target: {result['load_error']}"
        )
    tolerance = tolerance_for(target)
    for call, (ref, act) in enumerate(zip(eager["calls"], result["calls"])):
        if act["exception"] is not None and (ref["exception"] is None or _compiler_error(ref, act)):
            return _crash(call, act, ref["exception"])
    differences = compare_calls(eager["calls"], result["calls"], tolerance)
    if not differences:
        return Verdict("ok", "", "ok")
    first = differences[0]
    what = first.aspect if first.call == 0 else LATER_CALLS[first.call]
    signature = f"mismatch:{what}:{first.cls}" if first.call == 0 else f"mismatch:{what}:{first.aspect}"
    return Verdict("mismatch", what, signature, _describe(differences))


# What a difference on a later call is named in signatures: the second call runs the cached code, the third
# one (on inputs of other sizes, when the program has them) a recompile or the dynamic-shape graph.
LATER_CALLS = {1: "second_call", 2: "third_call"}


def calls_for(signature: str | None) -> int:
    """How many calls a check must make to see a finding with ``signature`` (None: all three)."""
    if signature is None or ":third_call" in signature:
        return 3
    return 2 if ":second_call" in signature else 1


def tolerance_for(target: Target) -> Tolerance | None:
    """Per-dtype (rtol, atol) a target's results are compared with; None: bitwise (``Target.exact``)."""
    return (
        None
        if target.exact
        else TOLERANCES.get(dict(target.options).get("backend", ""), TOLERANCES["inductor"])
    )


def _compiler_error(ref: dict[str, Any], act: dict[str, Any]) -> bool:
    """The target raised an error of the compiler's own where eager raised something else: one of the
    compiler's exception types, or any type raised by the compiler's code (a builtin AssertionError of
    Dynamo's own checks, ``raised_in_compiler``), not by the program; or an error of the type eager raised,
    but raised by the compiler's code where eager's was not (eager's ``AssertionError`` of torch's config
    patching, re-entered by a recursive ``disable_nested_graph_breaks`` function, against Dynamo's own
    "multiple exits?" assertion: two failures, not one with another message). With eager's message, it is what
    eager did, wherever raised.

    Same bucket as when eager raised nothing: a program that raises on purpose must not hide a compiler crash.
    """
    module = act.get("exception_module", "")
    in_compiler = bool(act.get("raised_in_compiler"))
    own = module.split(".")[0] in ("torch", "engine") or in_compiler
    if ref["exception"][0] != act["exception"][0]:
        return own
    return in_compiler and not ref.get("raised_in_compiler") and ref["exception"][1] != act["exception"][1]


def _crash(call: int, record: dict[str, Any], eager_exception: list[Any] | None) -> Verdict:
    etype, message = record["exception"][:2]  # a third item: groups and chained causes (oracle._observe)
    root = record.get("root_cause")
    kind = etype if not root or root == etype else f"{etype}/{root}"
    where = record.get("compiler_frame") or "program"
    prefix = "crash" if call == 0 else f"crash:{LATER_CALLS[call]}"
    eager = "eager did not" if eager_exception is None else f"eager raised {eager_exception[0]}"
    nth = ("first", "second", "third")[call]
    detail = f"{nth} call raised a compiler error where {eager}: {etype}: {message}"
    return Verdict(
        "crash", "exception" if call == 0 else LATER_CALLS[call], f"{prefix}:{kind}@{where}", detail
    )


def _describe(differences: list[Difference]) -> str:
    return "\n".join(d.describe() for d in differences[:6])
