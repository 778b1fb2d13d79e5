"""Time per program of the generator now against an earlier revision, on the same seeds.

Renders programs ``(seed, 0..N-1)`` with the current generator and with the one of ``--rev`` (checked out from git
into a temporary directory), then runs each program in this process as a campaign check does the heavy part of
it: load the module, call ``entry`` under eager twice, then under ``torch.compile`` twice after a reset. Programs of
the two generators alternate, so a busy machine slows both alike; CPU time of this process (not wall time) is
what is counted. Prints the median and mean per program for each and their ratio.

    python benchmarks/program_cost.py [--rev 2cd9d21] [--programs 60] [--seed 0] [--backend eager]
"""

from __future__ import annotations

import argparse
import contextlib
import io
import json
import statistics
import subprocess
import sys
import tempfile
import time
import types
from pathlib import Path

import torch

_DUMP = """
import json, sys
try:
    from fuzz.program.generate import generate_program
except ImportError:  # a revision before fuzz/program/ (2cd9d21, the v2 generator)
    from fuzz.generate import generate_program
seed, n = int(sys.argv[1]), int(sys.argv[2])
json.dump([generate_program(seed, i).source for i in range(n)], sys.stdout)
"""


def _sources(root: Path, seed: int, n: int) -> list[str]:
    out = subprocess.run([sys.executable, "-c", _DUMP, str(seed), str(n)], cwd=root, capture_output=True, text=True,
                         env={"PYTHONPATH": str(root), "PATH": "/usr/bin:/bin"}, check=True)
    return json.loads(out.stdout)


def _checkout(rev: str, into: Path) -> Path:
    repo = Path(__file__).resolve().parents[1]
    archive = subprocess.run(["git", "-C", str(repo), "archive", rev, "fuzz", "oracle", "engine"], capture_output=True,
                             check=True).stdout
    subprocess.run(["tar", "-x", "-C", str(into)], input=archive, check=True)
    return into


def _run(source: str, backend: str) -> float:
    """CPU seconds for eager x2 and compiled x2 of one program (exceptions are outcomes, not failures)."""
    start = time.process_time()
    module = types.ModuleType("ngb_program")
    sys.modules["ngb_program"] = module
    try:
        with contextlib.redirect_stdout(io.StringIO()):  # programs print (a print break)
            exec(compile(source, "<ngb program>", "exec"), module.__dict__)
            for fn in (module.entry, module.entry):
                _calls(module, fn)
            torch._dynamo.reset()
            compiled = torch.compile(module.entry, backend=backend)
            _calls(module, compiled)
            _calls(module, compiled)
    except Exception:  # noqa: BLE001 - a program that fails to load still cost what it cost
        pass
    finally:
        sys.modules.pop("ngb_program", None)
    return time.process_time() - start


def _calls(module: types.ModuleType, fn) -> None:
    inputs = module.make_inputs("cpu") if hasattr(module, "make_inputs") else ()
    try:
        fn(*inputs)
    except Exception:  # noqa: BLE001 - deliberate raises and compiler crashes both end a call
        pass


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--rev", default="2cd9d21", help="the earlier generator (a git revision)")
    parser.add_argument("--programs", type=int, default=60)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--backend", default="eager")
    args = parser.parse_args()
    repo = Path(__file__).resolve().parents[1]
    with tempfile.TemporaryDirectory() as tmp:
        old = _sources(_checkout(args.rev, Path(tmp)), args.seed, args.programs)
    new = _sources(repo, args.seed, args.programs)
    import logging

    logging.disable(logging.WARNING)
    costs: dict[str, list[float]] = {"old": [], "new": []}
    for i in range(args.programs):
        costs["old"].append(_run(old[i], args.backend))
        costs["new"].append(_run(new[i], args.backend))
    for name, label in (("old", args.rev), ("new", "now")):
        c = costs[name]
        print(f"{label:>10}: median {statistics.median(c) * 1000:.0f} ms, mean {statistics.mean(c) * 1000:.0f} ms "
              f"CPU per program ({len(c)} programs, seed {args.seed}, backend {args.backend})")
    ratio = statistics.mean(costs["new"]) / statistics.mean(costs["old"])
    print(f"ratio now/{args.rev} (mean CPU per program): {ratio:.2f}")


if __name__ == "__main__":
    main()
