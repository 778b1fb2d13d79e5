"""How the trigger rule (fuzz/triage/trigger.py) names known bugs' new forms KNOWN?, and how often it would
name a new bug so.

Each corpus repro whose signature does not pin its bug (mismatches, crashes through a pass-through frame,
hangs) is left out in turn and asked ``like`` against the rest, on its own target, as a campaign asks a NEW
bucket reduced to a fixpoint:
- a variant (a form of a bug that reduced to a shape of its own) leaves only itself out: its bug should be named
  ("right"), not nothing ("none") nor only other bugs ("wrong");
- a bug's entry leaves its whole bug out (entry and variants), as a bug never seen: anything named is a new bug
  that a campaign would have shown as KNOWN? ("falsely like").
Prints a row per repro, then the counts and the checks run. Needs the pinned torch (each repro runs many times).

    python benchmarks/known_forms.py [--corpus corpus] [--workers 2] [--python PATH]

``--python``: run every repro under another torch installation's interpreter (``python=`` on each target); a
repro whose bug does not show there is not asked ("not here").
"""

from __future__ import annotations

import argparse
import time


def main() -> None:
    from fuzz.triage.known import KnownBugs
    from fuzz.triage.rootcause import pins_bug
    from fuzz.triage.trigger import Triggers, finding_kind
    from oracle import Runner

    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--corpus", default="corpus")
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--python", help="another torch installation's interpreter")
    args = parser.parse_args()
    from fuzz.corpus.manifest import Corpus

    where = f"python={args.python}" if args.python else ""
    targets = {e.file: e.target + (("," if ":" in e.target else ":") + where if where else "")
               for e in Corpus(args.corpus).select()}
    forms = KnownBugs.from_corpus(args.corpus).forms
    checks = 0
    started = time.monotonic()
    with Runner(workers=args.workers, timeout=60) as runner:
        def check(source: str, spec: str) -> str:
            nonlocal checks
            checks += 1
            return next(iter(runner.check(source, [spec]).verdicts.values())).signature

        rule = Triggers(forms, check)
        print(f"{len(forms)} repros of {len({f.bug for f in forms})} bugs; calls left out as common: "
              f"{', '.join(sorted(rule.common)) or '-'}\n")
        counts = {"right": 0, "none": 0, "wrong": 0, "falsely like": 0, "unlike": 0, "not here": 0}
        for form in forms:
            if pins_bug(form.signature):
                continue  # named by its exception and frame: the rule is not asked
            if finding_kind(check(form.source, targets[form.file])) != finding_kind(form.signature):
                counts["not here"] += 1  # its bug does not show on this torch (fixed, or not yet there)
                print(f"{'not here':13} {form.file[:72]}", flush=True)
                continue
            variant = form.bug != form.file
            leave = (lambda f, me=form: f.file == me.file) if variant else (lambda f, me=form: f.bug == me.bug)
            like, trigger = rule.like(form.source, form.signature, targets[form.file], leave_out=leave)
            if variant:
                outcome = "right" if form.bug in like else "wrong" if like else "none"
            else:
                outcome = "falsely like" if like else "unlike"
            counts[outcome] += 1
            print(f"{outcome:13} {form.file[:72]:72} {','.join(trigger) or '-':28} {' '.join(like)[:60]}",
                  flush=True)
    variants = counts["right"] + counts["none"] + counts["wrong"]
    bugs = counts["falsely like"] + counts["unlike"]
    print(f"\nvariants: {counts['right']}/{variants} named with their bug, {counts['none']} with none, "
          f"{counts['wrong']} with another only")
    print(f"bugs left out whole: {counts['falsely like']}/{bugs} would have been KNOWN? (like another bug)")
    print(f"not showing on this torch (not asked): {counts['not here']}")
    print(f"{checks} checks in {time.monotonic() - started:.0f}s")


if __name__ == "__main__":
    main()
