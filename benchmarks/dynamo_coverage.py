"""Dynamo line coverage: which lines of torch/_dynamo and torch/_functorch a set of programs executes when each is
compiled with torch.compile (backend "eager" or ``--backend``, nested graph breaks on, two calls, Dynamo reset
between programs, a call cut off after 120 s).

Sets, side by side (any of them):
- ``gen``: K programs of the current generator (``--programs``, default 500; ``--families ctx,flow`` keeps only
  programs with a tag of those families, drawing further indices until K are kept);
- ``rev``: K programs of the generator at git revision ``--rev`` (e.g. 2cd9d21, the v2 generator, the last
  revision before the construct registry, fuzz/families/ then), generated in a temporary worktree by that
  revision's own code (``fuzz.program.generate``, or ``fuzz.generate`` before fuzz/program/);
- ``dir``: the program files in ``--dir`` (e.g. a saved set: ``--save DIR`` writes the ``gen`` programs there);
- ``conformance``: the NGB conformance scenarios of tests/engine (ngb-fuzz's own hand-written NGB scenarios);
- ``corpus``: the corpus's repros (the seed NGB bugs of the May-2026 update and every bug found since);
- ``pytest:FILE``: a pytest file run in this process under the tracer, nested graph breaks on (e.g. PyTorch's NGB
  test file, test/dynamo/test_nested_graph_breaks.py, which is not in the torch wheel: a copy kept outside the
  project); its tests count as programs, and a test that fails still ran Dynamo's lines.

``--load FILE.json`` adds sets saved earlier by ``--json`` (every set of the file) without running them, so sets
measured in separate processes compare. ``--no-trace`` runs the sets without the tracer (their speed untraced).

Prints lines executed per set and package, the share of lines that hold code, and per pair what only one of
them reaches, with the files holding most of those lines. Lines are counted by fuzz.triage.dynamo_lines (a line
tracer limited to those packages: sys.monitoring on Python 3.12+, cheap; settrace on 3.11, several times a
compile's time).

    python benchmarks/dynamo_coverage.py [--programs 500] [--seed 0] [--sets gen,conformance,corpus]
                                         [--rev REV] [--families F1,F2] [--dir DIR] [--save DIR] [--json FILE]
                                         [--backend aot_eager]
                                         [--load FILE.json ...] [--no-trace]

Measured (Python 3.12, torch 2.13 CPU, backend eager, on a 2-core machine at load 4-8; sys.monitoring): 500
programs of the v3 generator (seed 0; main 3f749e9 and 585d12b, the same generator) reach 18,492 lines of
torch/_dynamo (38.0% of its 48,703 code lines), 500 of the v2 generator (2cd9d21) 14,750 (30.3%): 3,742 lines only
v3 reaches (user_defined.py 548, builtin.py 293, higher_order_ops.py 268, builder.py 240, symbolic_convert.py 214,
output_graph.py 200, tensor.py 196, torch_function.py 175), none only v2. At 200 programs each: 17,065 and 14,734.
Measured as 20-program processes, a v3 chunk then a v2 chunk in turn, the lines of a set the union. PyTorch's
NGB test file (55 tests, 49 passed, 4 failed, 2 xfail) reaches 14,003 and 1,639 of torch/_functorch (its one
aot_eager test); 1,043 _dynamo lines neither generator reaches, about half of them harness and imports
(eval_frame's optimize/reset, repro/after_aot), the rest in variables/functions.py, ctx_manager.py, torch.py,
guards.py. The 185 conformance scenarios reach 14,388, 279 of them reached by neither generator. Traced, a program
took 3.7 s (v2) to 6.4 s (v3); the same 20 programs ran in 135 s traced and 185 s untraced minutes apart: the
tracer's cost is below the load's noise. With settrace on Python 3.11 it was ~28 s a program (60 programs of v2
in 1,713 s).

Coverage as feedback for ``--bias`` (a program whose traced run reached 10+ Dynamo lines new to the campaign
boosted its features x1.5; one torch run in three traced) was tried and dropped: in two pairs of 6-minute,
2-worker campaigns on torch 2.13 it ran 44 and 29 programs against 56 and 56 for ``--bias`` alone and opened
0 buckets against 1 (KNOWN); no new root cause either way.
"""

from __future__ import annotations

import argparse
import contextlib
import importlib
import io
import json
import os
import signal
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import torch
import torch._dynamo

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from fuzz.triage.dynamo_lines import PACKAGES, DynamoLines, executable_lines  # noqa: E402
from oracle._worker import forget_program, load_program, make_inputs, program_modules, registered  # noqa: E402

CONFORMANCE = ["ctx", "closures", "effects", "stack", "control", "data", "classes", "markers", "exc", "cms", "gens"]


LIMIT_S = 120  # per call: a program that hangs under Dynamo is cut off (what it executed so far counts)


class _Late(Exception):
    pass


def _late(signum, frame):
    raise _Late()


def _quietly(fn, *args):
    signal.signal(signal.SIGALRM, _late)
    signal.alarm(LIMIT_S)
    try:
        with contextlib.redirect_stdout(io.StringIO()), contextlib.suppress(Exception):
            fn(*args)
    finally:
        signal.alarm(0)
    torch.set_grad_enabled(True)  # a compiler that leaks grad mode must not poison the next program


BACKEND = "eager"  # --backend: aot_eager also runs torch/_functorch (AOTAutograd)


def _compiled(entry):
    torch._dynamo.reset()
    return torch.compile(entry, backend=BACKEND)


def run_source(source: str, lines: DynamoLines) -> None:
    """Compile and call a program file's ``entry`` twice under the tracer."""
    try:
        module = load_program(source)
    except Exception:  # noqa: BLE001 - a program that does not load executes no Dynamo line
        return
    with registered(module), torch._dynamo.config.patch(nested_graph_breaks=True):
        fn = _compiled(module.entry)
        with lines:
            for _ in range(2):
                _quietly(lambda: fn(*make_inputs(module, "cpu")))
    for m in program_modules(module):
        forget_program(m)


class NoLines:
    """``--no-trace``: stands in for DynamoLines and records nothing."""

    hits: set = set()

    def __enter__(self) -> NoLines:
        return self

    def __exit__(self, *exc) -> None:
        pass

    def names(self) -> set[str]:
        return set()


def run_pytest(path: str, lines: DynamoLines) -> dict[str, int]:
    """Run the pytest file at ``path`` in this process under the tracer; how many tests passed, failed, etc."""
    import pytest

    class Outcomes:
        def __init__(self):
            self.counts: dict[str, int] = {}

        def pytest_runtest_logreport(self, report):
            if report.when == "call" or report.outcome != "passed":
                key = "error" if report.when != "call" and report.outcome == "failed" else report.outcome
                key = "xfailed" if hasattr(report, "wasxfail") else key
                self.counts[key] = self.counts.get(key, 0) + 1
                if key in ("failed", "error"):
                    print(f"  {key}: {report.nodeid}", file=sys.stderr, flush=True)

    for helper in ("torch._dynamo.testing", "torch._dynamo.test_case"):  # imported before the tracer: their
        with contextlib.suppress(ImportError):  # import is no test's lines (test_case needs expecttest)
            importlib.import_module(helper)

    outcomes = Outcomes()
    folder = str(Path(path).resolve().parent)
    sys.path.insert(0, folder)  # the file's sibling helper modules import as top-level names
    try:
        with torch._dynamo.config.patch(nested_graph_breaks=True), lines, contextlib.redirect_stdout(io.StringIO()):
            pytest.main([path, "-q", "-p", "no:cacheprovider", "-p", "no:xdist"], plugins=[outcomes])
    finally:
        sys.path.remove(folder)
        torch._dynamo.reset()
    return outcomes.counts


def run_scenario(sc, lines: DynamoLines) -> None:
    with torch._dynamo.config.patch(nested_graph_breaks=True):
        fn = _compiled(sc.fn)
        if sc.setup is not None:
            sc.setup()
        with lines:
            for k in range(2):
                _quietly(fn, [], *sc.args(k))  # a scenario's first argument is its effect log


def generated(count: int, seed: int, families: set[str] | None) -> list[str]:
    from fuzz.program.generate import generate_program

    out, index = [], 0
    while len(out) < count and index < 50 * count:
        program = generate_program(seed, index)
        index += 1
        if families is None or any(tag.split(".", 1)[0] in families for tag in program.features):
            out.append(program.source)
    return out


def generated_at(rev: str, count: int, seed: int) -> list[str]:
    """``count`` programs of the generator at git revision ``rev``, made by that revision's own code."""
    with tempfile.TemporaryDirectory(prefix="ngb-cov-") as tmp:
        tree = Path(tmp) / "tree"
        subprocess.run(["git", "-C", str(ROOT), "worktree", "add", "--detach", "--quiet", str(tree), rev], check=True)
        try:
            code = ("import json, sys\ntry:\n    from fuzz.program.generate import generate_program\n"
                    "except ImportError:  # before fuzz/program/ (v2 and older)\n"
                    "    from fuzz.generate import generate_program\n"
                    f"json.dump([generate_program({seed}, i).source for i in range({count})], sys.stdout)")
            env = {**os.environ, "PYTHONPATH": str(tree)}
            done = subprocess.run([sys.executable, "-c", code], cwd=tree, env=env, check=True,
                                  capture_output=True, text=True)
            return json.loads(done.stdout)
        finally:
            subprocess.run(["git", "-C", str(ROOT), "worktree", "remove", "--force", str(tree)], check=False)


TRACE = True  # --no-trace: False


def measure(name: str, items: list, run) -> dict:
    lines = DynamoLines() if TRACE else NoLines()
    started = time.perf_counter()
    for item in items:
        run(item, lines)
    seconds = time.perf_counter() - started
    names = lines.names()
    print(f"  {name}: {len(items)} programs in {seconds:.0f}s", file=sys.stderr, flush=True)
    return {"name": name, "programs": len(items), "seconds": round(seconds, 1), "lines": names}


def by_file(names: set[str], top: int = 8) -> str:
    """The files holding most of ``names`` (``"_dynamo/x.py:12"``), as ``"_dynamo/x.py 40, ..."``."""
    counts: dict[str, int] = {}
    for name in names:
        file = name.rsplit(":", 1)[0]
        counts[file] = counts.get(file, 0) + 1
    ranked = sorted(counts.items(), key=lambda kv: (-kv[1], kv[0]))[:top]
    return ", ".join(f"{file} {n}" for file, n in ranked)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--programs", type=int, default=500, help="K generated programs per generator set")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--sets", help="comma-separated: gen, rev, dir, conformance, corpus, pytest:FILE "
                        "(default gen,conformance,corpus; none with --load)")
    parser.add_argument("--rev", help="git revision of the generator for the 'rev' set (e.g. a v2 commit)")
    parser.add_argument("--families", help="gen set: keep only programs with a tag of these families")
    parser.add_argument("--dir", help="the 'dir' set: a directory of program files")
    parser.add_argument("--save", help="write the gen set's programs into this directory")
    parser.add_argument("--json", help="write the lines of every set to this file")
    parser.add_argument("--backend", default="eager", help="torch.compile backend (aot_eager: _functorch too)")
    parser.add_argument("--load", action="append", default=[], help="add the sets of a --json file (repeatable)")
    parser.add_argument("--no-trace", action="store_true", help="run without the tracer (untraced speed)")
    args = parser.parse_args()
    global BACKEND, TRACE
    BACKEND = args.backend
    TRACE = not args.no_trace
    sets = args.sets if args.sets is not None else ("" if args.load else "gen,conformance,corpus")
    wanted = [s.strip() for s in sets.split(",") if s.strip()]
    if "rev" in wanted and not args.rev:
        parser.error("the 'rev' set needs --rev")
    if "dir" in wanted and not args.dir:
        parser.error("the 'dir' set needs --dir")
    families = set(args.families.split(",")) if args.families else None

    import logging
    import warnings

    logging.getLogger("torch").setLevel(logging.ERROR)  # graph-break and recompile warnings: thousands of lines
    warnings.filterwarnings("ignore")
    torch.compile(lambda x: x + 1, backend="eager")(torch.ones(1))  # Dynamo's lazy imports: not a program's lines
    results = []
    for name in wanted:
        if name == "gen":
            sources = generated(args.programs, args.seed, families)
            if args.save:
                Path(args.save).mkdir(parents=True, exist_ok=True)
                for i, source in enumerate(sources):
                    (Path(args.save) / f"{i:05d}.py").write_text(source)
            label = f"generator (current{', families ' + args.families if families else ''})"
            results.append(measure(label, sources, run_source))
        elif name == "rev":
            results.append(measure(f"generator at {args.rev}", generated_at(args.rev, args.programs, args.seed),
                                   run_source))
        elif name == "dir":
            files = sorted(Path(args.dir).glob("*.py"))
            results.append(measure(f"files in {args.dir}", [f.read_text() for f in files], run_source))
        elif name == "conformance":
            scenarios = [sc for fam in CONFORMANCE
                         for sc in importlib.import_module(f"tests.engine.test_conformance_{fam}").SCENARIOS]
            results.append(measure("tests/engine NGB conformance scenarios", scenarios, run_scenario))
        elif name == "corpus":
            files = sorted((ROOT / "corpus").glob("*.py"))
            results.append(measure("corpus repros", [f.read_text() for f in files], run_source))
        elif name.startswith("pytest:"):
            path = name.split(":", 1)[1]
            outcomes: dict[str, int] = {}
            result = measure(f"pytest {Path(path).name}", [path],
                             lambda p, lines, out=outcomes: out.update(run_pytest(p, lines)))
            result["programs"] = sum(outcomes.values())
            print(f"  pytest {path}: " + ", ".join(f"{n} {k}" for k, n in sorted(outcomes.items())), file=sys.stderr)
            results.append(result)
        else:
            parser.error(f"unknown set {name!r}")

    for path in args.load:
        for name, names in json.loads(Path(path).read_text()).items():
            results.append({"name": name, "programs": "-", "seconds": "-", "lines": set(names)})

    totals = {p: executable_lines([p]) for p in PACKAGES}
    print(f"torch {torch.__version__}, backend {BACKEND}; lines holding code: "
          + ", ".join(f"torch/{p} {n}" for p, n in totals.items()))
    print(f"{'set':<52} {'programs':>8} {'seconds':>8} " + " ".join(f"{p:>18}" for p in PACKAGES))
    for r in results:
        cells = []
        for p in PACKAGES:
            n = sum(1 for line in r["lines"] if line.startswith(p + "/"))
            cells.append(f"{n:>8} ({100 * n / max(totals[p], 1):4.1f}%)")
        print(f"{r['name'][:52]:<52} {r['programs']:>8} {r['seconds']:>8} " + " ".join(f"{c:>18}" for c in cells))
    for i, a in enumerate(results):
        for b in results[i + 1:]:
            print(f"{a['name']} vs {b['name']}: only the first {len(a['lines'] - b['lines'])}, only the second "
                  f"{len(b['lines'] - a['lines'])}, both {len(a['lines'] & b['lines'])}, "
                  f"union {len(a['lines'] | b['lines'])}")
            print(f"  only the first: {by_file(a['lines'] - b['lines'])}")
            print(f"  only the second: {by_file(b['lines'] - a['lines'])}")
    if len(results) >= 3:
        for i, a in enumerate(results):
            others = set().union(*(r["lines"] for j, r in enumerate(results) if j != i))
            print(f"only {a['name']} (none of the others): {len(a['lines'] - others)}; {by_file(a['lines'] - others)}")
    if args.json:
        Path(args.json).write_text(json.dumps({r["name"]: sorted(r["lines"]) for r in results}))


if __name__ == "__main__":
    main()
