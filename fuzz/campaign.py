"""Campaigns: generate programs, check them against targets in parallel, bucket and keep what differs.

A campaign's directory holds ``state.json`` (rewritten atomically after every program, so an interrupted campaign
resumes where it stopped), one repro file per bucket, and ``summary.json`` at the end. A bucket is
(target spec, verdict signature); its repro is the first program that showed it, with a header saying so.
"""

from __future__ import annotations

import collections
import dataclasses
import json
import os
import threading
import time
from collections.abc import Callable
from pathlib import Path

from .bias import Bias, weights_header
from .programfile import set_header, slug

__all__ = ["CampaignConfig", "Campaign", "Bucket", "CampaignError", "root_cause"]

STATE_VERSION = 1


def root_cause(signature: str, shape: str | None = None) -> str | None:
    """The second bucketing: which buckets are one bug, whatever target showed them and on which call.

    A crash (or hang) is named by its exception type and innermost compiler frame, which pins the bug on its own:
    ``crash:second_call:E@f`` on aot_eager and ``crash:E@f`` on torch are one root cause. A mismatch only says
    what differed, so it also needs the shape of its reduced repro (``shape``; None before reduction: no root
    cause yet, the bucket counts alone).
    """
    kind, _, rest = signature.partition(":")
    rest = rest.removeprefix("second_call:")
    if kind in ("crash", "hang"):
        return f"{kind}:{rest}"
    return f"{kind}:{rest}|{shape}" if shape else None


class _StoppableRunner:
    """The campaign's runner as the reducer sees it: once the campaign stops (Ctrl-C, budget), every further check
    interrupts the reduction, which then returns its best so far at once instead of running out its budget."""

    def __init__(self, runner, stop: threading.Event):
        self._runner, self._stop = runner, stop

    def check(self, *args, **kwargs):
        if self._stop.is_set():
            raise KeyboardInterrupt
        return self._runner.check(*args, **kwargs)

    def __getattr__(self, name):
        return getattr(self._runner, name)


class CampaignError(Exception):
    """A campaign that cannot start (e.g. its directory holds a different campaign)."""


@dataclasses.dataclass(frozen=True)
class CampaignConfig:
    targets: tuple[str, ...]
    out: Path
    programs: int | None = None  # stop after this many programs ...
    seconds: float | None = None  # ... or after this much wall time (whichever comes first)
    workers: int = 1
    seed: int = 0
    timeout: float = 60.0
    reduce_seconds: float = 0.0  # > 0: reduce each new bucket's repro within this budget (keeps its signature)
    bias: bool = False  # lean generation weights toward what produced new signatures or unusual compiler behaviour

    def identity(self) -> dict:
        """What must match for a directory's state to be resumed."""
        identity = {"targets": list(self.targets), "seed": self.seed}
        if self.bias:
            identity["bias"] = True
        return identity

    @property
    def found_by(self) -> str:
        return f"ngb-fuzz run --seed {self.seed}" + (" --bias" if self.bias else "")


@dataclasses.dataclass
class Bucket:
    target: str
    signature: str
    count: int
    repro: str  # file name inside the campaign directory
    first_program: int
    lines: int | None = None  # code lines of the repro once reduced
    root_cause: str | None = None  # buckets sharing it are one bug (second bucketing; see root_cause())
    same_as: str | None = None  # repro of the earlier bucket with this root cause (then not reduced again)


class Campaign:
    def __init__(self, config: CampaignConfig, runner, generate: Callable | None = None,
                 on_progress: Callable[[Campaign], None] | None = None,
                 on_new_bucket: Callable[[Bucket, str], None] | None = None,
                 on_reduced: Callable[[Bucket], None] | None = None,
                 check: Callable | None = None,
                 on_recorded: Callable[[int, object], None] | None = None):
        # check(source, targets) -> ProgramReport is how a program is dispatched: the runner itself by default,
        # or a fuzz.cluster.Dispatcher (a thread pool here, or Dask workers). Reduction always uses ``runner``.
        # on_recorded(index, report) sees each program once it is recorded (the timeline's per-program figures).
        self._check = check if check is not None else runner.check
        self.on_recorded = on_recorded
        if generate is None:
            from .generate import generate_program as generate
        self.config, self.runner, self.generate = config, runner, generate
        self.on_progress, self.on_new_bucket, self.on_reduced = on_progress, on_new_bucket, on_reduced
        self.verdicts: collections.Counter = collections.Counter()
        self.features: collections.Counter = collections.Counter()  # programs per feature tag
        self.families: collections.Counter = collections.Counter()  # programs per feature family
        self.stats: collections.Counter = collections.Counter()
        self.break_reasons: collections.Counter = collections.Counter()  # "spec: reason" -> programs
        self.bias = Bias() if config.bias else None
        self.buckets: dict[tuple[str, str], Bucket] = {}
        self.completed: set[int] = set()
        self.previous_seconds = 0.0
        self.started = time.monotonic()
        self._lock = threading.Lock()
        self._stop = threading.Event()
        self._next = 0
        self._in_flight = 0  # programs taken but not yet recorded
        self._errors: list[BaseException] = []  # raised in worker threads, re-raised by run()
        config.out.mkdir(parents=True, exist_ok=True)
        self._load_state()

    # -- state on disk ---------------------------------------------------------------------------------------
    @property
    def state_path(self) -> Path:
        return self.config.out / "state.json"

    def _load_state(self) -> None:
        if not self.state_path.exists():
            return
        state = json.loads(self.state_path.read_text())
        if state.get("identity") != self.config.identity():
            raise CampaignError(
                f"{self.config.out} holds another campaign ({state.get('identity')}); use a new --out directory")
        self.completed = set(state["completed"])
        self.verdicts.update(state["verdicts"])
        self.features.update(state["features"])
        self.families.update(state.get("families", {}))
        self.stats.update(state.get("stats", {}))
        self.break_reasons.update(state.get("break_reasons", {}))
        if self.bias is not None:
            self.bias.load_json(state.get("bias", {}))
        self.previous_seconds = state["seconds"]
        for b in state["buckets"]:
            bucket = Bucket(**b)
            self.buckets[(bucket.target, bucket.signature)] = bucket

    def _state(self) -> dict:
        return {
            "version": STATE_VERSION, "identity": self.config.identity(), "completed": sorted(self.completed),
            "verdicts": dict(self.verdicts), "features": dict(self.features),
            "families": dict(self.families), "stats": dict(self.stats),
            "break_reasons": dict(self.break_reasons), "seconds": self.seconds,
            "buckets": [dataclasses.asdict(b) for b in self.buckets.values()],
            **({"bias": self.bias.to_json()} if self.bias is not None else {}),
        }

    def _write_json(self, path: Path, data: dict) -> None:
        tmp = path.with_suffix(".tmp")
        tmp.write_text(json.dumps(data, indent=1, sort_keys=True))
        os.replace(tmp, path)

    # -- progress --------------------------------------------------------------------------------------------
    @property
    def seconds(self) -> float:
        return self.previous_seconds + (time.monotonic() - self.started)

    @property
    def programs(self) -> int:
        return len(self.completed)

    def summary(self) -> dict:
        with self._lock:
            return {
                "programs": self.programs,
                "verdicts": dict(self.verdicts),
                "buckets": [{"signature": b.signature, "target": b.target, "count": b.count, "repro": b.repro,
                             "first_program": b.first_program, "lines": b.lines, "root_cause": b.root_cause,
                             "same_as": b.same_as}
                            for b in self.buckets.values()],
                "root_causes": len({b.root_cause or f"{b.target}|{b.signature}" for b in self.buckets.values()}),
                "seconds": round(self.seconds, 3),
                "features": dict(self.features.most_common()),
                "families": dict(self.families.most_common()),
                "target_stats": dict(self.stats),
                "break_reasons": dict(self.break_reasons.most_common()),
                **({"bias": {"events": dict(self.bias.events), "boosted_now": dict(list(self.bias.boosts().items())[:15])}}
                   if self.bias is not None else {}),
                "seed": self.config.seed,
                "targets": list(self.config.targets),
            }

    def stop(self) -> None:
        """Ask the campaign to stop; programs in flight are discarded, never half-recorded."""
        self._stop.set()

    # -- the loop --------------------------------------------------------------------------------------------
    def _take_index(self) -> int | None:
        with self._lock:
            if self._stop.is_set() or self._budget_spent(in_flight=True):
                return None
            while self._next in self.completed:
                self._next += 1
            index, self._next = self._next, self._next + 1
            self._in_flight += 1
            return index

    def _budget_spent(self, in_flight: bool = False) -> bool:
        taken = self.programs + (self._in_flight if in_flight else 0)
        if self.config.programs is not None and taken >= self.config.programs:
            return True
        return self.config.seconds is not None and time.monotonic() - self.started >= self.config.seconds

    def _worker_loop(self) -> None:
        while (index := self._take_index()) is not None:
            program = None
            try:
                if self.bias is None:
                    program = self.generate(self.config.seed, index)
                else:
                    with self._lock:
                        weights = self.bias.config()
                    program = self.generate(self.config.seed, index, weights)
                report = self._check(program.source, self.config.targets)
            except Exception as exc:  # a bug of ngb-fuzz itself (generator, harness): keep it, keep going
                if not self._stop.is_set():
                    self._harness_error(index, program, exc)
                continue
            except BaseException:
                self._stop.set()
                raise
            finally:
                with self._lock:
                    self._in_flight -= 1
            if self._stop.is_set():
                return  # the runner may have been torn down under this program: its report means nothing
            self._record(index, program, report)

    def _harness_error(self, index: int, program, exc: Exception) -> None:
        """Count the program as 'error' and keep what is needed to debug ngb-fuzz: never a finding."""
        folder = self.config.out / "harness-errors"
        folder.mkdir(exist_ok=True)
        text = f"# ngb-fuzz harness error on program {index} (seed {self.config.seed})\n# " + \
            "\n# ".join(f"{type(exc).__name__}: {exc}".splitlines()[-30:]) + "\n"
        if program is not None:
            text += program.source
        (folder / f"{index:06d}.py").write_text(text)
        with self._lock:
            self.completed.add(index)
            self.verdicts["error"] += 1
            self._write_json(self.state_path, self._state())

    def _record(self, index: int, program, report) -> None:
        new, repeats = [], 0
        with self._lock:
            self.completed.add(index)
            self.features.update(program.features)
            self.families.update({tag.split(".", 1)[0] for tag in program.features})
            for spec, verdict in report.verdicts.items():
                self.verdicts[verdict.kind] += 1
                for key, value in report.stats.get(spec, {}).items():
                    if key == "break_reasons":
                        self.break_reasons.update(f"{spec}: {reason}" for reason in value)
                    else:
                        self.stats[f"{spec}.{key}"] += value
                if not verdict.is_finding:
                    continue
                bucket = self.buckets.get((spec, verdict.signature))
                if bucket is None:
                    name = f"{len(self.buckets) + 1:03d}-{slug(verdict.signature)}-{slug(spec, 30)}.py"
                    cause = root_cause(verdict.signature)
                    earlier = next((b for b in self.buckets.values() if cause and b.root_cause == cause), None)
                    bucket = Bucket(spec, verdict.signature, 0, name, index, root_cause=cause,
                                    same_as=earlier.repro if earlier else None)
                    self.buckets[(spec, verdict.signature)] = bucket
                    new.append((bucket, self._repro_source(program, spec, verdict, index)))
                if bucket.count or bucket.same_as:  # nothing new: a bucket, or a root cause, seen before
                    repeats += 1
                bucket.count += 1
            if self.bias is not None:
                fresh = sum(1 for bucket, _ in new if bucket.same_as is None)
                for event in self.bias.observe(program.features, report.stats, fresh, repeats):
                    self.stats[f"bias.{event}"] += 1
            for bucket, source in new:
                (self.config.out / bucket.repro).write_text(source)
            self._write_json(self.state_path, self._state())
        if self.on_recorded:
            self.on_recorded(index, report)
        for bucket, source in new:
            if self.on_new_bucket:
                self.on_new_bucket(bucket, source)
            if self.config.reduce_seconds > 0 and not self._stop.is_set() and bucket.same_as is None:
                self._reduce(bucket, source, program)
        if self.on_progress:
            self.on_progress(self)

    def _reduce(self, bucket: Bucket, source: str, program) -> None:
        """Shrink a new bucket's repro in place (the original stays as ``*.orig.py``) and find its root cause."""
        from .corpus import shape_key
        from .reduce import ReduceError, reduce_program

        try:
            result = reduce_program(source, bucket.target, signature=bucket.signature,
                                    runner=_StoppableRunner(self.runner, self._stop),
                                    budget_s=self.config.reduce_seconds, rechecks=1, timeout=self.config.timeout,
                                    ir=getattr(program, "ir", None))
        except ReduceError:
            return
        if self._stop.is_set() or result.reproduced < 1:
            return  # interrupted, or the reduced program no longer reproduces in a fresh process: keep original
        header = dict(found_by=f"{self.config.found_by} (program {bucket.first_program}), reduced")
        reduced = set_header(result.source, **header)
        path = self.config.out / bucket.repro
        with self._lock:
            path.with_suffix(".orig.py").write_text(path.read_text())
            path.write_text(reduced)
            bucket.lines = result.lines
            bucket.root_cause = root_cause(bucket.signature, shape_key(reduced))
            self._write_json(self.state_path, self._state())
        if self.on_reduced:
            self.on_reduced(bucket)

    def _repro_source(self, program, spec: str, verdict, index: int) -> str:
        source = set_header(
            program.source, signature=verdict.signature, target=spec,
            found_by=f"{self.config.found_by} (program {index})",
            features=" ".join(sorted(program.features)),
            weights=weights_header(program.config) if getattr(program, "config", None) else None,
        )
        return source

    def run(self) -> dict:
        """Run until the budget is spent or ``stop()``; returns the summary (also written to summary.json)."""
        self.started = time.monotonic()
        threads = [threading.Thread(target=self._guarded_loop, daemon=True, name=f"campaign-{i}")
                   for i in range(self.config.workers)]
        for t in threads:
            t.start()
        try:
            while any(t.is_alive() for t in threads):
                for t in threads:
                    t.join(timeout=0.2)
                if self.on_progress:
                    self.on_progress(self)
        finally:
            self._stop.set()
            self.finish()
        if self._errors:
            raise self._errors[0]
        return self.summary()

    def _guarded_loop(self) -> None:
        try:
            self._worker_loop()
        except BaseException as exc:  # noqa: BLE001 - re-raised in the main thread by run()
            self._errors.append(exc)

    def finish(self) -> dict:
        summary = self.summary()
        with self._lock:
            self._write_json(self.state_path, self._state())
            self._write_json(self.config.out / "summary.json", summary)
        return summary
