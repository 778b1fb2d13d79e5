"""``ngb-fuzz corpus list|check|stats|add|footers``: the repro corpus and its manifest."""

from __future__ import annotations

import argparse
import dataclasses
import sys
from pathlib import Path
from typing import TYPE_CHECKING

from . import UsageError
from ._common import add_workers_option, check_workers, program_problem, read_program
from ._triage import add_ladder_options, corpus_matrix

if TYPE_CHECKING:
    from fuzz.corpus.manifest import Corpus

def register(subparsers: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    p = subparsers.add_parser("corpus", help="list, re-check or add to the corpus of reduced repros")
    p.add_argument("action", choices=("list", "check", "stats", "add", "footers", "matrix"),
                   help="what to do (footers: give every file the current standalone footer; matrix: the "
                        "blame ladder of every entry, kept in the manifest)")
    p.add_argument("files", nargs="*", metavar="FILE", help="add: program files to add; matrix: only these entries")
    p.add_argument("--dir", default="corpus", help="corpus directory (default: corpus)")
    p.add_argument("--target", metavar="SPEC",
                   help="list/stats: only entries found on SPEC; check: run every entry on SPEC instead of its own "
                        "target (e.g. a newer torch: torch:python=/venv/bin/python); add: the target (required)")
    p.add_argument("--signature", help="add: expected signature (default: the file's verdict; 'ok' for a "
                                       "regression case)")
    p.add_argument("--status", default=None, help="add: initial status (NEW; FIXED for regression cases)")
    add_workers_option(p, 1, "check/add: oracle worker processes; matrix: entries at a time")
    p.add_argument("--requires", metavar="CLAUSES",
                   help="add: the torch/Python versions the bug shows on, e.g. 'torch>=2.15' or "
                        "'torch>=2.14,<2.16, python>=3.12'; elsewhere check does not run it and pytest skips it")
    p.add_argument("--same-as", metavar="ENTRY",
                   help="add: the FILEs are variants of ENTRY's bug (a file in the corpus): a campaign then calls "
                        "a finding with a variant's root cause KNOWN as ENTRY")
    p.add_argument("--dry-run", action="store_true", help="check: do not update the manifest")
    add_ladder_options(p)  # matrix: --python, --backend, --timeout
    p.set_defaults(handler=corpus)


def _open(path: str, must_exist: bool) -> Corpus:
    from fuzz.corpus.manifest import Corpus, CorpusError, ManifestError

    try:
        return Corpus(path, must_exist=must_exist)
    except ManifestError:
        raise
    except CorpusError as exc:
        raise UsageError(str(exc)) from None


def corpus(args: argparse.Namespace) -> int:
    from fuzz.corpus.manifest import ManifestError

    check_workers(args.workers, args.oversubscribe)
    try:
        store = _open(args.dir, must_exist=args.action != "add")
    except ManifestError as exc:  # a corpus problem, as an entry without its file is: exit 1, nothing written
        print(f"ngb-fuzz corpus: error: {exc}", file=sys.stderr)
        return 1
    if args.action == "list":
        return _list(store, args)
    if args.action == "stats":
        return _stats(store, args)
    if args.action == "add":
        return _add(store, args)
    if args.action == "matrix":
        return corpus_matrix(store, args)
    if args.action == "footers":
        changed = store.refresh_footers()
        print(f"refreshed the footer of {len(changed)} file(s)" + "".join(f"\n  {p}" for p in changed))
        return 0
    return _check(store, args)


def _canonical(spec: str | None) -> str | None:
    if spec is None:
        return None
    from ._common import parse_targets

    return parse_targets([spec], check=False)[0]


def _list(store: Corpus, args: argparse.Namespace) -> int:
    entries = store.select(_canonical(args.target))
    problems = dict(store.problems())
    for e in entries:
        last = f"  last: {e.last_signature} on {e.last_target} ({e.last_checked})" if e.last_checked else ""
        status = "MISSING" if e.file in problems else e.status
        print(f"{status:<10} {e.file:<52} {e.target:<22} {e.signature}{last}")
    strays = [f for f in problems if f not in store.entries]
    for f in strays:
        print(f"{'?':<10} {f:<52} (not in the manifest)")
    print(f"{len(entries)} entries in {store.root}" + (f"; {len(problems)} problem(s): see `ngb-fuzz corpus check`"
                                                         if problems else ""))
    return 1 if problems else 0


def _stats(store: Corpus, args: argparse.Namespace) -> int:
    target = _canonical(args.target)
    entries = store.select(target)
    print(f"{len(entries)} entries in {store.root}" + (f" found on {target}" if target else ""))
    for field in ("status", "target", "signature"):
        counts: dict[str, int] = {}
        for e in entries:
            counts[getattr(e, field)] = counts.get(getattr(e, field), 0) + 1
        print(f"by {field}:")
        for key, n in sorted(counts.items(), key=lambda kv: (-kv[1], kv[0])):
            print(f"  {n:>4}  {key}")
    return 0


def _check(store: Corpus, args: argparse.Namespace) -> int:
    import oracle
    from fuzz.corpus.manifest import BROKEN_SIGNATURES, REQUIRES_UNMET, oracle_check

    target = _canonical(args.target)
    if target:
        from ._common import parse_targets

        parse_targets([target])  # available here?
    with oracle.Runner(workers=args.workers) as runner:
        outcomes = store.check(oracle_check(runner), target=target, update=not args.dry_run)
    for o in outcomes:
        move = o.old_status if o.old_status == o.new_status else f"{o.old_status} -> {o.new_status}"
        flag = "  (fails differently)" if o.changed else ""
        if o.signature in BROKEN_SIGNATURES:
            move, flag = "ERROR", f"  ({o.detail.splitlines()[0][:100] if o.detail else 'file missing'})"
        elif o.signature == REQUIRES_UNMET:
            move, flag = "not run", f"  ({o.detail})"
        print(f"{move:<20} {o.file:<52} {o.target:<22} {o.signature}{flag}")
    listed = {o.file for o in outcomes}
    strays = [(f, why) for f, why in store.problems() if f not in listed]
    for f, why in strays:
        print(f"{'ERROR':<20} {f:<52} {why}")
    broken = [o for o in outcomes if o.signature in BROKEN_SIGNATURES]
    errors = len(broken) + len(strays)
    if not args.dry_run and not errors:
        store.save()
    regressions = [o for o in outcomes if o.new_status == "REGRESSION"]
    print(f"{len(outcomes)} checked, {sum(o.old_status != o.new_status for o in outcomes)} changed status, "
          f"{len(regressions)} regressions, {errors} errors" +
          ("; the manifest was not updated: fix the errors first" if errors and not args.dry_run else ""),
          file=sys.stderr)
    return 1 if regressions or errors else 0


def _add(store: Corpus, args: argparse.Namespace) -> int:
    import oracle
    from fuzz.corpus.manifest import CorpusError
    from fuzz.reduce._oracle import with_header

    if not args.files:
        raise UsageError("add needs at least one FILE")
    if not args.target:
        raise UsageError("add needs --target SPEC")
    from ._common import parse_targets

    target = parse_targets([args.target])[0]
    from fuzz.corpus.requires import RequiresError, parse_requires, target_versions

    try:
        parse_requires(args.requires or "")
    except RequiresError as exc:
        raise UsageError(str(exc)) from None
    same_as = Path(args.same_as).name if args.same_as else ""
    if same_as and same_as not in store.entries:
        raise UsageError(f"--same-as {args.same_as}: no such entry in {store.root}; nothing added")
    checked = []  # every file is checked before any is added: a refused one leaves the corpus as it was
    with oracle.Runner(workers=args.workers) as runner:
        for name in args.files:
            source = read_program(name)
            problem = program_problem(source)
            if problem:
                raise UsageError(f"{name} is not a program that loads: {problem}; nothing added")
            report = runner.check(source, [target])
            if report.flaky:
                raise UsageError(f"{name} is flaky under eager; nothing added")
            verdict = report.verdicts[target]
            if verdict.kind == "skip":  # it does not load, or eager fails: there is nothing to keep checking
                raise UsageError(f"{name}: {verdict.detail.splitlines()[0][:160]}; nothing added")
            checked.append((name, source, args.signature or verdict.signature))
    # The entry names the compiler, not this machine's interpreter path (a corpus travels): torch:python=/venv/...
    # is kept as torch, with that interpreter's torch version; ``corpus check --target`` runs it there again.
    parsed = oracle.parse_target(target)
    kept_target = dataclasses.replace(parsed, python=None).spec
    torch_version = target_versions(target)[0].split("+")[0] if parsed.python else None
    for name, source, signature in checked:
        status = args.status or ("FIXED" if signature == "ok" else "NEW")
        base = Path(name).name
        keep = None if (store.root / base).exists() or base in store.entries else base
        note = oracle.ProgramFile.parse(source).get("found-by") or ""
        try:
            entry, added = store.add(with_header(source, kept_target, signature), kept_target, signature,
                                     status=status, name=keep, note=note, requires=args.requires or "",
                                     same_as=same_as, torch_version=torch_version)
        except CorpusError as exc:
            raise UsageError(str(exc)) from None
        variant = f", a variant of {entry.same_as}" if entry.same_as else ""
        where = f"{kept_target} (torch {entry.torch}, found through {target})" if parsed.python else target
        print(f"{'added' if added else 'already there as'} {entry.file}: {entry.status} {signature} on {where}"
              f"{variant}")
    store.save()
    return 0
