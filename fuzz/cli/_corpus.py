"""``ngb-fuzz corpus list|check|stats|add|footers``: the repro corpus and its manifest."""

from __future__ import annotations

import sys
from pathlib import Path

from . import UsageError


def register(subparsers) -> None:
    p = subparsers.add_parser("corpus", help="list, re-check or add to the corpus of reduced repros")
    p.add_argument("action", choices=("list", "check", "stats", "add", "footers"),
                   help="what to do (footers: give every file the current standalone footer)")
    p.add_argument("files", nargs="*", metavar="FILE", help="add: program files to add")
    p.add_argument("--dir", default="corpus", help="corpus directory (default: corpus)")
    p.add_argument("--target", metavar="SPEC",
                   help="list/stats: only entries found on SPEC; check: run every entry on SPEC instead of its own "
                        "target (e.g. a newer torch: torch:python=/venv/bin/python); add: the target (required)")
    p.add_argument("--signature", help="add: expected signature (default: the file's verdict; 'ok' for a "
                                       "regression case)")
    p.add_argument("--status", default=None, help="add: initial status (NEW; FIXED for regression cases)")
    p.add_argument("--workers", type=int, default=1, help="check/add: oracle worker processes")
    p.add_argument("--dry-run", action="store_true", help="check: do not update the manifest")
    p.set_defaults(handler=corpus)


def _open(path: str):
    from fuzz.corpus import Corpus, CorpusError

    try:
        return Corpus(path)
    except CorpusError as exc:
        raise UsageError(str(exc)) from None


def corpus(args) -> int:
    if args.workers < 1:
        raise UsageError("--workers must be at least 1")
    store = _open(args.dir)
    if args.action == "list":
        return _list(store, args)
    if args.action == "stats":
        return _stats(store, args)
    if args.action == "add":
        return _add(store, args)
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


def _list(store, args) -> int:
    entries = store.select(_canonical(args.target))
    for e in entries:
        last = f"  last: {e.last_signature} on {e.last_target} ({e.last_checked})" if e.last_checked else ""
        print(f"{e.status:<10} {e.file:<52} {e.target:<22} {e.signature}{last}")
    listed = {e.file for e in store.entries.values()}
    strays = [p for p in store.files() if p.relative_to(store.root).as_posix() not in listed]
    for p in strays:
        print(f"{'?':<10} {p.relative_to(store.root).as_posix():<52} (not in the manifest)")
    print(f"{len(entries)} entries in {store.root}")
    return 0


def _stats(store, args) -> int:
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


def _check(store, args) -> int:
    import oracle
    from fuzz.corpus import oracle_check

    target = _canonical(args.target)
    if target:
        from ._common import parse_targets

        parse_targets([target])  # available here?
    with oracle.Runner(workers=args.workers) as runner:
        outcomes = store.check(oracle_check(runner), target=target, update=not args.dry_run)
    for o in outcomes:
        move = o.old_status if o.old_status == o.new_status else f"{o.old_status} -> {o.new_status}"
        flag = "  (fails differently)" if o.changed else ""
        print(f"{move:<20} {o.file:<52} {o.target:<22} {o.signature}{flag}")
    if not args.dry_run:
        store.save()
    regressions = [o for o in outcomes if o.new_status == "REGRESSION"]
    print(f"{len(outcomes)} checked, {sum(o.old_status != o.new_status for o in outcomes)} changed status, "
          f"{len(regressions)} regressions", file=sys.stderr)
    return 1 if regressions else 0


def _add(store, args) -> int:
    import oracle
    from fuzz.corpus import CorpusError
    from fuzz.reduce._oracle import with_header
    from oracle import header_fields

    if not args.files:
        raise UsageError("add needs at least one FILE")
    if not args.target:
        raise UsageError("add needs --target SPEC")
    from ._common import parse_targets

    target = parse_targets([args.target])[0]
    with oracle.Runner(workers=args.workers) as runner:
        for name in args.files:
            try:
                source = open(name).read()
            except OSError as exc:
                raise UsageError(f"cannot read {name}: {exc.strerror}") from None
            signature = args.signature
            if signature is None:
                report = runner.check(source, [target])
                if report.flaky:
                    raise UsageError(f"{name} is flaky under eager; not added")
                signature = report.verdicts[target].signature
            status = args.status or ("FIXED" if signature == "ok" else "NEW")
            base = Path(name).name
            keep = None if (store.root / base).exists() or base in store.entries else base
            note = header_fields(source).get("found-by", "")
            try:
                entry, added = store.add(with_header(source, target, signature), target, signature, status=status,
                                         name=keep, note=note)
            except CorpusError as exc:
                raise UsageError(str(exc)) from None
            print(f"{'added' if added else 'already there as'} {entry.file}: {entry.status} {signature} on {target}")
    store.save()
    return 0
