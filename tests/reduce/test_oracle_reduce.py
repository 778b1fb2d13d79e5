"""The reducer and the corpus against the real oracle (fault-injection targets), through the CLI."""

from __future__ import annotations

import json
import os
import signal

import pytest

from fuzz.cli import main
from fuzz.corpus.manifest import Corpus, Entry, next_status, shape_key

FAILING = '''# ngb-fuzz program
# found-by: hand
# features: ctx.no_grad
import types

import torch

EFFECTS = []


def _effect(tag, value):
    if isinstance(value, torch.Tensor):
        value = value.detach().clone()
    EFFECTS.append((tag, value))


_h = types.SimpleNamespace()
exec(compile(\'\'\'
import torch
def twice(t):
    return t * 2
\'\'\', "ngb_h", "exec"), vars(_h))


def g(x, y):
    with torch.no_grad():
        z = x.cos() + y
    _effect("g", z)
    torch._dynamo.graph_break()
    return vars(_h)["twice"](z) - 1


def entry(x, y):
    s = 0.0
    for i in range(2):
        s = s + i
    return g(x, y) * s, s


def make_inputs(device):
    gen = torch.Generator().manual_seed(0)
    return (torch.randn(4, 3, generator=gen, dtype=torch.float64).to(device), torch.randn(3, generator=gen).to(device))
'''


@pytest.fixture
def failing_file(tmp_path):
    import oracle

    path = tmp_path / "prog.py"
    path.write_text(FAILING + "\n\n" + oracle.standalone_footer())
    return path


def test_reduce_cli_keeps_the_signature_and_rechecks_in_fresh_processes(failing_file, tmp_path, capsys):
    # a campaign's repro whose reduction was cut short: its found-by must not keep saying so once reduced here
    failing_file.write_text(failing_file.read_text().replace(
        "# found-by: hand", "# found-by: ngb-fuzz run --seed 3 (program 7), reduced 300 -> 40 lines; cut short "
        "(budget) after 60s at 40 lines: smaller, not minimal"))
    out = tmp_path / "small.py"
    code = main(["reduce", str(failing_file), "--target", "fault:drop-effect", "--budget", "600s",
                 "--rechecks", "1", "--workers", "2", "--out", str(out), "--corpus", str(tmp_path / "corpus")])
    err = capsys.readouterr().err
    assert code == 0, err
    reduced = out.read_text()
    assert "# signature: mismatch:second_call:effects\n# target: fault:drop-effect\n" in reduced
    assert "# features:" not in reduced  # stale after reduction
    assert "re-check in fresh processes: 1/1 reproduced mismatch:second_call:effects" in err
    from fuzz.reduce import code_lines

    assert code_lines(reduced) <= 12 < code_lines(FAILING)
    assert f"# found-by: ngb-fuzz run --seed 3 (program 7), reduced 300 -> {code_lines(reduced)} lines\n" in reduced
    assert reduced.endswith(failing_file.read_text().split("# ---- ngb-fuzz standalone check", 1)[1])
    store = Corpus(tmp_path / "corpus")
    (entry,) = store.entries.values()
    assert (entry.status, entry.signature, entry.target) == ("NEW", "mismatch:second_call:effects", "fault:drop-effect")


@pytest.mark.parametrize("signum, method, nth", [
    (signal.SIGTERM, "run", 6),  # while candidates are checked run by run
    (signal.SIGINT, "run", 6),
    (signal.SIGTERM, "check", 3),  # during the final re-checks in fresh processes (the original is the 1st)
])
def test_a_stop_signal_writes_the_best_so_far_and_exits_128_plus_n(signum, method, nth, failing_file, tmp_path,
                                                                 capsys, monkeypatch):
    import oracle

    calls = []
    real = getattr(oracle.Runner, method)

    def then_signal(self, *args, **kwargs):
        calls.append(1)
        if len(calls) == nth:
            os.kill(os.getpid(), signum)
        return real(self, *args, **kwargs)

    monkeypatch.setattr(oracle.Runner, method, then_signal)
    out = tmp_path / "small.py"
    code = main(["reduce", str(failing_file), "--target", "fault:drop-effect", "--budget", "600s",
                 "--workers", "1", "--out", str(out)])
    err = capsys.readouterr().err
    assert code == 128 + signum, err
    assert f"stopped by {signal.Signals(signum).name}" in err and "stopped: interrupted" in err
    assert "# signature: mismatch:second_call:effects" in out.read_text()  # nothing lost


def test_reduce_cli_usage_errors(failing_file, tmp_path, capsys):
    assert main(["reduce", str(tmp_path / "missing.py"), "--target", "torch"]) == 2
    assert main(["reduce", str(failing_file), "--target", "no-such-kind"]) == 2
    assert main(["reduce", str(failing_file), "--target", "fault:perturb", "--budget", "soon"]) == 2
    err = capsys.readouterr().err
    assert err.count("ngb-fuzz reduce: error:") == 3


def test_corpus_check_moves_statuses(tmp_path, capsys):
    import oracle

    ok_program = FAILING.replace("_effect(\"g\", z)\n", "")  # nothing left for drop-effect to drop
    store = Corpus(tmp_path / "c")
    store.add(FAILING + oracle.standalone_footer(), "fault:drop-effect", "mismatch:second_call:effects", name="open.py")
    store.add(ok_program, "fault:drop-effect", "mismatch:second_call:effects", name="fixed.py", status="KNOWN")
    store.add(FAILING, "fault:drop-effect", "ok", name="regressed.py", status="FIXED")
    store.save()
    assert main(["corpus", "check", "--dir", str(tmp_path / "c")]) == 1  # a regression
    out = capsys.readouterr().out
    assert "NEW -> KNOWN" in out and "KNOWN -> FIXED" in out and "FIXED -> REGRESSION" in out
    data = json.loads((tmp_path / "c" / "manifest.json").read_text())
    status = {e["file"]: (e["status"], e["last_signature"]) for e in data["files"]}
    assert status == {"open.py": ("KNOWN", "mismatch:second_call:effects"), "fixed.py": ("FIXED", "ok"),
                      "regressed.py": ("REGRESSION", "mismatch:second_call:effects")}
    assert main(["corpus", "list", "--dir", str(tmp_path / "c")]) == 0
    assert main(["corpus", "stats", "--dir", str(tmp_path / "c"), "--target", "fault:drop-effect"]) == 0
    out = capsys.readouterr().out
    assert "3 entries" in out and "REGRESSION" in out


@pytest.mark.parametrize(
    ("signature", "status", "observed", "expected"),
    [
        ("sig", "NEW", "sig", ("KNOWN", False)),
        ("sig", "KNOWN", "ok", ("FIXED", False)),
        ("sig", "FIXED", "sig", ("REGRESSION", False)),
        ("sig", "KNOWN", "other", ("KNOWN", True)),
        ("sig", "KNOWN", "flaky", ("KNOWN", False)),
        ("ok", "FIXED", "ok", ("FIXED", False)),
        ("ok", "FIXED", "crash:X@y", ("REGRESSION", True)),
        ("ok", "REGRESSION", "ok", ("FIXED", False)),
    ],
)
def test_status_transitions(signature, status, observed, expected):
    entry = Entry("f.py", signature, "torch", "2.13.0", "2026-11-21", status)
    assert next_status(entry, observed) == expected


def test_add_deduplicates_by_normalized_shape(tmp_path):
    store = Corpus(tmp_path)
    renamed = FAILING.replace("twice", "double").replace("0.0", "5.0").replace("# found-by: hand", "# other")
    assert shape_key(renamed) == shape_key(FAILING)
    first, added = store.add(FAILING, "torch", "crash:X@y", torch_version="2.13.0")
    again, added_again = store.add(renamed, "torch", "crash:X@y", torch_version="2.13.0")
    other, added_other = store.add(renamed, "torch:ngb=off", "crash:X@y", torch_version="2.13.0")
    assert added and not added_again and added_other and again is first and other is not first
    store.save()
    assert set(Corpus(tmp_path).entries) == {first.file, other.file}


def test_check_on_another_compiler_reports_but_moves_no_status(tmp_path):
    store = Corpus(tmp_path)
    store.add(FAILING, "torch", "crash:X@y", name="bug.py", status="KNOWN", torch_version="2.13.0")
    seen = []

    def fake(source: str, target: str):
        seen.append(target)
        return "ok", ""

    (engine,) = store.check(fake, target="engine")
    assert (engine.signature, engine.old_status, engine.new_status) == ("ok", "KNOWN", "KNOWN")
    assert store.entries["bug.py"].last_checked == ""
    (newer,) = store.check(fake, target="torch:backend=aot_eager")  # same compiler, other options: it moves
    assert (newer.new_status, store.entries["bug.py"].status) == ("FIXED", "FIXED")
    assert seen == ["engine", "torch:backend=aot_eager"]


class _FakeRunner:
    """Answers runs from a table: source -> (signature, eager outcome, eager flaky); records each run as
    (target kind, calls)."""

    def __init__(self, answers):
        self.answers, self.asked, self.eager_runs = answers, [], 0

    def run(self, source, target, calls=2):
        self.asked.append((target.kind, calls))
        signature, outcome, flaky = self.answers[source]
        if target.kind != "eager":
            return {"signature": signature}
        self.eager_runs += 1
        exception = None if outcome == "returned" else (outcome.split(":")[1], "")
        value = self.eager_runs if flaky else 0  # a flaky program gives another value every run
        return {"calls": [{"exception": exception, "value": value, "torch_state": {}}] * calls}


def test_predicate_keeps_eager_outcome_and_compiles_only_what_eager_cannot_reject(monkeypatch):
    import oracle
    import oracle._runner  # noqa: F401 - bound to the real judge before the patch, or it keeps the fake for good
    import oracle._verdict
    from fuzz.reduce._oracle import oracle_predicate

    def judge(target, eager, result):
        return oracle.Verdict(result["signature"].split(":")[0], "", result["signature"])

    monkeypatch.setattr(oracle._verdict, "judge", judge)
    runner = _FakeRunner({"same": ("crash:X@m:f", "raised:TypeError", False),
                          "drift": ("crash:X@m:f", "returned", False),
                          "other": ("crash:Y@m:f", "raised:TypeError", False),
                          "flaky": ("crash:X@m:f", "raised:TypeError", True)})
    predicate = oracle_predicate(runner, "torch", "crash:X@m:f", "raised:TypeError")
    assert predicate("same")
    assert runner.asked == [("eager", 1), ("torch", 1), ("eager", 1)]  # one call; determinism run last
    runner.asked.clear()
    assert not predicate("drift")
    assert runner.asked == [("eager", 1)]  # eager's outcome changed: never compiled
    runner.asked.clear()
    assert not predicate("other")
    assert runner.asked == [("eager", 1), ("torch", 1)]  # signature lost: no determinism run
    assert not predicate("flaky")  # two eager runs disagree: never interesting
    second = _FakeRunner({"p": ("mismatch:second_call:effects", "returned", False)})
    assert oracle_predicate(second, "torch", "mismatch:second_call:effects", "returned")("p")
    assert {calls for _, calls in second.asked} == {2}  # a second-call signature needs the second call


def test_a_stopping_campaign_interrupts_the_next_cheap_check():
    import threading

    from fuzz.campaign.reductions import StoppableRunner
    from fuzz.reduce._oracle import oracle_predicate

    stop = threading.Event()
    runner = _FakeRunner({"p": ("crash:X@m:f", "returned", False)})
    predicate = oracle_predicate(StoppableRunner(runner, stop), "torch", "crash:X@m:f", "returned")
    stop.set()
    with pytest.raises(KeyboardInterrupt):  # the reducer turns it into "interrupted", best so far kept
        predicate("p")
    assert runner.asked == []


def test_a_stopping_campaign_ends_a_full_recheck_in_flight_and_its_worker(tmp_path):
    # A full re-check of a slow compile waits out minutes in a fresh process: a stop must not wait for it.
    import threading
    import time

    from fuzz.campaign.reductions import StoppableRunner
    from fuzz.reduce._oracle import recheck
    from oracle._runner import worker_pids

    stuck = ("import time\n\nimport torch\n\n\ndef entry(x):\n    if torch.compiler.is_compiling():\n"
             "        time.sleep(600)\n    return x + 1\n\n\ndef make_inputs(device):\n"
             "    return (torch.ones(2, device=device),)\n")
    stop = threading.Event()
    like = StoppableRunner(object(), stop)
    timer = threading.Timer(20.0, stop.set)  # the worker started (a few seconds) and is stuck in the compile
    timer.start()
    started = time.monotonic()
    try:
        with pytest.raises(KeyboardInterrupt):
            recheck(stuck, "torch:ngb=off", "hang", 1, timeout=300.0, like=like)
    finally:
        timer.cancel()
    assert time.monotonic() - started < 60, "the stop waited for the check's 300 s timeout"
    for _ in range(50):
        if not worker_pids(os.getpid()):
            break
        time.sleep(0.2)
    assert not worker_pids(os.getpid()), "a re-check's worker outlived the stop"


def test_a_runner_without_single_runs_gets_full_checks():
    import oracle
    from fuzz.reduce._oracle import oracle_predicate

    class CheckOnly:
        def __init__(self):
            self.asked = []

        def check(self, source, targets, *, calls=2, repeat_eager=True):
            self.asked.append((calls, repeat_eager))
            verdict = oracle.Verdict("crash", "", "crash:X@m:f" if source == "bug" else "ok")
            return oracle.ProgramReport({targets[0]: verdict}, False, {}, 0.0, "returned")

    runner = CheckOnly()
    predicate = oracle_predicate(runner, "torch", "crash:X@m:f", "returned")
    assert predicate("bug") and not predicate("fine")
    assert runner.asked == [(1, True)] * 2  # one call, eager twice


def test_the_budget_counts_the_reduction_and_the_ceiling_everything(monkeypatch):
    # The original's full check (and starting workers) is the program's cost: the source stage still gets the whole
    # base budget, and only the ceiling (four times it by default) counts the full check too.
    import fuzz.reduce._oracle as front
    import oracle
    from fuzz.reduce import reduce_source

    clock = [100.0]
    monkeypatch.setattr(front.time, "monotonic", lambda: clock[0])
    given = []

    def spy(source, predicate, *, budget_s, clock, **kwargs):
        given.append((clock.budget_s, clock.ceiling_s))
        return reduce_source(source, predicate, budget_s=budget_s, passes=[], clock=clock, **kwargs)

    class SlowCheck:  # the original's full check takes 25 "seconds" on the fake clock
        def check(self, source, targets, *, calls=2, repeat_eager=True):
            assert calls == 1  # the signature is about the first call: no second one to compile
            clock[0] += 25.0
            return oracle.ProgramReport({targets[0]: oracle.Verdict("crash", "", "crash:X@m:f")}, False, {}, 0.0,
                                        "returned")

    monkeypatch.setattr(front, "reduce_source", spy)
    program = "import torch\nEFFECTS = []\n\ndef entry(x):\n    return x\n\ndef make_inputs(device):\n" \
              "    return (torch.ones(1),)\n"
    front.reduce_program(program, "torch", signature="crash:X@m:f", budget_s=60.0, runner=SlowCheck(), rechecks=0)
    assert given == [(60.0, 215.0)]


# A second-call finding of one of the engine's fault switches: the second call loses the caller's no_grad.
_SECOND_CALL = """import torch

EFFECTS = []
N = 0


def note():
    EFFECTS.append(torch.is_grad_enabled())


def inner():
    torch._dynamo.graph_break()
    note()


def entry():
    global N
    N = N + 1
    if N % 2 == 0:
        with torch.no_grad():
            inner()
"""


def test_a_second_call_signature_keeps_eager_outcome_on_both_calls(runner):
    """A reduction once kept ``note()(g)`` with ``g`` deleted: the second call raised NameError in eager and
    the compiled run alike, after the effect the finding is about, and the predicate only asked the first call."""
    pytest.importorskip("engine")
    from fuzz.reduce._oracle import _eager_calls, oracle_predicate

    target, signature = "engine:fault=forget-upper-cm", "mismatch:second_call:effects"
    broken = _SECOND_CALL.replace("    note()\n", "    note()(g)\n")
    assert runner.check(broken, [target]).verdicts[target].signature == signature  # it does keep the signature
    calls = _eager_calls(runner, _SECOND_CALL, target, signature)
    assert calls == ("returned", "returned")
    assert _eager_calls(runner, broken, target, signature) == ("returned", "raised:NameError")
    predicate = oracle_predicate(runner, target, signature, "returned", calls)
    assert predicate(_SECOND_CALL)
    assert not predicate(broken)
    assert oracle_predicate(runner, target, signature, "returned")(broken)  # only the first call: drift let in
    assert _eager_calls(runner, _SECOND_CALL, target, "mismatch:effects:value") is None  # one call is asked


class _BackendRunner:
    """Full checks only: the bug shows with the eager backend where the source has ``BUG``; under inductor also
    where it has ``KEEP`` when ``needs_keep`` (a part only the backend's compile needs)."""

    signature = "crash:X@m:f"

    def __init__(self, needs_keep: bool):
        self.needs_keep, self.asked = needs_keep, []

    def check(self, source, targets, *, calls=2, repeat_eager=True):
        import oracle

        (target,) = targets
        self.asked.append(target)
        shows = "'BUG'" in source and (target == "torch" or not self.needs_keep or "'KEEP'" in source)
        verdict = oracle.Verdict("crash", "", self.signature if shows else "ok")
        return oracle.ProgramReport({target: verdict}, False, {}, 0.0, "returned")


_TWO_PARTS = """import torch

EFFECTS = []


def entry(x):
    y = x + 1
    EFFECTS.append('BUG')
    z = y * 2
    EFFECTS.append('KEEP')
    return z


def make_inputs(device):
    return (torch.ones(1),)
"""


@pytest.mark.parametrize("needs_keep", [False, True])
def test_a_backend_finding_is_reduced_with_the_eager_backend_and_confirmed_on_its_target(needs_keep):
    from fuzz.reduce import reduce_program

    runner = _BackendRunner(needs_keep)
    result = reduce_program(_TWO_PARTS, "torch:backend=inductor", budget_s=30.0, runner=runner, rechecks=0)
    assert result.stages[0] == "backend=eager" and "'BUG'" in result.source
    # the original on its target, then on the eager backend; candidates there; the result once on the target
    assert runner.asked[:2] == ["torch:backend=inductor", "torch"]
    if not needs_keep:
        assert "target" not in result.stages and "'KEEP'" not in result.source
        assert runner.asked[2:].count("torch:backend=inductor") == 1 and runner.asked[-1] == "torch:backend=inductor"
    else:  # the eager backend let KEEP go: reduced again on the target, from the original, and KEEP stays
        assert result.stages == ("backend=eager", "target") and "'KEEP'" in result.source
        assert "y = x + 1" not in result.source
    assert "the result" in result.summary()
    same = _BackendRunner(needs_keep)
    exact = reduce_program(_TWO_PARTS, "torch:backend=inductor", budget_s=30.0, runner=same, rechecks=0, cheaper=False)
    assert set(same.asked) == {"torch:backend=inductor"} and "backend=eager" not in exact.stages
    for target in ("torch", "engine"):  # the eager backend already, or not torch.compile: nothing cheaper to try
        other = _BackendRunner(False)
        assert "backend=eager" not in reduce_program(_TWO_PARTS, target, budget_s=30.0, runner=other,
                                                     rechecks=0).stages
        assert set(other.asked) == {target}
    backend = _BackendRunner(False)
    backend.signature = "crash:BackendCompilerFailed@m:f"  # the backend's own compiler: the eager backend has none
    reduce_program(_TWO_PARTS, "torch:backend=inductor", budget_s=30.0, runner=backend, rechecks=0)
    assert set(backend.asked) == {"torch:backend=inductor"}


def test_a_stop_during_the_check_on_the_target_keeps_the_result_unconfirmed():
    from fuzz.reduce import reduce_program

    class Stopping(_BackendRunner):
        def check(self, source, targets, *, calls=2, repeat_eager=True):
            if targets == ["torch:backend=inductor"] and self.asked:  # the result's check, after the original's
                raise KeyboardInterrupt
            return super().check(source, targets, calls=calls, repeat_eager=repeat_eager)

    runner = Stopping(False)
    result = reduce_program(_TWO_PARTS, "torch:backend=inductor", budget_s=30.0, runner=runner, rechecks=3)
    assert result.stopped == "interrupted" and result.rechecks == 0 and "'KEEP'" not in result.source


class _HangingRunner:
    """A fake runner for a hang: a target run of a program that calls ``spin()`` never finishes (it reports the
    timeout it was given, as the runner does); one that calls ``crawl()`` finishes only under a timeout of
    ``crawl_s`` or more (slow to compile, not hung). ``full`` (the timeout a full check waits out): whether a full
    check calls a program a hang. ``honour_timeouts=False``: every run waits out the full timeout, as a runner
    without per-run timeouts did."""

    timeout = 60.0

    def __init__(self, crawl_s: float = 10.0, hang_needs: tuple[str, ...] = ("spin()",), honour_timeouts=True):
        self.crawl_s, self.hang_needs, self.honour = crawl_s, hang_needs, honour_timeouts
        self.kept, self.checked, self.timeouts, self.rechecked = 0, [], [], []

    def hangs(self, source: str, timeout: float) -> bool:
        if all(call in source for call in self.hang_needs):
            return True
        return "crawl()" in source and timeout < self.crawl_s

    def check(self, source, targets, *, calls=2, repeat_eager=True):
        import oracle

        self.checked.extend(targets)
        kind = lambda t: "hang" if t != "eager" and self.hangs(source, 4 * self.timeout) else "ok"  # noqa: E731
        return oracle.ProgramReport({t: oracle.Verdict(kind(t), "", kind(t)) for t in targets}, False, {}, 0.0,
                                    "returned")

    def run(self, source, target, calls=1, timeout=None, **kwargs):
        if target.kind == "eager":
            return {"calls": [{"exception": None, "value": 0, "torch_state": {}}] * calls}
        timeout = timeout if self.honour and timeout is not None else self.timeout
        self.timeouts.append(timeout)
        if not self.hangs(source, timeout):
            return {"calls": []}
        self.kept += 1
        return {"hang": timeout}

    def recheck(self, source, target, signature, times, **kwargs):
        """``fuzz.reduce._oracle.recheck`` for this runner: a fresh full check, ``times`` times."""
        hung = self.hangs(source, 4 * self.timeout)
        self.rechecked.append((source, hung))
        return times if hung else 0


def _hang_program(calls: str) -> str:
    body = "".join(f"    x = x + {k}\n" for k in range(12))
    return (f"import torch\n\n\ndef spin():\n    pass\n\n\ndef crawl():\n    pass\n\n\ndef entry(x):\n{body}"
            f"{calls}    return x\n\n\ndef make_inputs(device):\n    return (torch.ones(1),)\n")


def test_a_hang_reduction_runs_its_candidates_with_short_timeouts_and_goes_far_within_its_budget(monkeypatch):
    # each kept candidate waits out a short timeout, not the full one: the campaign's budget of waiting takes a
    # reduction to its fixpoint where four full timeouts (the old cap) stopped it after four kept candidates
    from fuzz.campaign.reductions import HANG_WAIT_S
    from fuzz.reduce import _oracle
    from fuzz.reduce._oracle import reduce_program

    program = _hang_program("    spin()\n")
    runner = _HangingRunner()
    monkeypatch.setattr(_oracle, "recheck", runner.recheck)
    result = reduce_program(program, "torch", signature="hang", budget_s=600.0, runner=runner, rechecks=1,
                            hang_wait_s=HANG_WAIT_S, cheaper=False)
    assert result.stopped == "fixpoint" and result.lines <= 8 < result.original_lines
    assert "spin()" in result.source and (result.rechecks, result.reproduced) == (1, 1)  # under the full rule
    assert runner.kept > 4 and max(runner.timeouts) < runner.timeout
    assert runner.checked and all(t == "eager" for t in runner.checked)  # the given hang is not re-confirmed
    # the same budget when every kept candidate waits out the full timeout: four of them, cut short far above
    slow = _HangingRunner(honour_timeouts=False)
    monkeypatch.setattr(_oracle, "recheck", slow.recheck)
    cut = reduce_program(program, "torch", signature="hang", budget_s=600.0, runner=slow, rechecks=1,
                         hang_wait_s=4 * slow.timeout, cheaper=False)
    assert cut.stopped == "timeouts" and slow.kept == 4 and cut.lines > result.lines


def test_a_hang_reduced_to_a_program_only_slow_falls_back_to_a_candidate_confirmed_under_the_full_rule(monkeypatch):
    # the program hangs through crawl() with its last `x = x + 11`; crawl() without it is slow, not hung: past the
    # short timeout, well within the full one. The reduction's fixpoint under short timeouts (crawl() alone) is no
    # hang under the full rule: it is not reported; a kept candidate that hangs under the full rule is, cut short
    from fuzz.reduce import _oracle
    from fuzz.reduce._oracle import reduce_program
    from oracle import ProgramFile

    def code(source):
        return ProgramFile.parse(source).code.strip()

    program = _hang_program("    crawl()\n")
    runner = _HangingRunner(crawl_s=40.0, hang_needs=("crawl()", "x = x + 11\n"))
    monkeypatch.setattr(_oracle, "recheck", runner.recheck)
    result = reduce_program(program, "torch", signature="hang", budget_s=600.0, runner=runner, rechecks=1,
                            hang_wait_s=600.0, cheaper=False)
    assert result.stopped == "unconfirmed" and result.lines < result.original_lines
    assert "x = x + 11" in result.source and "crawl()" in result.source and result.reproduced == 1
    # the result is a candidate that a fresh full check called a hang, after the final one that did not
    confirmed = [code(src) for src, hung in runner.rechecked if hung]
    assert not runner.rechecked[0][1] and confirmed and code(result.source) == confirmed[-1]
    # no smaller candidate hangs under the full rule: the original stands
    alone = _HangingRunner(crawl_s=40.0, hang_needs=("crawl()", "never()"))
    monkeypatch.setattr(_oracle, "recheck", alone.recheck)
    kept = reduce_program(program, "torch", signature="hang", budget_s=600.0, runner=alone, rechecks=1,
                          hang_wait_s=600.0, cheaper=False)
    assert kept.stopped == "unconfirmed" and kept.lines == kept.original_lines and kept.reproduced == 0


def test_short_timeouts_follow_the_compile_times_of_the_candidates_that_finished():
    from fuzz.reduce._hang import HANG_FLOOR_S, short_timeout

    assert short_timeout(0.01, [], 60.0) == 30.0  # nothing measured yet: half the full timeout
    assert short_timeout(0.01, [0.2], 60.0) == HANG_FLOOR_S
    assert short_timeout(2.0, [0.2], 60.0) == 8.0  # a slow eager run: four times it
    assert short_timeout(0.01, [4.0, 2.5], 60.0) == 12.0  # three times the slowest compile
    assert short_timeout(0.01, [25.0], 60.0) == 30.0


def test_the_fallback_bisects_the_kept_candidates_for_the_smallest_confirmed_one():
    from fuzz.reduce._hang import smallest_confirmed

    asked = []

    def confirm(source):
        asked.append(source)
        return int(source) >= 5  # the kept candidates, largest first: 9..5 hang, 4..0 only slow

    assert smallest_confirmed([str(n) for n in range(9, -1, -1)], confirm, tries=4) == "5" and len(asked) == 3
    assert smallest_confirmed(["4", "3"], confirm) is None
    assert smallest_confirmed([], confirm) is None
