"""pytest plugin (entry point ``pytest11``): corpus files as tests, the ``ngb_check`` fixture, fuzz smoke runs.

Thin by design: it registers options and imports the oracle (and with it torch) only when one of them is used:

- ``--ngb-corpus DIR``: every program file under DIR becomes one test per ``--ngb-target`` (default ``torch``).
  The test passes when the target's verdict is ``ok``. Files the manifest lists as open bugs (NEW/KNOWN) on that
  target are ``xfail(strict=True)``: they xfail while the bug reproduces with its signature, and the test turns
  red when the bug is fixed (XPASS) until the manifest says FIXED, or when it fails with another signature.
  On the same target on another device or interpreter (``torch:device=cuda`` or ``torch:python=PATH`` for an
  entry recorded on ``torch``) the bug is expected too, but not insisted on: it xfails while it shows with its
  signature, a pass is a plain XPASS (the manifest does not say the bug shows there, and another torch may
  have fixed it), another signature fails.
  An entry whose manifest ``requires`` (``torch>=2.15``) the target's interpreter does not meet is skipped.
  A corpus cannot shrink silently: a manifest entry whose file is gone, a file the manifest lacks, and a file
  that does not load (or whose eager run fails or is flaky) are failing tests, never skips.
- ``--ngb-fuzz N``: N generated programs (``--ngb-seed``) as tests; each must be ``ok`` on every target.
- ``ngb_check(fn, *inputs, targets=("torch",))``: writes ``fn`` into a program file (its source via ``inspect``,
  plus the module-level functions, constants and imports it reads, and the inputs as literals) and checks that
  file in a worker process, like any other program. Fails the test on a finding, naming the written file
  (a standalone repro). ``fn`` must be a ``def`` whose globals are modules, functions with source, or plain
  data; anything else fails the test with the reason. Why a program file rather than an in-process check: the
  oracle then observes exactly what it observes for generated programs, in an isolated worker (a compiler
  crash or leaked torch state cannot take the test session down), and the file is the repro to paste.

Every process (each xdist worker too) starts one oracle ``Runner`` on first use and closes it at exit.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

import pytest

if TYPE_CHECKING:  # annotations only: the plugin imports none of these unless an option uses them
    import os
    from collections.abc import Callable, Iterator, Sequence
    from pathlib import Path

    from _pytest._code.code import TerminalRepr, TracebackStyle

    from fuzz.corpus.manifest import Entry
    from oracle import ProgramReport, Runner, Verdict

_DEFAULT_TARGET = "torch"
_RUNNER: Runner | None = None


def pytest_addoption(parser: pytest.Parser) -> None:
    group = parser.getgroup("ngb-fuzz", "ngb-fuzz differential checks")
    group.addoption("--ngb-corpus", action="append", default=[], metavar="DIR",
                    help="collect every repro file under DIR as a test")
    group.addoption("--ngb-target", action="append", default=[], metavar="SPEC",
                    help="target spec to check corpus files against (repeatable; default: torch)")
    group.addoption("--ngb-fuzz", type=int, default=0, metavar="N",
                    help="run a fuzz smoke test of N generated programs")
    group.addoption("--ngb-seed", type=int, default=0, metavar="SEED", help="seed of --ngb-fuzz programs")
    group.addoption("--ngb-timeout", type=float, default=120.0, metavar="S",
                    help="seconds before a program counts as hanging")


def _targets(config: pytest.Config) -> list[str]:
    specs = config.getoption("ngb_target") or [_DEFAULT_TARGET]
    import oracle

    try:
        return oracle.resolve_targets(specs)
    except oracle.TargetError as exc:
        raise pytest.UsageError(f"--ngb-target {exc.spec}: {exc}") from None


def _runner(config: pytest.Config) -> Runner:
    global _RUNNER
    if _RUNNER is None:
        import oracle

        _RUNNER = oracle.Runner(workers=1, timeout=config.getoption("ngb_timeout"))
    return _RUNNER


def pytest_unconfigure(config: pytest.Config) -> None:
    global _RUNNER
    if _RUNNER is not None:
        _RUNNER.close()
        _RUNNER = None


@pytest.hookimpl(tryfirst=True)
def pytest_collection_modifyitems(session: pytest.Session, config: pytest.Config,
                                   items: list[pytest.Item]) -> None:
    # tryfirst: our items are in place before -k / -m deselection and xdist's ordering look at the list.
    corpora = config.getoption("ngb_corpus")
    smoke = config.getoption("ngb_fuzz")
    if not corpora and not smoke:
        return
    targets = _targets(config)
    base = config.invocation_params.dir
    for directory in corpora:
        root = (base / directory).resolve()
        if not root.is_dir():
            raise pytest.UsageError(f"--ngb-corpus {directory}: not a directory")
        from fuzz.corpus.manifest import Corpus, CorpusError

        try:
            store = Corpus(root)
        except CorpusError as exc:
            raise pytest.UsageError(f"--ngb-corpus {directory}: {exc}") from None
        for path in store.files():
            node = CorpusFile.from_parent(session, path=path)
            node.entry = store.entry_for(path)
            node.targets = targets
            items.extend(node.collect())
        if (root / "manifest.json").exists():
            for file, why in store.problems():
                items.append(CorpusProblem.from_parent(session, name=f"{directory}/{file}", why=why))
    if smoke:
        run = SmokeRun.from_parent(session, name="ngb-fuzz-smoke")
        run.count, run.seed, run.targets = smoke, config.getoption("ngb_seed"), targets
        items.extend(run.collect())


class NgbFinding(Exception):
    """A target's verdict was not ``ok``."""

    def __init__(self, target: str, verdict: Verdict, replay: str) -> None:
        super().__init__(verdict.signature)
        self.target, self.verdict, self.replay = target, verdict, replay

    def render(self) -> str:
        v = self.verdict
        return f"{v.kind} on {self.target}: {v.signature}\n{v.detail}\nreplay: {self.replay}"


class KnownBugReproduced(NgbFinding):
    """An open corpus bug still shows its signature (the expected xfail)."""


class CorpusFile(pytest.File):
    entry: Entry | None = None
    targets: list[str] = []

    def collect(self) -> Iterator[pytest.Item]:
        for target in self.targets:
            entry = self.entry
            expected = entry is not None and _expected_on(entry, target)
            item = CorpusItem.from_parent(self, name=target, target=target,
                                          expect=entry.signature if expected and entry else "ok")
            why = _requires_unmet(entry, target)
            if why and entry is not None:
                item.skip_reason = f"{entry.file}: {entry.status} bug that {why}"
            elif expected and entry is not None:
                elsewhere = "" if entry.target == target else f", recorded on {entry.target}"
                item.add_marker(pytest.mark.xfail(
                    strict=entry.target == target, raises=KnownBugReproduced,
                    reason=f"known bug ({entry.status} in the manifest{elsewhere}): {entry.signature}"))
            yield item


def _requires_unmet(entry: Entry | None, target: str) -> str:
    """Why ``target``'s interpreter is not one ``entry``'s bug shows on (its manifest ``requires``), or ''."""
    if entry is None or not entry.requires:
        return ""
    from fuzz.corpus.requires import target_versions, unmet

    return unmet(entry.requires, *target_versions(target))


def _expected_on(entry: Entry | None, target: str) -> bool:
    """Whether ``entry`` is an open bug expected on ``target``: the target it was recorded on, on any device and
    interpreter."""
    if entry is None or not entry.is_open:
        return False
    if entry.target == target:
        return True
    import dataclasses

    import oracle

    try:
        recorded = oracle.parse_target(entry.target)
    except oracle.TargetError:
        return False  # a manifest target this install does not know: the entry's own target never runs here

    def setup(spec: oracle.Target) -> object:  # what the compiler is asked to do, wherever it runs
        return dataclasses.replace(spec, device="cpu", python=None)

    return setup(recorded) == setup(oracle.parse_target(target))


class CorpusProblem(pytest.Item):
    """A manifest entry without its file, or a file without an entry: the corpus would shrink silently."""

    def __init__(self, *, why: str, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self.why = why

    def runtest(self) -> None:
        pytest.fail(f"{self.name}: {self.why}", pytrace=False)

    def reportinfo(self) -> tuple[os.PathLike[str] | str, int | None, str]:
        return self.name, None, self.name


def _check(config: pytest.Config, source: str, target: str, replay: str, expect: str = "ok",
           strict: bool = False) -> ProgramReport:
    """``strict`` (corpus files): a program that cannot be compared fails instead of skipping."""
    __tracebackhide__ = True
    report = _runner(config).check(source, [target])
    skip: Callable[[str], Any] = (lambda reason: pytest.fail(reason, pytrace=False)) if strict else pytest.skip
    verdict = report.verdicts[target]
    if report.flaky:
        skip(f"flaky program: {verdict.detail or 'two eager runs disagree'}")
    if verdict.kind == "skip":
        skip(f"{target} could not check the program: {verdict.detail}")
    if verdict.kind != "ok":
        if expect != "ok" and verdict.signature == expect:
            raise KnownBugReproduced(target, verdict, replay)
        raise NgbFinding(target, verdict, replay)
    return report


class _NgbItem(pytest.Item):
    def repr_failure(self, excinfo: pytest.ExceptionInfo[BaseException],
                     style: TracebackStyle | None = None) -> str | TerminalRepr:
        if isinstance(excinfo.value, NgbFinding):
            return excinfo.value.render()
        return super().repr_failure(excinfo, style)


class CorpusItem(_NgbItem):
    skip_reason = ""  # the entry's bug does not show on this target's torch/Python (its manifest ``requires``)

    def __init__(self, *, target: str, expect: str = "ok", **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self.target, self.expect = target, expect  # expect: the open bug's signature, or "ok"

    def runtest(self) -> None:
        if self.skip_reason:
            pytest.skip(self.skip_reason)
        from fuzz.commands import replay_command
        from oracle import read_program_text

        replay = replay_command(self.path, self.target)
        _check(self.config, read_program_text(self.path), self.target, replay, self.expect, strict=True)

    def reportinfo(self) -> tuple[os.PathLike[str] | str, int | None, str]:
        return self.path, None, f"{self.path.name} on {self.target}"


class SmokeRun(pytest.Collector):
    count = 0
    seed = 0
    targets: list[str] = []

    def collect(self) -> Iterator[pytest.Item]:
        for index in range(self.count):
            for target in self.targets:
                yield SmokeItem.from_parent(self, name=f"program{index}-{target}", index=index, target=target,
                                            seed=self.seed)


class SmokeItem(_NgbItem):
    def __init__(self, *, index: int, target: str, seed: int, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self.index, self.target, self.seed = index, target, seed

    def runtest(self) -> None:
        from fuzz.program.generate import generate_program

        seed = self.seed
        program = generate_program(seed, self.index)
        replay = f"ngb-fuzz run --seed {seed} (program {self.index}) --target {self.target}"
        _check(self.config, program.source, self.target, replay)

    def reportinfo(self) -> tuple[os.PathLike[str] | str, int | None, str]:
        return "ngb-fuzz-smoke", None, f"generated program {self.index} (seed {self.seed}) on {self.target}"


# -----------------------------------------------------------------------------------------------------------------
# ngb_check: a user's function as a program file


@pytest.fixture
def ngb_check(request: pytest.FixtureRequest, tmp_path: Path) -> Callable[..., ProgramReport]:
    """``ngb_check(fn, *inputs, targets=("torch",), wants_grad=False)`` -> ``oracle.ProgramReport``.

    Checks ``fn(*inputs)`` under eager and each target (two calls each, as for any program) and fails the test
    on a mismatch, crash or hang. The program file it writes (``tmp_path``) is a standalone repro.
    """
    counter = [0]

    def check(fn: Callable[..., Any], *inputs: Any, targets: Sequence[str] = (_DEFAULT_TARGET,),
              wants_grad: bool = False) -> ProgramReport:
        __tracebackhide__ = True
        import oracle

        try:
            source = oracle.program_for(fn, inputs, wants_grad=wants_grad) + "\n\n" + oracle.standalone_footer()
            specs = [oracle.parse_target(t).spec for t in targets]
        except (oracle.ProgramWriteError, oracle.TargetError) as exc:
            pytest.fail(f"ngb_check: {exc}", pytrace=False)
        counter[0] += 1
        path = tmp_path / f"ngb_check_{fn.__name__}_{counter[0]}.py"
        path.write_text(source)
        report = _runner(request.config).check(source, specs)
        if report.flaky:
            why = next((v.detail for v in report.verdicts.values() if v.kind == "flaky" and v.detail),
                       "two eager runs disagree (non-deterministic)")
            pytest.fail(f"ngb_check: {fn.__name__} is flaky: {why}; program: {path}", pytrace=False)
        bad = {t: v for t, v in report.verdicts.items() if v.kind not in ("ok", "skip")}
        if bad:
            text = "\n".join(f"{v.kind} on {t}: {v.signature}\n{v.detail}" for t, v in bad.items())
            from fuzz.commands import replay_command

            pytest.fail(f"ngb_check({fn.__name__}): {text}\nprogram: {path}\nreplay: "
                        f"{replay_command(path, next(iter(bad)))}", pytrace=False)
        return report

    return check
