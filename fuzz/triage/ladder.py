"""The blame ladder: one repro across NGB on/off, backends and torch installations, and what that says.

``triage(source, runner, ...)`` checks a program file on every rung (a torch installation × NGB on/off × a
backend × a variant of Dynamo's own axes, ``dynamic=``/``config=``) through the oracle, and ``conclude`` turns the table into one line a compiler engineer reads first:
whether the bug needs nested graph breaks, whether it needs a particular backend, and which torch versions have
it (a regression? fixed since?). ``ngb-fuzz triage FILE`` and ``ngb-fuzz corpus matrix`` print it.
"""

from __future__ import annotations

import dataclasses
import shutil
from collections.abc import Sequence

from oracle import parse_target

__all__ = ["BACKENDS", "Rung", "Triage", "triage", "conclude", "format_table", "rung_spec", "inductor_skip_reason",
           "target_axes"]

BACKENDS = ("eager", "aot_eager", "inductor")
NGB = ("on", "off")


def inductor_skip_reason() -> str | None:
    """Why inductor cannot run here (it compiles C++ for the CPU), or None."""
    if not any(shutil.which(cc) for cc in ("g++", "c++", "clang++")):
        return "no C++ compiler on PATH (inductor's CPU backend needs one)"
    return None


@dataclasses.dataclass(frozen=True, slots=True)
class Rung:
    """One configuration of the ladder and what the program gave there."""

    torch: str  # version of the installation ("2.13.0")
    python: str | None  # its interpreter (None: the one running ngb-fuzz)
    ngb: str  # "on" | "off"
    backend: str
    signature: str  # the verdict's signature; "skip:..." when not run
    axes: str = ""  # Dynamo's own axes of this rung ("dynamic=true,config=..."; "" for the defaults)

    @property
    def fails(self) -> bool | None:
        """True: a finding; False: ok; None: no answer (skipped, flaky, eager failed)."""
        kind = self.signature.partition(":")[0]
        if kind in ("mismatch", "crash", "hang", "slow"):
            return True
        return False if self.signature == "ok" else None


@dataclasses.dataclass(frozen=True, slots=True)
class Triage:
    rungs: tuple[Rung, ...]
    versions: tuple[str, ...]  # torch versions in the order of the installations given (sorted by version)

    def failing(self) -> list[Rung]:
        return [r for r in self.rungs if r.fails]


def rung_spec(python: str | None, ngb: str, backend: str, axes: str = "") -> str:
    """The canonical target spec of one rung (as the oracle's reports name it); ``axes``: its ``dynamic=`` and
    ``config=`` options, if any."""
    spec = f"torch:ngb={ngb},backend={backend}" + (f",{axes}" if axes else "")
    return parse_target(spec + (f",python={python}" if python else "")).spec


AXES = ("dynamic", "config")  # the target options of Dynamo's own axes that the ladder keeps or sweeps


def target_axes(target: str | None) -> str:
    """The ``dynamic=``/``config=`` options of a target spec other than their defaults, canonical ("" if none)."""
    options = dict(parse_target(target or "torch").options)
    defaults = {"dynamic": "auto", "config": "none"}
    return ",".join(f"{k}={options[k]}" for k in AXES if options.get(k, defaults[k]) != defaults[k])


def _version_key(version: str) -> tuple:
    parts = version.split("+")[0].split(".")
    return tuple(int(p) if p.isdigit() else 0 for p in parts)


def installations(runner, pythons: Sequence[str | None]) -> list[tuple[str, str | None]]:
    """(torch version, python) for each interpreter, oldest torch first; one per version."""
    found: dict[str, str | None] = {}
    for python in pythons:
        version = runner.warm_up(python)["torch"].split("+")[0]
        found.setdefault(version, python)
    return sorted(found.items(), key=lambda item: _version_key(item[0]))


def triage(source: str, runner, pythons: Sequence[str | None] = (None,), backends: Sequence[str] = BACKENDS,
           ngb: Sequence[str] = NGB, on_rung=None, axes: Sequence[str] = ("",)) -> Triage:
    """Check ``source`` on every (installation, NGB, backend, axes); ``on_rung(rung)`` is told each rung's answer.
    ``axes``: the variants of Dynamo's own axes to try ("dynamic=true", "config=NAME", "" for the defaults).

    Inductor is skipped with a reason where this machine has no C++ compiler. Rungs run one at a time against
    each installation's own eager reference (the runner checks eager twice first: a flaky program answers
    ``flaky`` on every rung, never a failure).
    """
    skip_inductor = inductor_skip_reason() if "inductor" in backends else None
    rungs = []
    installs = installations(runner, pythons)
    for version, python in installs:
        # One check per installation: its eager reference runs once (twice, for flakiness) for all its rungs.
        configs = [(mode, backend, axis) for axis in axes for mode in ngb for backend in backends]
        specs = {c: rung_spec(python, *c) for c in configs if not (c[1] == "inductor" and skip_inductor)}
        report = runner.check(source, list(dict.fromkeys(specs.values())))
        for mode, backend, axis in configs:
            if (mode, backend, axis) not in specs:
                signature = f"skip:{skip_inductor}"
            else:
                # per rung: a program flaky under eager is flaky on every rung, one whose result hangs on rounding
                # only on the backends compared with tolerances (oracle.Runner.check)
                signature = report.verdicts[specs[mode, backend, axis]].signature
            rung = Rung(version, python, mode, backend, signature, axis)
            rungs.append(rung)
            if on_rung:
                on_rung(rung)
    return Triage(tuple(rungs), tuple(v for v, _ in installs))


def _join(items: Sequence[str]) -> str:
    return ", ".join(items)


def conclude(result: Triage) -> str:
    """One line: NGB-specific or not, backend-specific or not, which versions have it."""
    answered = [r for r in result.rungs if r.fails is not None]
    failing = [r for r in answered if r.fails]
    if not answered:
        return "no answer: every configuration was skipped or flaky"
    if not failing:
        return f"fails nowhere: fixed (or not a bug) on every configuration tried ({_join(result.versions)})"
    parts = []
    on = any(r.ngb == "on" for r in failing)
    off = any(r.ngb == "off" for r in failing)
    tried_off = any(r.ngb == "off" for r in answered)
    tried_on = any(r.ngb == "on" for r in answered)
    if on and not off:
        parts.append("NGB-specific (fails only with NGB on)" if tried_off else "fails with NGB on (off not tried)")
    elif off and not on:
        parts.append("fails only with NGB off (NGB on is correct)" if tried_on else "fails with NGB off")
    else:
        parts.append("not NGB-specific (fails with NGB on and off)")
    fail_backends = [b for b in BACKENDS if any(r.backend == b for r in failing)]
    ok_backends = [b for b in BACKENDS if b not in fail_backends and any(r.backend == b for r in answered)]
    if "eager" in fail_backends:
        parts.append("not backend-specific (fails with backend=eager)")
    elif ok_backends:
        parts.append(f"backend-specific: fails with {_join(fail_backends)}, not with {_join(ok_backends)}")
    else:
        parts.append(f"fails with {_join(fail_backends)} (no other backend answered)")
    axes_part = _axes(failing, answered)
    if axes_part:
        parts.append(axes_part)
    parts.append(_versions(result, failing, answered))
    signatures = sorted({r.signature for r in failing})
    if len(signatures) > 1:  # e.g. an older torch fails the same program another way: maybe another bug
        parts.append(f"{len(signatures)} different failures (see the table)")
    return "; ".join(parts)


def _axes(failing: list[Rung], answered: list[Rung]) -> str:
    """What Dynamo's own axes tell, when more than one variant was tried."""
    tried = list(dict.fromkeys(r.axes for r in answered))
    if len(tried) < 2:
        return f"with {tried[0]}" if tried and tried[0] else ""
    bad = [a for a in tried if any(r.axes == a for r in failing)]
    good = [a or "defaults" for a in tried if a not in bad]
    if not good:
        return "whatever the dynamic=/config= options tried"
    return f"needs {' or '.join(a or 'defaults' for a in bad)} (fine with {', '.join(good)})"


def _versions(result: Triage, failing: list[Rung], answered: list[Rung]) -> str:
    has = [v for v in result.versions if any(r.torch == v for r in failing)]
    clean = [v for v in result.versions if v not in has and any(r.torch == v for r in answered)]
    if len(result.versions) == 1:
        return f"torch {result.versions[0]}"
    if not clean:
        return f"in every version tried ({_join(has)})"
    order = [v for v in result.versions if v in has or v in clean]
    first_bad = order.index(has[0])
    last_bad = order.index(has[-1])
    if all(v in has for v in order[first_bad:last_bad + 1]):
        if last_bad == len(order) - 1 and first_bad > 0:
            return f"a regression: absent in {_join(order[:first_bad])}, present in {_join(has)}"
        if first_bad == 0 and last_bad < len(order) - 1:
            return f"fixed since {order[last_bad + 1]}: present in {_join(has)}"
    return f"present in {_join(has)}, absent in {_join(clean)}"


def format_table(result: Triage) -> str:
    """Rows: torch version × NGB; columns: backends; failing cells name their signature by a footnote number."""
    backends = [b for b in BACKENDS if any(r.backend == b for r in result.rungs)]
    notes: list[str] = []

    def cell(rung: Rung | None) -> str:
        if rung is None:
            return "-"
        if rung.fails:
            if rung.signature not in notes:
                notes.append(rung.signature)
            return f"FAIL [{notes.index(rung.signature) + 1}]"
        if rung.fails is None:
            return rung.signature.split(":", 1)[0]  # skip / flaky
        return "ok"

    index = {(r.torch, r.ngb, r.axes, r.backend): r for r in result.rungs}
    variants = list(dict.fromkeys(r.axes for r in result.rungs))
    shown = variants != [""]  # a column for Dynamo's own axes only when a rung has some
    header = ["torch", "ngb", *(["axes"] if shown else []), *backends]
    rows = []
    for version in result.versions:
        for mode in NGB:
            for axis in variants:
                if any((version, mode, axis, b) in index for b in backends):
                    rows.append([version, mode, *([axis or "defaults"] if shown else []),
                                 *(cell(index.get((version, mode, axis, b))) for b in backends)])
    widths = [max(len(str(row[i])) for row in [header, *rows]) for i in range(len(header))]
    lines = ["  ".join(str(v).ljust(w) for v, w in zip(row, widths)).rstrip() for row in [header, *rows]]
    lines += [f"[{i + 1}] {sig}" for i, sig in enumerate(notes)]
    skipped = sorted({r.signature for r in result.rungs if r.signature.startswith("skip:")})
    lines += [f"skipped: {s.removeprefix('skip:')}" for s in skipped]
    return "\n".join(lines)


def entry_backends(target: str, backends: Sequence[str] | None) -> tuple[str, ...]:
    """The backends a corpus entry is laddered on: those asked for, else eager plus the entry's own backend."""
    if backends:
        return tuple(backends)
    own = dict(parse_target(target, check_python=False).options).get("backend", "eager")
    return tuple(dict.fromkeys(("eager", own)))


def matrix_record(result: Triage, today: str) -> dict:
    """What the manifest keeps of one entry's ladder: each rung's signature, the conclusion and the date."""
    return {
        "checked": today,
        "rungs": {f"{r.torch} ngb={r.ngb} {r.backend}" + (f" {r.axes}" if r.axes else ""): r.signature
                  for r in result.rungs},
        "conclusion": conclude(result),
    }


def format_matrix(rows: Sequence[tuple[str, Triage]]) -> str:
    """One line per corpus entry: per torch version, which of NGB on/off fail (on each backend tried)."""
    versions = sorted({v for _, t in rows for v in t.versions}, key=_version_key)
    header = ["entry", "backend", *versions]
    table = []
    for name, result in rows:
        for backend in [b for b in BACKENDS if any(r.backend == b for r in result.rungs)]:
            cells = []
            for version in versions:
                marks = []
                for mode in NGB:
                    rung = next((r for r in result.rungs
                                 if (r.torch, r.ngb, r.backend) == (version, mode, backend)), None)
                    if rung is not None:
                        marks.append(f"{mode}:" + ("FAIL" if rung.fails else "ok" if rung.fails is False
                                                   else rung.signature.split(":")[0]))
                cells.append(" ".join(marks) or "-")
            table.append([name, backend, *cells])
    widths = [max(len(row[i]) for row in [header, *table]) for i in range(len(header))]
    return "\n".join("  ".join(v.ljust(w) for v, w in zip(row, widths)).rstrip() for row in [header, *table])
