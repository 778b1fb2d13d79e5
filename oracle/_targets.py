"""Targets: a spec string names how to run a program (``eager``, ``torch:ngb=off,backend=inductor``, ...).

Target kinds live in a small registry; the built-in ones are registered exactly as a user's would be. A spec
is ``KIND[:KEY=VALUE,...]``; every kind also takes ``python=/path/to/python`` (run under another interpreter,
which needs only torch) and ``device=cpu|cuda``. Bad specs raise ``TargetError`` with one line naming the
valid choices.
"""

from __future__ import annotations

import dataclasses
import os
import shutil
import subprocess
import sys
from collections.abc import Callable, Iterable
from typing import Any

from ._configs import flags_of, parse_config
from ._errors import TargetError

__all__ = ["Target", "TargetKind", "register_target_kind", "target_kinds", "parse_target", "check_available",
           "resolve_targets"]

# An option's allowed values: a tuple, None (free text), or a function giving them when needed.
Choices = tuple[str, ...] | Callable[[], tuple[str, ...]] | None

_COMMON: dict[str, Choices] = {"python": None, "device": ("cpu", "cuda")}
# fault backends that are right but round differently (oracle._faults.ROUNDING): compared with tolerances
ROUNDING_FAULTS = ("reround",)
# Dynamo's own axes, taken by every kind compiled with torch.compile: ``dynamic=`` (torch.compile's True,
# False or None) and ``config=NAME[+NAME...]`` (flag sets of oracle._configs); both recorded in the spec of
# every repro.
_DYNAMO_AXES: dict[str, Choices] = {"dynamic": ("auto", "true", "false"), "config": None}
_DYNAMO_DEFAULTS = {"dynamic": "auto", "config": "none"}
# options whose value is checked (and made canonical) by a function rather than a list of choices
_VALIDATORS = {"config": parse_config}


@dataclasses.dataclass(frozen=True, slots=True)
class TargetKind:
    name: str
    description: str
    options: dict[str, Choices]  # key -> allowed values (see Choices)
    defaults: dict[str, str]
    positional: str | None = None  # key that a bare word sets (``fault:perturb``)
    # Python versions ("3.11") whose bytecode the kind models; None: any version torch runs on
    pythons: tuple[str, ...] | None = None


@dataclasses.dataclass(frozen=True, slots=True)
class Target:
    kind: str
    options: tuple[tuple[str, str], ...]  # sorted (key, value) pairs, python/device excluded
    python: str | None = None
    device: str = "cpu"

    @property
    def spec(self) -> str:
        """Canonical spec: defaults left out, keys sorted; equal targets have equal specs."""
        kind = _KINDS[self.kind]
        options = dict(self.options)
        parts = [options.pop(kind.positional)] if kind.positional else []
        parts += [f"{k}={v}" for k, v in sorted(options.items()) if kind.defaults.get(k) != v]
        if self.device != "cpu":
            parts.append(f"device={self.device}")
        if self.python:
            parts.append(f"python={self.python}")
        return self.kind + (":" + ",".join(parts) if parts else "")

    @property
    def exact(self) -> bool:
        """Whether results must be bitwise equal to eager (no backend that may reorder arithmetic)."""
        options = dict(self.options)
        if self.kind == "fault":
            return options.get("fault") not in ROUNDING_FAULTS
        return options.get("backend", "eager") == "eager" or self.kind == "eager"

    @property
    def eager(self) -> Target:
        """Plain eager under this target's interpreter and device: the reference it is compared with."""
        return Target("eager", (), self.python, self.device)

    def payload(self) -> dict[str, Any]:
        """What the worker needs to build the compiled callable (config flags resolved: the worker has no
        table)."""
        options = dict(self.options)
        return {"kind": self.kind, "options": options, "device": self.device,
                "config_flags": flags_of(options.get("config", "none"))}

    def __str__(self) -> str:
        return self.spec


_KINDS: dict[str, TargetKind] = {}


def register_target_kind(kind: TargetKind) -> None:
    """Add a target kind; the worker must know how to build it (see ``_worker.build``)."""
    _KINDS[kind.name] = kind


def target_kinds() -> dict[str, TargetKind]:
    return dict(_KINDS)


register_target_kind(TargetKind("eager", "plain Python, no compiler (the reference)", {}, {}))
register_target_kind(TargetKind(
    "torch", "torch.compile; ngb=on enables nested graph breaks",
    {"ngb": ("on", "off"), "backend": ("eager", "aot_eager", "inductor"), **_DYNAMO_AXES},
    {"ngb": "on", "backend": "eager", **_DYNAMO_DEFAULTS},
))
# The CPython versions whose bytecode the engine interprets (engine/_vm/_version.VERSIONS; a test keeps the
# two in step).
_ENGINE_PYTHONS = ("3.11", "3.12", "3.13")


def _engine_faults() -> tuple[str, ...]:
    """The engine's fault switches (engine._faults.FAULTS), read only when a spec names one: the engine
    imports torch, which listing or parsing other targets must not."""
    from engine._faults import FAULTS

    return ("none", *FAULTS)


register_target_kind(
    TargetKind(
        "engine",
        "ngb-fuzz's own nested-graph-break compiler; fault=NAME turns on a deliberate bug",
        {"backend": ("eager", "aot_eager"), "fault": _engine_faults},
        {"backend": "eager", "mode": "nested", "fault": "none"},
        pythons=_ENGINE_PYTHONS,
    )
)
register_target_kind(TargetKind(
    "engine-classic", "ngb-fuzz's compiler resuming only in the top frame (A/B against engine)",
    {"backend": ("eager", "aot_eager")}, {"backend": "eager", "mode": "classic"}, pythons=_ENGINE_PYTHONS,
))
register_target_kind(
    TargetKind(
        "fault",
        "torch.compile with a backend that is wrong on purpose (oracle self-test)",
        {
            "fault": (
                "perturb",
                "perturb-dynamic",
                "drop-effect",
                "flip-grad",
                "raise",
                "hang",
                "slow-ngb",
                "kill",
                *ROUNDING_FAULTS,
            ),
            "ngb": ("on", "off"),
            **_DYNAMO_AXES,
        },
        {"ngb": "on", **_DYNAMO_DEFAULTS},
        positional="fault",
    )
)


def option_choices(values: Choices) -> tuple[str, ...] | None:
    """An option's allowed values: a tuple, None (free text), or a function giving them when needed."""
    return values() if callable(values) else values


def parse_target(spec: str | Target, *, check_python: bool = True) -> Target:
    """Parse and validate a target spec; raises TargetError with a one-line message. The one reader of target
    options: ``check_python=False`` keeps a ``python=`` path as written (a file's header from another machine)
    instead of resolving it here."""
    if isinstance(spec, Target):
        return spec
    text = spec.strip()
    name, _, rest = text.partition(":")
    if name not in _KINDS:
        raise TargetError(f"unknown target {name!r} in {spec!r}; valid kinds: {', '.join(_KINDS)}")
    kind = _KINDS[name]
    allowed = {**kind.options, **_COMMON}
    values = dict(kind.defaults)
    given: set[str] = set()
    for item in filter(None, (p.strip() for p in rest.split(","))):
        key, eq, value = item.partition("=")
        if not eq:
            if kind.positional is None:
                raise TargetError(f"expected KEY=VALUE, got {item!r} in {spec!r}")
            key, value = kind.positional, item
        if key not in allowed:
            raise TargetError(f"unknown option {key!r} for target {name!r}; valid: {', '.join(allowed)}")
        if key in _VALIDATORS:
            value = _VALIDATORS[key](value)
        choices = option_choices(allowed[key])
        if choices is not None and value not in choices:
            raise TargetError(f"bad value {value!r} for {name}:{key}; valid: {', '.join(choices)}")
        if key in given:
            raise TargetError(f"option {key!r} given twice in {spec!r}")
        given.add(key)
        values[key] = value
    for key in kind.options:
        if key not in values:
            raise TargetError(f"target {name!r} needs {key}=...; valid: "
                              f"{', '.join(option_choices(kind.options[key]) or ())}")
    python = values.pop("python", None)
    device = values.pop("device", "cpu")
    if python is not None and check_python:
        python = _resolve_python(python)
    return Target(name, tuple(sorted(values.items())), python, device)


def _resolve_python(python: str) -> str:
    path = shutil.which(python) or python
    if not (os.path.isfile(path) and os.access(path, os.X_OK)):
        raise TargetError(f"python={python}: no such executable")
    return os.path.abspath(path)


def check_available(target: Target) -> None:
    """Raise TargetError if the target cannot run here (no CUDA, an interpreter without torch, a Python
    version whose bytecode the target's compiler does not model)."""
    pythons = _KINDS[target.kind].pythons
    if target.python:
        has_cuda, _, version = _probe(target.python)
    else:
        version = f"{sys.version_info[0]}.{sys.version_info[1]}"
        has_cuda = None
    if pythons is not None and version not in pythons:
        where = target.python or "this interpreter"
        raise TargetError(f"target {target.spec!r} is not available on Python {version} ({where}): it models "
                          f"the bytecode of Python {', '.join(pythons)} only")
    if target.device == "cuda":
        if has_cuda is None:
            import torch

            has_cuda = torch.cuda.is_available()
        if not has_cuda:
            where = target.python or "this interpreter"
            raise TargetError(f"target {target.spec!r} needs CUDA, which {where} does not have")
    _check_config_flags(target)


def _check_config_flags(target: Target) -> None:
    """Refuse a ``config=`` whose flags the target's torch does not have (an older release), in one line."""
    flags = target.payload()["config_flags"]
    if not flags:
        return
    if target.python:
        import json

        from ._configs import MISSING_PROBE

        proc = subprocess.run([target.python, "-c", MISSING_PROBE, json.dumps(flags)], capture_output=True,
                              text=True, timeout=120)
        missing = proc.stdout.split() if proc.returncode == 0 else ["(the probe failed)"]
    else:
        from ._configs import missing_flags

        missing = missing_flags(flags)
    if missing:
        where = target.python or "this interpreter"
        raise TargetError(f"target {target.spec!r}: the torch of {where} has no config flag "
                          f"{', '.join(missing)}; drop that config= name for it")


_PROBE_TAG = "ngb-fuzz-probe"
_PROBE = f"import torch,sys; print({_PROBE_TAG!r}, int(torch.cuda.is_available()), torch.__version__, " \
         "'%d.%d' % sys.version_info[:2])"


def versions_of(python: str | None = None) -> tuple[str, str]:
    """(torch version without its local part, "3.X") of interpreter ``python`` (this one when None)."""
    if python is None:
        import torch

        return torch.__version__.split("+")[0], f"{sys.version_info[0]}.{sys.version_info[1]}"
    _, torch_version, version = _probe(python)
    return torch_version.split("+")[0], version


def _probe(python: str) -> tuple[bool, str, str]:
    """(CUDA available, torch version, "3.X") of interpreter ``python``; TargetError (one line) unless it
    answers exactly as a Python with torch does. Its stdout must hold that answer alone: a worker under it
    speaks to ngb-fuzz over stdout, so a wrapper that prints there before it execs Python would garble every
    message."""
    try:
        proc = subprocess.run([python, "-c", _PROBE], capture_output=True, text=True, errors="replace",
                              timeout=120)
    except (OSError, subprocess.SubprocessError) as exc:
        raise TargetError(f"python={python} cannot be run: {getattr(exc, 'strerror', None) or exc}") from None
    lines = proc.stdout.splitlines()
    answer = next((line.split() for line in lines if line.startswith(_PROBE_TAG + " ")), None)
    if proc.returncode != 0 and answer is None:
        raise TargetError(f"python={python} cannot import torch (ngb-fuzz needs only torch there)")
    if answer is None or len(answer) != 4:
        shown = repr(lines[0][:80]) if lines else "nothing"
        raise TargetError(f"python={python} did not answer as a Python interpreter with torch (exit "
                          f"{proc.returncode}, printed {shown})")
    if len(lines) != 1:
        other = next(line for line in lines if not line.startswith(_PROBE_TAG + " "))[:80]
        raise TargetError(
            f"python={python} printed {other!r} on stdout besides Python's own output; ngb-fuzz "
            "talks to its workers over stdout: give the interpreter itself, or a wrapper that "
            "prints only on stderr"
        )
    return answer[1] == "1", answer[2], answer[3]


def resolve_targets(specs: Iterable[str | Target]) -> list[str]:
    """Canonical specs, parsed, available here and without repeats; TargetError (with ``.spec``) on a bad
    one."""
    out: list[str] = []
    for spec in specs:
        try:
            target = parse_target(spec)
            check_available(target)
        except TargetError as exc:
            exc.spec = str(spec)
            raise
        if target.spec not in out:
            out.append(target.spec)
    return out
