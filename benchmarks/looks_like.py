"""How well ``looks like`` (fuzz/triage/nearest.py) points a known bug's new form at its corpus entry.

Each variant of the corpus (an entry with ``same_as``: a form of a bug that reduced to a shape of its own, which a
person then triaged as that bug) is left out in turn and ranked against every other entry, as a campaign's NEW
bucket would be. Prints, per variant, the rank of its own bug (its parent, or another variant of it) and the
entry ranked first, then how many had their bug first and within the three shown. Campaign repros triaged by hand
can be added as ``FILE=ENTRY`` (the entry it was found to be).

    python benchmarks/looks_like.py [--corpus corpus] [FILE=ENTRY ...]
"""

from __future__ import annotations

import argparse
from pathlib import Path


def main() -> None:
    from fuzz.corpus.manifest import Corpus
    from fuzz.triage.nearest import LOOKS_LIKE_MIN, Profiles
    from oracle import read_program_text

    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--corpus", default="corpus")
    parser.add_argument("labeled", nargs="*", metavar="FILE=ENTRY")
    args = parser.parse_args()
    corpus = Corpus(args.corpus)
    entries = [e for e in corpus.select() if e.signature != "ok" and not e.target.startswith("fault")
               and (corpus.root / e.file).is_file()]
    bug = {e.file: e.same_as or e.file for e in entries}
    sources = {e.file: read_program_text(corpus.root / e.file) for e in entries}
    cases = [(e.file, sources[e.file], bug[e.file]) for e in entries if e.same_as]
    for item in args.labeled:
        file, _, entry = item.partition("=")
        cases.append((Path(file).name, read_program_text(file), bug.get(entry, entry)))
    first = shown = 0
    for name, source, own in cases:
        profiles = Profiles({f: s for f, s in sources.items() if f != name}, bug_of=bug.__getitem__)
        ranked: list[tuple[str, float]] = []
        for file, score in profiles.looks_like(source, top=len(sources), least=0.0):
            if bug[file] not in {b for b, _ in ranked}:
                ranked.append((bug[file], score))
        rank = next((i + 1 for i, (b, _) in enumerate(ranked) if b == own), None)
        first += rank == 1
        shown += rank is not None and rank <= 3 and ranked[rank - 1][1] >= LOOKS_LIKE_MIN
        top = f"{ranked[0][0][:48]} ({ranked[0][1]:.2f})" if ranked else "nothing"
        print(f"  {rank or '-':>3}  {name[:64]:<64}  first: {top}")
    print(f"{len(cases)} forms of known bugs: own bug ranked first {first}, among the three shown (similarity >= "
          f"{LOOKS_LIKE_MIN}) {shown}")


if __name__ == "__main__":
    main()
