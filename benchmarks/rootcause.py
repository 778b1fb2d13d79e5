"""Root-cause grouping measured on hand-labeled findings: buckets per root cause and wrong merges.

    python benchmarks/rootcause.py [benchmarks/data/labels.json] [--all]

Each labeled finding is a program file with its signature in the header and a hand-given label (the bug it
shows). A rule maps a finding to a root-cause key; a finding without one (an unreduced mismatch) counts alone.
Printed per rule: buckets per root cause (distinct keys per label, goal <= 1.3), and every key shared by findings
of different labels (a wrong merge, goal 0). Rules: ``old`` (crash: exception + compiler frame; mismatch: the
symptom plus the shape key of the reduced repro, identifiers and constants abstracted) and ``new``
(fuzz.triage.rootcause: a crash raised in compiler code as before; a mismatch, a hang and a crash the program
raised itself through a pass-through frame such as compile_wrapper: the behaviour shape of the reduced repro,
whatever the symptom).
Figures, never assertions.
"""

from __future__ import annotations

import collections
import json
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from fuzz.corpus.manifest import shape_key  # noqa: E402
from fuzz.triage.rootcause import behaviour_shape, root_cause  # noqa: E402
from oracle import header_fields  # noqa: E402


def old_rule(signature: str, source: str, reduced: bool) -> str | None:
    kind, _, rest = signature.partition(":")
    rest = rest.removeprefix("second_call:")
    if kind in ("crash", "hang"):
        return f"{kind}:{rest}"
    return f"{kind}:{rest}|{shape_key(source)}" if reduced else None


def new_rule(signature: str, source: str, reduced: bool) -> str | None:
    return root_cause(signature, behaviour_shape(source) if reduced else None)


RULES = {"old": old_rule, "new": new_rule}


def measure(findings: list[dict], rule) -> tuple[float, dict, list]:
    keys_by_label: dict[str, set] = collections.defaultdict(set)
    labels_by_key: dict[str, set] = collections.defaultdict(set)
    for i, f in enumerate(findings):
        source = (ROOT / f["file"]).read_text()
        signature = header_fields(source)["signature"]
        key = rule(signature, source, f["reduced"]) or f"alone#{i}"
        keys_by_label[f["root_cause"]].add(key)
        labels_by_key[key].add(f["root_cause"])
    per_label = {label: len(keys) for label, keys in sorted(keys_by_label.items())}
    wrong = [(key, sorted(labels)) for key, labels in labels_by_key.items() if len(labels) > 1]
    return sum(per_label.values()) / len(per_label), per_label, wrong


def main(argv: list[str]) -> int:
    every = "--all" in argv
    argv = [a for a in argv if a != "--all"]
    path = Path(argv[0]) if argv else ROOT / "benchmarks" / "data" / "labels.json"
    # the root-cause set: reduced corpus repros and labeled campaign findings (data/rootcause/); --all adds the
    # unreduced saved findings that benchmarks/findings.py reduces (data/findings/)
    findings = [f for f in json.loads(path.read_text())["findings"]
                if every or not f["file"].startswith("benchmarks/data/findings/")]
    labels = collections.Counter(f["root_cause"] for f in findings)
    print(f"{len(findings)} labeled findings, {len(labels)} root causes, "
          f"{sum(f['reduced'] for f in findings)} reduced")
    for name, rule in RULES.items():
        mean, per_label, wrong = measure(findings, rule)
        print(f"\nrule {name}: {mean:.2f} buckets per root cause, {len(wrong)} wrong merges")
        for label, n in per_label.items():
            print(f"  {n} bucket(s)  {label} ({labels[label]} findings)")
        for key, merged in wrong:
            print(f"  WRONG MERGE {key}: {', '.join(merged)}")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
