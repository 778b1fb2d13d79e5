"""Campaigns: generate programs, check them against targets in parallel, bucket and keep what differs.

A campaign's directory (``fuzz.campaign.directory``) holds its state: a journal line per completed program and a
compact snapshot, so an interrupted campaign (any signal, SIGKILL, a full disk) resumes where it stopped and
loses at most the programs in flight; one repro file per bucket, never overwritten; ``summary.json`` at the end.
A bucket is (target spec, verdict signature); its repro is the first program that showed it, with a header
saying so.
"""

from __future__ import annotations

import collections
import contextlib
import dataclasses
import sys
import threading
import time
from collections.abc import Callable
from pathlib import Path

from fuzz.campaign.bucket import Bucket
from fuzz.campaign.directory import CampaignDir, CampaignError, IndexSet, StorageError
from fuzz.campaign.files import check_files, partial_lines
from fuzz.campaign.naming import Naming
from fuzz.campaign.reductions import RECORDED, Reductions
from fuzz.program.features import GenerationConfig
from fuzz.triage.rootcause import pins_bug, root_cause
from oracle import FoundBy, set_header, slug, with_footer

from .avoid import known_shares
from .bias import Bias, weights_header

__all__ = ["CampaignConfig", "Campaign", "Bucket", "CampaignError", "StorageError", "oldest_python", "root_cause"]

SNAPSHOT_EVERY = 1000  # journal lines between snapshots: bounds the journal a resume replays


@dataclasses.dataclass(frozen=True)
class CampaignConfig:
    targets: tuple[str, ...]
    out: Path
    programs: int | None = None  # stop after this many programs ...
    seconds: float | None = None  # ... or this much campaign time, counted across resumes (whichever first)
    workers: int = 1
    seed: int = 0
    timeout: float = 60.0
    reduce_seconds: float = 0.0  # > 0: reduce each new bucket's repro within this budget (keeps its signature)
    bias: bool = False  # lean generation weights toward what produced new signatures or unusual compiler behaviour
    # the user's --weight NAME=W: catalog weights overridden by feature or family (sorted pairs, so it hashes)
    weights: tuple[tuple[str, float], ...] = ()

    def identity(self) -> dict:
        """What must match for a directory's state to be resumed."""
        identity: dict = {"targets": list(self.targets), "seed": self.seed}
        if self.bias:
            identity["bias"] = True
        if self.weights:
            identity["weights"] = dict(self.weights)
        return identity

    def found_by(self, program: int) -> FoundBy:
        """The ``# found-by:`` of this campaign's program ``program``."""
        return FoundBy.generated(self.seed, program, self.bias, self.weights)

    def generation(self) -> GenerationConfig | None:
        """The generator's weights before known-bug avoidance and --bias (the catalog's, or the user's), and its
        Python: the oldest of the targets' interpreters, so every target parses every program (None: the
        catalog's weights, for this interpreter's Python)."""
        python = oldest_python(self.targets)
        if not self.weights and python == sys.version_info[:2]:
            return None
        return GenerationConfig(dict(self.weights), python=python)


def oldest_python(targets) -> tuple[int, int]:
    """The oldest Python among the interpreters of ``targets`` (specs; one without ``python=`` runs here): what
    the generator may write for, since eager and each target run in the target's own interpreter. A spec or an
    interpreter that cannot be read counts as this one (the target itself is refused where it is checked)."""
    return min((_python_of(spec) for spec in targets), default=sys.version_info[:2])


def _python_of(spec: str) -> tuple[int, int]:
    from fuzz.corpus.requires import target_versions
    from oracle import TargetError, parse_target

    try:
        if parse_target(spec).python is None:  # this interpreter: no torch import needed to know it
            return sys.version_info[:2]
        major, minor = target_versions(spec)[1].split(".")  # asked of the interpreter once per spec
        return int(major), int(minor)
    except (TargetError, ValueError):
        return sys.version_info[:2]


SLOTS_EVERY_S = 5.0  # how often a campaign on a cluster asks whether workers joined
# Under a time budget the reductions after fuzzing stop this long after the budget (a share of it, at least a
# minute): what each reduction is given follows the time left, but a slow compile's or a hang's re-check under the
# full rule waits out minutes on top (a torch 2.10 campaign of 20 minutes ended after 26). Those in flight then are
# left as they were, for ``reduce --campaign`` or the next run.
END_GRACE_S, END_GRACE_SHARE = 60.0, 0.05
# Seconds a stopping campaign waits for its reductions in flight to return (each does at its next check), so an
# interrupted one keeps the smallest program it reached for its next round (``Reductions.settle``).
SETTLE_S = 5.0


class Campaign:
    """One fuzzing campaign in one directory: generate programs (seed, index), check each on the targets, bucket
    the findings by (signature, target), write one repro per bucket and reduce it, and keep a state that any
    stop can resume from.

    Owns: the directory (``fuzz.campaign.directory.CampaignDir``: lock, ``state.json``, ``journal.jsonl``,
    repro files), the counters (verdicts, features, families), the buckets and their reductions (a
    ``Reductions`` it holds), and the driver threads. ``run()`` fuzzes until the budget is spent or ``stop()``;
    ``finish()`` reduces what is left and returns the summary (``summary.json``). Callbacks (``on_progress``,
    ``on_new_bucket``, ``on_reduced``, ``on_notice``, ``on_recorded``) run outside the campaign's lock.
    Invariants: a program index is recorded at most once (a resumed run skips those done), and repro files
    are never overwritten, no two sharing a number."""

    def __init__(self, config: CampaignConfig, runner, generate: Callable | None = None,
                 on_progress: Callable[[Campaign], None] | None = None,
                 on_new_bucket: Callable[[Bucket, str], None] | None = None,
                 on_reduced: Callable[[Bucket], None] | None = None,
                 on_notice: Callable[[str], None] | None = None, known=None,
                 check: Callable | None = None,
                 on_recorded: Callable[[int, object], None] | None = None,
                 memory: Callable[[], dict] | None = None, avoid=None):
        # check(source, targets) -> ProgramReport is how a program is dispatched: the runner itself by default,
        # or a fuzz.campaign.cluster.Dispatcher (a thread pool here, or Dask workers). Reduction always uses ``runner``.
        # on_recorded(index, report) sees each program once it is recorded (the timeline's per-program figures).
        self.check = check  # None: runner.check
        # memory() -> {"workers": {name: MB}, "peak_rss_mb", ...} of the processes that check programs: the
        # dispatcher's (a cluster's workers), else the runner's
        self.memory_of_workers = memory
        # slots() -> how many programs can be checked at once now (a cluster's worker threads, which grow as
        # workers join); None: config.workers, fixed. Driver threads are added as it grows, never removed.
        self.slots: Callable[[], int] | None = None
        self.on_recorded = on_recorded
        if generate is None:
            from fuzz.program.generate import generate_program as generate
        self.config, self.runner, self.generate = config, runner, generate
        self.on_progress, self.on_new_bucket, self.on_reduced = on_progress, on_new_bucket, on_reduced
        self.known = known  # fuzz.triage.known.KnownBugs: findings with a corpus entry's root cause are KNOWN
        # fuzz.campaign.avoid.Avoidance: draw the shapes of open corpus bugs less (fixed weights, from the corpus alone)
        self.avoid = avoid if avoid else None
        self.base_config = avoid.config(config.generation()) if self.avoid else config.generation()
        self.verdicts: collections.Counter = collections.Counter()
        self.features: collections.Counter = collections.Counter()  # programs per feature tag
        self.families: collections.Counter = collections.Counter()  # programs per feature family
        self.stats: collections.Counter = collections.Counter()
        self.break_reasons: collections.Counter = collections.Counter()  # "spec: reason" -> programs
        self.skips: collections.Counter = collections.Counter()  # skip signature -> target runs ("skip:too-slow")
        self.bias = Bias(self.base_config) if config.bias else None
        self.buckets: dict[tuple[str, str], Bucket] = {}
        self.completed = IndexSet()
        self.previous_seconds = 0.0
        self.started = time.monotonic()
        self.storage_error: StorageError | None = None  # set when a write failed: the campaign stopped on it
        self._lock = threading.Lock()
        self._stop = threading.Event()
        self._next = 0
        self._in_flight = 0  # programs taken but not yet recorded
        self._errors: list[BaseException] = []  # raised in worker threads, re-raised by run()
        self._since_snapshot = 0
        self._finished = False
        self._spent_at_start = False  # the time budget was spent before this run: it only reduces
        self.dir = CampaignDir(config.out, on_notice=on_notice)
        self.reductions = Reductions(self)  # reduces the buckets, while fuzzing and after (fuzz.campaign.reductions)
        self.naming = Naming(self)  # names them against today's corpus (fuzz.campaign.naming)
        try:
            self._load_state()
            self.naming.rematch()
            # deleted repros restored (``lost``: those that could not be); files no bucket names, by bucket key
            self.lost_repros, self.untracked = check_files(self)
        except BaseException:
            self.dir.close()
            raise

    # -- state on disk ---------------------------------------------------------------------------------------
    @property
    def state_path(self) -> Path:
        return self.config.out / "state.json"

    def _load_state(self) -> None:
        snapshot, records = self.dir.load(self.config.identity())
        if snapshot is None:
            self.dir.write_snapshot(self._snapshot())  # --out is writable before the first program runs
            return
        try:
            self.completed = IndexSet.from_json(snapshot["completed"])
            self.verdicts.update(snapshot["verdicts"])
            self.features.update(snapshot["features"])
            self.families.update(snapshot.get("families", {}))
            self.stats.update(snapshot.get("stats", {}))
            self.break_reasons.update(snapshot.get("break_reasons", {}))
            self.skips.update(snapshot.get("skips", {}))
            if self.bias is not None:
                self.bias.load_json(snapshot.get("bias", {}))
            self.previous_seconds = float(snapshot["seconds"])
            for b in snapshot["buckets"]:
                if snapshot.get("version") == 1:  # before reductions were tracked: a reduced repro has its lines
                    b = {**b, "reduction": None if b.get("same_as") else ("done" if b.get("lines") else "pending")}
                bucket = Bucket(**b)
                self.buckets[(bucket.target, bucket.signature)] = bucket
            for record in records:
                self._apply(record)
        except (KeyError, TypeError, ValueError, AttributeError) as exc:
            raise CampaignError(f"{self.state_path} (or its journal) does not hold a campaign state this ngb-fuzz "
                                f"reads ({type(exc).__name__}: {exc}); move state.json and journal.jsonl away to "
                                "start afresh there, or use another --out") from None

    def _snapshot(self) -> dict:
        return {
            "identity": self.config.identity(), "completed": self.completed.to_json(),
            "verdicts": dict(self.verdicts), "features": dict(self.features),
            "families": dict(self.families), "stats": dict(self.stats),
            "break_reasons": dict(self.break_reasons), "skips": dict(self.skips), "seconds": self.seconds,
            "buckets": [dataclasses.asdict(b) for b in self.buckets.values()],
            **({"bias": self.bias.to_json()} if self.bias is not None else {}),
        }

    def _journal(self, record: dict) -> None:
        """Append ``record`` (under the lock), apply it, and snapshot now and then."""
        self.dir.append({**record, "t": round(self.seconds, 3)})
        self._apply(record)
        self._since_snapshot += 1
        if self._since_snapshot >= SNAPSHOT_EVERY:
            self._since_snapshot = 0
            self.dir.write_snapshot(self._snapshot())

    def _apply(self, record: dict) -> list[Bucket]:
        """Apply one journal record to the in-memory state (live, and when resuming); returns new buckets."""
        if "t" in record:
            self.previous_seconds = max(self.previous_seconds, record["t"])
        kind = record["k"]
        if kind == "reduced":
            bucket = next(b for b in self.buckets.values() if b.repro == record["repro"])
            for key in RECORDED:
                if key in record:
                    setattr(bucket, key, record[key])
            return []
        self.completed.add(record["i"])
        if kind == "error":
            self.verdicts["error"] += 1
            return []
        features = record["features"]
        self.features.update(features)
        if self.avoid is not None and self.avoid.matching(features):
            self.stats["avoid.known_shape"] += 1  # programs drawn with a known bug's shape anyway
        self.families.update({tag.split(".", 1)[0] for tag in features})
        new, repeats = [], 0
        for spec, (verdict_kind, signature) in record["verdicts"].items():
            self.verdicts[verdict_kind] += 1
            for key, value in record["stats"].get(spec, {}).items():
                if key == "break_reasons":
                    self.break_reasons.update(f"{spec}: {reason}" for reason in value)
                else:
                    self.stats[f"{spec}.{key}"] += value
            if verdict_kind == "skip" and signature:  # why nothing was compared (journals before it: None)
                self.skips[signature] += 1
                continue
            if signature is None:
                continue
            bucket = self._bucket_of(spec, signature)
            if bucket is not None and bucket.signature != signature and signature not in bucket.also:
                bucket.also.append(signature)  # the same compiler crash on another call
            if bucket is None:
                cause = root_cause(signature)
                earlier = next((b for b in self.buckets.values() if cause and b.root_cause == cause), None)
                match = self.known.match(signature, target=spec) if self.known else None
                old_news = match is not None and not match.fixed
                bucket = Bucket(spec, signature, 0, record["new"][spec], record["i"], root_cause=cause,
                                same_as=earlier.repro if earlier else None,
                                reduction=None if old_news else "pending", known=match and match.file,
                                regression=bool(match and match.fixed))
                self.buckets[(spec, signature)] = bucket
                new.append(bucket)
            if bucket.count or bucket.same_as or bucket.old_news:  # nothing new: seen before, or a known bug
                repeats += 1
            bucket.count += 1
        if self.bias is not None:
            fresh = sum(1 for bucket in new if bucket.same_as is None and not bucket.old_news)
            for event in self.bias.observe(features, record["stats"], fresh, repeats):
                self.stats[f"bias.{event}"] += 1
        return new

    def _bucket_of(self, spec: str, signature: str) -> Bucket | None:
        """The bucket a finding of ``spec`` with ``signature`` goes to: the one of that signature, or, for a crash
        that pins its bug (raised in compiler code, ``pins_bug``), the target's bucket of the same crash seen on
        another call (first, second or third): the call is part of the signature but not of the bug, and three
        buckets for one compiler crash told users of three bugs."""
        bucket = self.buckets.get((spec, signature))
        if bucket is None and pins_bug(signature):
            cause = root_cause(signature)
            bucket = next((b for b in self.buckets.values()
                           if b.target == spec and b.root_cause == cause and pins_bug(b.signature)), None)
        return bucket

    # -- progress --------------------------------------------------------------------------------------------
    @property
    def seconds(self) -> float:
        return self.previous_seconds + (time.monotonic() - self.started)

    @property
    def programs(self) -> int:
        return len(self.completed)

    @property
    def not_reduced(self) -> int:
        """Buckets whose reduction is not finished: not reduced yet, or cut short (the next run goes on)."""
        return sum(1 for b in self.buckets.values() if b.unfinished)

    def summary(self) -> dict:
        # asked before the lock: on a cluster it is a round trip to every Dask worker
        memory = self.memory_of_workers or getattr(self.runner, "memory", None)
        memory = memory() if callable(memory) else None
        with self._lock:
            buckets = [{"signature": b.signature, "target": b.target, "count": b.count, "repro": b.repro,
                        "first_program": b.first_program, "lines": b.lines, "root_cause": b.root_cause,
                        "same_as": b.same_as, "reduction": b.reduction, "also": list(b.also),
                        "status": b.status, "known": b.known, "regression": b.regression,
                        "like": b.like, "trigger": list(b.trigger), "ends_in": b.ends_in,
                        "known_lines": self.known.lines_of(b.known) if self.known and b.known else None,
                        "looks_like": self.naming.looks_like(b), "partial_lines": partial_lines(self.dir.root, b)}
                       for b in self.buckets.values()]
            return {
                "programs": self.programs,
                "verdicts": dict(self.verdicts),
                "skips": dict(self.skips.most_common()),
                "buckets": buckets,
                "known_share": known_shares(buckets),  # of findings and of buckets: re-found corpus bugs
                "root_causes": len({b.root_cause or f"{b.target}|{b.signature}" for b in self.buckets.values()}),
                "not_reduced": self.not_reduced,
                "seconds": round(self.seconds, 3),
                "features": dict(self.features.most_common()),
                "families": dict(self.families.most_common()),
                "target_stats": dict(self.stats),
                "break_reasons": dict(self.break_reasons.most_common()),
                **({"bias": {"events": dict(self.bias.events), "boosted_now": dict(list(self.bias.boosts().items())[:15])}}
                   if self.bias is not None else {}),
                **({"avoid": {"known_bugs": len(self.avoid), "lowered": self.avoid.multipliers(),
                              "programs_with_known_shape": self.stats["avoid.known_shape"]}}
                   if self.avoid is not None else {}),
                **({"memory": memory} if memory else {}),  # per worker (see memory_of_workers)
                "seed": self.config.seed,
                "targets": list(self.config.targets),
            }

    def stop(self, *_) -> None:
        """Ask the campaign to stop; programs in flight are discarded, never half-recorded. Safe from a signal
        handler (it only sets an event)."""
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
        return self.config.seconds is not None and self.seconds >= self.config.seconds - self.reductions.reserve

    def regenerate(self, index: int):
        """Program ``index`` as this campaign drew it (not for --bias: its weights depended on the moment)."""
        return self.generate(self.config.seed, index, *([self.base_config] if self.base_config is not None else []))

    def _worker_loop(self) -> None:
        while True:
            if self.reductions.reduce_one_now():  # a share of the workers reduces the buckets as they open
                continue
            index = self._take_index()
            if index is None:
                return
            program, report = None, None
            try:
                if self.bias is None:
                    program = self.regenerate(index)
                else:
                    with self._lock:
                        weights = self.bias.config()
                    program = self.generate(self.config.seed, index, weights)
                report = (self.check or self.runner.check)(program.source, self.config.targets)
            except Exception as exc:  # a bug of ngb-fuzz itself (generator, harness): keep it, keep going
                if not self._stop.is_set():
                    self._harness_error(index, program, exc)
                continue
            except BaseException:
                self._stop.set()
                raise
            finally:
                if report is None:
                    with self._lock:
                        self._in_flight -= 1
            # counted and out of flight under one hold of the lock (``_record``): in between, another thread saw
            # a campaign of ``programs=6`` with 5 recorded and none in flight, and ran a seventh
            self._record(index, program, report)

    def _harness_error(self, index: int, program, exc: Exception) -> None:
        """Count the program as 'error' and keep what is needed to debug ngb-fuzz: never a finding."""
        text = f"# ngb-fuzz harness error on program {index} (seed {self.config.seed})\n# " + \
            "\n# ".join(f"{type(exc).__name__}: {exc}".splitlines()[-30:]) + "\n"
        if program is not None:
            text += program.source
        with self._lock:
            if self._stop.is_set():
                return
            self._storing(lambda: (self.dir.root / "harness-errors").mkdir(exist_ok=True))
            self._storing(self.dir.write_text, f"harness-errors/{index:06d}.py", text)
            self._storing(self._journal, {"k": "error", "i": index})

    def _storing(self, write, *args):
        """Run a write of the campaign's state or files; on failure stop the campaign with one clear reason."""
        if self.storage_error is not None:
            raise self.storage_error
        try:
            return write(*args)
        except OSError as exc:  # a directory could not be made: as any other write
            self.storage_error = StorageError(f"cannot write in {self.dir.root}: {exc.strerror or exc}; the state "
                                              "on disk is intact: free space or fix permissions, then run the same "
                                              "command again to resume")
        except StorageError as exc:
            self.storage_error = exc
        self._stop.set()
        raise self.storage_error

    def _record(self, index: int, program, report) -> None:
        """Record a checked program (journal, buckets, counters), which ends its flight (``_take_index``)."""
        findings = {spec: v for spec, v in report.verdicts.items() if v.is_finding}
        with self._lock:
            self._in_flight -= 1
            if self._stop.is_set():
                # the campaign is being written out, or the runner was torn down under this program: its report
                # means nothing, and it is run again on resume
                return
            names: dict[str, str] = {}
            taken = [b.repro for b in self.buckets.values()]
            for spec, verdict in findings.items():
                if self._bucket_of(spec, verdict.signature) is not None:
                    continue
                name = self.untracked.pop((spec, verdict.signature), None)  # its file, from a state now lost
                if name is None:
                    name = self.dir.free_name(f"{len(self.buckets) + len(names) + 1:03d}-{slug(verdict.signature)}-"
                                              f"{slug(spec, 30)}.py", taken + list(names.values()))
                    # the repro first: a program journaled with a finding always has its file
                    self._storing(self.dir.write_text, name, self._repro_source(program, spec, verdict, index))
                names[spec] = name
            record = {"k": "program", "i": index, "features": sorted(program.features),
                      "verdicts": {spec: [v.kind, v.signature if v.is_finding or v.kind == "skip" else None]
                                   for spec, v in report.verdicts.items()},
                      "stats": {spec: report.stats[spec] for spec in report.verdicts if spec in report.stats},
                      **({"new": names} if names else {})}
            self._storing(self._journal, record)
            new = [b for b in self.buckets.values() if b.repro in names.values()]
        if self.on_recorded:
            self.on_recorded(index, report)
        for bucket in new:
            if self.on_new_bucket:
                self.on_new_bucket(bucket, (self.dir.root / bucket.repro).read_text())
        if self.on_progress:
            self.on_progress(self)

    def _guarded(self, loop: Callable[[], None], stop_all: bool = False) -> Callable[[], None]:
        """``loop`` for a thread: what it raises is kept for the main thread to raise (``_raise_errors``);
        ``stop_all`` also stops the campaign, as the same error raised in the main thread would."""
        def run() -> None:
            try:
                loop()
            except BaseException as exc:  # noqa: BLE001 - re-raised in the main thread
                self._errors.append(exc)
                if stop_all:
                    self._stop.set()

        return run

    def _repro_source(self, program, spec: str, verdict, index: int) -> str:
        source = set_header(
            program.source, signature=verdict.signature, target=spec,
            found_by=str(self.config.found_by(index)),
            features=" ".join(sorted(program.features)),
            weights=weights_header(program.config) if getattr(program, "config", None) else None,
        )
        return with_footer(source)  # the short check for this signature

    def run(self) -> dict:
        """Run until the budget is spent or ``stop()``; returns the summary (also written to summary.json).

        The directory's lock is released at the end. A write that failed stops the campaign and is raised as
        ``StorageError`` once what can be written is written.
        """
        self.started = time.monotonic()
        self._spent_at_start = self.config.seconds is not None and self.seconds >= self.config.seconds
        threads: list[threading.Thread] = []
        self._add_threads(threads, self.config.workers)
        asked = time.monotonic()
        try:
            with self._stopped_after_budget():
                # On stop() (a signal, a failed write) return at once: threads blocked on a hanging program end when
                # the runner is closed, and anything they bring back after this is discarded.
                while not self._stop.is_set() and any(t.is_alive() for t in threads):
                    for t in threads:
                        t.join(timeout=0.2)
                    if self.slots is not None and time.monotonic() - asked >= SLOTS_EVERY_S:
                        asked = time.monotonic()
                        self._add_threads(threads, self._wanted_slots() - len(threads))
                    if self.on_progress:
                        self.on_progress(self)
                if not self._errors:
                    self.reductions.reduce_all()
        finally:
            self._stop.set()
            self.finish()
        self._raise_errors()
        return self.summary()

    @contextlib.contextmanager
    def _stopped_after_budget(self):
        """Stop the campaign (the reductions in flight, also one a fuzzing thread started) once its time budget is
        over by ``END_GRACE_S`` or ``END_GRACE_SHARE`` of it, whichever is more, while the block runs; no limit
        without a time budget or for a run that started with its budget spent (it is asked for the reductions
        alone)."""
        if self.config.seconds is None or self._spent_at_start:
            yield
            return
        deadline = self.config.seconds + max(END_GRACE_S, END_GRACE_SHARE * self.config.seconds)
        done = threading.Event()

        def watch() -> None:
            while not done.wait(0.2):
                if self.seconds >= deadline:
                    self._stop.set()
                    return

        watcher = threading.Thread(target=watch, daemon=True, name="campaign-deadline")
        watcher.start()
        try:
            yield
        finally:
            done.set()

    def reduce_pending(self) -> dict:
        """Reduce every bucket not reduced yet (``ngb-fuzz reduce --campaign DIR``); the summary after."""
        try:
            self.reductions.reduce_all()
        finally:
            self.finish()
        self._raise_errors()
        return self.summary()

    def _raise_errors(self) -> None:
        """What a worker or reduction thread raised, in the caller's thread (a failed write last)."""
        errors = [e for e in self._errors if not isinstance(e, StorageError)]
        if errors:
            raise errors[0]
        if self.storage_error is not None:
            raise self.storage_error

    def _add_threads(self, threads: list[threading.Thread], count: int) -> None:
        for _ in range(max(0, count)):
            thread = threading.Thread(target=self._guarded(self._worker_loop), daemon=True, name=f"campaign-{len(threads)}")
            threads.append(thread)
            thread.start()

    def _wanted_slots(self) -> int:  # only asked when ``slots`` is set
        try:
            return int(self.slots())
        except Exception:  # noqa: BLE001 - a figure asked of a cluster; a failed ask keeps what runs
            return 0

    def close(self) -> None:
        """Release the directory without running (``run()`` and ``finish()`` release it themselves)."""
        self.dir.close()

    def finish(self) -> dict:
        """Write the snapshot and summary.json (what can be written) and release the directory."""
        if not self._finished:
            self.reductions.settle(SETTLE_S)
        summary = self.summary()
        with self._lock:
            self._stop.set()
            if self._finished:
                return summary
            self._finished = True
            try:
                self.dir.write_snapshot(self._snapshot())
                self.dir.write_json("summary.json", summary)
            except StorageError as exc:
                self.storage_error = self.storage_error or exc  # the journal still holds every program recorded
            self.dir.close()
        return summary
