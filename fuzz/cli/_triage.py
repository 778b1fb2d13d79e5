"""``ngb-fuzz triage FILE``: the blame ladder of one repro (NGB on/off × backends × torch installations)."""

from __future__ import annotations

import argparse
import sys
from pathlib import Path
from typing import TYPE_CHECKING

from . import UsageError
from ._common import parse_targets, read_program

if TYPE_CHECKING:
    import oracle
    from fuzz.corpus.manifest import Corpus, Entry
    from fuzz.triage.ladder import Rung, Triage

def register(subparsers: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    p = subparsers.add_parser(
        "triage", help="run one repro across NGB on/off, backends and torch installations; say what fails",
        description="Check a program file with NGB on and off, on each backend and on each torch installation "
                    "given (and, for a file whose target has dynamic= or config=, with and without them), print "
                    "which configurations fail and conclude: NGB-specific or not, backend-specific or not, "
                    "whether it needs those options, which torch versions have it.")
    p.add_argument("file", help="program file (see docs/program-format.md)")
    add_ladder_options(p)
    p.add_argument("--dynamic", action="append", choices=("auto", "true", "false"),
                   help="torch.compile's dynamic=, repeatable (default: the file's target's, and auto beside it)")
    p.add_argument("--config", action="append", metavar="NAME[+NAME...]",
                   help="config= flag sets, repeatable; 'none' for none (default: the file's target's, and none "
                        "beside it); see `ngb-fuzz targets`")
    p.add_argument("--corpus", default="corpus", metavar="DIR",
                   help="when it fails, name the bugs of this corpus it looks like (default: corpus; 'none': off)")
    p.set_defaults(handler=triage)


def add_ladder_options(p: argparse.ArgumentParser) -> None:
    p.add_argument("--python", action="append", metavar="PATH", default=[],
                   help="another interpreter with torch (repeatable); this interpreter's torch is always tried")
    p.add_argument("--backend", action="append", choices=("eager", "aot_eager", "inductor"),
                   help="backend, repeatable (default: eager, aot_eager and inductor)")
    p.add_argument("--timeout", type=float, default=120.0, help="seconds per configuration before 'hang'")


def pythons(args: argparse.Namespace) -> list[str | None]:
    """This interpreter plus each --python, validated (exit 2 on one without torch)."""
    from fuzz.triage.ladder import rung_spec

    for python in args.python:
        parse_targets([rung_spec(python, "on", "eager")])
    return [None, *args.python]


def triage(args: argparse.Namespace) -> int:
    import oracle
    from fuzz.triage.ladder import conclude, format_table
    from fuzz.triage.ladder import triage as run_ladder

    path = Path(args.file)
    source = read_program(path)
    if "def entry(" not in source:
        raise UsageError(f"{path} is not a program file: it needs an entry() (see docs/program-format.md)")
    interpreters = pythons(args)
    backends = tuple(dict.fromkeys(args.backend or ("eager", "aot_eager", "inductor")))
    variants = axes_variants(args, oracle.ProgramFile.parse(source).get("target"))
    if variants != [""]:
        print(f"axes: {' | '.join(v or 'defaults' for v in variants)} (dynamic=, config=; each on every rung)",
              file=sys.stderr)

    def progress(rung: Rung) -> None:
        axes = f" {rung.axes}" if rung.axes else ""
        print(f"  torch {rung.torch} ngb={rung.ngb} backend={rung.backend}{axes}: {rung.signature}", file=sys.stderr)

    with oracle.Runner(workers=1, timeout=args.timeout) as runner:
        result = run_ladder(source, runner, interpreters, backends, on_rung=progress, axes=variants)
        print(format_table(result))
        print("conclusion: " + conclude(result))
        if result.failing():
            print_looks_like(source, args.corpus)
            print_trigger(source, args.corpus, runner, result)
    return 1 if result.failing() else 0


def print_trigger(source: str, corpus: str, runner: oracle.Runner, result: Triage) -> None:
    """The calls the finding needs the compiler to trace, on the first failing rung of this interpreter with
    nested graph breaks on, and the corpus bugs that need them too (``fuzz.triage.trigger``: KNOWN?)."""
    from fuzz.reduce._oracle import at_slow_horizon
    from fuzz.triage.known import KnownBugs
    from fuzz.triage.ladder import rung_spec
    from fuzz.triage.rootcause import pins_bug
    from fuzz.triage.trigger import Triggers

    rung = next((r for r in result.failing() if r.python is None and r.ngb == "on"), None)
    if (rung is None or pins_bug(rung.signature) or corpus == "none"
            or not (Path(corpus) / "manifest.json").is_file()):
        return
    spec = rung_spec(None, "on", rung.backend, rung.axes)
    rule = Triggers.on_runner(KnownBugs.from_corpus(corpus).forms, at_slow_horizon(runner, rung.signature))
    mine = rule.trigger(source, spec)
    if not mine:
        print(f"trigger ({spec}): none of its calls alone (but the most common) needs the compiler")
        return
    like, _ = rule.like(source, rung.signature, spec)
    named = ", ".join(str(Path(corpus) / file) for file in like)
    print(f"trigger ({spec}): it needs the compiler to trace {', '.join(sorted(mine))}"
          + (f"; so does {named}: probably a new form of it (KNOWN?; confirm, then `ngb-fuzz corpus add FILE "
             f"--same-as ENTRY`)" if like else "; no corpus bug needs that"))


def print_looks_like(source: str, corpus: str) -> None:
    """The corpus bugs a failing program looks like (``fuzz.triage.nearest``): a hint, printed when there is one."""
    from fuzz.triage.known import KnownBugs

    if corpus == "none" or not (Path(corpus) / "manifest.json").is_file():
        return
    alike = KnownBugs.from_corpus(corpus).looks_like(source)
    if alike:
        print("looks like: " + ", ".join(f"{Path(corpus) / file} ({score:.2f})" for file, score in alike)
              + " (shares their constructs: a hint, not a verdict)")


def axes_variants(args: argparse.Namespace, target: str | None) -> list[str]:
    """The variants of Dynamo's own axes to ladder: those asked for (--dynamic × --config), else the file's
    target's and, when that has any, the defaults beside it (does the bug need them?). Exit 2 on a bad one."""
    import oracle
    from fuzz.triage.ladder import target_axes

    dynamic, config = getattr(args, "dynamic", None), getattr(args, "config", None)
    if not dynamic and not config:
        try:
            own = target_axes(target)
        except oracle.TargetError:  # a target of another kind (engine, fault:...): torch's ladder, default axes
            own = ""
        return [own, ""] if own else [""]
    specs = [f"torch:dynamic={d},config={c}" for d in dynamic or ["auto"] for c in config or ["none"]]
    return list(dict.fromkeys(target_axes(spec) for spec in parse_targets(specs, check=False)))


def corpus_matrix(store: Corpus, args: argparse.Namespace) -> int:
    """``ngb-fuzz corpus matrix``: the ladder of every entry (fault-target entries aside), kept in the manifest."""
    import concurrent.futures
    import datetime
    import threading

    import oracle
    from fuzz.triage.ladder import entry_backends, format_matrix, matrix_record, target_axes
    from fuzz.triage.ladder import triage as run_ladder

    interpreters = pythons(args)
    entries = [e for e in store.select() if not e.target.startswith("fault")]
    if args.files:
        wanted = {Path(f).name for f in args.files}
        entries = [e for e in entries if Path(e.file).name in wanted]
    today = datetime.date.today().isoformat()
    results: dict[str, Triage] = {}
    lock = threading.Lock()

    def ladder(entry: Entry) -> None:
        path = store.root / entry.file
        if not path.exists():
            print(f"  {entry.file}: missing", file=sys.stderr)
            return
        result = run_ladder(oracle.read_program_text(path), runner, interpreters, entry_backends(entry.target, args.backend),
                            axes=(target_axes(entry.target),))
        with lock:
            entry.matrix = matrix_record(result, today)
            results[entry.file] = result
            print(f"  {entry.file}: {entry.matrix['conclusion']}", file=sys.stderr, flush=True)
            store.save()  # an interrupted matrix keeps what it has

    # --workers entries at a time: the runner's pools hold that many worker processes per installation.
    with oracle.Runner(workers=args.workers, timeout=args.timeout) as runner:
        with concurrent.futures.ThreadPoolExecutor(args.workers) as pool:
            for future in [pool.submit(ladder, entry) for entry in entries]:
                future.result()
    rows = [(e.file.removesuffix(".py"), results[e.file]) for e in entries if e.file in results]
    print(format_matrix(rows))
    return 0
