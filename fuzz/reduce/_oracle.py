"""The reducer's oracle front end: keep the same verdict signature on one target, then re-check for real."""

from __future__ import annotations

import ast
import contextlib
import dataclasses
import sys
import threading
import time
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from typing import Any

from fuzz.reduce._driver import Clock, ReduceError, ReduceResult, reduce_ir, reduce_source
from fuzz.reduce._ends import ends_in
from fuzz.reduce._hang import HangTimeouts, smallest_confirmed
from fuzz.reduce._tree import code_lines
from fuzz.reduce.passes._focus import failure_names
from fuzz.triage.rootcause import breaks_unseen
from oracle import ProgramFile, _slow, set_header, with_footer
from oracle._slow import REDUCE_MARGIN, slow_limit, step_limit, twin, waits_out

__all__ = ["generator_ir", "oracle_predicate", "reduce_program", "with_header"]


def generator_ir(source: str):
    """The generator's IR for a file it made (``# found-by: ngb-fuzz run --seed S (program I)``), when
    regenerating (S, I) gives the same program text; else None. A campaign's programs are drawn with weights of
    their own (known-bug avoidance, ``--weight``, ``--bias``), written in their ``# weights:`` header, which the
    regeneration takes; without one, the ``--weight`` options of ``found-by`` or the catalog's."""
    parsed = ProgramFile.parse(source)
    found_by = parsed.found_by
    if found_by is None or found_by.seed is None or found_by.program is None or found_by.reduced:
        return None
    header = parsed.get("weights") or ""
    weights = {name: float(w) for name, _, w in (part.partition("=") for part in header.split())} if header \
        else dict(found_by.weights)
    if found_by.bias and not header:
        return None  # drawn with the weights of its moment, which only the header says
    try:
        from fuzz.program.features import GenerationConfig
        from fuzz.program.generate import generate_program

        program = generate_program(found_by.seed, found_by.program, *([GenerationConfig(weights)] if weights else []))
    except Exception:
        return None
    mine, theirs = ProgramFile.parse(source).code, ProgramFile.parse(program.source).code
    return program.ir if mine.strip() == theirs.strip() else None


# A slow compile's re-check in a fresh process is the oracle's full check with this horizon (``timeout``) and no
# longer repeat (``hang_recheck`` 1), not the campaign's hang horizon (60 s, then 3 times that): ``hang_rule`` gives
# the repeat the slow limit of the twin's cost wherever that is longer, so the verdict is the slow rule's all the
# same; only a compile that would have ended in a finding between the two horizons reads slow instead, and the
# reduction's let-finish step asked the original that. Measured on a 21-line 2.13 slow compile: 247 s a re-check
# against 36, which a campaign's last round had not had (its re-check was still waiting when the budget ended it).
SLOW_RECHECK_S = 2 * _slow.SLOW_FLOOR_S


def recheck_horizon(signature: str, timeout: float) -> dict:
    """``recheck``'s ``timeout`` (and ``hang_recheck``) for a reduction of ``signature`` under a runner timeout of
    ``timeout``: a slow compile's is ``SLOW_RECHECK_S`` with no longer repeat; any other finding's, ``timeout``."""
    if signature.startswith("slow:"):
        return {"timeout": min(timeout, SLOW_RECHECK_S), "hang_recheck": 1.0}
    return {"timeout": timeout}


def at_slow_horizon(runner: Any, signature: str) -> Any:
    """``runner`` as the checks about a finding of ``signature`` should run on it: a slow compile's at
    ``recheck_horizon``'s (``Runner.with_horizon``), where the runner can give one; any other's, ``runner``. The
    trigger rule's checks on a slow compile (``fuzz.triage.trigger``) are full checks of a program still slow in
    most of them: at the campaign's hang horizon each waited out 60 s, then a repeat of 180."""
    with_horizon = getattr(runner, "with_horizon", None)
    if not signature.startswith("slow:") or with_horizon is None:
        return runner
    horizon = recheck_horizon(signature, runner.timeout)
    return with_horizon(horizon["timeout"], horizon["hang_recheck"])


def parses_here(source: str) -> bool:
    """Whether this interpreter's ``ast`` parses the program (one generated for a newer Python may not)."""
    try:
        ast.parse(ProgramFile.parse(source).code)
    except SyntaxError:
        return False
    return True


def oracle_predicate(runner, target: str, signature: str, eager_outcome: str | None = None,
                     eager_calls: tuple[str, ...] | None = None,
                     hang: HangTimeouts | None = None) -> Callable[[str], bool]:
    """``is_interesting`` for the reducer: same signature on ``target`` and, when given, the same eager outcome
    (returned, or raised the same type) as the original, so a repro cannot drift into another program.
    ``eager_calls``: that outcome for each call the predicate makes (two for a second-call signature), so a
    reduction cannot keep a second call that only raises NameError for a definition it deleted either.

    Cheap on purpose; what costs is compiling (seconds for a large program, against milliseconds for an eager
    run), so a candidate is compiled only when nothing cheaper can reject it. In order: one eager run, and when
    its outcome differs from the original's (a deleted definition raising NameError, say) the candidate is out
    without compiling; then the target; then, only for a candidate that kept the signature, eager's determinism
    run (a second eager run compared with the first): without it, candidates drifted into programs whose inputs
    were no longer seeded (``torch.randn(1)``), which are flaky and never a finding. One call per run unless the
    signature is about the second call. ``reduce_program`` re-checks the final program in full.
    ``hang`` (a hang's reduction): the candidate's runs get its short timeouts instead of the runner's, and it
    hears of each run that finished or waited out its timeout, and of each candidate kept (``fuzz.reduce._hang``).
    A slow compile (``slow:``, ``oracle._slow``) is judged as the oracle judges it, by the ratio to the target's
    twin (nested graph breaks off), run first: the target's run must not finish within ``REDUCE_MARGIN`` times
    the slow limit of the twin's time, its timeout; so a kept candidate costs that limit, not the runner's
    timeout, and the result keeps the verdict with a margin when it is checked again.
    """
    import oracle
    from oracle._compare import compare_calls
    from oracle._runner import eager_outcome as outcome_of
    from oracle._runner import eager_outcomes
    from oracle._verdict import calls_for, judge

    calls = calls_for(signature)
    parsed = oracle.parse_target(target)
    mismatch = signature.startswith("mismatch:") and not parsed.exact
    eager = parsed.eager
    pair = twin(parsed) if signature.startswith("slow:") else None

    if not callable(getattr(runner, "run", None)):  # a runner that only judges whole programs: full checks
        def judged(source: str) -> bool:
            report = runner.check(source, [target], calls=calls, repeat_eager=True)
            verdict = report.verdicts.get(target)
            return (not report.flaky and verdict is not None and verdict.signature == signature
                    and (eager_outcome is None or report.eager_outcome == eager_outcome))

        return judged

    def run(source: str, on, timeout: float | None = None, steps: int | None = None,
            cpu: float | None = None) -> dict:
        # a runner of one's own may take no per-run timeout nor count: none asked unless needed
        counting = {**({"steps": steps} if steps is not None else {}), **({"cpu": cpu} if cpu is not None else {})}
        if hang is None:
            return runner.run(source, on, calls, **counting, **({"timeout": timeout} if timeout else {}))
        started = time.monotonic()
        result = runner.run(source, on, calls, timeout=timeout or (hang.eager() if on is eager else hang.target()),
                            **counting)
        if "hang" in result:
            hang.waited(float(result["hang"]))
        elif "steps_over" in result or "cpu_over" in result:  # kept at a limit: waiting, as a timeout is
            hang.waited(time.monotonic() - started)
        elif on is not eager:
            hang.finished(time.monotonic() - started)
        return result

    def slow(source: str) -> bool:
        """The target's run does not finish within the margin times the slow limit of its twin's cost (CPU
        seconds where measured: ``_slow.spent``), or (where the twin's instructions were counted) traces more
        than ``step_limit`` of its twin's."""
        other = run(source, pair, steps=0 if _slow.REDUCE_BY_STEPS else None)
        if "calls" not in other:
            return False
        limit = REDUCE_MARGIN * getattr(runner, "slow_limit", slow_limit)(_slow.spent(other))
        counted = other.get("steps")  # asked only when reducing by steps, and only where torch can count
        timeout, cpu = _slow.limits(limit, "cpu" in other)  # CPU seconds, and room on the clock for the load
        mine = run(source, parsed, timeout=timeout, steps=None if counted is None else step_limit(int(counted)),
                   cpu=cpu)
        return "hang" in mine or "steps_over" in mine or "cpu_over" in mine

    def is_interesting(source: str) -> bool:
        first = run(source, eager)
        if "calls" not in first or (eager_outcome is not None and outcome_of(first) != eager_outcome):
            return False
        if eager_calls is not None and eager_outcomes(first) != eager_calls[:calls]:
            return False
        if pair is not None and not slow(source):
            return False
        if pair is None and judge(parsed, first, run(source, parsed)).signature != signature:
            return False
        second = run(source, eager)
        if "calls" not in second or compare_calls(first["calls"], second["calls"], None):
            return False
        # a mismatch under a backend compared with tolerances must not drift into a program whose result hangs on
        # rounding (the oracle calls such a program flaky): the check runs on kept candidates only
        conditioned = getattr(runner, "ill_conditioned", None)  # a runner of one's own may not have it
        if mismatch and conditioned is not None and conditioned(source, parsed, first, calls):
            return False
        if hang is not None:
            hang.kept(source)
        return True

    return is_interesting


def reduce_program(
    source: str,
    target: str,
    *,
    signature: str | None = None,
    budget_s: float = 60.0,
    workers: int = 1,
    runner=None,
    rechecks: int = 3,
    timeout: float = 30.0,
    progress=None,
    ir=None,
    cheaper: bool = True,
    checks: int = 2000,
    ceiling_s: float | None = None,
    hang_wait_s: float | None = None,
    memory: dict[tuple, set] | None = None,
    kept: Callable[[str], None] | None = None,
    shown: bool = False,
    let_finish: bool = True,
) -> ReduceResult:
    """Reduce a failing program file for ``target`` keeping its verdict signature.

    ``signature`` defaults to the original's verdict on ``target`` (it must be a finding). ``runner`` is an
    ``oracle.Runner`` to share (a campaign's); else one with ``workers`` processes is made and closed here.
    ``ir`` (the generator's program IR, when the program came from it) enables the IR stage first. The
    final program is re-checked ``rechecks`` times, each in a fresh process (``oracle.check_source``); the
    counts are in the result. The result's source carries ``# signature:`` / ``# target:`` header lines.

    ``cheaper``: when the original shows the same signature with torch.compile's eager backend in place of the
    target's (``_cheaper_target``), the candidates are checked there, and the result once on ``target``; a
    result that lost the bug there is reduced again on ``target``, from the original, in what is left of the
    budget. The stages say which (``backend=eager``, then ``target`` for the second reduction).

    ``checks``: the budget follows the cost of a check (``Clock``): ``budget_s`` stretched to what ``checks``
    candidates cost at the pace measured, up to ``ceiling_s`` (default four times ``budget_s``). The IR stage gets a third of it and gives way to
    the source stage once it stops paying.

    A ``hang``'s candidates run with short timeouts (``fuzz.reduce._hang``): a kept candidate waits out seconds,
    not the runner's timeout; a slow compile's (``slow:``) wait out a limit set by their twin's run
    (``oracle_predicate``), and are handled as a hang's otherwise. The result is re-checked under the full rule
    (``recheck``: at least once), and when it is no hang there (only slow), the smallest kept candidate that is,
    found by a few full checks, is the result instead, or else the original (``stopped`` "unconfirmed").
    ``hang_wait_s``: at most that many seconds of runs waiting out their timeouts, then the reduction stops, cut
    short (``stopped`` "timeouts"); the campaign gives hangs and slow compiles this budget. With it, a given
    ``hang`` (or ``slow:``) signature is trusted rather than confirmed by a full check of the original (which
    waits out the timeout and then three times as long again). Neither tries a cheaper backend.

    ``memory``: a dict the caller keeps for one bug across reductions (a campaign's rounds of a bucket, each going
    on from where the last stopped): the source stage's candidates found not interesting, per predicate, are kept
    there and not checked again. Not for hangs and slow compiles, whose candidates' short timeouts depend on the
    moment.

    ``kept(text)``: called with each kept candidate as a program file (header and footer, as the result's), the
    best so far as it comes; not re-checked in a fresh process, and under a cheaper backend kept there only. A
    campaign keeps it on disk (``*.partial.py``), so a stop or a kill in the middle of a check loses nothing.

    A slow compile (``slow:``) is first let finish once (``fuzz.reduce._ends``): when it ends in a wrong value or a
    crash, that finding is reduced instead, and the result has its signature and the stage ``finished``; when it
    does not, the result has the stage ``no ending``, and ``let_finish=False`` skips the run the next time (a
    campaign keeps that in its bucket: a compile that never ends costs the whole allowance each time).
    ``shown``: the caller saw ``signature`` on the original so (its full check would be stopped as slow again,
    and is not made).
    """
    import oracle
    from oracle._verdict import calls_for

    spec = oracle.parse_target(target).spec
    started = time.monotonic()
    ceiling_s = 4 * budget_s if ceiling_s is None else ceiling_s
    with contextlib.ExitStack() as stack:
        if runner is None:
            runner = stack.enter_context(oracle.Runner(workers=workers, timeout=timeout))
        # The original, checked in full once: its signature (unless given) and eager's outcome, both kept. Only
        # the calls the given signature is about (``calls_for``): as the predicate checks, and less to compile.
        calls = calls_for(signature)
        trusted = signature is not None and (shown or (hang_wait_s is not None and waits_out(signature)))
        try:
            # a trusted hang: eager's runs only (its outcome, its determinism), judged as eager against itself
            report = runner.check(source, [spec] if not trusted else [oracle.parse_target(spec).eager.spec],
                                  calls=calls)
        except KeyboardInterrupt:  # Ctrl-C (or a stopping campaign) before the first check: nothing to keep
            return _interrupted(source, 0, started, spec, signature or "")
        given = signature or ""
        verdict = oracle.Verdict(given.partition(":")[0], "", given) if trusted else report.verdicts[spec]
        if report.flaky:
            raise ReduceError("the program is flaky under eager (two eager runs differ); nothing to reduce")
        ending = None  # a slow compile's: the wrong value or crash it ends in (``fuzz.reduce._ends``)
        if signature is None:
            if not verdict.is_finding:
                raise ReduceError(f"the program does not fail on {spec} (verdict {verdict.signature})")
            signature = verdict.signature
        elif verdict.signature != signature:
            if not (signature.startswith("slow:") and verdict.is_finding and not waits_out(verdict.signature)):
                raise ReduceError(f"the program gives {verdict.signature} on {spec}, not {signature}")
            # the full check's repeat of a run that gave no result (``oracle._slow.hang_rule``) saw its end
            ending = verdict.signature
        eager_outcome = report.eager_outcome
        names = failure_names(verdict.detail)  # where a crash is, when its message says: the first cut
        eager_calls = _eager_calls(runner, source, spec, signature)
        original = source
        try:
            unended = False  # let finish, and it ended in no finding (the result's stage "no ending")
            if ending is None and signature.startswith("slow:") and let_finish:  # one call, as its checks make
                ending = ends_in(runner, source, spec, calls_for(signature), hang_wait_s)
                unended = ending is None
        except KeyboardInterrupt:  # a stop while it ran: nothing to keep but the original
            return _interrupted(source, 1, started, spec, signature)
        if ending is not None:
            # the wrong value (or crash) the slow verdict hid: a check costs seconds once the slow part is gone, and
            # the slow compile's time until then; so no IR stage, whose candidates keep most of the program for
            # longer than the source stage's cut-call-graph does (the 2.15 finding of benchmarks/data/findings/,
            # 451 lines: 6 checks in 355 s to 228 lines with it, 30 in 272 s to 27 without)
            result = reduce_program(source, target, signature=ending, budget_s=budget_s, runner=runner,
                                    workers=workers, rechecks=rechecks, timeout=timeout, progress=progress, ir=None,
                                    cheaper=False, checks=checks, memory=memory, kept=kept, shown=True,
                                    ceiling_s=max(ceiling_s - (time.monotonic() - started), 1.0))
            return dataclasses.replace(result, invocations=result.invocations + 2, stages=("finished",) + result.stages,
                                       elapsed_s=time.monotonic() - started)
        try:
            waits = waits_out(signature)
            hang = _hang_timeouts(runner, source, spec, calls, timeout, hang_wait_s) if waits else None
            proxy = _cheaper_target(runner, source, spec, signature, calls) if cheaper and not waits else None
        except KeyboardInterrupt:  # a stop before any candidate: nothing to keep but the original
            return _interrupted(source, 1, started, spec, signature)
        predicate = oracle_predicate(runner, proxy or spec, signature, eager_outcome, eager_calls, hang=hang)
        watch = hang.watch if hang is not None else (lambda clock: clock)

        def step(pass_name: str, lines: int, invocations: int, text: str) -> None:  # after each kept candidate
            if progress is not None:
                progress(pass_name, lines, invocations)
            if kept is not None:
                kept(with_footer(set_header(with_header(text, spec, signature), eager=eager_outcome or None)))

        stages: tuple[str, ...] = ("no ending",) * unended + (("backend=eager",) if proxy else ())
        ir_result = None
        if ir is not None:
            found_by = ProgramFile.parse(source).get("found-by")
            ir_clock = watch(Clock(budget_s / 3, checks // 3, ceiling_s / 3))
            ir_result = reduce_ir(ir, predicate, workers=workers, found_by=found_by, progress=step,
                                  clock=ir_clock)
            if ir_result is not None:
                source, stages = ir_result.source, stages + ("ir",)
        # The budget is the whole reduction's wall time: the full check of the original (tens of seconds for a
        # large program on a loaded machine) and the IR stage come out of it.
        interrupted = ir_result is not None and ir_result.interrupted
        # the budget counts the reduction's checks (not the original's full check, nor starting the workers: see
        # ``Clock``); the ceiling, everything
        reducing = ir_result.elapsed_s if ir_result is not None else 0.0
        clock = watch(Clock(max(budget_s - reducing, 1.0), checks,
                            max(ceiling_s - (time.monotonic() - started), 1.0)))
        if not parses_here(source):
            # written for a newer Python than this one (the generator's python knob: PEP 695, PEP 701 ...): the
            # source passes work on this interpreter's `ast`, so only the IR stage reduces it
            if ir_result is None:
                raise ReduceError(f"the program does not parse on this Python ({sys.version_info[0]}."
                                  f"{sys.version_info[1]}): it is written for a newer one, and only its IR could "
                                  "be reduced here (a campaign's repro, reduced where it was found, has one)")
            lines = code_lines(source)
            # an IR stage that stopped paying has still done all that can be done here
            stopped = "fixpoint" if ir_result.stopped == "gave way" else ir_result.stopped
            result = ReduceResult(source, lines, lines, 0, 0, 0, (), 0.0, stopped, stages=("ir only: newer syntax",))
        else:
            result = reduce_source(
                source, predicate, budget_s=0.0, workers=workers, progress=step, check_original=False,
                clock=Clock(0.0) if interrupted else clock,
                # the names are the original's: the IR stage renumbers the functions it keeps (f41 may be f12 now)
                names=names if ir_result is None or ir_result.ir is ir else frozenset(),
                rejected=_rejected(memory, proxy or spec, signature, eager_outcome, hang),
            )
        if interrupted:  # Ctrl-C in the IR stage: no source stage, best-so-far from the IR
            result = dataclasses.replace(result, stopped="interrupted")
        elif proxy and result.stopped != "interrupted":
            on_target = oracle_predicate(runner, spec, signature, eager_outcome, eager_calls, hang=hang)
            try:
                held = on_target(result.source)
            except KeyboardInterrupt:  # a stop during the check on the target: the result kept, unconfirmed
                held, result = True, dataclasses.replace(result, stopped="interrupted")
            if not held and not parses_here(original):  # no source stage here: the original stands
                lines = code_lines(original)
                result = dataclasses.replace(result, source=original, lines=lines, stages=("target",))
            elif not held:
                # what the target's own backend needs went with a candidate the eager backend took: again, there
                again = reduce_source(original, on_target, budget_s=max(clock.left(), 1.0), workers=workers,
                                      progress=step, check_original=False, names=names,
                                      rejected=_rejected(memory, spec, signature, eager_outcome, hang))
                result = dataclasses.replace(again, invocations=again.invocations + result.invocations + 1,
                                             passes=result.passes + again.passes, stages=("target",))
        if hang is not None and hang.exhausted and result.stopped == "budget":
            result = dataclasses.replace(result, stopped="timeouts")
        compare = None if result.stopped == "interrupted" else _compare_kinds(runner, result.source, spec, signature)
    if ir_result is not None:
        result = dataclasses.replace(
            result,
            original_lines=ir_result.original_lines,
            invocations=result.invocations + ir_result.invocations,
            passes=ir_result.passes + result.passes,
        )
    # The full check of the original counts as a check, and the wall time is the whole reduction's.
    result = dataclasses.replace(result, invocations=result.invocations + 1, elapsed_s=time.monotonic() - started)
    final = with_footer(set_header(with_header(result.source, spec, signature), eager=eager_outcome or None,
                                   compare=compare, drop=() if compare else ("compare",)))
    unchanged = result.lines >= code_lines(original)
    if result.stopped == "interrupted" or (trusted and unchanged):
        rechecks = 0  # Ctrl-C (or a stopping campaign); or a trusted hang left as it was: no fresh-process re-checks
    elif hang is not None:
        rechecks = max(rechecks, 1)  # its candidates' short timeouts proved nothing: the full rule must, once
    try:
        observed: list[int | None] = []
        horizon = recheck_horizon(signature, timeout)
        reproduced = recheck(final, spec, signature, rechecks, workers=workers, eager_outcome=eager_outcome,
                             like=runner, breaks=observed, **horizon)
        counted = [b for b in observed if b is not None]
        taken = min(counted) if counted and len(counted) == len(observed) else None
        if taken is not None and taken > 0 and breaks_unseen(final):
            # what the re-checks saw, where the code does not show it (``behaviour_shape``'s state-object rule)
            final = set_header(final, graph_breaks=str(taken))
        else:  # never one an earlier round saw on a program that was not this one
            final = set_header(final, drop=("graph-breaks",))
        if hang is not None and rechecks and not reproduced and not unchanged:
            # only slow: the smallest kept candidate that hangs under the full rule, else the original
            fallback = smallest_confirmed(
                [s for s in hang.kept_sources() if code_lines(s) < code_lines(original) and s != result.source],
                lambda candidate: recheck(candidate, spec, signature, 1, eager_outcome=eager_outcome, like=runner,
                                          **horizon) == 1)
            source = fallback or original
            lines = code_lines(source)
            rechecks = reproduced = 1 if fallback else 0
            result = dataclasses.replace(result, source=source, lines=lines, stopped="unconfirmed")
            taken = None  # the re-checks were of another program
            final = with_footer(set_header(with_header(source, spec, signature), eager=eager_outcome or None,
                                           drop=("compare",)))
    except KeyboardInterrupt:  # a stop during the re-checks: the reduced program is kept, marked unchecked
        rechecks = reproduced = 0
        taken = None
        result = dataclasses.replace(result, stopped="interrupted")
    return dataclasses.replace(
        result, source=final, target=spec, signature=signature, rechecks=rechecks, reproduced=reproduced,
        stages=stages + result.stages, breaks=taken,
    )


def _interrupted(source: str, checks: int, started: float, target: str, signature: str) -> ReduceResult:
    """The result of a reduction stopped before any candidate: the original, after ``checks`` checks."""
    lines = code_lines(source)
    return ReduceResult(source, lines, lines, checks, 0, 0, (), time.monotonic() - started, "interrupted",
                        target=target, signature=signature)


def _rejected(memory: dict[tuple, set] | None, checked_on: str, signature: str, eager_outcome, hang) -> set | None:
    """The set in ``memory`` of candidates not interesting to the predicate that checks on ``checked_on`` for
    ``signature`` with eager's outcome ``eager_outcome``; None without a memory or for a hang's short timeouts."""
    if memory is None or hang is not None:
        return None
    return memory.setdefault((checked_on, signature, repr(eager_outcome)), set())


def _hang_timeouts(runner, source: str, target: str, calls: int, timeout: float,
                   wait_s: float | None) -> HangTimeouts | None:
    """A hang's short timeouts, from one timed eager run of the original; None for a runner that only judges whole
    programs (its checks are full ones)."""
    import oracle

    if not callable(getattr(runner, "run", None)):
        return None
    started = time.monotonic()
    runner.run(source, oracle.parse_target(target).eager, calls)
    return HangTimeouts(getattr(runner, "timeout", timeout), time.monotonic() - started, wait_s)


def _cheaper_target(runner, source: str, target: str, signature: str, calls: int) -> str | None:
    """``target`` with torch.compile's eager backend in place of aot_eager or inductor (same device, interpreter and
    nested-graph-break setting), when the original shows ``signature`` there too: a bug in what Dynamo captures,
    not in the backend, is reduced as well there, without a backend compile per candidate (seconds each under
    inductor). None otherwise: another target kind, already the eager backend, a crash of the backend's compiler
    (``BackendCompilerFailed``: the eager backend compiles nothing, so the check is not even made), or another
    verdict there."""
    import oracle

    parsed = oracle.parse_target(target)
    options = dict(parsed.options)
    if parsed.kind != "torch" or options.get("backend", "eager") == "eager" or "BackendCompilerFailed" in signature:
        return None
    proxy = dataclasses.replace(parsed, options=tuple(sorted({**options, "backend": "eager"}.items()))).spec
    try:
        report = runner.check(source, [proxy], calls=calls)
    except oracle.OracleError:
        return None
    verdict = report.verdicts.get(proxy)
    return proxy if not report.flaky and verdict is not None and verdict.signature == signature else None


def _eager_calls(runner, source: str, target: str, signature: str) -> tuple[str, ...] | None:
    """Eager's outcome on each of the calls a second- or third-call signature needs (one eager run); None
    otherwise, or for a runner that only judges whole programs."""
    import oracle
    from oracle._runner import eager_outcomes
    from oracle._verdict import calls_for

    calls = calls_for(signature)
    if calls < 2 or not callable(getattr(runner, "run", None)):
        return None
    run = runner.run(source, oracle.parse_target(target).eager, calls)
    return eager_outcomes(run) if run.get("calls") else None


def _compare_kinds(runner, source: str, target: str, signature: str) -> str | None:
    """How the repro's short check compares (``oracle.compare_kinds``: as printed, or the ``equal`` branches it
    needs): one eager run of the reduced program, only for the signatures whose check compares values."""
    import oracle

    if not signature.startswith(oracle.PLAIN_SIGNATURES) or not callable(getattr(runner, "run", None)):
        return None
    parsed = oracle.parse_target(target)
    try:
        run = runner.run(source, parsed.eager, 1)
    except oracle.OracleError:
        return None
    return oracle.compare_kinds(signature, run["calls"][0]) if run.get("calls") else None


def recheck(source: str, target: str, signature: str, times: int, *, timeout: float = 30.0, workers: int = 1,
            eager_outcome: str | None = None, hang_recheck: float | None = None, like=None,
            breaks: list[int | None] | None = None) -> int:
    """How many of ``times`` full checks, each in a fresh worker process, give ``signature`` on ``target`` (and
    eager's outcome ``eager_outcome`` when given). ``hang_recheck``: the runner's (default: the oracle's);
    ``like``: a runner whose rules (``rules_of``) the checks keep. When ``like`` has a ``stop_event`` (a
    campaign's runner), its setting ends the checks in flight at once, their workers killed, and this raises
    KeyboardInterrupt: a full check of a slow compile waits out minutes, and a stopped campaign waited for it.
    ``breaks``: a list that gets, for each check that reproduced, the graph breaks the target's run took (None: its
    report did not say)."""
    import oracle

    options = {**rules_of(like), **({"hang_recheck": hang_recheck} if hang_recheck is not None else {})}
    stop = getattr(like, "stop_event", None)

    def stopped() -> bool:
        return stop is not None and stop.is_set()

    def once(_):
        if stopped():
            raise KeyboardInterrupt
        try:
            with oracle.Runner(workers=1, timeout=timeout, **options) as runner, _closed_on(stop, runner):
                report = runner.check(source, [target])
        except oracle.OracleError:
            if stopped():
                raise KeyboardInterrupt from None
            return False
        if stopped():  # a check cut off by the stop gives no verdict to count
            raise KeyboardInterrupt
        verdict = report.verdicts.get(target)
        held = (not report.flaky and verdict is not None and verdict.signature == signature
                and (eager_outcome is None or report.eager_outcome == eager_outcome))
        if held and breaks is not None:
            taken = report.stats.get(target, {}).get("breaks")
            breaks.append(None if taken is None else int(taken))
        return held

    if times <= 0:
        return 0
    with ThreadPoolExecutor(max(1, min(workers, times))) as pool:
        return sum(pool.map(once, range(times)))


STOP_POLL_S = 0.2


@contextlib.contextmanager
def _closed_on(stop, runner):
    """Close ``runner`` (killing its busy workers) as soon as ``stop`` (a threading.Event, or None) is set, while
    the block runs."""
    if stop is None:
        yield
        return
    done = threading.Event()

    def watch() -> None:
        while not done.is_set():
            if stop.wait(STOP_POLL_S):
                runner.close()
                return

    thread = threading.Thread(target=watch, daemon=True, name="recheck-stop")
    thread.start()
    try:
        yield
    finally:
        done.set()
        thread.join()


def rules_of(runner) -> dict:
    """The verdict rules of ``runner`` that a fresh one must share to give the same verdicts (how a hang is
    re-checked, when a compile is slow); {} for a runner of another kind (the oracle's defaults)."""
    names = ("hang_recheck", "slow_floor_s", "slow_ratio")
    return {name: getattr(runner, name) for name in names if isinstance(getattr(runner, name, None), (int, float))}


def with_header(source: str, target: str, signature: str, found_by: str | None = None) -> str:
    """``source`` with its ``# signature:`` and ``# target:`` header lines set (and ``# found-by:`` when given);
    ``# features:`` dropped (stale after reduction); other comment lines kept in order."""
    return set_header(source, signature=signature, target=target, found_by=found_by, drop=("features",))
