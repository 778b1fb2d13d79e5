"""How the trigger rule (fuzz/triage/trigger.py) names known bugs' new forms KNOWN?, and how often it would
name a new bug so.

Each corpus repro whose signature does not pin its bug (mismatches, crashes through a pass-through frame,
hangs) is left out in turn and asked ``like`` against the rest, on its own target, as a campaign asks a NEW
bucket reduced to a fixpoint:
- a variant (a form of a bug that reduced to a shape of its own) leaves only itself out: its bug should be named
  ("right"), not nothing ("none") nor only other bugs ("wrong");
- a bug's entry leaves its whole bug out (entry and variants), as a bug never seen: anything named is a new bug
  that a campaign would have shown as KNOWN? ("falsely like").
Prints a row per repro, then the counts and the checks run, for the rule and for the rule before it (the need of
nested graph breaks compared whether or not the target took a break), which ask the same checks. Needs the
pinned torch (each repro runs many times).

    python benchmarks/known_forms.py [--corpus corpus] [--workers 2] [--python PATH]

``--python``: run every repro under another torch installation's interpreter (``python=`` on each target); a
repro whose bug does not show there is not asked ("not here").
"""

from __future__ import annotations

import argparse
import collections
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
    started = time.monotonic()
    with Runner(workers=args.workers, timeout=60) as plain:
        runner = _Memo(plain)  # the rule and the rule before it ask the same checks: each is run once
        rule = Triggers.on_runner(forms, runner)
        before = Triggers(forms, rule._check)  # every need of nested graph breaks compared, breaks taken or not
        print(f"{len(forms)} repros of {len({f.bug for f in forms})} bugs; calls left out as common: "
              f"{', '.join(sorted(rule.common)) or '-'}\n")
        counts = {name: collections.Counter() for name in ("rule", "before")}
        for form in forms:
            if pins_bug(form.signature):
                continue  # named by its exception and frame: the rule is not asked
            if finding_kind(rule._check(form.source, targets[form.file])) != finding_kind(form.signature):
                counts["rule"]["not here"] += 1  # its bug does not show on this torch (fixed, or not yet there)
                print(f"{'not here':13} {form.file[:72]}", flush=True)
                continue
            variant = form.bug != form.file
            leave = (lambda f, me=form: f.file == me.file) if variant else (lambda f, me=form: f.bug == me.bug)
            row = []
            for name, asked in (("rule", rule), ("before", before)):
                like, trigger = asked.like(form.source, form.signature, targets[form.file], leave_out=leave)
                if variant:
                    outcome = "right" if form.bug in like else "wrong" if like else "none"
                else:
                    outcome = "falsely like" if like else "unlike"
                counts[name][outcome] += 1
                row.append((outcome, trigger, like))
            (outcome, trigger, like), (was, _, _) = row
            changed = "" if was == outcome else f" (before: {was})"
            print(f"{outcome + changed:13} {form.file[:72]:72} {','.join(trigger) or '-':28} {' '.join(like)[:60]}",
                  flush=True)
    for name, said in (("rule", "the rule"), ("before", "the rule before (NGB need compared even without breaks)")):
        c = counts[name]
        variants, bugs = c["right"] + c["none"] + c["wrong"], c["falsely like"] + c["unlike"]
        print(f"\n{said}: variants: {c['right']}/{variants} named with their bug, {c['none']} with none, "
              f"{c['wrong']} with another only; bugs left out whole: {c['falsely like']}/{bugs} would have been "
              f"KNOWN? (like another bug)")
    print(f"not showing on this torch (not asked): {counts['rule']['not here']}")
    print(f"{runner.runs} checks in {time.monotonic() - started:.0f}s")


class _Memo:
    """A runner whose ``check`` of one program on one target runs once."""

    def __init__(self, runner):
        self._runner, self._reports, self.runs = runner, {}, 0

    def check(self, source: str, specs: list[str]):
        key = (source, tuple(specs))
        if key not in self._reports:
            self.runs += 1
            self._reports[key] = self._runner.check(source, specs)
        return self._reports[key]


if __name__ == "__main__":
    main()
