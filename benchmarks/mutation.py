"""Mutation score: plant one small bug at a time in a module and see whether the tests of its area notice.

    python benchmarks/mutation.py [--module oracle/_compare.py ...] [--sample N] [--seed S] [--max-mutants N]
                                  [--jobs J] [--timeout SECONDS] [--tests 'PYTEST ARGS'] [--engine-subset]
                                  [--root DIR] [--only MODULE:LINE ...] [--quick] [--list]

For each target module, every mutant (or a seeded sample of them) is written into a *temporary copy* of the tree
(under the system temp directory, never the tree itself); the tests mapped to that module run there with
``PYTHONPATH`` pointing at the copy, as ``pytest -x -q -p no:xdist``. A test failure, an error or the per-mutant
timeout counts as *killed* (a mutant that makes the suite hang is caught, if slowly); a passing run is a
*survivor*. The tool prints killed / survived per module and every survivor as ``file:line  operator`` with the
original and the mutated line.

Why a small mutator of our own rather than mutmut or cosmic-ray: no new dependency in the project's venv; both
of those want their own runner configuration and session database per module and are slow to set up for a
handful of modules; ours needs only ``ast`` and knows the layout of this project (the oracle's worker imports
``_observe`` from the copy's ``oracle/`` folder, so the copy must be a whole tree, and workers it starts must be
ended by their pid when a mutant times out).

Operators (each applied at one place per mutant): comparison flips (``==``/``!=``, ``<``/``>=``, ``is``/``is not``,
``in``/``not in``), ``and``/``or`` swaps, ``not`` removal, constant changes (0/1, n -> n+1, True/False, a string
emptied, a float to 0.0 or 1.0), ``return X`` -> ``return None``, a statement deleted (a call, an assignment, a
``raise``, ``break``/``continue``), arithmetic swaps (``+``/``-``, ``*``/``/``, ``//``/``*``, ``%``/``//``,
``|``/``&``). Docstrings, annotations, ``__all__`` and f-string literal parts are left alone; a mutant whose code
is the same as the original after ``ast.unparse`` is dropped.

The modules -> tests mapping is ``DEFAULT_MAP`` below (edit it, or pass ``--tests`` for a one-off run). Test
paths that do not exist in the tree are left out, so a mapping can name files that another branch adds.
"""

from __future__ import annotations

import argparse
import ast
import concurrent.futures
import dataclasses
import os
import random
import shutil
import signal
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent

# Fast in-process tests first: with -x a mutant they catch is killed before any worker process starts.
ORACLE_TESTS = ("tests/oracle/test_compare.py", "tests/oracle/test_observe.py", "tests/oracle/test_verdict.py",
                "tests/oracle/test_truth_table.py", "tests/oracle")
# The guard and state tests first: most engine mutants are killed there within seconds.
ENGINE_TESTS = ("tests/engine/test_guards.py", "tests/engine/test_guard_constants.py",
                "tests/engine/test_guard_matrix.py", "tests/engine/test_state_across_breaks.py",
                "tests/engine/test_conformance_effects.py", "tests/engine")
ENGINE_SUBSET = ("tests/engine/test_guards.py", "tests/engine/test_state_across_breaks.py",
                 "tests/engine/test_seed_bugs.py")
CAMPAIGN_TESTS = ("tests/campaign/test_campaign.py", "tests/campaign/test_state.py", "tests/campaign")
STATE_TESTS = ("tests/campaign/test_journal.py", "tests/campaign/test_state.py", "tests/campaign")

# module -> pytest paths, in the order they run (with -x, the first failing file ends the run).
DEFAULT_MAP: dict[str, tuple[str, ...]] = {
    "oracle/_compare.py": ORACLE_TESTS,
    "oracle/_verdict.py": ORACLE_TESTS,
    "oracle/_observe.py": ORACLE_TESTS,
    "engine/_guards.py": ENGINE_TESTS,
    "engine/_residual.py": ENGINE_TESTS,  # guards -> graph -> side effects replayed (the replay of a segment)
    "fuzz/campaign/directory.py": STATE_TESTS,  # the campaign's state on disk: journal, snapshot, lock, repro files
    "fuzz/campaign/loop.py": CAMPAIGN_TESTS,
}
ORACLE_MODULES = ("oracle/_compare.py", "oracle/_verdict.py", "oracle/_observe.py")

_IGNORED = shutil.ignore_patterns(".git", "__pycache__", ".venv", "*.egg-info", ".hypothesis", ".pytest_cache",
                                  ".ruff_cache", "runs", "out", ".whl", ".gl")

_COMPARE_FLIPS = {ast.Eq: ast.NotEq, ast.NotEq: ast.Eq, ast.Lt: ast.GtE, ast.GtE: ast.Lt, ast.Gt: ast.LtE,
                  ast.LtE: ast.Gt, ast.Is: ast.IsNot, ast.IsNot: ast.Is, ast.In: ast.NotIn, ast.NotIn: ast.In}
_ARITH_SWAPS = {ast.Add: ast.Sub, ast.Sub: ast.Add, ast.Mult: ast.Div, ast.Div: ast.Mult, ast.FloorDiv: ast.Mult,
                ast.Mod: ast.FloorDiv, ast.BitOr: ast.BitAnd, ast.BitAnd: ast.BitOr}
_DELETABLE = (ast.Expr, ast.Assign, ast.AugAssign, ast.AnnAssign, ast.Raise, ast.Break, ast.Continue, ast.Delete)


@dataclasses.dataclass(frozen=True, slots=True)
class Mutant:
    module: str  # path relative to the tree root
    index: int  # position of the mutated node in ast.walk order
    operator: str
    line: int
    original: str  # the source line as written
    mutated: str  # the enclosing statement after the mutation (first line)
    source: str  # the whole mutated module


@dataclasses.dataclass(slots=True)
class Result:
    mutant: Mutant
    outcome: str  # killed | survived | timeout
    seconds: float
    detail: str = ""


def _skipped_nodes(tree: ast.AST) -> set[int]:
    """ids of nodes no operator touches: docstrings, annotations, ``__all__``, f-string literal parts."""
    skip: set[int] = set()

    def mark(node):
        for sub in ast.walk(node):
            skip.add(id(sub))

    for node in ast.walk(tree):
        body = getattr(node, "body", None)
        if isinstance(body, list) and body and isinstance(body[0], ast.Expr) \
                and isinstance(body[0].value, ast.Constant) and isinstance(body[0].value.value, str):
            mark(body[0])
        if isinstance(node, (ast.arg, ast.AnnAssign)) and node.annotation is not None:
            mark(node.annotation)
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)) and node.returns is not None:
            mark(node.returns)
        if isinstance(node, ast.Assign) and any(isinstance(t, ast.Name) and t.id == "__all__" for t in node.targets):
            mark(node)
        if isinstance(node, ast.JoinedStr):
            for part in node.values:
                if isinstance(part, ast.Constant):
                    skip.add(id(part))
        if isinstance(node, ast.ImportFrom) and node.module == "__future__":
            mark(node)
    return skip


def _variants(node: ast.AST) -> list[tuple[str, object]]:
    """(operator name, how to mutate) for one node; the second item is consumed by ``_apply``."""
    out: list[tuple[str, object]] = []
    if isinstance(node, ast.Compare):
        for i, op in enumerate(node.ops):
            if type(op) in _COMPARE_FLIPS:
                new = _COMPARE_FLIPS[type(op)]
                out.append((f"compare {type(op).__name__}->{new.__name__}", ("compare", i, new)))
    elif isinstance(node, ast.BoolOp):
        new = ast.Or if isinstance(node.op, ast.And) else ast.And
        out.append((f"boolop {type(node.op).__name__}->{new.__name__}", ("boolop", new)))
    elif isinstance(node, ast.UnaryOp) and isinstance(node.op, ast.Not):
        out.append(("remove not", ("not",)))
    elif isinstance(node, ast.Constant):
        value = node.value
        if isinstance(value, bool):
            out.append((f"constant {value}->{not value}", ("const", not value)))
        elif isinstance(value, int):
            new = {0: 1, 1: 0}.get(value, value + 1)
            out.append((f"constant {value}->{new}", ("const", new)))
        elif isinstance(value, float):
            new = 0.0 if value else 1.0
            out.append((f"constant {value}->{new}", ("const", new)))
        elif isinstance(value, str) and value:
            out.append(("string emptied", ("const", "")))
    elif isinstance(node, (ast.BinOp, ast.AugAssign)) and type(node.op) in _ARITH_SWAPS:
        new = _ARITH_SWAPS[type(node.op)]
        out.append((f"arith {type(node.op).__name__}->{new.__name__}", ("arith", new)))
    if isinstance(node, ast.Return) and node.value is not None \
            and not (isinstance(node.value, ast.Constant) and node.value.value is None):
        out.append(("return None", ("return",)))
    if isinstance(node, _DELETABLE):
        out.append((f"delete {type(node).__name__.lower()}", ("delete",)))
    return out


class _Apply(ast.NodeTransformer):
    """Applies one variant to the node at walk position ``index`` (positions taken before any change)."""

    def __init__(self, target: ast.AST, how: tuple):
        self.target, self.how = target, how
        self.result: ast.AST | None = None

    def visit(self, node):
        if node is not self.target:
            return self.generic_visit(node)
        self.result = self._mutate(node)
        return self.result

    def _mutate(self, node):
        kind = self.how[0]
        if kind == "compare":
            node.ops[self.how[1]] = self.how[2]()
        elif kind == "boolop":
            node.op = self.how[1]()
        elif kind == "not":
            return node.operand
        elif kind == "const":
            node.value = self.how[1]
        elif kind == "arith":
            node.op = self.how[1]()
        elif kind == "return":
            node.value = None
        elif kind == "delete":
            return ast.copy_location(ast.Pass(), node)
        return node


def _mutated_line(line: str, node: ast.AST, result: ast.AST | None) -> str:
    """The source line with the mutated node's text replaced (the unparsed node if it spans several lines)."""
    if isinstance(result, ast.Pass) and not isinstance(node, ast.Pass):
        return line[:len(line) - len(line.lstrip())] + "pass"
    text = ast.unparse(result) if result is not None else ""
    if getattr(node, "end_lineno", None) == node.lineno:
        return line[:node.col_offset] + text + line[node.end_col_offset:]
    return text.splitlines()[0] if text else ""


def mutants(root: Path, module: str) -> list[Mutant]:
    """Every mutant of ``module`` (relative to ``root``), in source order."""
    text = (root / module).read_text()
    lines = text.splitlines()
    baseline = ast.unparse(ast.parse(text))
    tree = ast.parse(text)
    skip = _skipped_nodes(tree)
    found: list[Mutant] = []
    seen: set[str] = set()
    for index, node in enumerate(ast.walk(tree)):
        if id(node) in skip:
            continue
        for name, how in _variants(node):
            fresh = ast.parse(text)
            target = next(n for i, n in enumerate(ast.walk(fresh)) if i == index)
            apply = _Apply(target, how)
            fresh = apply.visit(fresh)
            ast.fix_missing_locations(fresh)
            source = ast.unparse(fresh)
            if source == baseline or source in seen:
                continue
            seen.add(source)
            line = lines[node.lineno - 1]
            shown = _mutated_line(line, node, apply.result).strip()
            found.append(Mutant(module, index, name, node.lineno, line.strip(), shown, source))
    found.sort(key=lambda m: (m.line, m.index, m.operator))
    return found


def select(found: list[Mutant], sample: int | None, seed: int, max_mutants: int | None) -> list[Mutant]:
    if sample is not None and sample < len(found):
        chosen = sorted(random.Random(f"{seed}:{found[0].module}").sample(range(len(found)), sample))
        found = [found[i] for i in chosen]
    return found[:max_mutants] if max_mutants is not None else found


def _kill_strays(tree: Path) -> None:
    """End processes still running from the copy (oracle workers start their own session, so a timed-out
    pytest's process group does not hold them); only processes whose command line names the copy."""
    marker = str(tree)
    for pid in os.listdir("/proc"):
        if not pid.isdigit() or int(pid) == os.getpid():
            continue
        try:
            cmdline = Path(f"/proc/{pid}/cmdline").read_bytes().decode("utf-8", "replace")
        except OSError:
            continue
        if marker in cmdline:
            try:
                os.kill(int(pid), signal.SIGKILL)
            except ProcessLookupError:
                pass


class Sandbox:
    """One copy of the tree where mutants are written and tested one at a time."""

    def __init__(self, root: Path, base: Path):
        self.tree = base / "tree"
        shutil.copytree(root, self.tree, ignore=_IGNORED, symlinks=True)

    def run(self, tests: list[str], timeout: float, module: str | None = None, source: str | None = None,
            extra: tuple[str, ...] = ()) -> tuple[str, float, str]:
        path = self.tree / module if module else None
        original = path.read_text() if path else None
        if path:
            path.write_text(source)
        env = dict(os.environ, PYTHONPATH=str(self.tree), PYTHONDONTWRITEBYTECODE="1", PYTHONHASHSEED="0")
        cmd = [sys.executable, "-m", "pytest", "-x", "-q", "-p", "no:xdist", "-p", "no:cacheprovider", *extra,
               *tests]
        started = time.monotonic()
        proc = subprocess.Popen(cmd, cwd=self.tree, env=env, stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                                start_new_session=True)
        try:
            out, _ = proc.communicate(timeout=timeout)
            outcome = "survived" if proc.returncode == 0 else "killed"
            detail = _last_failure(out.decode("utf-8", "replace"), proc.returncode)
        except subprocess.TimeoutExpired:
            os.killpg(proc.pid, signal.SIGKILL)
            proc.communicate()
            outcome, detail = "timeout", f"no result in {timeout:.0f}s"
        finally:
            _kill_strays(self.tree)
            if path:
                path.write_text(original)
        return outcome, time.monotonic() - started, detail


def _last_failure(out: str, code: int) -> str:
    for line in out.splitlines():
        if line.startswith(("FAILED", "ERROR")):
            return line[:160]
    return "" if code == 0 else f"pytest exit {code}: {out.strip().splitlines()[-1][:140] if out.strip() else ''}"


def test_paths(tree: Path, paths) -> list[str]:
    """The mapped paths that exist, in order, each once (a folder after a file in it still runs the rest)."""
    return [p for p in dict.fromkeys(paths) if (tree / p).exists()]


def run_module(module: str, chosen: list[Mutant], tests: list[str], sandboxes: list[Sandbox], timeout: float,
               log) -> list[Result]:
    free = list(sandboxes)
    lock = threading.Lock()
    results: list[Result] = []

    def one(m: Mutant) -> Result:
        with lock:
            box = free.pop()
        try:
            outcome, seconds, detail = box.run(tests, timeout, m.module, m.source)
        finally:
            with lock:
                free.append(box)
        result = Result(m, outcome, seconds, detail)
        log(f"  {outcome:8s} {seconds:6.1f}s  {m.module}:{m.line}  {m.operator}  | {m.original}")
        return result

    with concurrent.futures.ThreadPoolExecutor(len(sandboxes)) as pool:
        for result in pool.map(one, chosen):
            results.append(result)
    return results


def report(all_results: dict[str, list[Result]], total: dict[str, int]) -> str:
    rows = ["| module | mutants (of all) | killed | by timeout | survived | score |", "|---|---|---|---|---|---|"]
    for module, results in all_results.items():
        killed = sum(r.outcome == "killed" for r in results)
        timeouts = sum(r.outcome == "timeout" for r in results)
        survived = sum(r.outcome == "survived" for r in results)
        score = (killed + timeouts) / len(results) if results else 0.0
        rows.append(f"| {module} | {len(results)} ({total[module]}) | {killed} | {timeouts} | {survived} | "
                    f"{score:.0%} |")
    survivors = [r for results in all_results.values() for r in results if r.outcome == "survived"]
    if survivors:
        rows += ["", f"Surviving mutants ({len(survivors)}):"]
        for r in survivors:
            m = r.mutant
            rows.append(f"  {m.module}:{m.line}  {m.operator}\n      - {m.original}\n      + {m.mutated}")
    return "\n".join(rows)


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--module", action="append", help="module to mutate (repeatable); default: all mapped")
    parser.add_argument("--root", type=Path, default=ROOT, help="tree to copy (default: this checkout)")
    parser.add_argument("--sample", type=int, help="test a seeded random sample of N mutants per module")
    parser.add_argument("--seed", type=int, default=0, help="seed of --sample (default 0)")
    parser.add_argument("--max-mutants", type=int, help="at most N mutants per module (after --sample)")
    parser.add_argument("--jobs", type=int, default=1, help="mutants tested in parallel, one tree copy each")
    parser.add_argument("--timeout", type=float, default=600.0, help="seconds per mutant; a timeout counts as killed")
    parser.add_argument("--tests", help="pytest paths for every module instead of the mapping (space-separated)")
    parser.add_argument("--engine-subset", action="store_true",
                        help=f"engine modules run only {' '.join(ENGINE_SUBSET)} (faster, weaker)")
    parser.add_argument("--only", action="append", metavar="MODULE:LINE",
                        help="keep only the chosen mutants at this line (repeatable): re-run a run's survivors "
                             "with the same --sample/--seed after adding tests")
    parser.add_argument("--quick", action="store_true",
                        help="only the mapped test files, not the area folders after them: a mutant they kill is "
                             "killed by the whole area too; re-run the survivors without --quick (--only)")
    parser.add_argument("--list", action="store_true", help="list the mutants and exit")
    args = parser.parse_args(argv)

    root = args.root.resolve()
    modules = args.module or list(DEFAULT_MAP)
    for module in modules:
        if not (root / module).is_file():
            parser.error(f"no module {module!r} under {root}; mapped: {', '.join(DEFAULT_MAP)}")
        if module not in DEFAULT_MAP and not args.tests:
            parser.error(f"{module!r} has no tests mapped; pass --tests or add it to DEFAULT_MAP")
    if args.jobs < 1:
        parser.error("--jobs must be >= 1")

    found = {m: mutants(root, m) for m in modules}
    chosen = {m: select(found[m], args.sample, args.seed, args.max_mutants) for m in modules}
    if args.only:
        wanted = set(args.only)
        chosen = {m: [x for x in chosen[m] if f"{x.module}:{x.line}" in wanted] for m in modules}
        if not any(chosen.values()):
            parser.error(f"no chosen mutant is at {', '.join(sorted(wanted))} (same --sample and --seed?)")
    if args.list:
        for module in modules:
            for m in chosen[module]:
                print(f"{m.module}:{m.line}  {m.operator}  | {m.original}  ->  {m.mutated}")
        return 0

    def log(text: str) -> None:
        print(text, flush=True)

    results: dict[str, list[Result]] = {}
    signal.signal(signal.SIGTERM, lambda *_: sys.exit(1))  # so that the finally below ends what we started
    with tempfile.TemporaryDirectory(prefix="ngb-mutation-") as base:
        try:
            return _run_all(args, parser, root, modules, found, chosen, Path(base), results, log)
        finally:
            _kill_strays(Path(base))


def _run_all(args, parser, root, modules, found, chosen, base: Path, results, log) -> int:
    sandboxes = []
    for job in range(args.jobs):
        (base / str(job)).mkdir()
        sandboxes.append(Sandbox(root, base / str(job)))
    for module in modules:
        paths = args.tests.split() if args.tests else DEFAULT_MAP[module]
        if module.startswith("engine/") and args.engine_subset and not args.tests:
            paths = ENGINE_SUBSET
        tests = test_paths(sandboxes[0].tree, paths)
        if args.quick:
            tests = [p for p in tests if not (sandboxes[0].tree / p).is_dir()] or tests
        if not tests:
            parser.error(f"none of the tests mapped to {module} exist: {' '.join(paths)}")
        log(f"{module}: {len(chosen[module])} of {len(found[module])} mutants; tests: {' '.join(tests)}")
        outcome, seconds, detail = sandboxes[0].run(tests, args.timeout)
        if outcome != "survived":
            log(f"  the unmutated tree does not pass these tests ({outcome}, {seconds:.0f}s): {detail}")
            return 1
        log(f"  unmutated: pass in {seconds:.1f}s")
        results[module] = run_module(module, chosen[module], tests, sandboxes, args.timeout, log)
    print()
    print(report(results, {m: len(found[m]) for m in modules}))
    return 0


if __name__ == "__main__":
    sys.exit(main())
